// A side's spend per cause (issue 16 compare): the cost report's own breakdown (reports/cost/breakdown.ts, issue 14
// §2: one cause per call, Σ costUsd over the rows = totals.costUsd), so compare and the Cache & cost tab's "Where
// the money went" print the same rows. Only for a session as run: a what-if changes which calls hit, and no
// per-call model of that exists (null). Pure.

import type { CompareCauseDiffDTO, CompareCauseDTO } from "../../../shared/compare.ts";
import type { CostBreakdownRowDTO } from "../../../shared/cost.ts";

/** The cost report's `breakdown`, in compare's row shape. */
export function spendByCause(breakdown: readonly CostBreakdownRowDTO[]): CompareCauseDTO[] {
  return breakdown.map(({ cause, calls, tokens, costUsd, unpricedCalls }) => ({
    cause,
    calls,
    tokens,
    costUsd,
    unpricedCalls,
  }));
}

/** Both sides' spend per cause, a's order first; null where a side has no breakdown. */
export function causeDiff(
  a: readonly CompareCauseDTO[] | null,
  b: readonly CompareCauseDTO[] | null,
): CompareCauseDiffDTO[] {
  const out = new Map<string, CompareCauseDiffDTO>();
  const row = (cause: string) => {
    let r = out.get(cause);
    if (!r) {
      r = { cause, aUsd: a ? 0 : null, bUsd: b ? 0 : null };
      out.set(cause, r);
    }
    return r;
  };
  for (const c of a ?? []) row(c.cause).aUsd = c.costUsd;
  for (const c of b ?? []) row(c.cause).bUsd = c.costUsd;
  return [...out.values()];
}
