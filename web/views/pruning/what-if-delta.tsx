// Beside the summary, when a what-if is set (issue 15): the run as recorded, the what-if, and the difference —
// rounds, tool results trimmed / cleared, cache tokens written and their $ (shared/prune-delta.ts; the $ is the
// comparison's, GET /api/compare: the cost report's pricing, never priced here).

import { useQuery } from "@tanstack/react-query";
import { fmtInt, fmtUsd } from "../../../shared/format.ts";
import type { PruneReplayDTO } from "../../../shared/prune.ts";
import { type PruneDeltaRow, pruneWhatIfDelta } from "../../../shared/prune-delta.ts";
import type { PruneParams } from "../../../shared/prune-params.ts";
import { compareQuery } from "../../api/compare-queries.ts";
import { pruneQuery } from "../../api/queries.ts";
import { whatIfParam } from "../compare/compare-with-as-run.tsx";

function fmt(r: PruneDeltaRow, v: number | null, signed = false): string {
  if (v === null) return "—";
  const sign = signed && v > 0 ? "+" : "";
  return r.key === "costUsd" ? `${sign}${fmtUsd(v)}` : `${sign}${fmtInt(v)}`;
}

export function WhatIfDelta({
  agentId,
  sessionId,
  p,
  whatIf,
}: {
  agentId: string;
  sessionId: string;
  p: PruneParams;
  whatIf: PruneReplayDTO;
}) {
  // the clock (`at`) moves the next-call prediction, not the run: it is no what-if of the recorded calls
  const param = whatIfParam({ ...p, at: undefined });
  const asRun = useQuery({ ...pruneQuery(agentId, sessionId, {}), enabled: param !== "" });
  const ref = `${agentId}/${sessionId}`;
  const cmp = useQuery({ ...compareQuery(ref, ref, param), enabled: param !== "" });
  if (param === "" || !asRun.data) return null;
  const rows = pruneWhatIfDelta(asRun.data, whatIf, cmp.data);
  return (
    <table className="table what-if-delta" data-testid="prune-what-if-delta">
      <caption>What-if against the run as recorded</caption>
      <thead>
        <tr>
          <th scope="col">per session</th>
          <th scope="col" className="align-right">
            as recorded
          </th>
          <th scope="col" className="align-right">
            what-if
          </th>
          <th scope="col" className="align-right">
            difference
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid={`prune-delta-${r.key}`} title={r.note ?? undefined}>
            <th scope="row">{r.label}</th>
            <td className="align-right" data-testid="as-run">
              {fmt(r, r.asRun)}
            </td>
            <td className="align-right" data-testid="what-if">
              {fmt(r, r.whatIf)}
            </td>
            <td className="align-right" data-testid="delta">
              {fmt(r, r.delta, true)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} className="muted small" data-testid="prune-delta-cost-basis">
            {cmp.error ? `The comparison failed: ${cmp.error.message}` : (rows.at(-1)?.note ?? "")}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
