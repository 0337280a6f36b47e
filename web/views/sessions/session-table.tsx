// The session picker's table: one row per session with its storage and archive badges, and the triage columns
// from the all-session cost rows (cost, miss $, write-aware hit rate, last prompt); sub-agent sessions are listed
// under the session that spawned them (sub-agents.ts). Usage nobody priced reads "unpriced", never $0.00.

import { useMemo } from "react";
import { writeAwareText } from "../../../shared/clock-labels.ts";
import type { CostTotalsRowDTO } from "../../../shared/cost.ts";
import { fmtBytes, fmtDate, fmtInt, fmtRelTime } from "../../../shared/format.ts";
import type { SessionSummary } from "../../../shared/session.ts";
import { hrefWithGlobals, onLinkClick, sessionPath } from "../../router.ts";
import { type Column, Table } from "../../ui/table.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import { costText, missCostText } from "../overview/cost-text.ts";
import { PickBox } from "./compare-pick.tsx";
import type { SessionCosts } from "./cost-column.tsx";
import { type ListedSession, underParents } from "./sub-agents.ts";

export type SessionSort = "updated" | "size" | "entries" | "cost";

export function sessionKey(s: { agentId: string; sessionId: string }): string {
  return `${s.agentId}/${s.sessionId}`;
}

function sortValue(sort: SessionSort, s: SessionSummary, costs: SessionCosts): number {
  switch (sort) {
    case "updated":
      return s.updatedAt ?? -1;
    case "size":
      return s.sizeBytes ?? -1;
    case "entries":
      return s.entryCount ?? -1;
    case "cost":
      return costs.rowOf(s)?.costUsd ?? -1;
  }
}

function SessionLink({ row }: { row: ListedSession }) {
  const { s, depth, children } = row;
  const r = useRedactor();
  const href = hrefWithGlobals(sessionPath(s.agentId, s.sessionId));
  return (
    <div className={depth > 0 ? "sub-agent" : undefined} style={{ paddingLeft: `${depth * 1.25}em` }}>
      {depth > 0 ? (
        <span className="muted" title="A sub-agent session, spawned by the session above">
          <span aria-hidden="true">↳ </span>
          <span className="sr-only">sub-agent of the session above: </span>
        </span>
      ) : null}
      <a
        href={href}
        onClick={(e) => onLinkClick(e, href)}
        data-testid={`session-link-${sessionKey(s)}`}
        className="session-link"
      >
        {s.sessionKey ? r.sessionKey(s.sessionKey) : r.id(s.sessionId)}
      </a>
      {children > 0 ? (
        <span className="badge" data-testid={`sub-agents-${sessionKey(s)}`}>
          {children} sub-agent{children === 1 ? "" : "s"}
        </span>
      ) : null}
      <div className="muted small mono">{s.sessionKey ? r.id(s.sessionId) : r.path(s.location)}</div>
    </div>
  );
}

/** Storage era, archive kind and parse errors of one session. */
function StorageBadges({ s }: { s: SessionSummary }) {
  return (
    <span className="badges">
      <span
        className={`badge badge-${s.storage}`}
        title={s.storage === "jsonl" ? "JSONL era (≤ 2026.7.1)" : "SQLite era (≥ 2026.7.2)"}
      >
        {s.storage === "jsonl" ? "JSONL" : "SQLite"}
      </span>
      {s.archived ? (
        <span className="badge badge-archived" title={archivedHint(s.archived)} data-testid="badge-archived">
          {s.archived}
        </span>
      ) : null}
      {s.parseErrorCount > 0 ? (
        <span
          className="badge badge-error"
          title="Lines / rows that could not be parsed"
          data-testid="badge-parse-errors"
        >
          {s.parseErrorCount} parse error{s.parseErrorCount === 1 ? "" : "s"}
        </span>
      ) : null}
    </span>
  );
}

/** A figure from the session's cost row: "—" while the rows load and for a session without transcript. */
function fromRow(row: CostTotalsRowDTO | null, f: (r: CostTotalsRowDTO) => string) {
  return row === null ? <span className="muted">—</span> : f(row);
}

function columns(picked: readonly string[], costs: SessionCosts): Column<ListedSession>[] {
  return [
    { key: "pick", label: "Compare", render: ({ s }) => <PickBox s={s} picked={picked} /> },
    { key: "session", label: "Session", render: (row) => <SessionLink row={row} /> },
    { key: "agent", label: "Agent", render: ({ s }) => <AgentBadge agentId={s.agentId} /> },
    { key: "badges", label: "Storage", render: ({ s }) => <StorageBadges s={s} /> },
    {
      key: "model",
      label: "Model",
      render: ({ s }) =>
        s.model ? (
          <span className="mono small">
            {s.provider ? `${s.provider}/` : ""}
            {s.model}
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      key: "updated",
      label: "Updated",
      render: ({ s }) => <span title={fmtDate(s.updatedAt)}>{fmtRelTime(s.updatedAt)}</span>,
    },
    { key: "entries", label: "Entries", align: "right", render: ({ s }) => fmtInt(s.entryCount) },
    { key: "size", label: "Size", align: "right", render: ({ s }) => fmtBytes(s.sizeBytes) },
    {
      key: "last-prompt",
      label: "Last prompt",
      title: "Prompt tokens of the last call on the active branch (input + cache read + cache write)",
      align: "right",
      render: ({ s }) => fromRow(costs.rowOf(s), (r) => fmtInt(r.lastPromptTokens)),
    },
    {
      key: "hit",
      label: "Hit rate",
      title: "Write-aware cache hit rate of the session's calls",
      align: "right",
      render: ({ s }) => fromRow(costs.rowOf(s), (r) => writeAwareText(r.writeAwareHitRate, "total")),
    },
    {
      key: "miss",
      label: "Miss $",
      title: "What the session's cache misses cost over reading the prefix",
      align: "right",
      render: ({ s }) => fromRow(costs.rowOf(s), missCostText),
    },
    {
      key: "cost",
      label: "Cost",
      align: "right",
      render: ({ s }) => fromRow(costs.rowOf(s), costText),
    },
  ];
}

function AgentBadge({ agentId }: { agentId: string }) {
  const r = useRedactor();
  return <span className="badge badge-agent">{r.agent(agentId)}</span>;
}

export function SessionTable({
  sessions,
  sort,
  costs,
  picked,
}: {
  sessions: SessionSummary[];
  sort: SessionSort;
  costs: SessionCosts;
  picked: readonly string[];
}) {
  const rows = useMemo(
    () => underParents([...sessions].sort((a, b) => sortValue(sort, b, costs) - sortValue(sort, a, costs))),
    [sessions, sort, costs],
  );
  return (
    <Table
      testId="sessions-table"
      columns={columns(picked, costs)}
      rows={rows}
      rowKey={({ s }) => sessionKey(s)}
      rowTestId={({ s }) => `session-row-${sessionKey(s)}`}
      rowClass={({ s }) => (s.archived ? "archived" : undefined)}
      empty="No session matches."
    />
  );
}

/** The listed sessions' totals (what the search and the archived switch leave), once the cost rows are in. */
export function ListedTotals({ sessions, costs }: { sessions: SessionSummary[]; costs: SessionCosts }) {
  if (!costs.available || sessions.length === 0) return null;
  const sum = { costUsd: 0, missCostUsd: 0, calls: 0, unpricedCalls: 0 };
  let priced = 0;
  for (const s of sessions) {
    const r = costs.rowOf(s);
    if (r === null) continue;
    priced++;
    sum.costUsd += r.costUsd;
    sum.missCostUsd += r.missCostUsd;
    sum.calls += r.calls;
    sum.unpricedCalls += r.unpricedCalls;
  }
  return (
    <p className="small" data-testid="sessions-total">
      Listed: {fmtInt(sessions.length)} session{sessions.length === 1 ? "" : "s"}, {fmtInt(sum.calls)} calls —{" "}
      <b>{costText(sum)}</b>, of which cache misses {missCostText(sum)}
      {priced < sessions.length
        ? ` (${fmtInt(sessions.length - priced)} without a transcript, not counted)`
        : ""}
    </p>
  );
}

function archivedHint(kind: NonNullable<SessionSummary["archived"]>): string {
  switch (kind) {
    case "reset":
      return "Archived by /reset (*.jsonl.reset.<ts>)";
    case "deleted":
      return "Archived when deleted (*.jsonl.deleted.<ts>)";
    case "ended":
      return "An earlier session window of this key";
    case "orphan":
      return "No sessions store entry points to this transcript";
    case "cold":
      return "SQLite cold archive";
    case "legacy":
      return "JSONL-era transcript beside the SQLite store (pre-upgrade data; openclaw doctor imports it)";
    case "backup":
      return "Backup copy of another transcript (*.jsonl.bak…): left out of totals";
    case "checkpoint":
      return "Pre-compaction checkpoint copy (*.checkpoint.<uuid>.jsonl): left out of totals";
  }
}
