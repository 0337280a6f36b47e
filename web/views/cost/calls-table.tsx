// One row per model call: gap, cache verdict, tokens by bucket, hit rate, cost and miss cost; a click opens the
// verdict's evidence (URL `ccall=<entry index>`).

import type { ReactNode } from "react";
import { writeAwareText } from "../../../shared/clock-labels.ts";
import type { CostCallRowDTO, CostReportPageDTO } from "../../../shared/cost-page.ts";
import { fmtDuration, fmtInt, fmtPct, fmtUsd } from "../../../shared/format.ts";
import { verdictWithCause } from "../../../shared/spend-causes.ts";
import { setParams } from "../../router.ts";
import { type Column, Table } from "../../ui/table.tsx";
import { VERDICT_CLASS } from "./evidence.tsx";

export const callKey = (c: { entryIndex: number }): string => String(c.entryIndex);

const COLUMNS: Column<CostCallRowDTO>[] = [
  { key: "n", label: "#", align: "right", render: (c) => c.n, sortValue: (c) => c.entryIndex },
  {
    key: "time",
    label: "Time",
    render: (c) => (
      <span className="small mono">
        {c.timestamp ? c.timestamp.replace("T", " ").replace(/\.\d+Z$/, "Z") : "—"}
      </span>
    ),
    sortValue: (c) => c.timestamp,
  },
  {
    key: "gap",
    label: "Gap",
    align: "right",
    // a negative gap (the transcript's clock went back) is flagged, not shown as "−11d"
    render: (c) =>
      c.clockBack ? <span className="warn-text small">{c.clockBack}</span> : fmtDuration(c.gapMs),
    sortValue: (c) => c.gapMs,
  },
  {
    key: "verdict",
    label: "Verdict",
    render: (c) => (
      <span className={`badge ${VERDICT_CLASS[c.verdict] ?? ""}`}>
        {verdictWithCause(c.verdict, c.spendCause)}
      </span>
    ),
    sortValue: (c) => c.verdict,
  },
  {
    key: "prompt",
    label: "Prompt",
    align: "right",
    render: (c) => fmtInt(c.promptTokens),
    sortValue: (c) => c.promptTokens,
  },
  {
    key: "read",
    label: "Read",
    align: "right",
    render: (c) => fmtInt(c.cacheRead),
    sortValue: (c) => c.cacheRead,
  },
  {
    key: "write",
    label: "Write",
    align: "right",
    render: (c) => `${fmtInt(c.cacheWrite)}${c.oneHourWrite ? " (1h)" : ""}`,
    sortValue: (c) => c.cacheWrite,
  },
  {
    key: "input",
    label: "Input",
    align: "right",
    render: (c) => fmtInt(c.input),
    sortValue: (c) => c.input,
  },
  {
    key: "output",
    label: "Output",
    align: "right",
    render: (c) => fmtInt(c.output),
    sortValue: (c) => c.output,
  },
  {
    key: "hit",
    label: "Hit",
    align: "right",
    render: (c) => (
      <span title={`write-aware hit rate: ${writeAwareText(c.writeAwareHitRate, "call")}`}>
        {fmtPct(c.hitRate, 0)}
      </span>
    ),
    sortValue: (c) => c.hitRate,
  },
  {
    key: "cost",
    label: "Cost",
    align: "right",
    render: (c) => fmtUsd(c.costUsd),
    sortValue: (c) => c.costUsd,
  },
  {
    key: "miss",
    label: "Miss cost",
    align: "right",
    render: (c) => (c.missCostUsd ? fmtUsd(c.missCostUsd) : ""),
    sortValue: (c) => c.missCostUsd,
  },
  {
    key: "flags",
    label: "",
    render: (c) =>
      c.heartbeatSignals ? (
        <span className="badge" title={c.heartbeatSignals.join("; ")}>
          heartbeat
        </span>
      ) : null,
  },
];

/** `detail`: the selected call's evidence, drawn in a row right under it (issue 15: details where the click was). */
export function CostCallsTable({
  dto,
  selected,
  detail,
}: {
  dto: CostReportPageDTO;
  selected: string | null;
  detail?: (c: CostCallRowDTO) => ReactNode;
}) {
  return (
    <Table
      testId="cost-calls-table"
      columns={COLUMNS}
      rows={dto.rows}
      rowKey={callKey}
      rowTestId={(c) => `cost-call-row-${c.entryIndex}`}
      rowClass={(c) => (c.offBranch ? "archived" : undefined)}
      onRowClick={(c) => setParams({ ccall: callKey(c) === selected ? null : callKey(c) }, { replace: true })}
      selectedKey={selected}
      renderDetail={detail}
      caption="Model calls — click a row for the verdict's evidence"
      empty="No model calls with usage."
    />
  );
}
