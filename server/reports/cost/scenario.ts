// Counterfactual scenario costs (spec cache-and-cost.md §4): the same calls with changed usage buckets.

import { costOf, type UsageBuckets } from "../../../shared/pricing.ts";
import { asRunBuckets, type PricedCall } from "./price-call.ts";

/**
 * One call's term of a scenario's cost: as-run cost + (cost of the changed buckets − cost of the actual buckets)
 * at table rates; a call without a price, or left unchanged (`change` → null), keeps its as-run cost. A scenario
 * is the sum of its calls' terms in append order (counterfactuals.ts ScenarioSums).
 */
export function scenarioTerm(p: PricedCall, change: (p: PricedCall) => UsageBuckets | null): number {
  const asRun = p.dto.costUsd ?? 0;
  const changed = p.price ? change(p) : null;
  if (!p.price || !changed) return asRun;
  return asRun + costOf(changed, p.price) - costOf(asRunBuckets(p), p.price);
}

/**
 * `tokens` fewer at the start of the prompt: the bootstrap sits in the stable system block there (§2.2), so it
 * leaves the read part first, then the written part, then the uncached input.
 */
export function removeFromFront(b: UsageBuckets, tokens: number): UsageBuckets {
  let t = tokens;
  const read = Math.min(b.cacheRead, t);
  t -= read;
  const write = Math.min(b.cacheWrite, t);
  t -= write;
  const input = Math.min(b.input, t);
  const w1h = Math.min(b.cacheWrite1h, b.cacheWrite - write);
  return {
    ...b,
    cacheRead: b.cacheRead - read,
    cacheWrite: b.cacheWrite - write,
    input: b.input - input,
    cacheWrite1h: w1h,
  };
}
