// SELECT statements against `openclaw-agent.sqlite` (agent schema 14–23, spec storage.md §4.2–§4.3).
// Called only inside the single read transaction of open-readonly.ts; they never write.
//
// One table-driven `selectRows`: each read is a table, a filter and a record of typed fields. A field is a
// column (or an SQL expression) read as text / integer / blob; `key` fields drop the row when NULL, `opt` ones
// read NULL when an older or newer schema lacks the column, a fallback replaces NULL. A statement that fails
// on a damaged table becomes a located issue (the rest of the store still loads); SQLITE_BUSY is re-thrown so
// the caller retries the whole transaction.

import type { ParseIssue } from "../../model/session.ts";
import type { ActiveRow, IndexStateRow } from "./active-branch.ts";
import type { EventRow } from "./read-events.ts";
import { hasColumns, hasOptional, type OptionalTable, type SchemaMeta, type TableColumns } from "./schema.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { sqliteErrorCode } from "./sqlite-result-codes.ts";
import type { TrajectoryRow } from "./trajectory.ts";
import type { ArchiveRow, ColdRow, EventStats, NodeRow, WindowRow } from "./windows.ts";

type Row = Record<string, unknown>;

function isRow(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function errorCode(e: unknown): string {
  return sqliteErrorCode(e) ?? "";
}

/** SQLITE_BUSY / SQLITE_LOCKED: the whole read transaction is retried (open-readonly.ts). */
export function isBusy(e: unknown): boolean {
  const code = errorCode(e);
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

interface KindValue {
  text: string;
  int: number;
  blob: Uint8Array;
}
type Kind = keyof KindValue;

/** One selected item. `Null` says whether the record field may be null. */
interface Field<K extends Kind, Null extends boolean> {
  sql: string;
  kind: K;
  /** Column that older/newer schemas may lack (selected as NULL then). */
  optional: boolean;
  /** NULL drops the row. */
  key: boolean;
  fallback: KindValue[K] | null;
  nullable?: Null;
}

function field<K extends Kind, N extends boolean>(
  kind: K,
  sql: string,
  f: Partial<Field<K, N>>,
): Field<K, N> {
  return { sql, kind, optional: false, key: false, fallback: null, ...f };
}

const key = <K extends Kind>(kind: K, sql: string) => field<K, false>(kind, sql, { key: true });
const col = <K extends Kind>(kind: K, sql: string) => field<K, true>(kind, sql, {});
const opt = <K extends Kind>(kind: K, sql: string) => field<K, true>(kind, sql, { optional: true });
const orDefault = <K extends Kind>(kind: K, sql: string, fallback: KindValue[K]) =>
  field<K, false>(kind, sql, { fallback });

type Fields = Record<string, Field<Kind, boolean>>;
type Out<F extends Fields> = {
  [P in keyof F]: F[P] extends Field<infer K, infer N>
    ? N extends true
      ? KindValue[K] | null
      : KindValue[K]
    : never;
};

function narrow(kind: Kind, v: unknown): KindValue[Kind] | null {
  if (kind === "text") return typeof v === "string" ? v : null;
  if (kind === "blob") return v instanceof Uint8Array ? v : null;
  return typeof v === "number" && Number.isFinite(v) ? v : typeof v === "bigint" ? Number(v) : null;
}

/**
 * Normalise SQL row `r` in place per `fields` (values narrowed to their kind — bigint → number, a wrong type →
 * NULL —, NULL replaced by the fallback) and tell whether it is a record: false when a key field is NULL. One
 * pass per row: the active-events table alone has one row per transcript event.
 */
function isRecordOf<F extends Fields>(
  fields: readonly [string, Field<Kind, boolean>][],
  r: Row,
): r is Row & Out<F> {
  for (const [name, f] of fields) {
    const v = narrow(f.kind, r[name]) ?? f.fallback;
    if (v === null && f.key) return false;
    r[name] = v;
  }
  return true;
}

/** Where a read goes and where its problems are reported (`<dbRel>#<table>`). */
export interface ReadCtx {
  db: SqlDatabase;
  tables: TableColumns;
  dbRel: string;
  issues: ParseIssue[];
}

/** A filter: `WHERE …` with its parameters ("" = every row). */
export interface Where {
  sql: string;
  params: unknown[];
}

export const ALL_ROWS: Where = { sql: "", params: [] };

export function where(column: string, value: unknown): Where {
  return { sql: `WHERE ${column} = ?`, params: [value] };
}

interface Select<F extends Fields> {
  table: string;
  fields: F;
  where?: Where;
  /** ORDER BY (and LIMIT) clause, fixed or chosen from the columns the table has. */
  orderBy?: string | ((has: (column: string) => boolean) => string);
  groupBy?: string;
  /** The optional table this read needs: absent → null, no statement. */
  needs?: OptionalTable;
}

/** Run one SELECT built from `q`; null when the table is absent or the statement failed (issue recorded). */
function selectRows<F extends Fields>(ctx: ReadCtx, q: Select<F>): Out<F>[] | null {
  if (q.needs && !hasOptional(ctx.tables, q.needs)) return null;
  const cols = ctx.tables.get(q.table) ?? new Set<string>();
  const has = (c: string): boolean => cols.has(c);
  const items = Object.entries(q.fields).map(([name, f]) =>
    f.optional && !has(f.sql) ? `NULL AS ${name}` : `${f.sql} AS ${name}`,
  );
  const order = typeof q.orderBy === "function" ? q.orderBy(has) : q.orderBy;
  const sql = [
    `SELECT ${items.join(", ")} FROM ${q.table}`,
    q.where?.sql,
    q.groupBy && `GROUP BY ${q.groupBy}`,
    order && `ORDER BY ${order}`,
  ];
  let rows: Row[];
  try {
    rows = ctx.db
      .prepare(sql.filter(Boolean).join(" "))
      .all(...(q.where?.params ?? []))
      .filter(isRow);
  } catch (e) {
    if (isBusy(e)) throw e;
    ctx.issues.push({
      source: `${ctx.dbRel}#${q.table}`,
      code: errorCode(e).startsWith("SQLITE_CORRUPT") ? "database-corrupt" : "query-failed",
      message: `reading ${q.table} failed: ${e instanceof Error ? e.message : String(e)}`,
      severity: "error",
    });
    return null;
  }
  const fields = Object.entries(q.fields);
  const out: Out<F>[] = [];
  for (const r of rows) if (isRecordOf<F>(fields, r)) out.push(r);
  return out;
}

const createdAtOrRowid = (has: (c: string) => boolean): string =>
  has("created_at") ? "created_at" : "rowid";

const WANTED_TABLES = new Set([
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

/** Tables the reader looks at, with their columns. Throws on a file that is not a database (caller classifies). */
export function readTables(db: SqlDatabase): TableColumns {
  const names = (sql: string, ...params: string[]): string[] =>
    db
      .prepare(sql)
      .all(...params)
      .filter(isRow)
      .flatMap((r) => (typeof r.name === "string" ? [r.name] : []));
  const tables: TableColumns = new Map();
  for (const t of names("SELECT name FROM sqlite_master WHERE type = 'table'")) {
    if (WANTED_TABLES.has(t)) tables.set(t, new Set(names("SELECT name FROM pragma_table_info(?)", t)));
  }
  return tables;
}

export function readSchemaMeta(ctx: ReadCtx): SchemaMeta | null {
  if (!hasColumns(ctx.tables, "schema_meta", ["role", "schema_version"])) return null;
  const rows = selectRows(ctx, {
    table: "schema_meta",
    fields: { schemaVersion: col("int", "schema_version"), appVersion: opt("text", "app_version") },
    where: { sql: "WHERE role = 'agent'", params: [] },
    orderBy: (has) => (has("meta_key") ? "meta_key = 'primary' DESC LIMIT 1" : "rowid LIMIT 1"),
  });
  return rows?.[0] ?? null;
}

export function readNodes(ctx: ReadCtx, filter: Where): NodeRow[] {
  const fields = {
    sessionKey: key("text", "session_key"),
    currentSessionId: key("text", "current_session_id"),
    entryJson: orDefault("text", "entry_json", ""),
    updatedAt: opt("int", "updated_at"),
  };
  return selectRows(ctx, { table: "session_nodes", fields, where: filter, orderBy: "session_key" }) ?? [];
}

export function readWindows(ctx: ReadCtx, filter: Where): WindowRow[] | null {
  const fields = {
    sessionId: key("text", "session_id"),
    sessionKey: key("text", "session_key"),
    previousSessionId: col("text", "previous_session_id"),
    reason: opt("text", "reason"),
    updatedAt: opt("int", "updated_at"),
    model: opt("text", "model"),
    modelProvider: opt("text", "model_provider"),
  };
  return selectRows(ctx, {
    table: "session_windows",
    needs: "windows",
    fields,
    where: filter,
    orderBy: createdAtOrRowid,
  });
}

/**
 * Per session: row count, newest seq, stored bytes (event_json UTF-8 + event_zstd). `withBytes: false`
 * leaves `bytes` 0: count and max(seq) come from the primary-key index alone, while the byte sum reads
 * every row's text — a second pass over the session for a caller that reads the rows anyway (issue 9).
 */
export function readEventStats(ctx: ReadCtx, filter: Where, withBytes = true): EventStats[] {
  const zstd = ctx.tables.get("transcript_events")?.has("event_zstd")
    ? " + coalesce(length(event_zstd), 0)"
    : "";
  const fields = {
    sessionId: key("text", "session_id"),
    count: orDefault("int", "count(*)", 0),
    maxSeq: orDefault("int", "max(seq)", 0),
    bytes: orDefault("int", withBytes ? `sum(coalesce(length(CAST(event_json AS BLOB)), 0)${zstd})` : "0", 0),
  };
  return selectRows(ctx, { table: "transcript_events", fields, where: filter, groupBy: "session_id" }) ?? [];
}

export function readEventRows(ctx: ReadCtx, sessionId: string): EventRow[] | null {
  const fields = {
    seq: key("int", "seq"),
    eventJson: col("text", "event_json"),
    eventZstd: opt("blob", "event_zstd"),
    utf8Bytes: opt("int", "event_utf8_bytes"),
  };
  return selectRows(ctx, {
    table: "transcript_events",
    fields,
    where: where("session_id", sessionId),
    orderBy: "seq",
  });
}

export function readActiveRows(ctx: ReadCtx, sessionId: string): ActiveRow[] | null {
  return selectRows(ctx, {
    table: "session_transcript_active_events",
    needs: "active",
    fields: {
      activePosition: key("int", "active_position"),
      eventSeq: key("int", "event_seq"),
      contextEligible: col("int", "context_eligible"),
    },
    where: where("session_id", sessionId),
    orderBy: "active_position",
  });
}

export function readIndexState(ctx: ReadCtx, sessionId: string): IndexStateRow | null {
  const rows = selectRows(ctx, {
    table: "session_transcript_index_state",
    needs: "indexState",
    fields: {
      indexedSeq: key("int", "indexed_seq"),
      leafEventId: opt("text", "leaf_event_id"),
      needsRebuild: orDefault("int", "needs_rebuild", 0),
    },
    where: where("session_id", sessionId),
  });
  return rows?.[0] ?? null;
}

/** `model.completed` rows only; extraction in SQL keeps the (large) rest of each trajectory event out of JS. */
export function readTrajectory(ctx: ReadCtx, sessionId: string): TrajectoryRow[] {
  const fields = {
    seq: key("int", "seq"),
    runId: opt("text", "run_id"),
    createdAt: opt("int", "created_at"),
    ts: col("text", "json_extract(event_json, '$.ts')"),
    promptCacheJson: col("text", "json_extract(event_json, '$.data.promptCache')"),
    usageJson: col("text", "json_extract(event_json, '$.data.usage')"),
  };
  const modelCompleted: Where = {
    sql: "WHERE session_id = ? AND json_valid(event_json) AND json_extract(event_json, '$.type') = 'model.completed'",
    params: [sessionId],
  };
  const q = {
    table: "trajectory_runtime_events",
    needs: "trajectory",
    fields,
    where: modelCompleted,
  } as const;
  return selectRows(ctx, { ...q, orderBy: "seq" }) ?? [];
}

export function readArchives(ctx: ReadCtx, filter: Where): ArchiveRow[] | null {
  const fields = {
    sessionId: key("text", "session_id"),
    sessionKey: orDefault("text", "session_key", ""),
    reason: orDefault("text", "reason", ""),
    encoding: orDefault("text", "encoding", ""),
    archiveName: key("text", "archive_name"),
    createdAt: opt("int", "created_at"),
    bytes: orDefault("int", "length(archive_blob)", 0),
  };
  const table = "session_transcript_archives";
  return selectRows(ctx, { table, needs: "archives", fields, where: filter, orderBy: createdAtOrRowid });
}

/** The archive blob (a TEXT value holding the JSONL is taken as its UTF-8 bytes). */
export function readArchiveBlob(
  ctx: ReadCtx,
  archiveName: string,
): { blob: Uint8Array; encoding: string; sha256: string | null } | null {
  const fields = {
    bytes: opt("blob", "archive_blob"),
    text: col("text", "archive_blob"),
    encoding: orDefault("text", "encoding", ""),
    sha256: col("text", "archive_sha256"),
  };
  const r = selectRows(ctx, {
    table: "session_transcript_archives",
    fields,
    where: where("archive_name", archiveName),
  })?.[0];
  const blob = r ? (r.bytes ?? (r.text === null ? null : Buffer.from(r.text, "utf8"))) : null;
  return r && blob ? { blob, encoding: r.encoding, sha256: r.sha256 } : null;
}

export function readCold(ctx: ReadCtx, filter: Where): ColdRow[] | null {
  const fields = {
    sessionId: key("text", "session_id"),
    archiveName: key("text", "archive_name"),
    archiveSha256: opt("text", "archive_sha256"),
    eventCount: opt("int", "event_count"),
    rawBytes: opt("int", "raw_bytes"),
    archiveBytes: opt("int", "archive_bytes"),
    archivedAt: opt("int", "archived_at"),
    storage: orDefault("text", "storage", ""),
  };
  return selectRows(ctx, { table: "session_transcript_cold_archives", needs: "cold", fields, where: filter });
}

export function readColdBlob(ctx: ReadCtx, sessionId: string): Uint8Array | null {
  const fields = { blob: key("blob", "archive_blob") };
  const rows = selectRows(ctx, {
    table: "session_transcript_cold_archives",
    fields,
    where: where("session_id", sessionId),
  });
  return rows?.[0]?.blob ?? null;
}
