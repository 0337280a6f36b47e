// Totals of priced calls (spec cache-and-cost.md §4–§5): bucket sums, cost, and the rates of the sums.

import type { CostCallDTO, CostTotalsDTO, WriteTierInfo } from "../../../shared/cost.ts";
import { readHitRate, writeAwareHitRate } from "./hit-rates.ts";

function emptyTotals(): CostTotalsDTO {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    costUsd: 0,
    hitRate: null,
    calls: 0,
    unpricedCalls: 0,
    cacheWrite1h: 0,
    writeAwareHitRate: null,
    transcriptOnlyExcluded: 0,
  };
}

/** What sumTotals reads of a call (an aggregate over many sessions keeps only these). */
export type CallBuckets = Pick<CostCallDTO, "input" | "output" | "cacheRead" | "cacheWrite" | "costUsd"> & {
  writeTier: Pick<WriteTierInfo, "cacheWrite1h">;
};

/** Sum buckets first, then apply the rates (never average per-call percentages, §5). */
export function sumTotals(calls: readonly CallBuckets[], transcriptOnlyExcluded: number): CostTotalsDTO {
  const fold = new TotalsFold();
  for (const c of calls) fold.add(c);
  return fold.totals(transcriptOnlyExcluded);
}

/** sumTotals as a fold that only grows: a continued cost run adds its new calls (the same additions in order). */
export class TotalsFold {
  private readonly t = emptyTotals();

  add(c: CallBuckets): void {
    const t = this.t;
    t.input += c.input;
    t.output += c.output;
    t.cacheRead += c.cacheRead;
    t.cacheWrite += c.cacheWrite;
    t.cacheWrite1h += c.writeTier.cacheWrite1h;
    t.calls++;
    if (c.costUsd === null) t.unpricedCalls++;
    else t.costUsd += c.costUsd;
  }

  /** The totals so far, with their rates (a new object each time). */
  totals(transcriptOnlyExcluded: number): CostTotalsDTO {
    const t = { ...this.t };
    t.hitRate = readHitRate(t);
    t.writeAwareHitRate = writeAwareHitRate(t);
    t.transcriptOnlyExcluded = transcriptOnlyExcluded;
    return t;
  }
}
