// `export-calls` (issue 14 §5): one row per billed model call of every session of one or more state dirs, for
// DuckDB / ClickHouse / BigQuery. The rows are the per-session cost reports' calls (SessionService.cost: one
// price, one verdict, one miss cost per call), over the overview's sessions, so their sums equal `overview --json`.
// Schema: docs/export-calls.md (`export-calls/1`). CSV and NDJSON here; Parquet in calls-parquet.ts (lazy).

import type { SessionService } from "../service/session-service.ts";

export const EXPORT_CALLS_SCHEMA = "export-calls/1";

export interface CallRow {
  state_dir: string;
  agent_id: string;
  session_id: string;
  session_key: string | null;
  archived: string | null;
  entry_id: string | null;
  response_id: string | null;
  /** Request start, ms since the epoch (UTC). */
  started_at: number | null;
  gap_ms: number | null;
  provider: string | null;
  model: string | null;
  api: string | null;
  stop_reason: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  prompt_tokens: number;
  /** USD; null = unpriced (never 0 for "unknown"). */
  cost_usd: number | null;
  cost_source: string;
  price_source: string | null;
  miss_cost_usd: number | null;
  verdict: string;
  /** Where the call's money went: its one cause of the cost report's breakdown (`cost --json` calls[].cause). */
  cause: string;
  /** The call is a pruning round (soft-trim / hard-clear rewrote the prefix it sent). */
  pruning_round: boolean;
  heartbeat: boolean;
  on_active_branch: boolean;
  /** sha256 (16 hex) of the OpenClaw config the call was analysed under; null: no config. */
  config_hash: string | null;
}

/** Column names and kinds in file order (CSV header, Parquet schema). */
export const CALL_COLUMNS: readonly {
  name: keyof CallRow;
  kind: "string" | "timestamp" | "int" | "double" | "bool";
  nullable: boolean;
}[] = [
  { name: "state_dir", kind: "string", nullable: false },
  { name: "agent_id", kind: "string", nullable: false },
  { name: "session_id", kind: "string", nullable: false },
  { name: "session_key", kind: "string", nullable: true },
  { name: "archived", kind: "string", nullable: true },
  { name: "entry_id", kind: "string", nullable: true },
  { name: "response_id", kind: "string", nullable: true },
  { name: "started_at", kind: "timestamp", nullable: true },
  { name: "gap_ms", kind: "int", nullable: true },
  { name: "provider", kind: "string", nullable: true },
  { name: "model", kind: "string", nullable: true },
  { name: "api", kind: "string", nullable: true },
  { name: "stop_reason", kind: "string", nullable: true },
  { name: "input_tokens", kind: "int", nullable: false },
  { name: "output_tokens", kind: "int", nullable: false },
  { name: "cache_read_tokens", kind: "int", nullable: false },
  { name: "cache_write_tokens", kind: "int", nullable: false },
  { name: "cache_write_1h_tokens", kind: "int", nullable: false },
  { name: "prompt_tokens", kind: "int", nullable: false },
  { name: "cost_usd", kind: "double", nullable: true },
  { name: "cost_source", kind: "string", nullable: false },
  { name: "price_source", kind: "string", nullable: true },
  { name: "miss_cost_usd", kind: "double", nullable: true },
  { name: "verdict", kind: "string", nullable: false },
  { name: "cause", kind: "string", nullable: false },
  { name: "pruning_round", kind: "bool", nullable: false },
  { name: "heartbeat", kind: "bool", nullable: false },
  { name: "on_active_branch", kind: "bool", nullable: false },
  { name: "config_hash", kind: "string", nullable: true },
];

/** Every call of every session the overview counts (archived included, backups / checkpoints once). */
export function callRows(service: SessionService, stateDir: string): { rows: CallRow[]; errors: string[] } {
  const overview = service.overview({});
  if (!overview.ok) return { rows: [], errors: [overview.error.message] };
  const configHash = service.configHash();
  const rows: CallRow[] = [];
  const errors: string[] = [];
  for (const s of overview.value.sessions) {
    if (s.calls === 0) continue; // nothing to export (also: a session without transcript)
    const r = service.cost(s.agentId, s.sessionId);
    if (!r.ok) {
      errors.push(`${s.agentId}/${s.sessionId}: ${r.error.message}`);
      continue;
    }
    const rounds = new Set(r.value.pruningRounds.map((p) => p.callEntryId));
    for (const c of r.value.calls) {
      const at = c.timestamp === null ? null : Date.parse(c.timestamp);
      rows.push({
        state_dir: stateDir,
        agent_id: s.agentId,
        session_id: s.sessionId,
        session_key: s.sessionKey,
        archived: s.archived,
        entry_id: c.entryId,
        response_id: c.responseId,
        started_at: at !== null && Number.isFinite(at) ? at : null,
        gap_ms: c.gapMs,
        provider: c.provider,
        model: c.model,
        api: c.api,
        stop_reason: c.stopReason,
        input_tokens: c.input,
        output_tokens: c.output,
        cache_read_tokens: c.cacheRead,
        cache_write_tokens: c.cacheWrite,
        cache_write_1h_tokens: c.writeTier.cacheWrite1h,
        prompt_tokens: c.promptTokens,
        cost_usd: c.costUsd,
        cost_source: c.costSource,
        price_source: c.priceSource,
        miss_cost_usd: c.missCostUsd,
        verdict: c.verdict,
        cause: c.cause.cause,
        pruning_round: c.entryId !== null && rounds.has(c.entryId),
        heartbeat: c.heartbeat,
        on_active_branch: c.onActiveBranch,
        config_hash: configHash,
      });
    }
  }
  return { rows, errors };
}

export function toNdjson(rows: readonly CallRow[]): string {
  return rows.map((r) => `${JSON.stringify({ ...r, started_at: isoOrNull(r.started_at) })}\n`).join("");
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * RFC 4180 CSV: every field that needs it quoted, `"` doubled; empty = null. A text field that a spreadsheet would
 * run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` — ids and keys come from transcripts.
 */
export function toCsv(rows: readonly CallRow[]): string {
  const header = CALL_COLUMNS.map((c) => c.name).join(",");
  const lines = rows.map((r) =>
    CALL_COLUMNS.map((c) => {
      const v = r[c.name];
      if (v === null) return "";
      if (c.kind === "timestamp" && typeof v === "number") return new Date(v).toISOString();
      if (typeof v === "boolean") return v ? "true" : "false";
      if (typeof v === "number") return String(v);
      return csvText(v);
    }).join(","),
  );
  return `${[header, ...lines].join("\r\n")}\r\n`;
}

function csvText(s: string): string {
  const guarded = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}
