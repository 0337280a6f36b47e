// What a pruning replay derives from the whole session before the first entry (pruning.md §5.1): the rule
// generation, the provider/model of the last call, the effective settings, the context window, eligibility,
// and the pruner's settings with their per-run caches. Constant for the life of a ReplayRun.

import type { JsonObject } from "../../../shared/json.ts";
import { str } from "../../../shared/json.ts";
import type { PruneAlgorithm, PruneOverrides, PruneSettingsDTO } from "../../../shared/prune.ts";
import { modelCallsOf } from "../../model/model-calls.ts";
import type { LoadedSession } from "../../model/session.ts";
import { type EstimateFlavor, weightedChars } from "../../openclaw/estimate.ts";
import { type ContextWindow, resolveContextWindow } from "../../openclaw/pruning/context-window.ts";
import { type Eligibility, resolveEligibility } from "../../openclaw/pruning/eligibility.ts";
import { estimateFlavorOf, isSticky, pruningGeneration } from "../../openclaw/pruning/generation.ts";
import type { PrunerSettings } from "../../openclaw/pruning/pruner-input.ts";
import { resolvePruneSettings } from "../../openclaw/pruning/settings.ts";
import { softTrimNote, softTrimRulesOf, softTrimText } from "../../openclaw/pruning/soft-trim.ts";
import { makeToolPredicate } from "../../openclaw/pruning/tool-glob.ts";
import type { ToolResultInfo } from "./prepared.ts";

export interface ReplayInput {
  session: LoadedSession;
  /** Parsed openclaw.json (JSON5), or null when unknown. */
  config: JsonObject | null;
  overrides?: PruneOverrides;
  /** Time (ms) for the `next` prediction; default: the newest entry's time. */
  at?: number;
  sha256Base64Url: (s: string) => string;
  /**
   * 2026.9.x: restore projections from the persisted `openclaw.cache-ttl` snapshot at every attempt
   * start, as OpenClaw does. Default: true without overrides (faithful replay), false with overrides
   * (a what-if run replays from scratch).
   */
  useSnapshots?: boolean;
}

interface AlgorithmChoice {
  algorithm: PruneAlgorithm;
  /** generation.ts openaiHook. */
  openaiHook: boolean;
  /** A successful request refreshes the TTL clock (generation.ts: 2026.9.3+). */
  refreshOnSuccess: boolean;
  source: "auto" | "override";
  reason: string;
}

function algorithmFor(session: LoadedSession, overrides: PruneOverrides | undefined): AlgorithmChoice {
  const o = overrides?.algorithm;
  if (o && o !== "auto") {
    // a forced algorithm runs as the newest release that has it
    const refreshOnSuccess = o === "2026.9";
    const openaiHook = o === "2026.9";
    return {
      algorithm: o,
      refreshOnSuccess,
      openaiHook,
      source: "override",
      reason: `algorithm forced to ${o}`,
    };
  }
  const g = pruningGeneration(session.version);
  const why = `from the session's OpenClaw version: ${session.version.reason}`;
  return {
    algorithm: g.algorithm,
    refreshOnSuccess: g.refreshOnSuccess,
    openaiHook: g.openaiHook,
    source: "auto",
    reason: g.note ? `${why}; ${g.note}` : why,
  };
}

function hasEffectiveOverrides(o: PruneOverrides | undefined): boolean {
  if (!o) return false;
  return Object.entries(o).some(([k, v]) => v !== undefined && !(k === "algorithm" && v === "auto"));
}

interface SessionModel {
  provider: string | null;
  modelId: string | null;
  api: string | null;
}

/** Provider/model/api of the last model call on the active branch, else the SessionEntry's. */
function lastCallModel(session: LoadedSession): SessionModel {
  const provider: string | null = str(session.entry, "modelProvider") ?? session.summary.provider;
  const modelId: string | null = str(session.entry, "model") ?? session.summary.model;
  const last = modelCallsOf(session.transcript).lastOnActiveBranch();
  if (!last) return { provider, modelId, api: null };
  return { provider: last.provider ?? provider, modelId: last.model ?? modelId, api: last.api };
}

/**
 * The soft-trimmed estimate of a tool result (null = a trim leaves it unchanged), without building the
 * trimmed text for ASCII results: head + `…` + tail + the trim note is exactly that long then (soft-trim.ts).
 */
function softTrimmedChars(
  info: ToolResultInfo,
  cfg: PruneSettingsDTO["softTrim"],
  flavor: EstimateFlavor,
): number | null {
  if (flavor === "2026.3" && info.joined.hasImage) return null;
  const n = info.joined.text.length;
  const short = n <= cfg.maxChars || cfg.headChars + cfg.tailChars >= n;
  if (short)
    return flavor !== "2026.3" && info.joined.hasImage ? weightedChars(info.joined.text, flavor) : null;
  if (info.ascii)
    return cfg.headChars + 5 + cfg.tailChars + softTrimNote(cfg.headChars, cfg.tailChars, n).length;
  const text = softTrimText(info.joined, cfg, softTrimRulesOf(flavor));
  return text === null ? null : weightedChars(text, flavor);
}

export class ReplaySetup {
  readonly algorithm: PruneAlgorithm;
  readonly algorithmChoice: AlgorithmChoice;
  readonly flavor: EstimateFlavor;
  /** 2026.9.2+ sticky projections (else each round is its own request's: ≤ 2026.9.1). */
  readonly sticky: boolean;
  /** Every successful request refreshes the TTL clock (2026.9.3+); else only a round does. */
  readonly refreshOnSuccess: boolean;
  /** Overrides given: a what-if run (no snapshot comparison). */
  readonly whatIf: boolean;
  readonly useSnapshots: boolean;
  readonly model: SessionModel;
  readonly settings: PruneSettingsDTO;
  readonly contextWindow: ContextWindow;
  readonly charWindow: number;
  readonly sessionEligibility: Eligibility;
  readonly prunerSettings: PrunerSettings;
  private readonly eligibilityCache = new Map<string, Eligibility>();
  private lastEligibility: {
    provider: string | null;
    modelId: string | null;
    api: string | null;
    e: Eligibility;
  } | null = null;
  private readonly prunableCache = new Map<string, boolean>();
  private readonly softCache = new Map<number, number | null>();
  private readonly isPrunable: (name: string) => boolean;

  /** `infoOf`: the prepared tool result of an entry (the run's current preparation). */
  constructor(
    private readonly input: ReplayInput,
    infoOf: (entryIndex: number) => ToolResultInfo | undefined,
  ) {
    const { session, config, overrides } = input;
    this.algorithmChoice = algorithmFor(session, overrides);
    this.algorithm = this.algorithmChoice.algorithm;
    this.flavor = estimateFlavorOf(this.algorithm);
    this.sticky = isSticky(this.algorithm);
    this.refreshOnSuccess = this.algorithmChoice.refreshOnSuccess;
    this.whatIf = hasEffectiveOverrides(overrides);
    this.useSnapshots = input.useSnapshots ?? !this.whatIf;
    this.model = lastCallModel(session);
    this.settings = resolvePruneSettings({
      config,
      algorithm: this.algorithm,
      ...(overrides ? { overrides } : {}),
      anthropicSmartDefaults: (this.model.provider ?? "").toLowerCase() === "anthropic",
    });
    this.contextWindow = this.windowFor(session);
    this.charWindow = this.contextWindow.tokens * 4;
    this.sessionEligibility = this.eligibilityOf(this.model.provider, this.model.modelId, this.model.api);
    this.isPrunable = makeToolPredicate(this.settings.tools.allow, this.settings.tools.deny);
    const s = this.settings;
    this.prunerSettings = {
      keepLastAssistants: s.keepLastAssistants,
      softTrimRatio: s.softTrimRatio,
      hardClearRatio: s.hardClearRatio,
      minPrunableToolChars: s.minPrunableToolChars,
      softTrim: s.softTrim,
      hardClearEnabled: s.hardClear.enabled,
      placeholder: s.hardClear.placeholder,
      isToolPrunable: (name) => this.isToolPrunable(name),
      flavor: this.flavor,
      softTrimChars: (tr) => {
        const info = infoOf(tr.entryIndex);
        return info ? this.softTrimCharsOf(info) : null;
      },
    };
  }

  private windowFor(session: LoadedSession): ContextWindow {
    const o = this.input.overrides?.contextWindow;
    if (o !== undefined && o > 0) return { tokens: Math.floor(o), source: "override" };
    const { provider, modelId } = this.model;
    const config = this.input.config;
    return resolveContextWindow({ config, provider, modelId, entry: session.entry, family: this.flavor });
  }

  /**
   * Whether a replay of `next` (which continues this session) can keep this setup: the same generation, the
   * same last-call provider/model/api (hence settings and eligibility) and the same context window.
   */
  fits(next: LoadedSession): boolean {
    const choice = algorithmFor(next, this.input.overrides);
    if (choice.algorithm !== this.algorithm || choice.refreshOnSuccess !== this.refreshOnSuccess)
      return false;
    const m = lastCallModel(next);
    if (m.provider !== this.model.provider || m.modelId !== this.model.modelId || m.api !== this.model.api)
      return false;
    const cw = this.windowFor(next);
    return cw.tokens === this.contextWindow.tokens && cw.source === this.contextWindow.source;
  }

  eligibilityOf(provider: string | null, modelId: string | null, api: string | null): Eligibility {
    // Consecutive calls are mostly to one model: the last answer without building and hashing a key.
    const last = this.lastEligibility;
    if (last && last.provider === provider && last.modelId === modelId && last.api === api) return last.e;
    const key = `${provider}\u0000${modelId}\u0000${api}`;
    let e = this.eligibilityCache.get(key);
    if (!e) {
      e = resolveEligibility({
        algorithm: this.algorithm,
        openaiHook: this.algorithmChoice.openaiHook,
        provider,
        modelId,
        api,
        config: this.input.config,
      });
      this.eligibilityCache.set(key, e);
    }
    this.lastEligibility = { provider, modelId, api, e };
    return e;
  }

  isToolPrunable(name: string): boolean {
    let v = this.prunableCache.get(name);
    if (v === undefined) {
      v = this.isPrunable(name);
      this.prunableCache.set(name, v);
    }
    return v;
  }

  softTrimCharsOf(info: ToolResultInfo): number | null {
    const hit = this.softCache.get(info.entryIndex);
    if (hit !== undefined) return hit;
    const chars = softTrimmedChars(info, this.settings.softTrim, this.flavor);
    this.softCache.set(info.entryIndex, chars);
    return chars;
  }

  placeholderChars(placeholder: string): number {
    return weightedChars(placeholder, this.flavor);
  }
}
