// The what-if parameter set of the pruning replay, declared once: the query of GET …/prune (and …/prune/call,
// …/prune/preview), the web's URL state (the same names) and the CLI's flags (server/cli/options.ts names each
// flag). parsePruneQuery is the one parser; unknown, empty or malformed values are ignored (= as configured).

import { PRUNE_ALGORITHMS, type PruneAlgorithm, type PruneOverrides } from "./prune.ts";

/** The numeric overrides: query key = PruneOverrides field. */
const NUMERIC_KEYS = [
  "keepLastAssistants",
  "softTrimRatio",
  "hardClearRatio",
  "minPrunableToolChars",
  "softTrimMaxChars",
  "softTrimHeadChars",
  "softTrimTailChars",
  "contextWindow",
] as const satisfies readonly (keyof PruneOverrides)[];

export const PRUNE_PARAM_KEYS = [
  "ttl",
  "mode",
  ...NUMERIC_KEYS,
  "hardClear",
  "placeholder",
  "allow",
  "deny",
  "algorithm",
  "at",
] as const;
export type PruneParamKey = (typeof PRUNE_PARAM_KEYS)[number];

/** The what-if as URL strings (absent = as configured): the web's URL state. */
export type PruneParams = Partial<Record<PruneParamKey, string>>;

/** The what-if as a query arrives: a key may repeat (`allow=a&allow=b`); the last value of a scalar wins. */
export type PruneQuery = Partial<Record<PruneParamKey, string | string[]>>;

export interface PruneRequest {
  overrides: PruneOverrides;
  /** Replay as of this time (ms), for the "what happens at the next call" view. */
  at: number | undefined;
}

/** What-if glob limits: longer globs are ignored (like any malformed value), globs past the count dropped. */
export const MAX_GLOB_CHARS = 256;
export const MAX_GLOBS = 64;

const values = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** The last value of a key; empty = absent. */
export function lastValue(v: string | string[] | undefined): string | undefined {
  const all = values(v);
  const last = all[all.length - 1];
  return last === undefined || last === "" ? undefined : last;
}

function finite(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function isAlgorithm(v: string | undefined): v is "auto" | PruneAlgorithm {
  return v === "auto" || PRUNE_ALGORITHMS.some((a) => a === v);
}

/** `at`: epoch ms or an ISO time. */
function parseAt(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

export function parsePruneQuery(q: PruneQuery): PruneRequest {
  const o: PruneOverrides = {};
  const algorithm = lastValue(q.algorithm);
  if (isAlgorithm(algorithm)) o.algorithm = algorithm;
  const ttl = lastValue(q.ttl);
  if (ttl !== undefined) o.ttl = ttl;
  const mode = lastValue(q.mode);
  if (mode === "off" || mode === "cache-ttl") o.mode = mode;
  for (const key of NUMERIC_KEYS) {
    const n = finite(lastValue(q[key]));
    if (n !== undefined) o[key] = n;
  }
  const hardClear = lastValue(q.hardClear);
  if (hardClear === "on" || hardClear === "true") o.hardClear = true;
  if (hardClear === "off" || hardClear === "false") o.hardClear = false;
  const placeholder = lastValue(q.placeholder);
  if (placeholder !== undefined) o.placeholder = placeholder;
  // Globs: repeated keys and comma lists both work (`allow=a,b&allow=c`). A request is not a config: its globs are
  // capped in length and number (issue 20; the matcher is linear anyway).
  for (const key of ["allow", "deny"] as const) {
    const globs = values(q[key])
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter((s) => s !== "" && s.length <= MAX_GLOB_CHARS)
      .slice(0, MAX_GLOBS);
    if (globs.length > 0) o[key] = globs;
  }
  return { overrides: o, at: parseAt(lastValue(q.at)) };
}
