// contextPruning settings per OpenClaw generation (spec pruning.md §1.1, §2.1; cache-and-cost.md §7).
// Only `agents.defaults.contextPruning` is read. ≤2026.7.x has configurable knobs; from 2026.8.1 on only
// mode / ttl / tools / hardClear — the thresholds are fixed at the old defaults (8.1's
// `resolveCacheTtlPruningSettings`; its strict config schema no longer has the knobs and the doctor strips them).
// Pure: config JSON in, settings out; never throws (bad values fall back to defaults with a warning).
// The settings are built in steps — mode and ttl, the knobs, hard-clear, tools, then the what-if overrides —
// each filling the same object and recording where each value came from.

import { isObject, type JsonObject } from "../../../shared/json.ts";
import type {
  PruneAlgorithm,
  PruneOverrides,
  PruneSettingsDTO,
  SettingSource,
} from "../../../shared/prune.ts";
import { contextPruningBlock, DEFAULT_PRUNING_TTL_MS } from "../config/agent-settings.ts";
import { parseDurationMs } from "../duration.ts";

/** OpenClaw's hard-clear placeholder (CACHE_TTL_DEFAULT_PLACEHOLDER, pruning.md §1.1): the one copy of the literal. */
export const DEFAULT_PLACEHOLDER = "[Old tool result content cleared]";
/** Built-in values (≤7.1 defaults = 9.x constants), pruning.md §1.1 / §2.1. */
export const PRUNE_DEFAULTS = {
  keepLastAssistants: 3,
  softTrimRatio: 0.3,
  hardClearRatio: 0.5,
  minPrunableToolChars: 50_000,
  softTrim: { maxChars: 4000, headChars: 1500, tailChars: 1500 },
} as const;
/** The Anthropic plugin's smart default ttl when mode/ttl are unset (cache-and-cost.md §7). */
export const SMART_DEFAULT_TTL_MS = 60 * 60_000;

const KNOBS = [
  "keepLastAssistants",
  "softTrimRatio",
  "hardClearRatio",
  "minPrunableToolChars",
  "softTrim.maxChars",
  "softTrim.headChars",
  "softTrim.tailChars",
] as const;
type Knob = (typeof KNOBS)[number];

function finite(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === "string");
}

const count = (n: number): number => Math.max(0, Math.floor(n));
const ratio = (n: number): number => Math.min(1, Math.max(0, n));

/** Set a knob to `n` (clamped as OpenClaw does: counts floored at 0, ratios in [0, 1]). */
function setKnob(s: PruneSettingsDTO, knob: Knob, n: number): void {
  if (knob === "keepLastAssistants") s.keepLastAssistants = count(n);
  else if (knob === "softTrimRatio") s.softTrimRatio = ratio(n);
  else if (knob === "hardClearRatio") s.hardClearRatio = ratio(n);
  else if (knob === "minPrunableToolChars") s.minPrunableToolChars = count(n);
  else if (knob === "softTrim.maxChars") s.softTrim.maxChars = count(n);
  else if (knob === "softTrim.headChars") s.softTrim.headChars = count(n);
  else s.softTrim.tailChars = count(n);
}

/** 2026.8.1 on: the thresholds are constants (generation.ts). */
function fixedThresholds(algorithm: PruneAlgorithm): boolean {
  return algorithm === "2026.8" || algorithm === "2026.9";
}

/** The built-ins (sources "default" — 2026.8.1+ knobs "fixed" —, filled in by the steps below). */
function builtIns(algorithm: PruneAlgorithm): PruneSettingsDTO {
  const knobSource: SettingSource = fixedThresholds(algorithm) ? "fixed" : "default";
  const sources: Record<string, SettingSource> = { mode: "default", ttl: "default" };
  for (const k of KNOBS) sources[k] = knobSource;
  return {
    mode: "off",
    ttlMs: DEFAULT_PRUNING_TTL_MS,
    ttlRaw: null,
    keepLastAssistants: PRUNE_DEFAULTS.keepLastAssistants,
    softTrimRatio: PRUNE_DEFAULTS.softTrimRatio,
    hardClearRatio: PRUNE_DEFAULTS.hardClearRatio,
    minPrunableToolChars: PRUNE_DEFAULTS.minPrunableToolChars,
    softTrim: { ...PRUNE_DEFAULTS.softTrim },
    hardClear: { enabled: true, placeholder: DEFAULT_PLACEHOLDER },
    tools: { allow: [], deny: [] },
    sources,
    warnings: [],
  };
}

/**
 * mode and ttl from the config, else the Anthropic plugin's smart defaults. OpenClaw's
 * `applyAnthropicConfigDefaults` (dist 2026.3.2 `daemon-cli.js`, 2026.7.1, 2026.9.6 `config-defaults-*.mjs`)
 * fills them only when `contextPruning.mode` is unset — `{ mode: "cache-ttl", ttl: ttl ?? "1h" }` —, so a
 * manual `mode: "cache-ttl"` without a ttl keeps the built-in 5m (cache-and-cost.md §7).
 */
function modeAndTtl(s: PruneSettingsDTO, cp: JsonObject | null, anthropic: boolean): void {
  const modeRaw = cp?.mode;
  const smart = anthropic && modeRaw === undefined;
  if (typeof modeRaw === "string") {
    s.mode = modeRaw === "cache-ttl" ? "cache-ttl" : "off";
    s.sources.mode = "config";
  } else if (smart) {
    s.mode = "cache-ttl";
    s.sources.mode = "smart-default";
  }
  const ttlCfg = cp?.ttl;
  if (typeof ttlCfg === "string") {
    const parsed = parseDurationMs(ttlCfg, "m");
    if (parsed === null)
      s.warnings.push(`contextPruning.ttl "${ttlCfg}" is not a duration; the default 5m applies`);
    else {
      s.ttlMs = parsed;
      s.ttlRaw = ttlCfg;
      s.sources.ttl = "config";
    }
  } else if (ttlCfg !== undefined) {
    s.warnings.push("contextPruning.ttl is not a string; the default 5m applies");
  } else if (smart) {
    // The bundled Anthropic plugin seeds ttl 1h together with the mode it seeds. Other providers: 5m.
    s.ttlMs = SMART_DEFAULT_TTL_MS;
    s.ttlRaw = "1h";
    s.sources.ttl = "smart-default";
  }
}

/** ≤ 2026.7.x: the configurable thresholds; 2026.8.1+: a warning for each knob it no longer has. */
function knobs(s: PruneSettingsDTO, cp: JsonObject, algorithm: PruneAlgorithm): void {
  if (fixedThresholds(algorithm)) {
    for (const k of [
      "keepLastAssistants",
      "softTrimRatio",
      "hardClearRatio",
      "minPrunableToolChars",
      "softTrim",
    ]) {
      if (cp[k] !== undefined)
        s.warnings.push(
          `contextPruning.${k} no longer exists from 2026.8.1 on (the config schema rejects it); the built-in value applies`,
        );
    }
    return;
  }
  const st = isObject(cp.softTrim) ? cp.softTrim : undefined;
  const configured: Record<Knob, unknown> = {
    keepLastAssistants: cp.keepLastAssistants,
    softTrimRatio: cp.softTrimRatio,
    hardClearRatio: cp.hardClearRatio,
    minPrunableToolChars: cp.minPrunableToolChars,
    "softTrim.maxChars": st?.maxChars,
    "softTrim.headChars": st?.headChars,
    "softTrim.tailChars": st?.tailChars,
  };
  for (const k of KNOBS) {
    const v = finite(configured[k]);
    if (v === undefined) continue;
    setKnob(s, k, v);
    s.sources[k] = "config";
  }
}

/** hardClear.enabled / placeholder and tools.allow / deny from the config. */
function hardClearAndTools(s: PruneSettingsDTO, cp: JsonObject | null): void {
  s.sources["hardClear.enabled"] = "default";
  s.sources["hardClear.placeholder"] = "default";
  const hc = cp?.hardClear;
  if (isObject(hc)) {
    if (typeof hc.enabled === "boolean") {
      s.hardClear.enabled = hc.enabled;
      s.sources["hardClear.enabled"] = "config";
    }
    if (typeof hc.placeholder === "string" && hc.placeholder.trim()) {
      s.hardClear.placeholder = hc.placeholder.trim();
      s.sources["hardClear.placeholder"] = "config";
    }
  }
  s.sources["tools.allow"] = "default";
  s.sources["tools.deny"] = "default";
  const tools = cp?.tools;
  if (!isObject(tools)) return;
  const allow = stringList(tools.allow);
  if (allow) {
    s.tools.allow = allow;
    s.sources["tools.allow"] = "config";
  }
  const deny = stringList(tools.deny);
  if (deny) {
    s.tools.deny = deny;
    s.sources["tools.deny"] = "config";
  }
}

const OVERRIDE_KNOBS: readonly [keyof PruneOverrides, Knob][] = [
  ["keepLastAssistants", "keepLastAssistants"],
  ["softTrimRatio", "softTrimRatio"],
  ["hardClearRatio", "hardClearRatio"],
  ["minPrunableToolChars", "minPrunableToolChars"],
  ["softTrimMaxChars", "softTrim.maxChars"],
  ["softTrimHeadChars", "softTrim.headChars"],
  ["softTrimTailChars", "softTrim.tailChars"],
];

/** What-if overrides (CLI flags / UI knobs) win over everything, in every generation. */
function applyOverrides(s: PruneSettingsDTO, o: PruneOverrides): void {
  if (o.mode !== undefined) {
    s.mode = o.mode;
    s.sources.mode = "override";
  }
  if (o.ttl !== undefined) {
    const parsed = parseDurationMs(o.ttl, "m");
    if (parsed === null) s.warnings.push(`override ttl "${o.ttl}" is not a duration; ignored`);
    else {
      s.ttlMs = parsed;
      s.ttlRaw = o.ttl;
      s.sources.ttl = "override";
    }
  }
  for (const [key, knob] of OVERRIDE_KNOBS) {
    const v = o[key];
    if (typeof v !== "number") continue;
    if (!Number.isFinite(v)) {
      s.warnings.push(`override ${knob} is not a finite number; ignored`);
      continue;
    }
    setKnob(s, knob, v);
    s.sources[knob] = "override";
  }
  if (o.hardClear !== undefined) {
    s.hardClear.enabled = o.hardClear;
    s.sources["hardClear.enabled"] = "override";
  }
  if (o.placeholder?.trim()) {
    s.hardClear.placeholder = o.placeholder.trim();
    s.sources["hardClear.placeholder"] = "override";
  }
  if (o.allow !== undefined) {
    s.tools.allow = [...o.allow];
    s.sources["tools.allow"] = "override";
  }
  if (o.deny !== undefined) {
    s.tools.deny = [...o.deny];
    s.sources["tools.deny"] = "override";
  }
}

export interface ResolveSettingsInput {
  config: JsonObject | null;
  algorithm: PruneAlgorithm;
  overrides?: PruneOverrides;
  /**
   * True when the session's provider is Anthropic, so the bundled plugin's smart defaults
   * (mode cache-ttl, ttl 1h) fill fields the user left unset (cache-and-cost.md §7).
   */
  anthropicSmartDefaults?: boolean;
}

/** Effective settings for a replay: config (per generation) → smart defaults → built-ins, then overrides. */
export function resolvePruneSettings(input: ResolveSettingsInput): PruneSettingsDTO {
  const cp = contextPruningBlock(input.config);
  const s = builtIns(input.algorithm);
  modeAndTtl(s, cp, input.anthropicSmartDefaults === true);
  if (cp) knobs(s, cp, input.algorithm);
  hardClearAndTools(s, cp);
  applyOverrides(s, input.overrides ?? {});
  return s;
}
