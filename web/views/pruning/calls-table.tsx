// Every replayed model call as a table row (paged for long sessions); a click selects the call.

import type { ReactNode } from "react";
import { fmtDate, fmtDuration, fmtInt, fmtUsd } from "../../../shared/format.ts";
import type { PruneCallDTO, PruneGapCostDTO, PruneReplayDTO } from "../../../shared/prune.ts";
import { setParams } from "../../router.ts";
import { type Column, Table } from "../../ui/table.tsx";

type Row = PruneCallDTO & { i: number; gap: PruneGapCostDTO | undefined };

const COLUMNS: Column<Row>[] = [
  { key: "i", label: "#", align: "right", render: (r) => r.i + 1, sortValue: (r) => r.i },
  { key: "time", label: "Time", render: (r) => fmtDate(r.timestamp), sortValue: (r) => r.timestamp },
  {
    key: "idle",
    label: "Idle",
    align: "right",
    render: (r) =>
      r.clockBack ? (
        <span className="warn-text small">{r.clockBack}</span>
      ) : (
        <span className={r.ttlExpired ? "error-text" : undefined}>{fmtDuration(r.idleMs)}</span>
      ),
    sortValue: (r) => r.idleMs,
  },
  {
    key: "rewrite",
    label: "Expiry $",
    align: "right",
    render: (r) =>
      r.gap ? (
        <span
          title={`the cache had expired: ${fmtInt(r.gap.rewrittenTokens)} tokens re-written (Cache & cost)`}
        >
          {fmtUsd(r.gap.premiumUsd, "unpriced")}
        </span>
      ) : (
        ""
      ),
    sortValue: (r) => r.gap?.premiumUsd ?? (r.gap ? 0 : -1),
  },
  {
    key: "gate",
    label: "Gate",
    render: (r) => (
      <span className="small" title={r.gateText}>
        {r.gate}
      </span>
    ),
  },
  {
    key: "round",
    label: "Round",
    render: (r) =>
      r.round === "none" ? (
        ""
      ) : (
        <span className={`badge ${r.round === "hard-clear" ? "badge-error" : "badge-archived"}`}>
          {r.round} ({r.softTrimmedNow + r.hardClearedNow})
        </span>
      ),
    sortValue: (r) => r.round,
  },
  {
    key: "before",
    label: "Chars before",
    align: "right",
    render: (r) => fmtInt(r.totalCharsBefore),
    sortValue: (r) => r.totalCharsBefore,
  },
  {
    key: "sent",
    label: "Chars sent",
    align: "right",
    render: (r) => fmtInt(r.messageChars),
    sortValue: (r) => r.messageChars,
  },
  {
    key: "removed",
    label: "Removed",
    align: "right",
    render: (r) => (r.charsRemoved > 0 ? fmtInt(r.charsRemoved) : ""),
    sortValue: (r) => r.charsRemoved,
  },
  {
    key: "snap",
    label: "Snapshot",
    render: (r) => (
      <span className={r.snapshotCheck.status === "mismatch" ? "error-text small" : "small muted"}>
        {r.snapshotCheck.status}
      </span>
    ),
  },
];

/** `detail`: the selected call's details in a row right under it; `onPick`: a row was clicked (issue 15). */
export function CallsTable(props: {
  dto: PruneReplayDTO;
  selected: number | null;
  detail?: (i: number) => ReactNode;
  onPick?: () => void;
}) {
  const { dto, selected, detail, onPick } = props;
  const gaps = new Map((dto.marks?.gaps ?? []).map((g) => [g.call, g]));
  const rows: Row[] = dto.calls.map((c, i) => ({ ...c, i, gap: gaps.get(i) }));
  return (
    <Table
      testId="prune-calls-table"
      columns={COLUMNS}
      rows={rows}
      rowKey={(r) => String(r.i)}
      rowTestId={(r) => `prune-call-row-${r.i}`}
      onRowClick={(r) => {
        onPick?.();
        setParams({ call: r.i === selected ? null : String(r.i) }, { replace: true });
      }}
      selectedKey={selected === null ? null : String(selected)}
      renderDetail={detail ? (r) => detail(r.i) : undefined}
      caption="Model calls"
    />
  );
}
