// One session: title, badges, tabs. Each tab is its own panel with its own loading / error state, so a
// broken report in one tab never blanks the others.

import { useQuery } from "@tanstack/react-query";
import { fmtBytes, fmtDate, fmtInt } from "../../shared/format.ts";
import type { SessionSummary } from "../../shared/session.ts";
import { sessionsQuery } from "../api/queries.ts";
import { hrefWithGlobals, isTab, onLinkClick, type Tab } from "../router.ts";
import { makeRedactor, type Redactor, redactFromParams } from "../ui/redact.ts";
import { IssueList } from "../ui/status.tsx";
import { Tabs } from "../ui/tabs.tsx";
import { CacheClock } from "./cache-clock.tsx";
import { CompareView } from "./compare/compare-view.tsx";
import { editorPrices } from "./cost/price-editor.tsx";
import type { SessionTabProps } from "./session-tab.ts";
import { ShareToolbar } from "./share-toolbar.tsx";
import { switchTab } from "./tab-switch.ts";
import { TAB_DEFS, TAB_VIEWS } from "./tabs.tsx";

/** The session's ids, storage, archive kind, parse errors, model, update time, size and location. */
function SessionMeta({ summary, sessionId, r }: { summary: SessionSummary; sessionId: string; r: Redactor }) {
  return (
    <div className="session-meta muted small" data-testid="session-meta">
      <span className="mono">{r.id(sessionId)}</span>
      <span className={`badge badge-${summary.storage}`}>
        {summary.storage === "jsonl" ? "JSONL" : "SQLite"}
      </span>
      {summary.archived ? <span className="badge badge-archived">{summary.archived}</span> : null}
      {summary.parseErrorCount > 0 ? (
        <span className="badge badge-error">{summary.parseErrorCount} parse errors</span>
      ) : null}
      {summary.model ? (
        <span className="mono">
          {summary.provider ? `${summary.provider}/` : ""}
          {summary.model}
        </span>
      ) : null}
      <span>updated {fmtDate(summary.updatedAt)}</span>
      <span data-testid="session-entry-count">{fmtInt(summary.entryCount)} entries</span>
      <span>{fmtBytes(summary.sizeBytes)}</span>
      <span className="mono" title="Location in the state dir">
        {r.path(summary.location)}
      </span>
    </div>
  );
}

export function SessionView({ agentId, sessionId, params }: SessionTabProps) {
  const tabParam = params.get("tab");
  const tab: Tab = isTab(tabParam) ? tabParam : "map";
  const { label, View } = TAB_VIEWS[tab];
  const sessions = useQuery(sessionsQuery());
  const summary = sessions.data?.sessions.find((s) => s.agentId === agentId && s.sessionId === sessionId);
  const back = hrefWithGlobals("/");
  const r = makeRedactor(redactFromParams(params));
  return (
    <section className="session-view" aria-label="Session">
      <div className="session-head">
        <a
          href={back}
          onClick={(e) => onLinkClick(e, back)}
          className="back-link"
          data-testid="back-to-sessions"
        >
          ← Sessions
        </a>
        <h1 data-testid="session-title">
          <span className="badge badge-agent">{r.agent(agentId)}</span>{" "}
          {summary?.sessionKey ? r.sessionKey(summary.sessionKey) : r.id(sessionId)}
        </h1>
        {summary ? <SessionMeta summary={summary} sessionId={sessionId} r={r} /> : null}
      </div>
      <ShareToolbar
        agentId={agentId}
        sessionId={sessionId}
        tab={tab}
        tabLabel={label}
        redactParam={params.get("redact")}
        r={r}
      />
      <CacheClock
        agentId={agentId}
        sessionId={sessionId}
        archived={Boolean(summary?.archived)}
        prices={editorPrices(params.get("prices"))}
      />
      {summary && sessions.data && !r.on ? (
        <IssueList
          issues={sessions.data.issues.filter(
            (i) => i.source === summary.location || i.source.startsWith(`${summary.location}#`),
          )}
          title="Problems found while reading this session"
          testId="session-issues"
        />
      ) : null}
      {params.get("compare") || params.get("whatif") ? (
        <CompareView agentId={agentId} sessionId={sessionId} params={params} />
      ) : null}
      <Tabs tabs={TAB_DEFS} active={tab} label="Session views" onSelect={(k) => switchTab(k)} />
      <div className="tab-panel" role="tabpanel" aria-label={label} data-testid={`panel-${tab}`}>
        {/* the tab's name as the outline's level 2 (the tab strip shows it): its cards' h3 follow in order */}
        <h2 className="sr-only">{label}</h2>
        <View agentId={agentId} sessionId={sessionId} params={params} />
      </div>
    </section>
  );
}
