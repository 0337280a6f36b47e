// The landing page (issue 14 §1): where the money went across every session — total spend, calls, hit rate, miss
// cost and its share; spend by day stacked by cost kind; by agent; by model; the top sessions by cost and by miss
// cost, each linked to its session. Filters (since, until, agent, model, tz) and the archived switch live in the
// URL. The numbers come from GET /api/overview, which answers while a large state dir is still scanned: the page
// shows the sessions done so far with a progress bar. The session list follows below.

import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type {
  OverviewAgentDTO,
  OverviewCauseDTO,
  OverviewDTO,
  OverviewModelDTO,
  OverviewResponseDTO,
  OverviewSessionDTO,
} from "../../../shared/overview.ts";
import { SPEND_CAUSE_TEXT } from "../../../shared/spend-causes.ts";
import { type OverviewParams, overviewQuery } from "../../api/queries.ts";
import { hrefWithGlobals, onLinkClick, sessionPath, setParams } from "../../router.ts";
import { Stat } from "../../ui/stat.tsx";
import { QueryPanel } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import { SessionsView } from "../sessions/sessions-view.tsx";
import { AdviceCards } from "./advice-cards.tsx";
import { costText, missCostText } from "./cost-text.ts";
import { DayChart } from "./day-chart.tsx";
import { OverviewFilters } from "./filters.tsx";
import "./overview.css";

/** The filter in the URL (the archived switch is the session list's own `archived=1`). */
export function overviewParams(params: URLSearchParams): OverviewParams {
  const get = (k: string) => params.get(k) ?? undefined;
  return {
    since: get("since"),
    until: get("until"),
    agent: get("agent"),
    model: get("model"),
    tz: get("tz"),
    archived: params.get("archived") === "1" ? "1" : "0",
  };
}

const TOP = 10;

export function OverviewView({ params }: { params: URLSearchParams }) {
  const p = overviewParams(params);
  const query = useQuery(overviewQuery(p));
  // The filters stay on screen while a filter is invalid (a From after the To, half typed): the error shows
  // below them, with the agent and model lists of the last overview that loaded.
  const lastGood = useRef<OverviewResponseDTO | null>(null);
  if (query.data) lastGood.current = query.data;
  const shown = lastGood.current;
  return (
    <>
      <section className="overview-view" aria-label="Where the money went" data-testid="overview">
        <div className="toolbar">
          <h1>Where the money went</h1>
        </div>
        {shown ? <OverviewFilters overview={shown.overview} params={params} /> : null}
        <QueryPanel query={query} label="overview">
          {(data) => <OverviewBody data={data} />}
        </QueryPanel>
      </section>
      <SessionsView params={params} />
    </>
  );
}

function OverviewBody({ data }: { data: OverviewResponseDTO }) {
  const { overview: o, progress } = data;
  return (
    <>
      {progress.state !== "ready" ? (
        <div className="note" role="status" data-testid="overview-progress">
          Scanning sessions: {fmtInt(progress.done)} / {fmtInt(progress.total)} — the figures below cover the
          sessions scanned so far.{" "}
          <progress value={progress.done} max={Math.max(progress.total, 1)} aria-label="Sessions scanned" />
        </div>
      ) : null}
      <Headline o={o} />
      {o.leftOut.length > 0 ? (
        <details className="note small" data-testid="overview-left-out">
          <summary>
            {fmtInt(o.leftOut.length)} backup / checkpoint cop{o.leftOut.length === 1 ? "y" : "ies"} left out
            of the totals: their calls are another transcript's
          </summary>
          <ul>
            {o.leftOut.map((c) => (
              <li key={`${c.agentId}/${c.sessionId}`}>
                <code>{c.location}</code> — {c.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <AdviceCards advice={o.advice} lead={3} />
      <div className="card">
        <h2>Where the money went</h2>
        <p className="muted small">
          Every call of the sessions above, by its cause (each session's Cache & cost tab lists its calls).
        </p>
        <CauseTable rows={o.byCause} total={o.totals.costUsd} />
      </div>
      <div className="card">
        <h2>Spend by day ({o.filter.timeZone})</h2>
        <DayChart days={o.byDay} onPickDay={(day) => setParams({ since: day, until: day })} />
        {o.byDay.some((d) => d.day === null) ? (
          <p className="muted small" data-testid="overview-undated">
            Calls without a timestamp: {costText(o.byDay.find((d) => d.day === null) ?? o.totals)} (not in the
            chart).
          </p>
        ) : null}
      </div>
      <div className="grid-2">
        <div className="card">
          <h2>By agent</h2>
          <AgentTable rows={o.byAgent} />
        </div>
        <div className="card">
          <h2>By model</h2>
          <ModelTable rows={o.byModel} />
        </div>
      </div>
      <div className="grid-2">
        <div className="card">
          <h2>Top sessions by cost</h2>
          <SessionTable rows={o.sessions.slice(0, TOP)} testId="overview-top-cost" />
        </div>
        <div className="card">
          <h2>Top sessions by miss cost</h2>
          <SessionTable
            rows={[...o.sessions]
              .filter((s) => s.missCostUsd > 0)
              .sort((a, b) => b.missCostUsd - a.missCostUsd)
              .slice(0, TOP)}
            testId="overview-top-miss"
          />
        </div>
      </div>
    </>
  );
}

function Headline({ o }: { o: OverviewDTO }) {
  const t = o.totals;
  return (
    <div className="card stats" data-testid="overview-totals">
      <Stat label="total spend" value={costText(t)} testId="overview-total-cost" />
      <Stat label="calls" value={fmtInt(t.calls)} />
      <Stat label="sessions" value={fmtInt(t.sessions)} />
      <Stat
        label="cache hit rate (write-aware)"
        value={`${fmtPct(t.hitRate)} (${fmtPct(t.writeAwareHitRate)})`}
        title="cacheRead / prompt tokens of the summed buckets; in brackets the spec's write-aware rate (cache-and-cost.md §5)"
      />
      <Stat
        label="miss cost"
        value={`${missCostText(t)}${t.missShare !== null ? ` (${fmtPct(t.missShare)} of spend)` : ""}`}
        title="What re-writing the missed prefix cost over reading it, summed over every call (each session's Cache & cost tab shows the calls)"
        testId="overview-miss-cost"
      />
    </div>
  );
}

function SessionLink({ s }: { s: OverviewSessionDTO }) {
  const r = useRedactor();
  const href = hrefWithGlobals(sessionPath(s.agentId, s.sessionId), { tab: "cost" });
  return (
    <a href={href} onClick={(e) => onLinkClick(e, href)} className="session-link">
      {s.sessionKey ? r.sessionKey(s.sessionKey) : r.id(s.sessionId)}
    </a>
  );
}

function SessionTable({ rows, testId }: { rows: OverviewSessionDTO[]; testId: string }) {
  const r = useRedactor();
  const columns: Column<OverviewSessionDTO>[] = [
    { key: "session", label: "Session", render: (s) => <SessionLink s={s} /> },
    {
      key: "agent",
      label: "Agent",
      render: (s) => <span className="badge badge-agent">{r.agent(s.agentId)}</span>,
    },
    { key: "calls", label: "Calls", align: "right", render: (s) => fmtInt(s.calls) },
    { key: "cost", label: "Cost", align: "right", render: (s) => costText(s) },
    { key: "miss", label: "Miss cost", align: "right", render: (s) => missCostText(s) },
  ];
  return (
    <Table
      testId={testId}
      columns={columns}
      rows={rows}
      rowKey={(s) => `${s.agentId}/${s.sessionId}`}
      rowTestId={(s) => `${testId}-${s.agentId}/${s.sessionId}`}
      rowClass={(s) => (s.archived ? "archived" : undefined)}
      empty="No session in this range."
    />
  );
}

/** What every cut of the overview sums (agent, model, cause rows). */
interface CutSums {
  calls: number;
  costUsd: number;
  unpricedCalls: number;
  missCostUsd: number;
}

/** The calls / cost / miss-cost columns every cut shares. */
function sumColumns<T extends CutSums>(): Column<T>[] {
  return [
    { key: "calls", label: "Calls", align: "right", render: (x) => fmtInt(x.calls) },
    { key: "cost", label: "Cost", align: "right", render: (x) => costText(x) },
    { key: "miss", label: "Miss cost", align: "right", render: (x) => missCostText(x) },
  ];
}

/** One cut's table: its rows keyed and test-id'd by `id`. */
function CutTable<T extends CutSums>(props: {
  testId: string;
  rowPrefix: string;
  columns: Column<T>[];
  rows: T[];
  id: (row: T) => string;
}) {
  return (
    <Table
      testId={props.testId}
      columns={props.columns}
      rows={props.rows}
      rowKey={props.id}
      rowTestId={(x) => `${props.rowPrefix}-${props.id(x)}`}
      empty="No calls."
    />
  );
}

function AgentTable({ rows }: { rows: OverviewAgentDTO[] }) {
  const r = useRedactor();
  const columns: Column<OverviewAgentDTO>[] = [
    {
      key: "agent",
      label: "Agent",
      render: (a) => (
        <button type="button" className="link-button" onClick={() => setParams({ agent: a.agentId })}>
          {r.agent(a.agentId)}
        </button>
      ),
    },
    { key: "sessions", label: "Sessions", align: "right", render: (a) => fmtInt(a.sessions) },
    ...sumColumns<OverviewAgentDTO>(),
  ];
  return (
    <CutTable
      testId="overview-by-agent"
      rowPrefix="overview-agent"
      columns={columns}
      rows={rows}
      id={(a) => a.agentId}
    />
  );
}

function CauseTable({ rows, total }: { rows: OverviewCauseDTO[]; total: number }) {
  const columns: Column<OverviewCauseDTO>[] = [
    {
      key: "cause",
      label: "Cause",
      render: (c) => (
        <>
          <b>{c.cause}</b> <span className="muted small">{SPEND_CAUSE_TEXT[c.cause]}</span>
        </>
      ),
    },
    ...sumColumns<OverviewCauseDTO>(),
    {
      key: "share",
      label: "% of spend",
      align: "right",
      render: (c) => (total > 0 && c.unpricedCalls < c.calls ? fmtPct(c.costUsd / total) : "—"),
    },
  ];
  return (
    <CutTable
      testId="overview-by-cause"
      rowPrefix="overview-cause"
      columns={columns}
      rows={rows}
      id={(c) => c.cause}
    />
  );
}

function ModelTable({ rows }: { rows: OverviewModelDTO[] }) {
  const label = (m: OverviewModelDTO) => `${m.provider ?? "?"}/${m.model ?? "?"}`;
  const columns: Column<OverviewModelDTO>[] = [
    {
      key: "model",
      label: "Provider / model",
      render: (m) => (
        <button
          type="button"
          className="link-button mono small"
          onClick={() => setParams({ model: label(m) })}
        >
          {label(m)}
        </button>
      ),
    },
    ...sumColumns<OverviewModelDTO>(),
  ];
  return (
    <CutTable
      testId="overview-by-model"
      rowPrefix="overview-model"
      columns={columns}
      rows={rows}
      id={label}
    />
  );
}
