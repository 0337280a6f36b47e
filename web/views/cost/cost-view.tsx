// Cache & cost: totals and hit rates, per-call table with the cache verdict and its evidence, gap and
// pruning-round costs, counterfactuals, heartbeat flags. URL state: call=<entry index> (selected row).

import { useQuery } from "@tanstack/react-query";
import type {
  CacheVerdict,
  CostCallDTO,
  CostReportDTO,
  CostTotalsDTO,
  CounterfactualDTO,
} from "../../../shared/cost.ts";
import { costQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { fmtDuration, fmtInt, fmtPct, fmtUsd } from "../../ui/format.ts";
import { Stat } from "../../ui/stat.tsx";
import { QueryPanel } from "../../ui/status.tsx";
import { type Column, Table } from "../../ui/table.tsx";
import type { SessionTabProps } from "../session-tab.ts";

export function CostView({ agentId, sessionId, params }: SessionTabProps) {
  const query = useQuery(costQuery(agentId, sessionId));
  const sel = params.get("ccall");
  return (
    <QueryPanel query={query} label="the cost report">
      {(dto) => <CostPanel dto={dto} selected={sel} />}
    </QueryPanel>
  );
}

const VERDICT_CLASS: Partial<Record<CacheVerdict, string>> = {
  hit: "badge-ok",
  "cold-start": "",
  "ttl-expired": "badge-error",
  "prefix-changed": "badge-archived",
  "model-switch": "badge-archived",
  "below-minimum": "",
  unexplained: "badge-error",
};

function Totals({ t, label, testId }: { t: CostTotalsDTO; label: string; testId: string }) {
  return (
    <div className="card" data-testid={testId}>
      <h3>{label}</h3>
      <div className="stats">
        <Stat
          label="cost"
          value={fmtUsd(t.costUsd)}
          title={t.unpricedCalls > 0 ? `${t.unpricedCalls} call(s) unpriced (not included)` : undefined}
        />
        <Stat label="calls" value={fmtInt(t.calls)} />
        <Stat
          label="read hit rate"
          value={fmtPct(t.hitRate)}
          title="cacheRead / (input + cacheRead + cacheWrite), buckets summed first"
        />
        <Stat
          label="write-aware hit rate"
          value={fmtPct(t.writeAwareHitRate)}
          title="(1 − r) / 0.9 — 1 = all read, 0 = no caching, negative = writes cost more than they saved"
        />
        <Stat label="input" value={fmtInt(t.input)} />
        <Stat label="cache read" value={fmtInt(t.cacheRead)} />
        <Stat
          label="cache write"
          value={fmtInt(t.cacheWrite)}
          title={`${fmtInt(t.cacheWrite1h)} in the 1-hour tier`}
        />
        <Stat label="output" value={fmtInt(t.output)} />
        {t.unpricedCalls > 0 ? <Stat label="unpriced calls" value={fmtInt(t.unpricedCalls)} /> : null}
        {t.transcriptOnlyExcluded > 0 ? (
          <Stat label="transcript-only excluded" value={fmtInt(t.transcriptOnlyExcluded)} />
        ) : null}
      </div>
    </div>
  );
}

function CostPanel({ dto, selected }: { dto: CostReportDTO; selected: string | null }) {
  const callKey = (c: CostCallDTO) => String(c.entryIndex);
  const sel = dto.calls.find((c) => callKey(c) === selected) ?? null;
  const cols: Column<CostCallDTO>[] = [
    {
      key: "n",
      label: "#",
      align: "right",
      render: (c) => dto.calls.indexOf(c) + 1,
      sortValue: (c) => c.entryIndex,
    },
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
      render: (c) => fmtDuration(c.gapMs),
      sortValue: (c) => c.gapMs,
    },
    {
      key: "verdict",
      label: "Verdict",
      render: (c) => (
        <span className={`badge ${VERDICT_CLASS[c.verdict] ?? ""}`} title={c.evidence.summary}>
          {c.verdict}
          {c.evidence.cause ? `: ${c.evidence.cause}` : ""}
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
      render: (c) => `${fmtInt(c.cacheWrite)}${c.writeTier.tier === "1h" ? " (1h)" : ""}`,
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
      render: (c) => fmtPct(c.hitRate, 0),
      sortValue: (c) => c.hitRate,
    },
    {
      key: "cost",
      label: "Cost",
      align: "right",
      render: (c) => (
        <span title={`${c.costSource}${c.priceSource ? `: ${c.priceSource}` : ""}`}>{fmtUsd(c.costUsd)}</span>
      ),
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
        c.heartbeat ? (
          <span className="badge" title={c.heartbeatSignals.join("; ")}>
            heartbeat
          </span>
        ) : null,
    },
  ];
  return (
    <div className="cost-view">
      <div className="grid-2">
        <Totals t={dto.totals} label="Session totals" testId="cost-totals" />
        <Totals t={dto.activeBranchTotals} label="Active branch" testId="cost-branch-totals" />
      </div>
      <p className="muted small" data-testid="cost-retention">
        Cache retention: {dto.retention.value ?? "unknown"} ({dto.retention.source}); lifetime{" "}
        {fmtDuration(dto.retention.cacheTtlMs)} ({dto.retention.ttlSource})
      </p>
      {dto.heartbeat.flags.length > 0 ? (
        <ul className="warn-note small" data-testid="cost-heartbeat-flags">
          {dto.heartbeat.flags.map((f) => (
            <li key={f.kind} className={f.severity === "warning" ? "error-text" : undefined}>
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      {dto.notes.length > 0 ? (
        <ul className="note small" data-testid="cost-notes">
          {dto.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <Table
        testId="cost-calls-table"
        columns={cols}
        rows={dto.calls}
        rowKey={callKey}
        rowTestId={(c) => `cost-call-row-${c.entryIndex}`}
        rowClass={(c) => (c.onActiveBranch ? undefined : "archived")}
        onRowClick={(c) =>
          setParams({ ccall: callKey(c) === selected ? null : callKey(c) }, { replace: true })
        }
        selectedKey={selected}
        caption="Model calls — click a row for the verdict's evidence"
        empty="No model calls with usage."
      />
      {sel ? <Evidence call={sel} /> : null}
      <Counterfactuals rows={dto.counterfactuals} />
      <div className="grid-2">
        {dto.gapCosts.length > 0 ? (
          <Table
            testId="cost-gap-table"
            caption="Cache expiries (idle gap > lifetime)"
            columns={[
              {
                key: "gap",
                label: "Gap",
                align: "right",
                render: (g) => fmtDuration(g.gapMs),
                sortValue: (g) => g.gapMs,
              },
              { key: "ttl", label: "Lifetime", align: "right", render: (g) => fmtDuration(g.cacheTtlMs) },
              {
                key: "tok",
                label: "Rewritten tok",
                align: "right",
                render: (g) => fmtInt(g.rewrittenTokens),
                sortValue: (g) => g.rewrittenTokens,
              },
              {
                key: "usd",
                label: "Premium",
                align: "right",
                render: (g) => fmtUsd(g.premiumUsd),
                sortValue: (g) => g.premiumUsd,
              },
            ]}
            rows={dto.gapCosts}
            rowKey={(g) => `${g.callEntryId}-${g.gapMs}`}
          />
        ) : null}
        {dto.pruningRounds.length > 0 ? (
          <Table
            testId="cost-pruning-table"
            caption="Pruning rounds: rewrite cost vs estimated savings"
            columns={[
              { key: "chars", label: "Chars removed", align: "right", render: (r) => fmtInt(r.charsRemoved) },
              { key: "rw", label: "Rewrite tok", align: "right", render: (r) => fmtInt(r.rewriteTokens) },
              {
                key: "rwusd",
                label: "Rewrite cost",
                align: "right",
                render: (r) => fmtUsd(r.rewriteCostUsd),
              },
              {
                key: "saved",
                label: "Est. saved",
                align: "right",
                render: (r) => (
                  <span title={r.note}>
                    {fmtUsd(r.estSavedUsd)} over {r.laterCalls} calls
                  </span>
                ),
              },
            ]}
            rows={dto.pruningRounds}
            rowKey={(r) => r.callEntryId}
          />
        ) : null}
      </div>
    </div>
  );
}

function Evidence({ call }: { call: CostCallDTO }) {
  const e = call.evidence;
  const rows: [string, string][] = [
    ["previous call (lineage)", e.previousCallEntryId ?? "none"],
    ["gap to it", fmtDuration(e.lineageGapMs)],
    ["cache lifetime", `${fmtDuration(e.cacheTtlMs)} (${e.cacheTtlSource})`],
    ["expected read", fmtInt(e.expectedRead)],
    ["actual read", fmtInt(call.cacheRead)],
    ["miss deficit", fmtInt(e.missDeficit)],
    ["new suffix", fmtInt(e.newSuffix)],
    ["tolerance", fmtInt(e.toleranceTokens)],
    ["min cacheable", fmtInt(e.minCacheableTokens)],
    ["write tier", `${call.writeTier.tier} (${call.writeTier.source})`],
    ["cost source", `${call.costSource}${call.priceSource ? ` — ${call.priceSource}` : ""}`],
    ["recorded / computed cost", `${fmtUsd(call.recordedCostUsd)} / ${fmtUsd(call.computedCostUsd)}`],
  ];
  return (
    <div className="card" data-testid="cost-evidence">
      <h3>
        <span className={`badge ${VERDICT_CLASS[call.verdict] ?? ""}`}>{call.verdict}</span> {e.summary}
      </h3>
      <table className="table">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {e.alsoMatched.length > 0 ? <p className="small">Also matched: {e.alsoMatched.join(", ")}</p> : null}
      {e.signalEntryIds.length > 0 ? (
        <p className="small mono muted">Signal entries: {e.signalEntryIds.join(", ")}</p>
      ) : null}
      {e.writeCounterMissing ? (
        <p className="warn-note small">
          This provider reports no cache-write counter: "0 written" means unknown.
        </p>
      ) : null}
      {call.oneHourWriteCorrectionUsd ? (
        <p className="small">1-hour write correction: {fmtUsd(call.oneHourWriteCorrectionUsd)}</p>
      ) : null}
    </div>
  );
}

function Counterfactuals({ rows }: { rows: CounterfactualDTO[] }) {
  if (rows.length === 0) return null;
  return (
    <Table
      testId="cost-counterfactuals"
      caption="What if…"
      columns={[
        { key: "label", label: "Scenario", render: (r) => r.label },
        { key: "cost", label: "Cost", align: "right", render: (r) => fmtUsd(r.costUsd) },
        {
          key: "delta",
          label: "Δ vs as run",
          align: "right",
          render: (r) =>
            r.deltaUsd === null ? (
              "—"
            ) : (
              <span
                className={r.deltaUsd > 0 ? "error-text" : "badge-ok"}
              >{`${r.deltaUsd > 0 ? "+" : ""}${fmtUsd(r.deltaUsd)}`}</span>
            ),
        },
        {
          key: "assume",
          label: "Assumptions",
          render: (r) => <span className="small muted">{r.assumptions.join(" · ")}</span>,
        },
      ]}
      rows={rows}
      rowKey={(r) => r.id}
      rowTestId={(r) => `counterfactual-${r.id}`}
    />
  );
}
