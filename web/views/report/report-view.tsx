// The /context tab: OpenClaw's own `/context list|detail|json` replies (byte-identical texts from the server),
// the stored systemPromptReport sizes, the conversation actually sent, and tracked-vs-billed reconciliation.
// URL state: ctx=list|detail|json.

import { useQuery } from "@tanstack/react-query";
import { fmtInt } from "../../../shared/format.ts";
import type { CharsAndTokens, ConversationBucket, RunReportDTO } from "../../../shared/run-report.ts";
import { reportQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { Stat } from "../../ui/stat.tsx";
import { QueryPanel } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { reportStats } from "./report-stats.ts";

type TextKind = "list" | "detail" | "json";

export function ReportView({ agentId, sessionId, params }: SessionTabProps) {
  const query = useQuery(reportQuery(agentId, sessionId));
  const ctx = params.get("ctx");
  const kind: TextKind = ctx === "detail" || ctx === "json" ? ctx : "list";
  return (
    <QueryPanel query={query} label="the run report">
      {(dto) => <ReportPanel dto={dto} kind={kind} />}
    </QueryPanel>
  );
}

function ct(v: CharsAndTokens | null | undefined): string {
  return v ? `${fmtInt(v.chars)} chars (~${fmtInt(v.estTokens)} tok)` : "—";
}

function ReportPanel({ dto, kind }: { dto: RunReportDTO; kind: TextKind }) {
  const r = dto.reconciliation;
  const red = useRedactor();
  return (
    <div className="report-view">
      <div className="card stats" data-testid="report-summary">
        <Stat
          label="OpenClaw family"
          value={dto.version.family}
          title={red.sentence(dto.version.reason)}
          testId="report-family"
        />
        <Stat label="app version" value={dto.version.appVersion ?? "unknown"} />
        {reportStats(dto.numbers).map((s) => (
          <Stat key={s.label} label={s.label} value={s.value} title={s.title} testId={s.testId} />
        ))}
      </div>
      {dto.numbers.openclaw ? (
        <p className="note small" data-testid="report-why-differ">
          {dto.numbers.whyTheyDiffer}
        </p>
      ) : null}
      {r.notes.length > 0 ? (
        <ul className="note small" data-testid="report-notes">
          {r.notes.map((n) => (
            <li key={n}>{red.sentence(n)}</li>
          ))}
        </ul>
      ) : null}
      {dto.reportOwner ? (
        <p className="warn-note" data-testid="report-owner">
          {red.sentence(dto.reportOwner.note)}
        </p>
      ) : null}
      {!dto.systemPromptReport.available ? (
        <p className="warn-note" data-testid="report-unavailable">
          No stored run report: {red.sentence(dto.systemPromptReport.reason)}
        </p>
      ) : null}

      <div className="grid-2">
        <ContextReply dto={dto} kind={kind} />
        <div>
          <Totals dto={dto} />
          <Conversation dto={dto} />
          <LastCall dto={dto} />
        </div>
      </div>
    </div>
  );
}

/** OpenClaw's `/context` replies, or — without a stored run report — what clawscope can and cannot say. */
function ContextReply({ dto, kind }: { dto: RunReportDTO; kind: TextKind }) {
  const red = useRedactor();
  const texts = dto.texts;
  if (!texts.available) {
    const r = dto.reconciliation;
    return (
      <div data-testid="context-no-report">
        <h3>OpenClaw's /context reply</h3>
        <div className="warn-note" data-testid="context-text-unavailable">
          {texts.notice.split("\n").map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        <h4>What is known without it</h4>
        <ul className="small" data-testid="context-known">
          <li>
            Session tokens (SessionEntry):{" "}
            {r.entryTotalTokens === null ? "unknown" : `${fmtInt(r.entryTotalTokens)} total`}
            {dto.contextWindowTokens === null ? "" : ` / ctx=${fmtInt(dto.contextWindowTokens)}`}
          </li>
          <li>
            Last call billed prompt:{" "}
            {r.actualTokens === null ? "no call recorded" : `${fmtInt(r.actualTokens)} tok`}
          </li>
          <li>The conversation as sent (right) and the workspace files (truncation tab).</li>
        </ul>
        {dto.version.family !== "2026.3" ? (
          <>
            <h4>OpenClaw's /context map reply</h4>
            <pre className="text-block">{red.block(texts.mapUnavailable)}</pre>
          </>
        ) : null}
      </div>
    );
  }
  // Redact mode: OpenClaw's text rendered from the masked entry (paths and free text masked, numbers kept).
  const shown = red.on ? (texts.redacted?.[kind] ?? red.block(texts[kind])) : texts[kind];
  return (
    <div>
      <h3>OpenClaw's /context reply</h3>
      <Tabs
        label="/context sub-command"
        tabs={[
          { key: "list", label: "/context list" },
          { key: "detail", label: "/context detail" },
          { key: "json", label: "/context json" },
        ]}
        active={kind}
        onSelect={(k) => setParams({ ctx: k === "list" ? null : k }, { replace: true })}
      />
      <pre className={`text-block${red.on ? " redacted-block" : ""}`} data-testid={`context-text-${kind}`}>
        {shown}
      </pre>
      <button
        type="button"
        data-testid="copy-context-text"
        onClick={() => void navigator.clipboard?.writeText(shown)}
      >
        Copy
      </button>
    </div>
  );
}

function Totals({ dto }: { dto: RunReportDTO }) {
  const t = dto.totals;
  if (!t) return null;
  const rows: [string, string][] = [
    ["System prompt", ct(t.systemPrompt)],
    ["  project context (workspace files)", ct(t.projectContext)],
    ["  non-project context", ct(t.nonProjectContext)],
    [`Skills (${t.skills.count})`, ct(t.skills)],
    ["Tool list", ct(t.toolList)],
    [`Tool schemas (${t.toolSchemas.count})`, ct(t.toolSchemas)],
    ["Workspace files injected", ct(t.filesInjected)],
    ["OpenClaw tracked estimate", ct(t.openclawTracked)],
  ];
  if (t.currentTurn) {
    rows.push(["Current turn prompt", `${fmtInt(t.currentTurn.prompt)} chars`]);
    rows.push(["Runtime context", `${fmtInt(t.currentTurn.runtimeContext)} chars`]);
    rows.push(["Model-only prompt", `${fmtInt(t.currentTurn.modelOnlyPrompt)} chars`]);
  }
  return (
    <div className="card">
      <h3>Stored systemPromptReport</h3>
      <table className="table" data-testid="report-totals">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th style={{ whiteSpace: "pre" }}>{k}</th>
              <td className="align-right">{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type BucketRow = { key: string } & ConversationBucket;

function Conversation({ dto }: { dto: RunReportDTO }) {
  const c = dto.conversation;
  const roles: BucketRow[] = Object.entries(c.byRole).map(([key, b]) => ({ key, ...b }));
  const tools: BucketRow[] = c.toolResultsByTool.map((b) => ({ key: b.toolName, ...b }));
  const cols: Column<BucketRow>[] = [
    { key: "key", label: "", render: (r) => r.key },
    {
      key: "count",
      label: "msgs",
      align: "right",
      render: (r) => fmtInt(r.count),
      sortValue: (r) => r.count,
    },
    {
      key: "chars",
      label: "chars",
      align: "right",
      render: (r) => fmtInt(r.chars),
      sortValue: (r) => r.chars,
    },
    {
      key: "tok",
      label: "~tok",
      align: "right",
      render: (r) => fmtInt(r.estTokens),
      sortValue: (r) => r.estTokens,
    },
    { key: "img", label: "images", align: "right", render: (r) => (r.images > 0 ? fmtInt(r.images) : "") },
  ];
  return (
    <div className="card">
      <h3>Conversation actually sent</h3>
      <p className="muted small">{c.basis}</p>
      <Table
        testId="conversation-by-role"
        columns={cols}
        rows={roles}
        rowKey={(r) => r.key}
        caption="By role"
      />
      {tools.length > 0 ? (
        <Table
          testId="conversation-by-tool"
          columns={cols}
          rows={tools}
          rowKey={(r) => r.key}
          caption="Tool results by tool"
          initialSort={{ key: "chars", dir: "desc" }}
        />
      ) : null}
      <p className="small">
        Total: {ct(c.total)} in {fmtInt(c.total.count)} messages
        {c.compactionSummary ? `; compaction summary ${ct(c.compactionSummary)}` : ""}
        {c.branchSummaries.count > 0
          ? `; ${c.branchSummaries.count} branch summaries ${ct(c.branchSummaries)}`
          : ""}
        {c.notSent.count > 0 ? `; ${c.notSent.count} transcript messages not sent` : ""}
      </p>
    </div>
  );
}

function LastCall({ dto }: { dto: RunReportDTO }) {
  const l = dto.lastCall;
  const red = useRedactor();
  if (!l) return <p className="muted">No model call recorded on the active branch.</p>;
  return (
    <div className="card" data-testid="report-last-call">
      <h3>Last call (billed)</h3>
      <div className="stats">
        <Stat label="prompt tokens" value={fmtInt(l.promptTokens)} />
        <Stat label="input" value={fmtInt(l.input)} />
        <Stat label="cache read" value={fmtInt(l.cacheRead)} />
        <Stat label="cache write" value={fmtInt(l.cacheWrite)} />
        <Stat label="output" value={fmtInt(l.output)} />
      </div>
      <p className="muted small mono">
        {l.provider ?? "?"}/{l.model ?? "?"} · {l.timestamp ?? ""} · stop {l.stopReason ?? "?"} · entry{" "}
        {l.entryId ? red.id(l.entryId) : l.entryIndex}
      </p>
    </div>
  );
}
