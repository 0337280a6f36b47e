// Incremental reads of a SQLite transcript (issue 8 "Live"): OpenClaw appends `transcript_events` rows with
// increasing `seq` (spec storage.md §4.2, seq 0 = header), so a session already read only needs the rows with
// `seq` > the newest one seen — decoding (zstd + JSON.parse) is the expensive part of a load. Everything else
// of the load (active branch table, index state, SessionEntry, windows) is small and is re-read in the same
// read transaction by sqlite-source.ts.
//
// The rows already read are trusted only while `count(*)` and the stored byte total of `seq ≤ maxSeq` are
// unchanged (a deleted/rewritten session changes them); otherwise the whole session is read again.

import type { ParseIssue, TranscriptEntry } from "../../model/session.ts";
import { eventByteReader } from "./event-byte-reader.ts";
import { readDatabase } from "./open-readonly.ts";
import { type DecodedEvents, decodeEventRows, EventDecoder, type EventRow } from "./read-events.ts";
import type { TableColumns } from "./schema.ts";
import type { SqlDatabase } from "./sql-database.ts";

/** Decoded rows of one session kept between loads (opaque to callers; pass it back to loadSqliteSession). */
export interface SqliteEventsState {
  dbPath: string;
  sessionId: string;
  /** Rows read (decoded or not), their newest seq and stored bytes (event_json UTF-8 + event_zstd). */
  count: number;
  maxSeq: number | null;
  bytes: number;
  entries: TranscriptEntry[];
  issues: ParseIssue[];
  storage: { json: number; zstd: number };
  /** Read generation (new on every full read): part of the cut texts' reader ids, i.e. of token-cache keys. */
  generation: number;
}

let fullReads = 0;

type Row = Record<string, unknown>;

function isRow(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : typeof v === "bigint" ? Number(v) : null;
}

function int(r: Row | undefined, k: string): number | null {
  return num(r?.[k]);
}

function rowBytes(r: EventRow): number {
  return (r.eventJson === null ? 0 : Buffer.byteLength(r.eventJson, "utf8")) + (r.eventZstd?.length ?? 0);
}

/**
 * Inside the caller's read transaction: read and decode the rows — only `seq > prev.maxSeq` when the rows
 * read before are unchanged, else all — one at a time while the statement iterates (never every stored blob
 * at once: issue 9), and append them to the previous state (or start one). Throws like any statement (the
 * caller's query helpers classify errors).
 */
export function readEventsSince(
  db: SqlDatabase,
  tables: TableColumns,
  sessionId: string,
  prev: SqliteEventsState | null,
  ids: { dbPath: string; sessionId: string },
  source: string,
): { mode: "full" | "incremental"; rows: number; state: SqliteEventsState } {
  const cols = tables.get("transcript_events") ?? new Set<string>();
  const z = cols.has("event_zstd") ? "event_zstd" : "NULL AS event_zstd";
  const n = cols.has("event_utf8_bytes") ? "event_utf8_bytes" : "NULL AS event_utf8_bytes";
  const zLen = cols.has("event_zstd") ? "+ coalesce(length(event_zstd), 0)" : "";
  let mode: "full" | "incremental" = "full";
  if (prev && prev.sessionId === sessionId && prev.maxSeq !== null) {
    const check = db
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(coalesce(length(CAST(event_json AS BLOB)), 0) ${zLen}), 0) AS bytes FROM transcript_events WHERE session_id = ? AND seq <= ?`,
      )
      .get(sessionId, prev.maxSeq);
    const r = isRow(check) ? check : undefined;
    if (int(r, "n") === prev.count && int(r, "bytes") === prev.bytes) mode = "incremental";
  }
  const where = mode === "incremental" ? "AND seq > ?" : "";
  const params: unknown[] = mode === "incremental" ? [sessionId, prev?.maxSeq] : [sessionId];
  const base = mode === "incremental" ? prev : null;
  const generation = base?.generation ?? ++fullReads;
  const decoder = new EventDecoder(source, (row, n) =>
    eventByteReader(ids.dbPath, ids.sessionId, row, n, generation),
  );
  const read = { count: 0, maxSeq: base?.maxSeq ?? null, bytes: base?.bytes ?? 0 };
  // raw(): rows as arrays in column order — no per-row object with four named keys; iterate(): each row is
  // decoded and its blob dropped before the next is read (100 MB sessions have ~30 k rows; issue 9).
  for (const raw of db
    .prepare(
      `SELECT seq, event_json, ${z}, ${n} FROM transcript_events WHERE session_id = ? ${where} ORDER BY seq`,
    )
    .raw()
    .iterate(...params)) {
    if (!Array.isArray(raw)) continue;
    const [seqValue, json, zstd, utf8Bytes]: unknown[] = raw;
    const seq = num(seqValue);
    if (seq === null) continue;
    const row: EventRow = {
      seq,
      eventJson: typeof json === "string" ? json : null,
      eventZstd: zstd instanceof Uint8Array ? zstd : null,
      utf8Bytes: num(utf8Bytes),
    };
    decoder.push(row);
    read.count++;
    if (read.maxSeq === null || seq > read.maxSeq) read.maxSeq = seq;
    read.bytes += rowBytes(row);
  }
  return { mode, rows: read.count, state: merge(base, decoder.result(), read, ids, generation) };
}

function merge(
  base: SqliteEventsState | null,
  decoded: DecodedEvents,
  read: { count: number; maxSeq: number | null; bytes: number },
  ids: { dbPath: string; sessionId: string },
  generation: number,
): SqliteEventsState {
  const offset = base?.entries.length ?? 0;
  for (const e of decoded.entries) e.index += offset;
  return {
    dbPath: ids.dbPath,
    sessionId: ids.sessionId,
    count: (base?.count ?? 0) + read.count,
    maxSeq: read.maxSeq,
    bytes: read.bytes,
    entries: base ? base.entries.concat(decoded.entries) : decoded.entries,
    issues: base ? base.issues.concat(decoded.issues) : decoded.issues,
    storage: {
      json: (base?.storage.json ?? 0) + decoded.storage.json,
      zstd: (base?.storage.zstd ?? 0) + decoded.storage.zstd,
    },
    generation,
  };
}

/** Decode rows read some other way (the located full read after a statement failed) into a fresh state. Pure. */
export function eventsFromRows(
  rows: EventRow[],
  ids: { dbPath: string; sessionId: string },
  source: string,
): SqliteEventsState {
  const generation = ++fullReads;
  const decoded = decodeEventRows(rows, source, (row, n) =>
    eventByteReader(ids.dbPath, ids.sessionId, row, n, generation),
  );
  let maxSeq: number | null = null;
  let bytes = 0;
  for (const r of rows) {
    if (maxSeq === null || r.seq > maxSeq) maxSeq = r.seq;
    bytes += rowBytes(r);
  }
  return merge(null, decoded, { count: rows.length, maxSeq, bytes }, ids, generation);
}

/** Per-session change markers of one agent store (what the live watcher compares between checks). */
export interface StoreProbe {
  /** session_id → `count:maxSeq` of its transcript_events rows. */
  events: Map<string, string>;
  /** current_session_id → session_key + SessionEntry JSON of its node. */
  nodes: Map<string, string>;
}

/**
 * Cheap read-only probe of a store after the watcher saw `-wal`/db writes: `max(seq)` and `count(*)` per
 * session (primary-key index scan, no event decoding) and the session_nodes rows. One read transaction via
 * open-readonly.ts (never writes, snapshot copy when `-shm` is missing). Null when the store cannot be read.
 */
export function probeStore(dbPath: string): StoreProbe | null {
  const out = readDatabase(dbPath, (db): StoreProbe => {
    const events = new Map<string, string>();
    const nodes = new Map<string, string>();
    const names = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .filter(isRow)
        .map((r) => (typeof r.name === "string" ? r.name : "")),
    );
    if (names.has("transcript_events")) {
      for (const r of db
        .prepare("SELECT session_id, count(*) AS n, max(seq) AS m FROM transcript_events GROUP BY session_id")
        .all()
        .filter(isRow)) {
        if (typeof r.session_id === "string") events.set(r.session_id, `${int(r, "n")}:${int(r, "m")}`);
      }
    }
    if (names.has("session_nodes")) {
      for (const r of db
        .prepare("SELECT session_key, current_session_id, entry_json FROM session_nodes")
        .all()
        .filter(isRow)) {
        if (typeof r.current_session_id !== "string") continue;
        const entry = typeof r.entry_json === "string" ? r.entry_json : "";
        nodes.set(r.current_session_id, `${String(r.session_key)}\u0000${entry}`);
      }
    }
    return { events, nodes };
  });
  return out.ok ? out.value : null;
}
