// A side's spend per cause (issue 16 compare): the cost report's calls grouped by their cache verdict — the one
// cause per call clawscope's cost report assigns (openclaw/cache/); Σ costUsd over the rows = totals.costUsd.
// Only for a session as run: a what-if changes which calls hit, and no per-call model of that exists (null). Pure.

import type { CompareCauseDiffDTO, CompareCauseDTO } from "../../../shared/compare.ts";
import type { CostCallDTO } from "../../../shared/cost.ts";

export type CauseCall = Pick<
  CostCallDTO,
  "verdict" | "costUsd" | "input" | "output" | "cacheRead" | "cacheWrite"
>;

/** The cost report's calls (`cost.calls`) by cause. */
export function spendByCause(calls: readonly CauseCall[]): CompareCauseDTO[] {
  const rows = new Map<string, CompareCauseDTO>();
  for (const c of calls) {
    let row = rows.get(c.verdict);
    if (!row) {
      row = { cause: c.verdict, calls: 0, tokens: 0, costUsd: 0, unpricedCalls: 0 };
      rows.set(c.verdict, row);
    }
    row.calls++;
    row.tokens += c.input + c.output + c.cacheRead + c.cacheWrite;
    if (c.costUsd === null) row.unpricedCalls++;
    else row.costUsd += c.costUsd;
  }
  return [...rows.values()].sort((x, y) => y.costUsd - x.costUsd || y.calls - x.calls);
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
