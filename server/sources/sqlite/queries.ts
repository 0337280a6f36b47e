// SELECT statements against `openclaw-agent.sqlite` (agent schema 14–23, spec storage.md §4.2–§4.3).
// Called only inside the single read transaction of open-readonly.ts; they never write.
// Columns are selected only when they exist (older/newer schemas), rows are narrowed with type guards.
// A statement that fails on a damaged table becomes a located issue (the rest of the store still loads);
// SQLITE_BUSY is re-thrown so the caller retries the whole transaction.

import type Database from "better-sqlite3";
import type { ParseIssue } from "../../model/session.ts";
import type { ActiveRow, IndexStateRow } from "./active-branch.ts";
import type { EventRow } from "./read-events.ts";
import { hasColumns, hasOptional, type SchemaMeta, type TableColumns } from "./schema.ts";
import type { TrajectoryRow } from "./trajectory.ts";
import type { ArchiveRow, ColdRow, EventStats, NodeRow, WindowRow } from "./windows.ts";

type Row = Record<string, unknown>;

function isRow(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function text(r: Row, k: string): string | null {
  const v = r[k];
  return typeof v === "string" ? v : null;
}

function int(r: Row, k: string): number | null {
  const v = r[k];
  return typeof v === "number" && Number.isFinite(v) ? v : typeof v === "bigint" ? Number(v) : null;
}

function blob(r: Row, k: string): Uint8Array | null {
  const v = r[k];
  return v instanceof Uint8Array ? v : null;
}

function isBusy(e: unknown): boolean {
  const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/** Run a SELECT; a failure other than BUSY becomes an issue and null. */
function all(
  db: Database.Database,
  sql: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
): Row[] | null {
  try {
    return db
      .prepare(sql)
      .all(...params)
      .filter(isRow);
  } catch (e) {
    if (isBusy(e)) throw e;
    const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "error";
    issues.push({
      source,
      code: code.startsWith("SQLITE_CORRUPT") ? "database-corrupt" : "query-failed",
      message: `reading ${source.split("#")[1] ?? source} failed: ${e instanceof Error ? e.message : String(e)}`,
      severity: "error",
    });
    return null;
  }
}

/** Tables the reader looks at, with their columns. Throws on a file that is not a database (caller classifies). */
export function readTables(db: Database.Database): TableColumns {
  const wanted = new Set([
    "schema_meta",
    "session_nodes",
    "session_windows",
    "transcript_events",
    "session_transcript_active_events",
    "session_transcript_index_state",
    "trajectory_runtime_events",
    "session_transcript_archives",
    "session_transcript_cold_archives",
  ]);
  const tables: TableColumns = new Map();
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .filter(isRow)
    .map((r) => text(r, "name"))
    .filter((n): n is string => n !== null && wanted.has(n));
  for (const name of names) {
    const cols = db
      .prepare("SELECT name FROM pragma_table_info(?)")
      .all(name)
      .filter(isRow)
      .map((r) => text(r, "name"))
      .filter((n): n is string => n !== null);
    tables.set(name, new Set(cols));
  }
  return tables;
}

export function readSchemaMeta(
  db: Database.Database,
  tables: TableColumns,
  source: string,
  issues: ParseIssue[],
): SchemaMeta | null {
  if (!hasColumns(tables, "schema_meta", ["role", "schema_version"])) return null;
  const appCol = tables.get("schema_meta")?.has("app_version") ? "app_version" : "NULL AS app_version";
  const order = tables.get("schema_meta")?.has("meta_key") ? "ORDER BY meta_key = 'primary' DESC" : "";
  const rows = all(
    db,
    `SELECT schema_version, ${appCol} FROM schema_meta WHERE role = 'agent' ${order} LIMIT 1`,
    [],
    source,
    issues,
  );
  const r = rows?.[0];
  if (!r) return null;
  return { schemaVersion: int(r, "schema_version"), appVersion: text(r, "app_version") };
}

export function readNodes(
  db: Database.Database,
  tables: TableColumns,
  where: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
): NodeRow[] {
  const updated = tables.get("session_nodes")?.has("updated_at") ? "updated_at" : "NULL AS updated_at";
  const rows = all(
    db,
    `SELECT session_key, current_session_id, entry_json, ${updated} FROM session_nodes ${where} ORDER BY session_key`,
    params,
    source,
    issues,
  );
  const out: NodeRow[] = [];
  for (const r of rows ?? []) {
    const sessionKey = text(r, "session_key");
    const currentSessionId = text(r, "current_session_id");
    if (sessionKey === null || currentSessionId === null) continue;
    out.push({
      sessionKey,
      currentSessionId,
      entryJson: text(r, "entry_json") ?? "",
      updatedAt: int(r, "updated_at"),
    });
  }
  return out;
}

export function readWindows(
  db: Database.Database,
  tables: TableColumns,
  where: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
): WindowRow[] | null {
  if (!hasOptional(tables, "windows")) return null;
  const cols = tables.get("session_windows") ?? new Set<string>();
  const opt = (c: string): string => (cols.has(c) ? c : `NULL AS ${c}`);
  const rows = all(
    db,
    `SELECT session_id, session_key, previous_session_id, ${opt("reason")}, ${opt("updated_at")}, ${opt("model")}, ${opt("model_provider")} FROM session_windows ${where} ORDER BY ${cols.has("created_at") ? "created_at" : "rowid"}`,
    params,
    source,
    issues,
  );
  if (rows === null) return null;
  const out: WindowRow[] = [];
  for (const r of rows) {
    const sessionId = text(r, "session_id");
    const sessionKey = text(r, "session_key");
    if (sessionId === null || sessionKey === null) continue;
    out.push({
      sessionId,
      sessionKey,
      previousSessionId: text(r, "previous_session_id"),
      reason: text(r, "reason"),
      updatedAt: int(r, "updated_at"),
      model: text(r, "model"),
      modelProvider: text(r, "model_provider"),
    });
  }
  return out;
}

/**
 * Per session: row count, newest seq, stored bytes (event_json UTF-8 + event_zstd). `withBytes: false`
 * leaves `bytes` 0: count and max(seq) come from the primary-key index alone, while the byte sum reads
 * every row's text — a second pass over the session for a caller that reads the rows anyway (issue 9).
 */
export function readEventStats(
  db: Database.Database,
  tables: TableColumns,
  where: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
  withBytes = true,
): EventStats[] {
  const zstd = tables.get("transcript_events")?.has("event_zstd") ? "+ coalesce(length(event_zstd), 0)" : "";
  const bytes = withBytes ? `sum(coalesce(length(CAST(event_json AS BLOB)), 0) ${zstd})` : "0";
  const rows = all(
    db,
    `SELECT session_id, count(*) AS n, max(seq) AS max_seq, ${bytes} AS bytes FROM transcript_events ${where} GROUP BY session_id`,
    params,
    source,
    issues,
  );
  const out: EventStats[] = [];
  for (const r of rows ?? []) {
    const sessionId = text(r, "session_id");
    if (sessionId === null) continue;
    out.push({
      sessionId,
      count: int(r, "n") ?? 0,
      maxSeq: int(r, "max_seq") ?? 0,
      bytes: int(r, "bytes") ?? 0,
    });
  }
  return out;
}

export function readEventRows(
  db: Database.Database,
  tables: TableColumns,
  sessionId: string,
  source: string,
  issues: ParseIssue[],
): EventRow[] | null {
  const cols = tables.get("transcript_events") ?? new Set<string>();
  const z = cols.has("event_zstd") ? "event_zstd" : "NULL AS event_zstd";
  const n = cols.has("event_utf8_bytes") ? "event_utf8_bytes" : "NULL AS event_utf8_bytes";
  const rows = all(
    db,
    `SELECT seq, event_json, ${z}, ${n} FROM transcript_events WHERE session_id = ? ORDER BY seq`,
    [sessionId],
    source,
    issues,
  );
  if (rows === null) return null;
  const out: EventRow[] = [];
  for (const r of rows) {
    const seq = int(r, "seq");
    if (seq === null) continue;
    out.push({
      seq,
      eventJson: text(r, "event_json"),
      eventZstd: blob(r, "event_zstd"),
      utf8Bytes: int(r, "event_utf8_bytes"),
    });
  }
  return out;
}

export function readActiveRows(
  db: Database.Database,
  tables: TableColumns,
  sessionId: string,
  source: string,
  issues: ParseIssue[],
): ActiveRow[] | null {
  if (!hasOptional(tables, "active")) return null;
  const rows = all(
    db,
    "SELECT active_position, event_seq, context_eligible FROM session_transcript_active_events WHERE session_id = ? ORDER BY active_position",
    [sessionId],
    source,
    issues,
  );
  if (rows === null) return null;
  const out: ActiveRow[] = [];
  for (const r of rows) {
    const activePosition = int(r, "active_position");
    const eventSeq = int(r, "event_seq");
    if (activePosition === null || eventSeq === null) continue;
    out.push({ activePosition, eventSeq, contextEligible: int(r, "context_eligible") });
  }
  return out;
}

export function readIndexState(
  db: Database.Database,
  tables: TableColumns,
  sessionId: string,
  source: string,
  issues: ParseIssue[],
): IndexStateRow | null {
  if (!hasOptional(tables, "indexState")) return null;
  const leaf = tables.get("session_transcript_index_state")?.has("leaf_event_id")
    ? "leaf_event_id"
    : "NULL AS leaf_event_id";
  const r = all(
    db,
    `SELECT indexed_seq, ${leaf}, needs_rebuild FROM session_transcript_index_state WHERE session_id = ?`,
    [sessionId],
    source,
    issues,
  )?.[0];
  if (!r) return null;
  const indexedSeq = int(r, "indexed_seq");
  if (indexedSeq === null) return null;
  return { indexedSeq, leafEventId: text(r, "leaf_event_id"), needsRebuild: int(r, "needs_rebuild") ?? 0 };
}

/** `model.completed` rows only; extraction in SQL keeps the (large) rest of each trajectory event out of JS. */
export function readTrajectory(
  db: Database.Database,
  tables: TableColumns,
  sessionId: string,
  source: string,
  issues: ParseIssue[],
): TrajectoryRow[] {
  if (!hasOptional(tables, "trajectory")) return [];
  const cols = tables.get("trajectory_runtime_events") ?? new Set<string>();
  const run = cols.has("run_id") ? "run_id" : "NULL AS run_id";
  const created = cols.has("created_at") ? "created_at" : "NULL AS created_at";
  const rows = all(
    db,
    `SELECT seq, ${run}, ${created}, json_extract(event_json, '$.ts') AS ts,
       json_extract(event_json, '$.data.promptCache') AS pc, json_extract(event_json, '$.data.usage') AS usage
     FROM trajectory_runtime_events
     WHERE session_id = ? AND json_valid(event_json) AND json_extract(event_json, '$.type') = 'model.completed'
     ORDER BY seq`,
    [sessionId],
    source,
    issues,
  );
  const out: TrajectoryRow[] = [];
  for (const r of rows ?? []) {
    const seq = int(r, "seq");
    if (seq === null) continue;
    out.push({
      seq,
      runId: text(r, "run_id"),
      createdAt: int(r, "created_at"),
      ts: text(r, "ts"),
      promptCacheJson: text(r, "pc"),
      usageJson: text(r, "usage"),
    });
  }
  return out;
}

export function readArchives(
  db: Database.Database,
  tables: TableColumns,
  where: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
): ArchiveRow[] | null {
  if (!hasOptional(tables, "archives")) return null;
  const created = tables.get("session_transcript_archives")?.has("created_at")
    ? "created_at"
    : "NULL AS created_at";
  const rows = all(
    db,
    `SELECT session_id, session_key, reason, encoding, archive_name, ${created}, length(archive_blob) AS bytes FROM session_transcript_archives ${where} ORDER BY ${created === "created_at" ? "created_at" : "rowid"}`,
    params,
    source,
    issues,
  );
  if (rows === null) return null;
  const out: ArchiveRow[] = [];
  for (const r of rows) {
    const sessionId = text(r, "session_id");
    const archiveName = text(r, "archive_name");
    if (sessionId === null || archiveName === null) continue;
    out.push({
      sessionId,
      sessionKey: text(r, "session_key") ?? "",
      reason: text(r, "reason") ?? "",
      encoding: text(r, "encoding") ?? "",
      archiveName,
      createdAt: int(r, "created_at"),
      bytes: int(r, "bytes") ?? 0,
    });
  }
  return out;
}

export function readArchiveBlob(
  db: Database.Database,
  archiveName: string,
  source: string,
  issues: ParseIssue[],
): { blob: Uint8Array; encoding: string; sha256: string | null } | null {
  const r = all(
    db,
    "SELECT archive_blob, encoding, archive_sha256 FROM session_transcript_archives WHERE archive_name = ?",
    [archiveName],
    source,
    issues,
  )?.[0];
  if (!r) return null;
  const b =
    blob(r, "archive_blob") ??
    (text(r, "archive_blob") === null ? null : Buffer.from(text(r, "archive_blob") ?? "", "utf8"));
  if (b === null) return null;
  return { blob: b, encoding: text(r, "encoding") ?? "", sha256: text(r, "archive_sha256") };
}

export function readCold(
  db: Database.Database,
  tables: TableColumns,
  where: string,
  params: unknown[],
  source: string,
  issues: ParseIssue[],
): ColdRow[] | null {
  if (!hasOptional(tables, "cold")) return null;
  const cols = tables.get("session_transcript_cold_archives") ?? new Set<string>();
  const opt = (c: string): string => (cols.has(c) ? c : `NULL AS ${c}`);
  const rows = all(
    db,
    `SELECT session_id, archive_name, storage, ${opt("archive_sha256")}, ${opt("event_count")}, ${opt("raw_bytes")}, ${opt("archive_bytes")}, ${opt("archived_at")} FROM session_transcript_cold_archives ${where}`,
    params,
    source,
    issues,
  );
  if (rows === null) return null;
  const out: ColdRow[] = [];
  for (const r of rows) {
    const sessionId = text(r, "session_id");
    const archiveName = text(r, "archive_name");
    if (sessionId === null || archiveName === null) continue;
    out.push({
      sessionId,
      archiveName,
      archiveSha256: text(r, "archive_sha256"),
      eventCount: int(r, "event_count"),
      rawBytes: int(r, "raw_bytes"),
      archiveBytes: int(r, "archive_bytes"),
      archivedAt: int(r, "archived_at"),
      storage: text(r, "storage") ?? "",
    });
  }
  return out;
}

export function readColdBlob(
  db: Database.Database,
  sessionId: string,
  source: string,
  issues: ParseIssue[],
): Uint8Array | null {
  const r = all(
    db,
    "SELECT archive_blob FROM session_transcript_cold_archives WHERE session_id = ?",
    [sessionId],
    source,
    issues,
  )?.[0];
  return r ? blob(r, "archive_blob") : null;
}
