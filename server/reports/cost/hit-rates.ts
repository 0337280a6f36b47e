// Cache hit rates of usage buckets (spec cache-and-cost.md §5). Sums first, then the rate — never an average
// of per-call percentages.

import { promptTokensOf, type UsageBuckets } from "../../../shared/pricing.ts";

/** cacheRead / (input + cacheRead + cacheWrite) — the hit rate. */
export function readHitRate(b: Pick<UsageBuckets, "input" | "cacheRead" | "cacheWrite">): number | null {
  const p = promptTokensOf(b);
  return p > 0 ? b.cacheRead / p : null;
}

/**
 * Spec write-aware hit rate `(1 − r)/0.9`, `r = (input + 0.1·read + 1.25·write5m + 2·write1h) / P`
 * (cache-and-cost.md §5, Anthropic multipliers).
 */
export function writeAwareHitRate(
  b: Pick<UsageBuckets, "input" | "cacheRead" | "cacheWrite" | "cacheWrite1h">,
): number | null {
  const p = promptTokensOf(b);
  if (p <= 0) return null;
  const w1h = Math.min(b.cacheWrite1h, b.cacheWrite);
  const r = (b.input + 0.1 * b.cacheRead + 1.25 * (b.cacheWrite - w1h) + 2 * w1h) / p;
  return (1 - r) / 0.9;
}
