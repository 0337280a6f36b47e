// Session picker across agents: search, sort (updated / size / entries), archived toggle, storage and
// archive badges, parse-error badges. State in the URL: q, sort, archived.

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { SessionSummary } from "../../../shared/session.ts";
import { sessionsQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { IssueList, QueryPanel } from "../../ui/status.tsx";
import { UpdatedCue } from "../../ui/updated-cue.tsx";
import { CompareButton, parsePick } from "./compare-pick.tsx";
import { useCostBySession } from "./cost-column.tsx";
import { ListedTotals, type SessionSort, SessionTable } from "./session-table.tsx";

function parseSort(v: string | null): SessionSort {
  return v === "size" || v === "entries" || v === "cost" ? v : "updated";
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
        className="session-search"
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
  const all = query.data?.sessions;
  // the rows the search and the archived switch leave: the table and the total line show the same ones
  const listed = useMemo(
    () => (all ?? []).filter((s) => (showArchived || s.archived === null) && matchesSearch(s, q)),
    [all, showArchived, q],
  );

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
                sessions={listed}
                sort={sort}
                costs={cost}
                picked={parsePick(params.get("pick"))}
              />
              <ListedTotals sessions={listed} costs={cost} />
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
