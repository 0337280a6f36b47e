// "Where the money went" (issue 14 §2): the session's spend split by cause (calls, tokens, $, % of spend), the
// five costliest calls, and how much of the miss cost is still unknown. A cause or a call opens that call's
// evidence in place (the Evidence card below scrolls into view and takes focus).

import type { CostBreakdownRowDTO } from "../../../shared/cost.ts";
import type { CostCallRowDTO, CostReportPageDTO } from "../../../shared/cost-page.ts";
import { fmtInt, fmtPct, fmtUsd } from "../../../shared/format.ts";
import { SPEND_CAUSE_TEXT } from "../../../shared/spend-causes.ts";

function rowCost(b: CostBreakdownRowDTO): string {
  if (b.unpricedCalls === b.calls) return `unpriced (${fmtInt(b.calls)} calls)`;
  return `${fmtUsd(b.costUsd)}${b.unpricedCalls > 0 ? ` + ${fmtInt(b.unpricedCalls)} unpriced` : ""}`;
}

/** The costliest call of a cause (the one its row opens). */
function costliest(calls: readonly CostCallRowDTO[], cause: string): CostCallRowDTO | undefined {
  let best: CostCallRowDTO | undefined;
  for (const c of calls) {
    if (c.spendCause !== cause) continue;
    if (!best || (c.costUsd ?? -1) > (best.costUsd ?? -1)) best = c;
  }
  return best;
}

export function BreakdownCard({
  dto,
  selected,
  onOpen,
}: {
  dto: CostReportPageDTO;
  selected: string | null;
  onOpen: (c: { entryIndex: number }) => void;
}) {
  const top = dto.costliest;
  const u = dto.breakdownUnknown;
  return (
    <div className="card" data-testid="cost-breakdown">
      <h3>Where the money went</h3>
      <table className="table">
        <thead>
          <tr>
            <th>Cause</th>
            <th className="align-right">Calls</th>
            <th className="align-right">Tokens</th>
            <th className="align-right">Cost</th>
            <th className="align-right">% of spend</th>
          </tr>
        </thead>
        <tbody>
          {dto.breakdown.map((b) => {
            const open = costliest(dto.rows, b.cause);
            return (
              <tr key={b.cause} data-testid={`cost-cause-${b.cause}`}>
                <td>
                  <button
                    type="button"
                    className="link"
                    title={`${SPEND_CAUSE_TEXT[b.cause]} — open its costliest call's evidence`}
                    onClick={() => open && onOpen(open)}
                  >
                    {b.cause}
                  </button>{" "}
                  <span className="muted small">{SPEND_CAUSE_TEXT[b.cause]}</span>
                </td>
                <td className="align-right">{fmtInt(b.calls)}</td>
                <td className="align-right">{fmtInt(b.tokens)}</td>
                <td className="align-right">{rowCost(b)}</td>
                <td className="align-right">{fmtPct(b.shareOfSpend)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {u.shareOfMissCost !== null ? (
        <p className="small" data-testid="cost-unknown">
          Still unknown: {fmtUsd(u.missCostUsd)} ({fmtPct(u.shareOfMissCost)} of the miss cost).
          {u.wouldDecide.length > 0 ? ` What would decide it: ${u.wouldDecide.join("; ")}.` : ""}
        </p>
      ) : null}
      {top.length > 0 ? (
        <>
          <h4>Costliest calls</h4>
          <ol className="small" data-testid="cost-top-calls">
            {top.map((c) => (
              <li key={c.entryIndex}>
                <button
                  type="button"
                  className="link"
                  data-testid={`cost-top-call-${c.entryIndex}`}
                  aria-pressed={selected === String(c.entryIndex)}
                  onClick={() => onOpen(c)}
                >
                  call #{c.n}
                </button>{" "}
                {fmtUsd(c.costUsd)} — <b>{c.cause}</b>: {c.detail}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}
