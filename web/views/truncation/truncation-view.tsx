// Bootstrap truncation: per-file table, budget waterfall, what-if caps / family, and the diff of what a cap
// drops. URL state: maxPerFile, maxTotal, family (what-if), file (selected row).

import { useQuery } from "@tanstack/react-query";
import type { TruncationReportDTO } from "../../../shared/truncation.ts";
import { truncationQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { Table } from "../../ui/table.tsx";
import { UrlField } from "../../ui/url-field.tsx";
import { CompareWithAsRun } from "../compare/compare-with-as-run.tsx";
import type { SessionTabProps } from "../session-tab.ts";
import { TRUNCATION_COLUMNS } from "./columns.tsx";
import { FileDiff } from "./file-diff.tsx";
import { TruncationSummary } from "./summary.tsx";
import { Waterfall } from "./waterfall.tsx";

export function TruncationView({ agentId, sessionId, params }: SessionTabProps) {
  const p = {
    maxPerFile: params.get("maxPerFile") ?? undefined,
    maxTotal: params.get("maxTotal") ?? undefined,
    family: params.get("family") ?? undefined,
  };
  const query = useQuery(truncationQuery(agentId, sessionId, p));
  const selected = params.get("file");
  return (
    <div className="truncation-view">
      <div className="card controls" data-testid="truncation-whatif">
        <UrlField
          param="maxPerFile"
          value={p.maxPerFile ?? null}
          label="bootstrapMaxChars (per file)"
          type="number"
          placeholder={query.data ? String(query.data.recorded.maxPerFileUsed) : ""}
          testId="whatif-max-per-file"
        />
        <UrlField
          param="maxTotal"
          value={p.maxTotal ?? null}
          label="bootstrapTotalMaxChars (total)"
          type="number"
          placeholder={query.data ? String(query.data.recorded.maxTotalUsed) : ""}
          testId="whatif-max-total"
        />
        <label>
          OpenClaw version rules
          <select
            value={p.family ?? ""}
            aria-label="OpenClaw version rules"
            data-testid="whatif-family"
            onChange={(e) => setParams({ family: e.target.value || null }, { replace: true })}
          >
            <option value="">as recorded{query.data ? ` (${query.data.recorded.family})` : ""}</option>
            <option value="2026.3">2026.3.x</option>
            <option value="2026.7">2026.7.x</option>
            <option value="2026.9">2026.9.x</option>
          </select>
        </label>
        <button
          type="button"
          data-testid="whatif-reset"
          disabled={!p.maxPerFile && !p.maxTotal && !p.family}
          onClick={() => setParams({ maxPerFile: null, maxTotal: null, family: null }, { replace: true })}
        >
          Reset to recorded
        </button>
        <CompareWithAsRun values={{ maxPerFile: p.maxPerFile, maxTotal: p.maxTotal }} />
        {query.isFetching && query.data ? <span className="muted small">recomputing…</span> : null}
      </div>
      {query.data ? (
        <TruncationPanel dto={query.data} selected={selected} />
      ) : query.error ? (
        <ErrorPanel
          error={query.error}
          title="Could not compute the truncation report"
          retry={() => void query.refetch()}
        />
      ) : (
        <Loading label="Loading the truncation report…" />
      )}
      {query.data && query.error ? (
        <ErrorPanel error={query.error} title="The what-if values were rejected" />
      ) : null}
    </div>
  );
}

function TruncationPanel({ dto, selected }: { dto: TruncationReportDTO; selected: string | null }) {
  return (
    <>
      <TruncationSummary dto={dto} />
      <Table
        testId="truncation-table"
        columns={TRUNCATION_COLUMNS}
        rows={dto.files}
        rowKey={(f) => f.name}
        rowTestId={(f) => `truncation-row-${f.name}`}
        rowClass={(f) => (f.truncated ? "truncated" : undefined)}
        onRowClick={(f) => setParams({ file: f.name === selected ? null : f.name }, { replace: true })}
        selectedKey={selected}
        renderDetail={(f) => <FileDiff file={f} />}
        caption="Bootstrap files in injection order — click a row for the dropped text"
      />
      {dto.signature ? (
        <p className="muted small mono" data-testid="truncation-signature">
          promptWarningSignature: {dto.signature}
        </p>
      ) : null}
      <Waterfall dto={dto} />
    </>
  );
}
