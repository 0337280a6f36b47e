// Plain-text renderings of the CLI results (without --json). Columns are padded for a terminal;
// the JSON form is the contract, this is for eyes.

import type { CostAllDTO, CostReportDTO, LeftOutCopyDTO } from "../../shared/cost.ts";
import { fmtDuration, fmtInt, fmtIsoSeconds, fmtPct, fmtUsd } from "../../shared/format.ts";
import type { OverviewDTO } from "../../shared/overview.ts";
import { promptTokensOf } from "../../shared/pricing.ts";
import type { PruneCallDTO, PruneLinearReplayDTO } from "../../shared/prune.ts";
import type { SessionSummary } from "../../shared/session.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Absent values print as "-" in the terminal tables (shared/format.ts does the rest). */
const iso = (ms: number | null): string => fmtIsoSeconds(ms, "-");
const pct = (x: number | null): string => fmtPct(x, 1, "-");
const usd = (x: number | null): string => fmtUsd(x, "-");

export function formatSessionsTable(sessions: SessionSummary[]): string {
  if (sessions.length === 0) return "no sessions found";
  return table(
    ["agent", "session", "key", "storage", "archived", "updated", "model", "entries", "errors"],
    sessions.map((s) => [
      s.agentId,
      s.sessionId,
      s.sessionKey ?? "-",
      s.storage,
      s.archived ?? "-",
      iso(s.updatedAt),
      s.model ? `${s.provider ?? "?"}/${s.model}` : "-",
      s.entryCount === null ? "-" : fmtInt(s.entryCount),
      String(s.parseErrorCount),
    ]),
  );
}

export function formatTruncation(r: TruncationReportDTO): string {
  const rows = r.files.map((f) => [
    f.name,
    f.status,
    fmtInt(f.rawChars),
    f.injectedChars === null ? "?" : fmtInt(f.injectedChars),
    f.removedPct === null ? "-" : `${f.removedPct}%`,
    f.displayCauses.join(", ") || "-",
    f.nearLimit ? "near limit" : "",
  ]);
  return [
    `max/file ${fmtInt(r.maxPerFile)} chars, max/total ${fmtInt(r.maxTotal)} chars`,
    table(["file", "status", "raw", "injected", "removed", "causes", "flag"], rows),
    `total: raw ${fmtInt(r.totals.rawChars)} -> injected ${r.totals.injectedChars === null ? "?" : fmtInt(r.totals.injectedChars)} chars`,
    // what the table rests on: another session's report, nothing recorded at all, the release's defaults
    ...(r.storedReport.owner ? [`note: ${r.storedReport.owner.note}`] : []),
    ...r.warnings.map((w) => `warning: ${w}`),
    ...r.notes.map((n) => `note: ${n}`),
  ].join("\n");
}

export function formatPrune(r: PruneLinearReplayDTO): string {
  const rows = r.calls.map((c) => {
    const n = c.toolResultStates;
    return [
      String(c.call),
      iso(c.timestamp),
      c.clockBack ?? fmtDuration(c.idleMs, "-"),
      c.ttlExpired ? "expired" : "",
      c.round,
      fmtInt(c.messageChars),
      `${n.full + n["soft-trim"] + n["hard-clear"]} (${n["soft-trim"]} soft, ${n["hard-clear"]} hard)`,
    ];
  });
  return [
    `algorithm ${r.algorithm} (${r.algorithmReason}); window ${fmtInt(r.contextWindowTokens)} tokens; mode ${r.settings.mode}`,
    table(["#", "time", "idle", "ttl", "round", "msg chars", "tool results"], rows),
    `next (a message at ${iso(r.next.at)}): ${r.next.prediction}`,
  ].join("\n");
}

export function formatPruneCall(call: number, c: PruneCallDTO): string {
  const rows = c.details.map((d) => [
    d.toolCallId,
    d.toolName,
    d.state,
    fmtInt(d.charsFull),
    fmtInt(d.charsSent),
    d.changedThisCall ? "changed" : "",
  ]);
  return [
    `call ${call} at ${iso(c.timestamp)}: round ${c.round}, ${c.gateText}; msg chars ${fmtInt(c.messageChars)}`,
    table(["tool call", "tool", "state", "chars", "sent", ""], rows),
  ].join("\n");
}

export function formatCost(r: CostReportDTO): string {
  const rows = r.calls.map((c, i) => [
    String(i + 1),
    c.timestamp ?? "-",
    c.model ?? "-",
    fmtInt(c.input),
    fmtInt(c.cacheRead),
    fmtInt(c.cacheWrite),
    fmtInt(c.output),
    usd(c.costUsd),
    pct(c.hitRate),
    c.verdict,
  ]);
  const t = r.totals;
  return [
    table(
      ["#", "time", "model", "input", "cacheRead", "cacheWrite", "output", "cost", "hit", "verdict"],
      rows,
    ),
    `totals: input ${fmtInt(t.input)}, cacheRead ${fmtInt(t.cacheRead)}, cacheWrite ${fmtInt(t.cacheWrite)}, output ${fmtInt(t.output)}, cost ${usd(t.costUsd)}, hit rate ${pct(t.hitRate)}`,
    "",
    "where the money went:",
    formatBreakdown(r),
  ].join("\n");
}

/** The spend by cause (issue 14 §2) and the unknown share of the miss cost. */
function formatBreakdown(r: CostReportDTO): string {
  const rows = r.breakdown.map((b) => [
    b.cause,
    String(b.calls),
    fmtInt(b.tokens),
    b.unpricedCalls === b.calls ? `unpriced (${b.calls} calls)` : usd(b.costUsd),
    pct(b.shareOfSpend),
    usd(b.missCostUsd),
  ]);
  const u = r.breakdownUnknown;
  const unknown =
    u.shareOfMissCost === null
      ? "no priced cache miss"
      : `unknown: ${usd(u.missCostUsd)} = ${pct(u.shareOfMissCost)} of the miss cost${u.wouldDecide.length > 0 ? `; would decide: ${u.wouldDecide.join("; ")}` : ""}`;
  return [table(["cause", "calls", "tokens", "cost", "of spend", "miss"], rows), unknown].join("\n");
}

export function formatCostAll(r: CostAllDTO): string {
  const rows = r.sessions.map((s) =>
    s.missing
      ? [s.agentId, s.sessionId, s.archived ?? "-", "-", "-", "-", "-", `transcript not found: ${s.location}`]
      : [
          s.agentId,
          s.sessionId,
          s.archived ?? "-",
          String(s.calls),
          fmtInt(promptTokensOf(s)),
          fmtInt(s.output),
          usd(s.costUsd),
          pct(s.hitRate),
        ],
  );
  const t = r.totals;
  const missing = r.sessions.filter((s) => s.missing).length;
  return [
    table(["agent", "session", "archived", "calls", "prompt tok", "output", "cost", "hit"], rows),
    `all sessions: ${t.calls} calls, cost ${usd(t.costUsd)}, hit rate ${pct(t.hitRate)}`,
    ...(missing > 0 ? [`${missing} session(s) without transcript: no numbers, not counted`] : []),
    ...leftOutLines(r.leftOut),
  ].join("\n");
}

/** A cost with its unpriced calls beside it: never `$0.00` for usage nobody priced. */
function usdWithUnpriced(costUsd: number, unpricedCalls: number, calls: number): string {
  if (unpricedCalls === 0) return usd(costUsd);
  const unpriced = `unpriced (${unpricedCalls} calls)`;
  return unpricedCalls === calls ? unpriced : `${usd(costUsd)} + ${unpriced}`;
}

/** The copies left out of the totals, with why (issue 13). */
function leftOutLines(copies: readonly LeftOutCopyDTO[]): string[] {
  return copies.map((c) => `left out: ${c.location} (${c.reason})`);
}

function missCost(t: OverviewDTO["totals"]): string {
  if (t.calls > 0 && t.unpricedCalls === t.calls) return "miss cost unpriced";
  return `miss cost ${usd(t.missCostUsd)} (${pct(t.missShare)} of spend)`;
}

export function formatOverview(r: OverviewDTO): string {
  const t = r.totals;
  const f = r.filter;
  const scope = [
    f.since || f.until
      ? `${f.since ?? "…"} to ${f.until ?? "…"} (${f.timeZone})`
      : `all days (${f.timeZone})`,
    f.agentId ? `agent ${f.agentId}` : "all agents",
    f.model ? `model ${f.model}` : "all models",
  ].join(", ");
  const cost = (x: { costUsd: number; unpricedCalls: number; calls: number }) =>
    usdWithUnpriced(x.costUsd, x.unpricedCalls, x.calls);
  return [
    `${scope}: ${t.sessions} sessions, ${t.calls} calls, ${cost(t)}, ${missCost(t)}, hit rate ${pct(t.hitRate)}`,
    "",
    table(
      ["day", "calls", "cost"],
      r.byDay.map((d) => [d.day ?? "no timestamp", String(d.calls), cost(d)]),
    ),
    "",
    table(
      ["agent", "sessions", "calls", "cost"],
      r.byAgent.map((a) => [a.agentId, String(a.sessions), String(a.calls), cost(a)]),
    ),
    "",
    table(
      ["provider/model", "calls", "cost"],
      r.byModel.map((m) => [`${m.provider ?? "?"}/${m.model ?? "?"}`, String(m.calls), cost(m)]),
    ),
    "",
    table(
      ["agent", "session", "key", "calls", "cost", "miss cost"],
      r.sessions
        .slice(0, 10)
        .map((s) => [
          s.agentId,
          s.sessionId,
          s.sessionKey ?? "-",
          String(s.calls),
          cost(s),
          s.calls > 0 && s.unpricedCalls === s.calls ? "unpriced" : usd(s.missCostUsd),
        ]),
    ),
    ...(r.advice.length > 0 ? ["", ...r.advice.map((a) => `advice (${a.agentId}): ${a.recommended}`)] : []),
    ...leftOutLines(r.leftOut),
  ].join("\n");
}
