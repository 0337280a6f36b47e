// The what-if of a comparison's b side (issue 16), declared once: the query of GET /api/compare, the web's
// `?whatif=…` (the same keys, URL-encoded as one parameter) and the CLI's flags. The pruning keys are the
// replay's (prune-params.ts); bootstrap caps and cache retention are the truncation and cost what-ifs'.

import type { CompareWhatIfDTO } from "./compare.ts";
import type { CounterfactualDTO } from "./cost.ts";
import { lastValue, PRUNE_PARAM_KEYS } from "./prune-params.ts";

export const COMPARE_WHATIF_KEYS = [
  ...PRUNE_PARAM_KEYS.filter((k) => k !== "at"),
  "maxPerFile",
  "maxTotal",
  "retention",
] as const;
export type CompareWhatIfKey = (typeof COMPARE_WHATIF_KEYS)[number];
const KEY_SET: ReadonlySet<string> = new Set(COMPARE_WHATIF_KEYS);
export const isCompareWhatIfKey = (k: string): k is CompareWhatIfKey => KEY_SET.has(k);
export type CompareWhatIfQuery = Partial<Record<CompareWhatIfKey, string | string[]>>;

function positiveInt(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The what-if a query asks for, or null when it asks for none (b as run). */
export function parseCompareWhatIf(q: CompareWhatIfQuery): CompareWhatIfDTO | null {
  const prune: Record<string, string | string[]> = {};
  for (const k of PRUNE_PARAM_KEYS) {
    if (k === "at") continue;
    const v = q[k];
    if (v === undefined || (Array.isArray(v) ? v.length === 0 : v === "")) continue;
    prune[k] = v;
  }
  const r = lastValue(q.retention);
  const retention = r === "none" || r === "short" || r === "long" ? r : null;
  const w: CompareWhatIfDTO = {
    prune,
    maxPerFile: positiveInt(lastValue(q.maxPerFile)),
    maxTotal: positiveInt(lastValue(q.maxTotal)),
    retention,
  };
  const none =
    Object.keys(prune).length === 0 && w.maxPerFile === null && w.maxTotal === null && retention === null;
  return none ? null : w;
}

/** `?whatif=` of the web (the what-if query as one URL-encoded string) as the route's query. */
export function whatIfQueryOf(v: string | null): Partial<Record<CompareWhatIfKey, string[]>> {
  const out: Partial<Record<CompareWhatIfKey, string[]>> = {};
  for (const [k, val] of new URLSearchParams(v ?? "")) {
    if (!isCompareWhatIfKey(k)) continue;
    const list = out[k] ?? [];
    list.push(val);
    out[k] = list;
  }
  return out;
}

/**
 * The cost report's counterfactuals that are a compare what-if — the same change, priced by the cost model: the
 * compare report takes b's cost from them, the cost tab's "What if…" rows open the comparison with them.
 */
export const COUNTERFACTUAL_WHATIFS: Readonly<
  Partial<Record<CounterfactualDTO["id"], Partial<Record<CompareWhatIfKey, string>>>>
> = {
  "no-caching": { retention: "none" },
  "retention-1h": { retention: "long" },
  "pruning-off": { mode: "off" },
  "pruning-on": { mode: "cache-ttl" },
};
