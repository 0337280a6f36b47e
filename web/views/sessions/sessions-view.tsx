// Session picker across agents: search, sort (updated / size / entries), archived toggle, storage and
// archive badges, parse-error badges. State in the URL: q, sort, archived.

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { fmtBytes, fmtDate, fmtInt, fmtRelTime, fmtUsd } from "../../../shared/format.ts";
import type { SessionSummary } from "../../../shared/session.ts";
import { sessionsQuery } from "../../api/queries.ts";
import { hrefWithGlobals, onLinkClick, sessionPath, setParams } from "../../router.ts";
import { IssueList, QueryPanel } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { UpdatedCue } from "../../ui/updated-cue.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import { CompareButton, PickBox, parsePick } from "./compare-pick.tsx";
import { useCostBySession } from "./cost-column.tsx";

export type SessionSort = "updated" | "size" | "entries" | "cost";

function parseSort(v: string | null): SessionSort {
  return v === "size" || v === "entries" || v === "cost" ? v : "updated";
}

export function sessionKey(s: { agentId: string; sessionId: string }): string {
  return `${s.agentId}/${s.sessionId}`;
}

export function matchesSearch(s: SessionSummary, q: string): boolean {
  if (q === "") return true;
  const hay = [s.agentId, s.sessionId, s.sessionKey ?? "", s.model ?? "", s.provider ?? "", s.location]
    .join(" ")
    .toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** Search, sort, the archived toggle and on-screen redaction, all in the URL. */
function SessionsToolbar(props: {
  params: URLSearchParams;
  q: string;
  sort: SessionSort;
  showArchived: boolean;
  costAvailable: boolean;
}) {
  const { params, q, sort, showArchived, costAvailable } = props;
  return (
    <div className="toolbar">
      <h1>Sessions</h1>
      <UpdatedCue />
      <input
        type="search"
        placeholder="Search agent, session, key, model…  ( / )"
        aria-label="Search sessions"
        value={q}
        data-search-box
        data-testid="session-search"
        onChange={(e) => setParams({ q: e.target.value }, { replace: true })}
      />
      <label>
        Sort{" "}
        <select
          value={sort}
          aria-label="Sort sessions"
          data-testid="session-sort"
          onChange={(e) =>
            setParams({ sort: e.target.value === "updated" ? null : e.target.value }, { replace: true })
          }
        >
          <option value="updated">last updated</option>
          <option value="size">size</option>
          <option value="entries">entries</option>
          <option value="cost" disabled={!costAvailable}>
            cost{costAvailable ? "" : " (unavailable)"}
          </option>
        </select>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={showArchived}
          data-testid="session-archived-toggle"
          onChange={(e) => setParams({ archived: e.target.checked ? "1" : null }, { replace: true })}
        />{" "}
        show archived
      </label>
      <label
        className="checkbox redact-toggle"
        title="Redacted mode hides session keys' free parts, ids and paths on screen (for screenshots); exports are always redacted by default"
      >
        <input
          type="checkbox"
          checked={params.get("redact") === "1"}
          data-testid="redact-toggle"
          onChange={(e) => setParams({ redact: e.target.checked ? "1" : null }, { replace: true })}
        />{" "}
        Redact
      </label>
      <CompareButton picked={parsePick(params.get("pick"))} />
    </div>
  );
}

export function SessionsView({ params }: { params: URLSearchParams }) {
  const query = useQuery(sessionsQuery());
  const q = params.get("q") ?? "";
  const sort = parseSort(params.get("sort"));
  const showArchived = params.get("archived") === "1";
  const cost = useCostBySession();

  return (
    <section className="sessions-view" aria-label="Sessions">
      <SessionsToolbar
        params={params}
        q={q}
        sort={sort}
        showArchived={showArchived}
        costAvailable={cost.available}
      />
      <QueryPanel query={query} label="sessions">
        {(data) => {
          const archivedCount = data.sessions.filter((s) => s.archived !== null).length;
          return (
            <>
              <IssueList
                issues={params.get("redact") === "1" ? [] : data.issues}
                title="Problems found while scanning the state dir"
                testId="sessions-issues"
              />
              <SessionTable
                sessions={data.sessions.filter(
                  (s) => (showArchived || s.archived === null) && matchesSearch(s, q),
                )}
                sort={sort}
                costOf={cost.costOf}
                picked={parsePick(params.get("pick"))}
              />
              <p className="muted" data-testid="session-count">
                {data.sessions.length} session{data.sessions.length === 1 ? "" : "s"} in{" "}
                {new Set(data.sessions.map((s) => s.agentId)).size} agent(s)
                {archivedCount > 0 && !showArchived ? `; ${archivedCount} archived hidden` : ""}
              </p>
            </>
          );
        }}
      </QueryPanel>
    </section>
  );
}

function sortValue(
  sort: SessionSort,
  s: SessionSummary,
  costOf: (s: SessionSummary) => number | null,
): number {
  switch (sort) {
    case "updated":
      return s.updatedAt ?? -1;
    case "size":
      return s.sizeBytes ?? -1;
    case "entries":
      return s.entryCount ?? -1;
    case "cost":
      return costOf(s) ?? -1;
  }
}

function SessionLink({ s }: { s: SessionSummary }) {
  const r = useRedactor();
  const href = hrefWithGlobals(sessionPath(s.agentId, s.sessionId));
  return (
    <div>
      <a
        href={href}
        onClick={(e) => onLinkClick(e, href)}
        data-testid={`session-link-${sessionKey(s)}`}
        className="session-link"
      >
        {s.sessionKey ? r.sessionKey(s.sessionKey) : r.id(s.sessionId)}
      </a>
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

function SessionTable({
  sessions,
  sort,
  costOf,
  picked,
}: {
  sessions: SessionSummary[];
  sort: SessionSort;
  costOf: (s: SessionSummary) => number | null;
  picked: readonly string[];
}) {
  const r = useRedactor();
  const rows = useMemo(
    () => [...sessions].sort((a, b) => sortValue(sort, b, costOf) - sortValue(sort, a, costOf)),
    [sessions, sort, costOf],
  );
  const columns: Column<SessionSummary>[] = [
    { key: "pick", label: "Compare", render: (s) => <PickBox s={s} picked={picked} /> },
    {
      key: "session",
      label: "Session",
      render: (s) => <SessionLink s={s} />,
    },
    {
      key: "agent",
      label: "Agent",
      render: (s) => <span className="badge badge-agent">{r.agent(s.agentId)}</span>,
    },
    {
      key: "badges",
      label: "Storage",
      render: (s) => <StorageBadges s={s} />,
    },
    {
      key: "model",
      label: "Model",
      render: (s) =>
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
      render: (s) => <span title={fmtDate(s.updatedAt)}>{fmtRelTime(s.updatedAt)}</span>,
    },
    { key: "entries", label: "Entries", align: "right", render: (s) => fmtInt(s.entryCount) },
    { key: "size", label: "Size", align: "right", render: (s) => fmtBytes(s.sizeBytes) },
    {
      key: "cost",
      label: "Cost",
      align: "right",
      render: (s) => {
        const c = costOf(s);
        return c === null ? <span className="muted">—</span> : fmtUsd(c);
      },
    },
  ];
  return (
    <Table
      testId="sessions-table"
      columns={columns}
      rows={rows}
      rowKey={sessionKey}
      rowTestId={(s) => `session-row-${sessionKey(s)}`}
      rowClass={(s) => (s.archived ? "archived" : undefined)}
      empty="No session matches."
    />
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
