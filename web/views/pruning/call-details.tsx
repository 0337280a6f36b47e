// The selected call: its gate, round and sizes, and every tool result in context with its wire state at this
// call (fetched on their own: the replay comes without per-call states); a click opens the before/after text.

import { useQuery } from "@tanstack/react-query";
import { fmtDate, fmtDuration, fmtInt, fmtPct } from "../../../shared/format.ts";
import type { PruneCallDTO, PruneGapCostDTO, PruneToolResultDTO } from "../../../shared/prune.ts";
import type { PruneParams } from "../../../shared/prune-params.ts";
import { pruneCallQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import type { Redactor } from "../../ui/redact.ts";
import { Stat } from "../../ui/stat.tsx";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import { gapSentence } from "./timeline-marks.tsx";
import { STATE_BADGE, ToolResultPreview } from "./tool-result-preview.tsx";

function toolResultColumns(red: Redactor): Column<PruneToolResultDTO>[] {
  return [
    {
      key: "tool",
      label: "Tool",
      render: (r) => <span className="mono">{r.toolName}</span>,
      sortValue: (r) => r.toolName,
    },
    {
      key: "id",
      label: "toolCallId",
      render: (r) => <span className="mono small">{red.id(r.toolCallId)}</span>,
    },
    {
      key: "state",
      label: "Wire state",
      render: (r) => (
        <span className={`badge ${STATE_BADGE[r.state]}`}>
          {r.state}
          {r.changedThisCall ? " (now)" : ""}
        </span>
      ),
      sortValue: (r) => r.state,
    },
    {
      key: "full",
      label: "Before (stored)",
      align: "right",
      render: (r) => fmtInt(r.charsFull),
      sortValue: (r) => r.charsFull,
    },
    {
      key: "sent",
      label: "After (sent)",
      align: "right",
      render: (r) => fmtInt(r.charsSent),
      sortValue: (r) => r.charsSent,
    },
    {
      key: "range",
      label: "Prunable",
      render: (r) => (
        <span className="small">
          {r.inPrunableRange ? "in range" : "protected"}
          {r.toolAllowed ? "" : ", tool excluded"}
          {r.liveFormMayDiffer ? ", live form may differ" : ""}
        </span>
      ),
    },
  ];
}

/** The call's numbers, flags and snapshot disagreements. */
function CallFacts({ call }: { call: PruneCallDTO }) {
  return (
    <>
      <div className="stats">
        <Stat label="idle before" value={call.clockBack ?? fmtDuration(call.idleMs)} />
        <Stat label="TTL expired" value={call.ttlExpired ? "yes" : "no"} />
        <Stat label="round" value={call.round} />
        <Stat
          label="chars before → after"
          value={`${fmtInt(call.totalCharsBefore)} → ${fmtInt(call.totalCharsAfter)}`}
        />
        <Stat label="ratio" value={`${fmtPct(call.ratioBefore)} → ${fmtPct(call.ratioAfter)}`} />
        <Stat label="removed" value={fmtInt(call.charsRemoved)} />
        <Stat label="messages" value={fmtInt(call.messageCount)} />
        <Stat label="snapshot" value={call.snapshotCheck.status} />
      </div>
      {call.flags.length > 0 ? (
        <ul className="warn-note small">
          {call.flags.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      ) : null}
      {call.snapshotCheck.mismatches.length > 0 ? (
        <p className="error-text small">
          Snapshot disagrees:{" "}
          {call.snapshotCheck.mismatches
            .map((m) => `${m.toolCallId ?? m.key}: replay ${m.replay}, snapshot ${m.snapshot}`)
            .join("; ")}
        </p>
      ) : null}
    </>
  );
}

export function CallDetails({
  call,
  index,
  agentId,
  sessionId,
  whatIf,
  previewId,
  gap,
}: {
  gap?: PruneGapCostDTO | undefined;
  call: PruneCallDTO;
  index: number;
  agentId: string;
  sessionId: string;
  whatIf: PruneParams;
  previewId: string | null;
}) {
  const red = useRedactor();
  // The replay comes without per-call tool-result states (calls=summary); this call's are fetched on their own.
  const detail = useQuery(pruneCallQuery(agentId, sessionId, whatIf, index));
  const rows = detail.data?.index === index ? detail.data.details : [];
  return (
    <div className="card" data-testid="prune-call-details">
      <h3>
        Call #{index + 1} — {fmtDate(call.timestamp)}
      </h3>
      <p>
        <span className="badge">{call.gate}</span> {call.gateText}
      </p>
      <CallFacts call={call} />
      {gap ? (
        <p className="small" data-testid="prune-call-gap-cost">
          The prompt cache had expired: this call {gapSentence(gap)} — the Cache &amp; cost tab's gap cost.
        </p>
      ) : null}
      {detail.isError ? (
        <ErrorPanel error={detail.error} title="Tool results of this call unavailable" />
      ) : null}
      {detail.isPending ? <Loading label="Loading the tool results of this call…" /> : null}
      <Table
        testId="prune-tool-results"
        columns={toolResultColumns(red)}
        rows={rows}
        rowKey={(r) => r.toolCallId}
        rowTestId={(r) => `prune-tool-result-${r.toolCallId}`}
        onRowClick={(r) =>
          setParams({ tr: r.toolCallId === previewId ? null : r.toolCallId }, { replace: true })
        }
        caption="Tool results at this call — click one for its before/after text"
        empty="No tool results in context."
      />
      {previewId ? (
        <ToolResultPreview
          agentId={agentId}
          sessionId={sessionId}
          whatIf={whatIf}
          callIndex={index}
          toolCallId={previewId}
        />
      ) : null}
      <p className="muted small">
        Sizes are OpenClaw's pruning estimate (weighted chars), before and after this call's projection.
      </p>
    </div>
  );
}
