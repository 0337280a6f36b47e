// A cost with its unpriced calls beside it: usage nobody priced reads "unpriced (N calls)", never `$0.00`.

import { fmtUsd } from "../../../shared/format.ts";

export function costText(x: { costUsd: number; unpricedCalls: number; calls: number }): string {
  if (x.unpricedCalls === 0) return fmtUsd(x.costUsd);
  const unpriced = `unpriced (${x.unpricedCalls} call${x.unpricedCalls === 1 ? "" : "s"})`;
  return x.unpricedCalls === x.calls ? unpriced : `${fmtUsd(x.costUsd)} + ${unpriced}`;
}

/** A miss cost: unpriced when none of the calls is priced. */
export function missCostText(x: { missCostUsd: number; unpricedCalls: number; calls: number }): string {
  return x.calls > 0 && x.unpricedCalls === x.calls ? "unpriced" : fmtUsd(x.missCostUsd);
}
