// Counterfactual scenario costs (spec cache-and-cost.md §4): the same calls with changed usage buckets.

import { costOf, type UsageBuckets } from "../../../shared/pricing.ts";
import { asRunBuckets, type PricedCall } from "./price-call.ts";

/**
 * One call's terms of the scenario costs: as-run cost + (cost of the changed buckets − cost of the actual buckets)
 * at table rates; a call without a price, or left unchanged (null), keeps its as-run cost. The actual buckets'
 * cost is computed once per call for every scenario. A scenario is the sum of its calls' terms in append order
 * (counterfactuals.ts ScenarioSums).
 */
export function scenarioTerms(p: PricedCall): (changed: UsageBuckets | null) => number {
  const asRun = p.dto.costUsd ?? 0;
  const price = p.price;
  if (!price) return () => asRun;
  const actual = costOf(asRunBuckets(p), price);
  return (changed) => (changed ? asRun + costOf(changed, price) - actual : asRun);
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
