// One billed model call as the overview keeps it: what the per-session cost report (reports/cost/) said about it,
// cut to what the sums need. Kept per session between scans (service/cost-all.ts), so it stays small.

import type { CostCallDTO, SpendCause } from "../../../shared/cost.ts";
import { COST_KINDS, type CostByKind, type CostKind } from "../../../shared/overview.ts";
import type { CallBuckets } from "../cost/totals.ts";

/** A call's buckets as the cost totals sum them (CallBuckets), plus what the overview cuts them by. */
export interface OverviewCall extends CallBuckets {
  atMs: number | null;
  provider: string | null;
  model: string | null;
  /** The cost report's miss cost (null: a miss that could not be priced, or no miss deficit). */
  missCostUsd: number | null;
  /** costUsd by kind (null when unpriced); the kinds sum to costUsd. */
  byKind: Partial<CostByKind> | null;
  /** Where the call's money went (the cost report's cause.cause). */
  cause: SpendCause;
}

/** The per-bucket cost of a call, as its price split it. */
export type BucketCosts = NonNullable<CostCallDTO["costByBucket"]>;

/**
 * costUsd by kind: the price's per-bucket split scaled to the call's cost (a recorded cost keeps its total; the
 * split is the price's shares of it), the write on the side of the call's verdict. No split known: `unsplit`.
 */
export function costByKind(
  costUsd: number | null,
  verdict: CostCallDTO["verdict"],
  split: BucketCosts | null,
): Partial<CostByKind> | null {
  if (costUsd === null) return null;
  if (costUsd === 0) return {};
  const sum = split ? split.input + split.output + split.cacheRead + split.cacheWrite : 0;
  if (!split || !(sum > 0)) return { unsplit: costUsd };
  const scale = costUsd / sum;
  const write: CostKind = verdict === "hit" ? "cacheWriteAfterHit" : "cacheWriteAfterMiss";
  const out: Partial<CostByKind> = {};
  const add = (k: CostKind, v: number) => {
    if (v !== 0) out[k] = (out[k] ?? 0) + v * scale;
  };
  add("freshInput", split.input);
  add("cacheRead", split.cacheRead);
  add(write, split.cacheWrite);
  add("output", split.output);
  return out;
}

export function overviewCallOf(c: CostCallDTO): OverviewCall {
  const atMs = c.timestamp === null ? null : Date.parse(c.timestamp);
  return {
    atMs: atMs !== null && Number.isFinite(atMs) ? atMs : null,
    provider: c.provider,
    model: c.model,
    input: c.input,
    output: c.output,
    cacheRead: c.cacheRead,
    cacheWrite: c.cacheWrite,
    writeTier: { cacheWrite1h: c.writeTier.cacheWrite1h },
    costUsd: c.costUsd,
    missCostUsd: c.missCostUsd,
    byKind: costByKind(c.costUsd, c.verdict, c.costByBucket),
    cause: c.cause.cause,
  };
}

export function addKinds(into: CostByKind, k: Partial<CostByKind> | null): void {
  if (!k) return;
  for (const kind of COST_KINDS) into[kind] += k[kind] ?? 0;
}
