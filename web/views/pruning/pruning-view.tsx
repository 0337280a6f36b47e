// Cache-TTL pruning replay: what-if controls for every setting (URL parameters, debounced refetch of /prune),
// the timeline, the selected call's tool results, and the next-call prediction.
// URL state: every PRUNE_PARAM_KEYS entry, axis=time|index, call=<index>.

import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import type { PruneCallDTO, PruneReplayDTO, PruneToolResultDTO } from "../../../shared/prune.ts";
import { PRUNE_PARAM_KEYS, type PruneParams } from "../../../shared/prune-params.ts";
import type { AxisMode } from "../../../shared/timeline-scales.ts";
import { pruneCallQuery, prunePreviewQuery, pruneQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { useElementWidth } from "../../treemap/use-size.ts";
import { fmtDate, fmtDuration, fmtInt, fmtPct } from "../../ui/format.ts";
import { Stat } from "../../ui/stat.tsx";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import { UrlField } from "../../ui/url-field.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { Timeline } from "./timeline.tsx";

export function readPruneParams(params: URLSearchParams): PruneParams {
  const p: PruneParams = {};
  for (const k of PRUNE_PARAM_KEYS) {
    const v = params.get(k);
    if (v !== null && v !== "") p[k] = v;
  }
  return p;
}

export function PruningView({ agentId, sessionId, params }: SessionTabProps) {
  const p = readPruneParams(params);
  const query = useQuery(pruneQuery(agentId, sessionId, p));
  const axis: AxisMode = params.get("axis") === "index" ? "index" : "time";
  const callParam = params.get("call");
  const selected = callParam === null ? null : Number(callParam);
  return (
    <div className="pruning-view">
      <PruneControls dto={query.data} p={p} fetching={query.isFetching} />
      {query.data ? (
        <PrunePanel
          dto={query.data}
          axis={axis}
          selected={selected !== null && Number.isInteger(selected) ? selected : null}
          agentId={agentId}
          sessionId={sessionId}
          p={p}
          previewId={params.get("tr")}
        />
      ) : query.error ? (
        <ErrorPanel error={query.error} title="Could not replay pruning" retry={() => void query.refetch()} />
      ) : (
        <Loading label="Replaying pruning…" />
      )}
      {query.data && query.error ? (
        <ErrorPanel error={query.error} title="The what-if values were rejected" />
      ) : null}
    </div>
  );
}

function PruneControls({
  dto,
  p,
  fetching,
}: {
  dto: PruneReplayDTO | undefined;
  p: PruneParams;
  fetching: boolean;
}) {
  const st = dto?.settings;
  const src = (k: string) => (st?.sources[k] ? ` [${st.sources[k]}]` : "");
  const num = (
    k: keyof PruneParams,
    label: string,
    current: number | undefined,
    sourceKey: string,
    step = "1",
  ) => (
    <UrlField
      param={k}
      value={p[k] ?? null}
      label={`${label}${src(sourceKey)}`}
      type="number"
      step={step}
      placeholder={current === undefined ? "" : String(current)}
      testId={`prune-${k}`}
    />
  );
  const anySet = PRUNE_PARAM_KEYS.some((k) => p[k] !== undefined);
  return (
    <details className="card" open data-testid="prune-whatif">
      <summary>
        <strong>What-if settings</strong>{" "}
        <span className="muted small">(empty = as configured; placeholders show the values in effect)</span>
      </summary>
      <div className="controls">
        <label>
          algorithm
          <select
            value={p.algorithm ?? ""}
            aria-label="algorithm"
            data-testid="prune-algorithm"
            onChange={(e) => setParams({ algorithm: e.target.value || null }, { replace: true })}
          >
            <option value="">auto{dto ? ` (${dto.algorithm})` : ""}</option>
            <option value="2026.3">2026.3.x</option>
            <option value="2026.7">2026.7.x</option>
            <option value="2026.9">2026.9.x</option>
          </select>
        </label>
        <label>
          mode{src("mode")}
          <select
            value={p.mode ?? ""}
            aria-label="mode"
            data-testid="prune-mode"
            onChange={(e) => setParams({ mode: e.target.value || null }, { replace: true })}
          >
            <option value="">as configured{st ? ` (${st.mode})` : ""}</option>
            <option value="cache-ttl">cache-ttl</option>
            <option value="off">off</option>
          </select>
        </label>
        <UrlField
          param="ttl"
          value={p.ttl ?? null}
          label={`ttl${src("ttl")}`}
          placeholder={st ? (st.ttlRaw ?? fmtDuration(st.ttlMs)) : "5m"}
          testId="prune-ttl"
          title="Duration: 5m, 1h30m, 20s; a bare number = minutes; 0 disables rounds"
        />
        {num("keepLastAssistants", "keepLastAssistants", st?.keepLastAssistants, "keepLastAssistants")}
        {num("softTrimRatio", "softTrimRatio", st?.softTrimRatio, "softTrimRatio", "0.05")}
        {num("hardClearRatio", "hardClearRatio", st?.hardClearRatio, "hardClearRatio", "0.05")}
        {num(
          "minPrunableToolChars",
          "minPrunableToolChars",
          st?.minPrunableToolChars,
          "minPrunableToolChars",
        )}
        {num("softTrimMaxChars", "softTrim.maxChars", st?.softTrim.maxChars, "softTrim.maxChars")}
        {num("softTrimHeadChars", "softTrim.headChars", st?.softTrim.headChars, "softTrim.headChars")}
        {num("softTrimTailChars", "softTrim.tailChars", st?.softTrim.tailChars, "softTrim.tailChars")}
        <label>
          hardClear{src("hardClear.enabled")}
          <select
            value={p.hardClear ?? ""}
            aria-label="hardClear"
            data-testid="prune-hardClear"
            onChange={(e) => setParams({ hardClear: e.target.value || null }, { replace: true })}
          >
            <option value="">as configured{st ? ` (${st.hardClear.enabled ? "on" : "off"})` : ""}</option>
            <option value="on">on</option>
            <option value="off">off</option>
          </select>
        </label>
        <UrlField
          param="placeholder"
          value={p.placeholder ?? null}
          label={`placeholder${src("hardClear.placeholder")}`}
          placeholder={st?.hardClear.placeholder}
          testId="prune-placeholder"
        />
        <UrlField
          param="allow"
          value={p.allow ?? null}
          label={`tools.allow${src("tools.allow")}`}
          placeholder={st?.tools.allow.join(",") || "(all)"}
          testId="prune-allow"
          title="Comma-separated tool globs"
        />
        <UrlField
          param="deny"
          value={p.deny ?? null}
          label={`tools.deny${src("tools.deny")}`}
          placeholder={st?.tools.deny.join(",") || "(none)"}
          testId="prune-deny"
          title="Comma-separated tool globs"
        />
        {num("contextWindow", "context window (tokens)", dto?.contextWindowTokens, "contextWindow")}
        <button
          type="button"
          data-testid="prune-reset"
          disabled={!anySet}
          onClick={() =>
            setParams(Object.fromEntries(PRUNE_PARAM_KEYS.map((k) => [k, null])), { replace: true })
          }
        >
          Reset
        </button>
        {fetching && dto ? <span className="muted small">replaying…</span> : null}
      </div>
    </details>
  );
}

function PrunePanel({
  dto,
  axis,
  selected,
  agentId,
  sessionId,
  p,
  previewId,
}: {
  dto: PruneReplayDTO;
  axis: AxisMode;
  selected: number | null;
  agentId: string;
  sessionId: string;
  p: PruneParams;
  previewId: string | null;
}) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const call = selected !== null ? (dto.calls[selected] ?? null) : null;
  const expired = dto.calls.filter((c) => c.ttlExpired).length;
  const red = useRedactor();
  return (
    <>
      <div className="card stats" data-testid="prune-summary">
        <Stat
          label="algorithm"
          value={dto.algorithm}
          title={dto.algorithmReason}
          testId="prune-algorithm-used"
        />
        <Stat label="path" value={dto.eligibility.path} title={dto.eligibility.reason} />
        <Stat label="mode" value={dto.settings.mode} />
        <Stat label="TTL" value={dto.settings.ttlMs > 0 ? fmtDuration(dto.settings.ttlMs) : "off"} />
        <Stat
          label="window"
          value={`${fmtInt(dto.contextWindowTokens)} tok`}
          title={dto.contextWindowSource}
        />
        <Stat label="char window" value={fmtInt(dto.charWindow)} />
        <Stat label="model calls" value={fmtInt(dto.calls.length)} />
        <Stat label="TTL-expired calls" value={fmtInt(expired)} />
        <Stat label="pruning rounds" value={fmtInt(dto.rounds)} testId="prune-rounds" />
        <Stat label="snapshot mismatches" value={fmtInt(dto.snapshotMismatchCalls)} />
      </div>
      <p className="muted small">{red.sentence(dto.eligibility.reason)}</p>
      {[...dto.warnings, ...dto.settings.warnings].length > 0 ? (
        <ul className="warn-note small" data-testid="prune-warnings">
          {[...dto.warnings, ...dto.settings.warnings].map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <NextCall dto={dto} />
      <div className="card" ref={box}>
        <div className="toolbar">
          <h3>Timeline</h3>
          <fieldset className="segmented" aria-label="Time axis">
            <button
              type="button"
              aria-pressed={axis === "time"}
              className={axis === "time" ? "active" : undefined}
              onClick={() => setParams({ axis: null }, { replace: true })}
              data-testid="axis-time"
            >
              real time
            </button>
            <button
              type="button"
              aria-pressed={axis === "index"}
              className={axis === "index" ? "active" : undefined}
              onClick={() => setParams({ axis: "index" }, { replace: true })}
              data-testid="axis-index"
            >
              call index
            </button>
          </fieldset>
          <span className="muted small">
            ● none <span style={{ color: "rgb(214,140,40)" }}>● soft-trim</span>{" "}
            <span style={{ color: "rgb(196,64,64)" }}>● hard-clear</span> ◯ TTL expired — click a call
          </span>
        </div>
        {dto.calls.length === 0 ? (
          <p className="muted">No model calls in this session.</p>
        ) : (
          <Timeline
            dto={dto}
            width={width - 28}
            axis={axis}
            selected={selected}
            onSelect={(i) => setParams({ call: i === selected ? null : String(i) }, { replace: true })}
          />
        )}
      </div>
      {call && selected !== null ? (
        <CallDetails
          call={call}
          index={selected}
          agentId={agentId}
          sessionId={sessionId}
          whatIf={p}
          previewId={previewId}
        />
      ) : null}
      <CallsTable dto={dto} selected={selected} />
    </>
  );
}

function NextCall({ dto }: { dto: PruneReplayDTO }) {
  const n = dto.next;
  return (
    <div className={`card ${n.wouldPrune ? "warn-note" : ""}`} data-testid="prune-next">
      <div className="toolbar">
        <h3>Next call</h3>
        <label className="small">
          at{" "}
          <input
            type="datetime-local"
            step={1}
            aria-label="Next call time"
            data-testid="prune-at"
            value={toLocalInput(n.at)}
            onChange={(e) => {
              const ms = new Date(e.target.value).getTime();
              setParams({ at: Number.isFinite(ms) ? String(ms) : null }, { replace: true });
            }}
          />
        </label>
        <button
          type="button"
          data-testid="prune-at-now"
          onClick={() => setParams({ at: null }, { replace: true })}
        >
          now
        </button>
      </div>
      <p data-testid="prune-next-prediction">
        <strong>{n.wouldPrune ? `Would prune (${n.round})` : "Would not prune"}</strong> — {n.prediction}
      </p>
      <div className="stats">
        <Stat
          label="TTL expires in"
          value={
            n.msUntilTtlExpiry === null
              ? "—"
              : n.msUntilTtlExpiry < 0
                ? `expired ${fmtDuration(-n.msUntilTtlExpiry)} ago`
                : fmtDuration(n.msUntilTtlExpiry)
          }
        />
        <Stat label="last cache touch" value={fmtDate(n.lastCacheTouchAt)} />
        <Stat label="gate" value={n.gate} />
        <Stat label="chars / window" value={`${fmtInt(n.totalChars)} (${fmtPct(n.ratio)})`} />
        <Stat label="after" value={`${fmtInt(n.totalCharsAfter)} (${fmtPct(n.ratioAfter)})`} />
      </div>
    </div>
  );
}

function toLocalInput(ms: number): string {
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const STATE_BADGE = { full: "badge-ok", "soft-trim": "badge-archived", "hard-clear": "badge-error" } as const;

function CallDetails({
  call,
  index,
  agentId,
  sessionId,
  whatIf,
  previewId,
}: {
  call: PruneCallDTO;
  index: number;
  agentId: string;
  sessionId: string;
  whatIf: PruneParams;
  previewId: string | null;
}) {
  const red = useRedactor();
  // The replay comes without per-call tool-result states (calls=summary); this call's are fetched on their own.
  const detail = useQuery(pruneCallQuery(agentId, sessionId, whatIf, index));
  const rows = detail.data?.index === index ? detail.data.details : [];
  const cols: Column<PruneToolResultDTO>[] = [
    {
      key: "tool",
      label: "Tool",
      render: (r) => <span className="mono">{r.toolName}</span>,
      sortValue: (r) => r.toolName,
    },
    {
      key: "id",
      label: "toolCallId",
      render: (r) => <span className="mono small">{red.id(r.toolCallId)}</span>,
    },
    {
      key: "state",
      label: "Wire state",
      render: (r) => (
        <span className={`badge ${STATE_BADGE[r.state]}`}>
          {r.state}
          {r.changedThisCall ? " (now)" : ""}
        </span>
      ),
      sortValue: (r) => r.state,
    },
    {
      key: "full",
      label: "Before (stored)",
      align: "right",
      render: (r) => fmtInt(r.charsFull),
      sortValue: (r) => r.charsFull,
    },
    {
      key: "sent",
      label: "After (sent)",
      align: "right",
      render: (r) => fmtInt(r.charsSent),
      sortValue: (r) => r.charsSent,
    },
    {
      key: "range",
      label: "Prunable",
      render: (r) => (
        <span className="small">
          {r.inPrunableRange ? "in range" : "protected"}
          {r.toolAllowed ? "" : ", tool excluded"}
          {r.liveFormMayDiffer ? ", live form may differ" : ""}
        </span>
      ),
    },
  ];
  return (
    <div className="card" data-testid="prune-call-details">
      <h3>
        Call #{index + 1} — {fmtDate(call.timestamp)}
      </h3>
      <p>
        <span className="badge">{call.gate}</span> {call.gateText}
      </p>
      <div className="stats">
        <Stat label="idle before" value={fmtDuration(call.idleMs)} />
        <Stat label="TTL expired" value={call.ttlExpired ? "yes" : "no"} />
        <Stat label="round" value={call.round} />
        <Stat
          label="chars before → after"
          value={`${fmtInt(call.totalCharsBefore)} → ${fmtInt(call.totalCharsAfter)}`}
        />
        <Stat label="ratio" value={`${fmtPct(call.ratioBefore)} → ${fmtPct(call.ratioAfter)}`} />
        <Stat label="removed" value={fmtInt(call.charsRemoved)} />
        <Stat label="messages" value={fmtInt(call.messageCount)} />
        <Stat label="snapshot" value={call.snapshotCheck.status} />
      </div>
      {call.flags.length > 0 ? (
        <ul className="warn-note small">
          {call.flags.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      ) : null}
      {call.snapshotCheck.mismatches.length > 0 ? (
        <p className="error-text small">
          Snapshot disagrees:{" "}
          {call.snapshotCheck.mismatches
            .map((m) => `${m.toolCallId ?? m.key}: replay ${m.replay}, snapshot ${m.snapshot}`)
            .join("; ")}
        </p>
      ) : null}
      {detail.isError ? (
        <ErrorPanel error={detail.error} title="Tool results of this call unavailable" />
      ) : null}
      {detail.isPending ? <Loading label="Loading the tool results of this call…" /> : null}
      <Table
        testId="prune-tool-results"
        columns={cols}
        rows={rows}
        rowKey={(r) => r.toolCallId}
        rowTestId={(r) => `prune-tool-result-${r.toolCallId}`}
        onRowClick={(r) =>
          setParams({ tr: r.toolCallId === previewId ? null : r.toolCallId }, { replace: true })
        }
        caption="Tool results at this call — click one for its before/after text"
        empty="No tool results in context."
      />
      {previewId ? (
        <ToolResultPreview
          agentId={agentId}
          sessionId={sessionId}
          whatIf={whatIf}
          callIndex={index}
          toolCallId={previewId}
        />
      ) : null}
      <p className="muted small">
        Sizes are OpenClaw's pruning estimate (weighted chars), before and after this call's projection.
      </p>
    </div>
  );
}

/** Stored text vs the text sent at this call (head … tail + trim note, or the placeholder). */
function ToolResultPreview(props: {
  agentId: string;
  sessionId: string;
  whatIf: PruneParams;
  callIndex: number;
  toolCallId: string;
}) {
  const red = useRedactor();
  const q = useQuery(
    prunePreviewQuery(props.agentId, props.sessionId, props.whatIf, props.callIndex, props.toolCallId),
  );
  if (q.isPending) return <Loading label="Loading the tool result preview…" />;
  if (q.isError)
    return <ErrorPanel error={q.error} title="Tool result preview failed" retry={() => void q.refetch()} />;
  const p = q.data;
  return (
    <div className="preview-pair" data-testid="prune-preview">
      <p className="small">
        <span className="mono">{p.toolName}</span>{" "}
        <span className={`badge ${STATE_BADGE[p.state]}`}>{p.state}</span> {p.note}
      </p>
      <div className="preview-columns">
        <figure>
          <figcaption className="small muted">
            stored in the transcript ({fmtInt(p.before.length)} chars)
          </figcaption>
          <pre className="preview-text" data-testid="prune-preview-before">
            {red.block(p.before)}
          </pre>
        </figure>
        <figure>
          <figcaption className="small muted">
            sent at call #{props.callIndex + 1} ({fmtInt(p.after.length)} chars)
          </figcaption>
          <pre className="preview-text" data-testid="prune-preview-after">
            {red.block(p.after)}
          </pre>
        </figure>
      </div>
    </div>
  );
}

function CallsTable({ dto, selected }: { dto: PruneReplayDTO; selected: number | null }) {
  type Row = PruneCallDTO & { i: number };
  const rows: Row[] = dto.calls.map((c, i) => ({ ...c, i }));
  const cols: Column<Row>[] = [
    { key: "i", label: "#", align: "right", render: (r) => r.i + 1, sortValue: (r) => r.i },
    { key: "time", label: "Time", render: (r) => fmtDate(r.timestamp), sortValue: (r) => r.timestamp },
    {
      key: "idle",
      label: "Idle",
      align: "right",
      render: (r) => <span className={r.ttlExpired ? "error-text" : undefined}>{fmtDuration(r.idleMs)}</span>,
      sortValue: (r) => r.idleMs,
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
  return (
    <Table
      testId="prune-calls-table"
      columns={cols}
      rows={rows}
      rowKey={(r) => String(r.i)}
      rowTestId={(r) => `prune-call-row-${r.i}`}
      onRowClick={(r) => setParams({ call: r.i === selected ? null : String(r.i) }, { replace: true })}
      selectedKey={selected === null ? null : String(selected)}
      caption="Model calls"
    />
  );
}
