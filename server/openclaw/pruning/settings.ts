// contextPruning settings per OpenClaw generation (spec pruning.md §1.1, §2.1; cache-and-cost.md §7).
// Only `agents.defaults.contextPruning` is read. ≤2026.7.1 has configurable knobs; 2026.9.x only
// mode / ttl / tools / hardClear — its thresholds are fixed at the old defaults.
// Pure: config JSON in, settings out; never throws (bad values fall back to defaults with a warning).

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

function finite(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === "string");
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
  const { algorithm } = input;
  const cp = contextPruningBlock(input.config);
  const o = input.overrides ?? {};
  const sources: Record<string, SettingSource> = {};
  const warnings: string[] = [];
  const knobsConfigurable = algorithm !== "2026.9";
  const knobSource: SettingSource = knobsConfigurable ? "default" : "fixed";

  // mode
  let mode: "off" | "cache-ttl" = "off";
  sources.mode = "default";
  const modeRaw = cp?.mode;
  if (typeof modeRaw === "string") {
    mode = modeRaw === "cache-ttl" ? "cache-ttl" : "off";
    sources.mode = "config";
  } else if (input.anthropicSmartDefaults) {
    mode = "cache-ttl";
    sources.mode = "smart-default";
  }

  // ttl
  let ttlMs = DEFAULT_PRUNING_TTL_MS;
  let ttlRaw: string | null = null;
  sources.ttl = "default";
  const ttlCfg = cp?.ttl;
  if (typeof ttlCfg === "string") {
    const parsed = parseDurationMs(ttlCfg, "m");
    if (parsed === null)
      warnings.push(`contextPruning.ttl "${ttlCfg}" is not a duration; the default 5m applies`);
    else {
      ttlMs = parsed;
      ttlRaw = ttlCfg;
      sources.ttl = "config";
    }
  } else if (ttlCfg !== undefined) {
    warnings.push("contextPruning.ttl is not a string; the default 5m applies");
  } else if (input.anthropicSmartDefaults) {
    // The bundled Anthropic plugin seeds ttl 1h whenever the user left it unset (pruning.md §2.1,
    // cache-and-cost.md §7: smart defaults fill only unset fields). Other providers: 5m.
    ttlMs = SMART_DEFAULT_TTL_MS;
    ttlRaw = "1h";
    sources.ttl = "smart-default";
  }

  let keepLastAssistants: number = PRUNE_DEFAULTS.keepLastAssistants;
  let softTrimRatio: number = PRUNE_DEFAULTS.softTrimRatio;
  let hardClearRatio: number = PRUNE_DEFAULTS.hardClearRatio;
  let minPrunableToolChars: number = PRUNE_DEFAULTS.minPrunableToolChars;
  const softTrim: { maxChars: number; headChars: number; tailChars: number } = { ...PRUNE_DEFAULTS.softTrim };
  for (const k of [
    "keepLastAssistants",
    "softTrimRatio",
    "hardClearRatio",
    "minPrunableToolChars",
    "softTrim.maxChars",
    "softTrim.headChars",
    "softTrim.tailChars",
  ]) {
    sources[k] = knobSource;
  }
  if (knobsConfigurable && cp) {
    const kla = finite(cp.keepLastAssistants);
    if (kla !== undefined) {
      keepLastAssistants = Math.max(0, Math.floor(kla));
      sources.keepLastAssistants = "config";
    }
    const str = finite(cp.softTrimRatio);
    if (str !== undefined) {
      softTrimRatio = Math.min(1, Math.max(0, str));
      sources.softTrimRatio = "config";
    }
    const hcr = finite(cp.hardClearRatio);
    if (hcr !== undefined) {
      hardClearRatio = Math.min(1, Math.max(0, hcr));
      sources.hardClearRatio = "config";
    }
    const mptc = finite(cp.minPrunableToolChars);
    if (mptc !== undefined) {
      minPrunableToolChars = Math.max(0, Math.floor(mptc));
      sources.minPrunableToolChars = "config";
    }
    const st = cp.softTrim;
    if (isObject(st)) {
      for (const key of ["maxChars", "headChars", "tailChars"] as const) {
        const v = finite(st[key]);
        if (v !== undefined) {
          softTrim[key] = Math.max(0, Math.floor(v));
          sources[`softTrim.${key}`] = "config";
        }
      }
    }
  } else if (!knobsConfigurable && cp) {
    for (const k of [
      "keepLastAssistants",
      "softTrimRatio",
      "hardClearRatio",
      "minPrunableToolChars",
      "softTrim",
    ]) {
      if (cp[k] !== undefined)
        warnings.push(`contextPruning.${k} no longer exists in 2026.9.x; the built-in value applies`);
    }
  }

  // hardClear
  let hardClearEnabled = true;
  let placeholder = DEFAULT_PLACEHOLDER;
  sources["hardClear.enabled"] = "default";
  sources["hardClear.placeholder"] = "default";
  const hc = cp?.hardClear;
  if (isObject(hc)) {
    if (typeof hc.enabled === "boolean") {
      hardClearEnabled = hc.enabled;
      sources["hardClear.enabled"] = "config";
    }
    if (typeof hc.placeholder === "string" && hc.placeholder.trim()) {
      placeholder = hc.placeholder.trim();
      sources["hardClear.placeholder"] = "config";
    }
  }

  // tools
  let allow: string[] = [];
  let deny: string[] = [];
  sources["tools.allow"] = "default";
  sources["tools.deny"] = "default";
  const tools = cp?.tools;
  if (isObject(tools)) {
    const a = stringList(tools.allow);
    if (a) {
      allow = a;
      sources["tools.allow"] = "config";
    }
    const d = stringList(tools.deny);
    if (d) {
      deny = d;
      sources["tools.deny"] = "config";
    }
  }

  // what-if overrides (CLI flags / UI knobs) win over everything, in every generation.
  if (o.mode !== undefined) {
    mode = o.mode;
    sources.mode = "override";
  }
  if (o.ttl !== undefined) {
    const parsed = parseDurationMs(o.ttl, "m");
    if (parsed === null) warnings.push(`override ttl "${o.ttl}" is not a duration; ignored`);
    else {
      ttlMs = parsed;
      ttlRaw = o.ttl;
      sources.ttl = "override";
    }
  }
  const num = (v: number | undefined, key: string, apply: (n: number) => void): void => {
    if (v === undefined) return;
    if (!Number.isFinite(v)) {
      warnings.push(`override ${key} is not a finite number; ignored`);
      return;
    }
    apply(v);
    sources[key] = "override";
  };
  num(o.keepLastAssistants, "keepLastAssistants", (n) => {
    keepLastAssistants = Math.max(0, Math.floor(n));
  });
  num(o.softTrimRatio, "softTrimRatio", (n) => {
    softTrimRatio = Math.min(1, Math.max(0, n));
  });
  num(o.hardClearRatio, "hardClearRatio", (n) => {
    hardClearRatio = Math.min(1, Math.max(0, n));
  });
  num(o.minPrunableToolChars, "minPrunableToolChars", (n) => {
    minPrunableToolChars = Math.max(0, Math.floor(n));
  });
  num(o.softTrimMaxChars, "softTrim.maxChars", (n) => {
    softTrim.maxChars = Math.max(0, Math.floor(n));
  });
  num(o.softTrimHeadChars, "softTrim.headChars", (n) => {
    softTrim.headChars = Math.max(0, Math.floor(n));
  });
  num(o.softTrimTailChars, "softTrim.tailChars", (n) => {
    softTrim.tailChars = Math.max(0, Math.floor(n));
  });
  if (o.hardClear !== undefined) {
    hardClearEnabled = o.hardClear;
    sources["hardClear.enabled"] = "override";
  }
  if (o.placeholder?.trim()) {
    placeholder = o.placeholder.trim();
    sources["hardClear.placeholder"] = "override";
  }
  if (o.allow !== undefined) {
    allow = [...o.allow];
    sources["tools.allow"] = "override";
  }
  if (o.deny !== undefined) {
    deny = [...o.deny];
    sources["tools.deny"] = "override";
  }

  return {
    mode,
    ttlMs,
    ttlRaw,
    keepLastAssistants,
    softTrimRatio,
    hardClearRatio,
    minPrunableToolChars,
    softTrim,
    hardClear: { enabled: hardClearEnabled, placeholder },
    tools: { allow, deny },
    sources,
    warnings,
  };
}
