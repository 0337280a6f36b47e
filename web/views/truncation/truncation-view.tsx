// Bootstrap truncation: per-file table, budget waterfall, what-if caps / family, and the diff of what a cap
// drops. URL state: maxPerFile, maxTotal, family (what-if), file (selected row).

import { useQuery } from "@tanstack/react-query";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type { TruncationFileDTO, TruncationReportDTO } from "../../../shared/truncation.ts";
import { truncationQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { Stat } from "../../ui/stat.tsx";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { UrlField } from "../../ui/url-field.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { FileDiff } from "./file-diff.tsx";
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
  const red = useRedactor();
  const t = dto.totals;
  const sel = dto.files.find((f) => f.name === selected) ?? null;
  const cols: Column<TruncationFileDTO>[] = [
    {
      key: "name",
      label: "File",
      render: (f) => <span className="mono">{f.name}</span>,
      sortValue: (f) => f.name,
    },
    {
      key: "status",
      label: "Status",
      render: (f) => (
        <span
          className={`badge ${f.status === "TRUNCATED" ? "badge-error" : f.status === "MISSING" ? "badge-archived" : "badge-ok"}`}
        >
          {f.status}
          {f.nativeUnverified ? " (native)" : ""}
        </span>
      ),
      sortValue: (f) => f.status,
    },
    {
      key: "raw",
      label: "Raw",
      align: "right",
      render: (f) => fmtInt(f.rawChars),
      sortValue: (f) => f.rawChars,
    },
    {
      key: "injected",
      label: "Injected",
      align: "right",
      render: (f) =>
        f.injectedChars === null ? (
          <span title={f.note ?? ""}>?</span>
        ) : (
          `${fmtInt(f.injectedChars)}${f.exact ? "" : " *"}`
        ),
      sortValue: (f) => f.injectedChars,
    },
    {
      key: "removed",
      label: "% removed",
      align: "right",
      render: (f) => (f.removedPct === null ? "—" : `${f.removedPct.toFixed(1)}%`),
      sortValue: (f) => f.removedPct,
    },
    {
      key: "tokens",
      label: "Est. tokens",
      align: "right",
      title: "clawscope estimate ceil(chars / 4), raw → injected",
      render: (f) =>
        `~${fmtInt(f.estimatedTokens.raw)} → ${f.estimatedTokens.injected === null ? "?" : `~${fmtInt(f.estimatedTokens.injected)}`}`,
      sortValue: (f) => f.estimatedTokens.raw,
    },
    {
      key: "limit",
      label: "File limit",
      align: "right",
      render: (f) => (
        <span title={f.fixedUserCap ? "2026.9.x USER.md fixed 4,000-char cap" : "bootstrapMaxChars"}>
          {fmtInt(f.fileLimit)}
          {f.fixedUserCap ? " (USER.md)" : ""}
        </span>
      ),
    },
    {
      key: "causes",
      label: "Causes",
      render: (f) => (
        <span className="badges">
          {f.displayCauses.map((c) => (
            <span key={c} className="badge badge-error">
              {c}
            </span>
          ))}
        </span>
      ),
    },
    {
      key: "near",
      label: "Near limit",
      render: (f) =>
        f.nearLimit ? (
          <span
            className="badge badge-archived"
            title={`raw ≥ ${fmtInt(f.nearLimitAt)} (85 % of the file limit)`}
          >
            near limit
          </span>
        ) : null,
      sortValue: (f) => (f.nearLimit ? 1 : 0),
    },
    {
      key: "changed",
      label: "Now",
      render: (f) =>
        f.current.changedSinceReport ? (
          <span className="badge badge-archived" title={`current size ${fmtInt(f.current.rawChars)}`}>
            changed
          </span>
        ) : f.current.readable ? (
          <span className="muted small">same</span>
        ) : (
          <span className="muted small">unreadable</span>
        ),
    },
  ];
  return (
    <>
      <div className="card stats" data-testid="truncation-totals">
        <Stat
          label="mode"
          value={dto.mode}
          title="recorded: the stored report; recomputed: re-run on the current files"
          testId="truncation-mode"
        />
        <Stat label="rules" value={dto.family} />
        <Stat label="max / file" value={fmtInt(dto.maxPerFile)} />
        <Stat label="max / total" value={fmtInt(dto.maxTotal)} />
        <Stat label="raw total" value={fmtInt(t.rawChars)} />
        <Stat label="injected total" value={t.injectedChars === null ? "?" : fmtInt(t.injectedChars)} />
        <Stat label="share of total cap" value={fmtPct(t.shareOfTotal)} />
        <Stat label="truncated files" value={fmtInt(t.truncatedFiles)} testId="truncation-truncated-count" />
        <Stat label="near-limit files" value={fmtInt(t.nearLimitFiles)} />
        <Stat label="budget left" value={fmtInt(t.budgetRemaining)} />
      </div>
      {dto.whatIf ? (
        <p className="warn-note" data-testid="truncation-whatif-note">
          What-if: caps / rules differ from the recorded report (recorded: {fmtInt(dto.recorded.maxPerFile)}{" "}
          per file, {fmtInt(dto.recorded.maxTotal)} total, {dto.recorded.family}).
        </p>
      ) : null}
      {[...dto.warnings, ...dto.notes].length > 0 ? (
        <ul className="note small" data-testid="truncation-notes">
          {dto.warnings.map((w) => (
            <li key={`w-${w}`} className="error-text">
              {red.sentence(w)}
            </li>
          ))}
          {dto.notes.map((n) => (
            <li key={`n-${n}`}>{red.sentence(n)}</li>
          ))}
        </ul>
      ) : null}
      {dto.changes.length > 0 ? (
        <p className="warn-note small" data-testid="truncation-changes">
          Workspace changed since the report:{" "}
          {dto.changes
            .map((c) => `${c.name} (${c.kind}: ${fmtInt(c.recordedRawChars)} → ${fmtInt(c.currentRawChars)})`)
            .join(", ")}
        </p>
      ) : null}
      <Table
        testId="truncation-table"
        columns={cols}
        rows={dto.files}
        rowKey={(f) => f.name}
        rowTestId={(f) => `truncation-row-${f.name}`}
        rowClass={(f) => (f.truncated ? "truncated" : undefined)}
        onRowClick={(f) => setParams({ file: f.name === selected ? null : f.name }, { replace: true })}
        selectedKey={selected}
        caption="Bootstrap files in injection order — click a row for the dropped text"
      />
      {dto.signature ? (
        <p className="muted small mono" data-testid="truncation-signature">
          promptWarningSignature: {dto.signature}
        </p>
      ) : null}
      <Waterfall dto={dto} />
      {sel ? <FileDiff file={sel} /> : null}
    </>
  );
}
