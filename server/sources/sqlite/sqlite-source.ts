// SQLite-era session source (OpenClaw ≥2026.7.2, reference 2026.9.6 / agent schema 23): reads
// `agents/<agentId>/agent/openclaw-agent.sqlite` into the same model as the JSONL era (server/model/session.ts),
// so every report works unchanged. Spec storage.md §4–§6, transcript.md §1 and §5.
//
// Access rules (storage.md §5, open-readonly.ts): strictly read-only, one read transaction per call, the handle
// closed afterwards, snapshot copy when `-shm` is missing, SQLITE_BUSY retried. A load is a read phase inside the
// transaction (read-session.ts), the file I/O of cold archives after it, and a pure assembly
// (assemble-session.ts); row decoding, zstd, the active branch and the version family are pure functions in the
// sibling files.

import fs from "node:fs";
import path from "node:path";
import type { LoadedSession, ParseIssue, SessionSummary } from "../../model/session.ts";
import { storedRunReport } from "../../model/system-prompt-report.ts";
import { readRegularFileSync } from "../regular-file.ts";
import { fail, type LoadError, type StoredEntry } from "../session-era.ts";
import { decodeArchiveBytes } from "./archives.ts";
import {
  archiveContent,
  assembleSession,
  liveContent,
  readNotes,
  type SqliteExtras,
  type TranscriptContent,
  tableArchiveContent,
} from "./assemble-session.ts";
import type { SqliteEventsState } from "./incremental.ts";
import { type ReadOptions, readDatabase } from "./open-readonly.ts";
import * as Q from "./queries.ts";
import { readSession, type SessionRead } from "./read-session.ts";
import { checkSchema, versionInfo } from "./schema.ts";
import {
  buildSummaries,
  COLD_SUFFIX,
  type ColdFile,
  type ColdRow,
  coldFileSessionId,
  parseEntry,
  type StoreRows,
} from "./windows.ts";

export type { SqliteExtras } from "./assemble-session.ts";
export type { SqliteEventsState } from "./incremental.ts";
export type { ReadOptions } from "./open-readonly.ts";
export type { PromptCacheSample } from "./trajectory.ts";

const extrasOf = new WeakMap<LoadedSession, SqliteExtras>();
const eventsStateOf = new WeakMap<LoadedSession, SqliteEventsState>();

/** Decoded rows of a loaded live session, to pass back to loadSqliteSession for an incremental read. */
export function sqliteEventsState(session: LoadedSession): SqliteEventsState | null {
  return eventsStateOf.get(session) ?? null;
}

/** The SQLite extras of a session returned by loadSqliteSession (null for other sources). */
export function sqliteExtras(session: LoadedSession): SqliteExtras | null {
  return extrasOf.get(session) ?? null;
}

function rel(stateDir: string, p: string): string {
  const r = path.relative(stateDir, p);
  return (r.startsWith("..") || path.isAbsolute(r) ? p : r).split(path.sep).join("/");
}

function coldDir(stateDir: string, agentId: string): string {
  return path.join(stateDir, "agents", agentId, "sessions", "cold");
}

function listColdFiles(stateDir: string, agentId: string): ColdFile[] {
  const dir = coldDir(stateDir, agentId);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: ColdFile[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(COLD_SUFFIX)) continue;
    try {
      const st = fs.statSync(path.join(dir, name));
      if (st.isFile())
        out.push({
          name,
          relPath: rel(stateDir, path.join(dir, name)),
          sizeBytes: st.size,
          mtimeMs: st.mtimeMs,
        });
    } catch {
      // vanished between readdir and stat: skip
    }
  }
  return out;
}

function issue(source: string, code: string, message: string): ParseIssue {
  return { source, code, message, severity: "error" };
}

/**
 * Every session of one agent store: the current window of each key (archived null), earlier windows
 * ("ended"), cold archives ("cold"), deleted/reset archives ("deleted"/"reset", sessionId = archive_name).
 * `dbPath` may be absolute or relative to `stateDir`. Never throws.
 */
export function listSqliteSessions(
  stateDir: string,
  agentId: string,
  dbPath: string,
  options?: ReadOptions,
  /** false: `sizeBytes` stays 0 (lookups only; summing reads every event's payload). */
  eventBytes = true,
): { sessions: SessionSummary[]; issues: ParseIssue[] } {
  const abs = path.resolve(stateDir, dbPath);
  const dbRel = rel(stateDir, abs);
  const out = readDatabase(
    abs,
    (db) => {
      const ctx: Q.ReadCtx = { db, tables: Q.readTables(db), dbRel, issues: [] };
      const verdict = checkSchema(Q.readSchemaMeta(ctx), ctx.tables);
      if (!verdict.ok) return { tables: ctx.tables, issues: ctx.issues, verdict, rows: null };
      const rows: StoreRows = {
        nodes: Q.readNodes(ctx, Q.ALL_ROWS),
        windows: Q.readWindows(ctx, Q.ALL_ROWS),
        stats: Q.readEventStats(ctx, Q.ALL_ROWS, eventBytes),
        archives: Q.readArchives(ctx, Q.ALL_ROWS),
        cold: Q.readCold(ctx, Q.ALL_ROWS),
      };
      return { tables: ctx.tables, issues: ctx.issues, verdict, rows };
    },
    options,
  );
  if (!out.ok) {
    const truncated = out.warnings.map((w) => issue(dbRel, "database-truncated", w));
    return { sessions: [], issues: [...truncated, issue(dbRel, out.code, out.message)] };
  }
  const { tables, issues, verdict, rows } = out.value;
  if (!verdict.ok || rows === null) {
    const failure = verdict.ok
      ? issue(dbRel, "unreadable", "store could not be read")
      : issue(dbRel, verdict.code, verdict.message);
    return { sessions: [], issues: [...issues, failure] };
  }
  const notes = readNotes(dbRel, out.snapshotCopy, out.warnings, verdict.warnings, tables);
  const coldRel = rel(stateDir, coldDir(stateDir, agentId));
  const built = buildSummaries(agentId, dbRel, coldRel, rows, listColdFiles(stateDir, agentId));
  return { sessions: built.sessions, issues: [...notes, ...issues, ...built.issues] };
}

/** Cold file candidates: `archive_name`, else `<archive_sha256>.jsonl.zst` (the documented file name, storage.md §2). */
function coldFileCandidates(dir: string, name: string, sha: string | null): string[] {
  // archive_name may not contain path separators (schema CHECK); a damaged row must not escape the cold dir.
  const safe = (n: string): boolean => n !== "" && n !== "." && n !== ".." && !/[\\/]/.test(n);
  const names = [name, sha === null ? "" : `${sha}${COLD_SUFFIX}`].filter(safe);
  return [...new Set(names)].map((n) => path.join(dir, n));
}

/** Read and decode a cold archive: the blob from the table, else the file under `sessions/cold`. */
function coldContent(
  stateDir: string,
  agentId: string,
  dbRel: string,
  row: ColdRow | null,
  file: ColdFile | null,
  blobFromTable: Uint8Array | null,
): TranscriptContent | LoadError {
  const name = row?.archiveName ?? file?.name ?? "";
  let location = `${dbRel}#session_transcript_cold_archives/${name}`;
  let bytes = blobFromTable;
  if (bytes === null) {
    const candidates = coldFileCandidates(coldDir(stateDir, agentId), name, row?.archiveSha256 ?? null);
    const found = candidates.find((p) => fs.existsSync(p));
    location = rel(stateDir, found ?? candidates[0] ?? coldDir(stateDir, agentId));
    try {
      if (found === undefined) throw new Error("file not found");
      bytes = readRegularFileSync(found);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return fail("archive-missing", `cold archive ${location} cannot be read: ${why}`, 404);
    }
  }
  const text = decodeArchiveBytes(bytes, "zstd");
  if (!text.ok) return fail("archive-undecodable", `cold archive ${location}: ${text.error}`, 422);
  return archiveContent(
    text.text,
    bytes,
    row?.archiveSha256 ?? null,
    location,
    "cold-archive",
    row?.eventCount ?? null,
  );
}

/** The transcript content of what the read phase found (cold files are looked up and read here, after it). */
function contentOf(
  read: SessionRead,
  ids: { stateDir: string; agentId: string; dbPath: string; dbRel: string; sessionId: string },
): { content: TranscriptContent; coldFile: ColdFile | null } | LoadError {
  const t = read.transcript;
  const notFound = fail("session-not-found", `no session ${ids.sessionId} in ${ids.dbRel}`, 404);
  const wrap = (c: TranscriptContent | LoadError, coldFile: ColdFile | null = null) =>
    "error" in c ? c : { content: c, coldFile };
  switch (t.kind) {
    case "events":
      return wrap(liveContent(t, read, ids));
    case "archive":
      return wrap(tableArchiveContent(t, ids.dbRel));
    case "cold":
      return wrap(coldContent(ids.stateDir, ids.agentId, ids.dbRel, t.row, null, t.blob));
    case "not-found": {
      const file = listColdFiles(ids.stateDir, ids.agentId).find(
        (f) => coldFileSessionId(f.name) === ids.sessionId,
      );
      return file
        ? wrap(coldContent(ids.stateDir, ids.agentId, ids.dbRel, null, file, null), file)
        : notFound;
    }
  }
}

/**
 * One session by id: a transcript identity (current or earlier window, cold), or a deleted/reset archive by its
 * `archive_name`, or an unreferenced cold file by its name without `.jsonl.zst`. Never throws.
 * `prevEvents` (from sqliteEventsState of an earlier load of the same session): decode only the rows appended
 * since (incremental.ts); the result equals a full load.
 */
export function loadSqliteSession(
  stateDir: string,
  agentId: string,
  dbPath: string,
  sessionId: string,
  options?: ReadOptions,
  prevEvents?: SqliteEventsState | null,
): LoadedSession | LoadError {
  const abs = path.resolve(stateDir, dbPath);
  const dbRel = rel(stateDir, abs);
  const prev = prevEvents && prevEvents.dbPath === abs ? prevEvents : null;
  const out = readDatabase(
    abs,
    (db) => readSession({ db, tables: Q.readTables(db), dbRel, issues: [] }, sessionId, prev, abs),
    options,
  );
  if (!out.ok) return fail(out.code, out.message, out.status);
  const read = out.value;
  if (!read.verdict.ok) return fail(read.verdict.code, read.verdict.message, 422);
  const found = contentOf(read, { stateDir, agentId, dbPath: abs, dbRel, sessionId });
  if ("error" in found) return found;
  const assembled = assembleSession(read, found.content, {
    agentId,
    sessionId,
    dbRel,
    coldDirRel: rel(stateDir, coldDir(stateDir, agentId)),
    coldFile: found.coldFile,
    snapshotCopy: out.snapshotCopy,
    warnings: out.warnings,
  });
  if ("error" in assembled) return assembled;
  extrasOf.set(assembled.loaded, assembled.extras);
  if (found.content.events) eventsStateOf.set(assembled.loaded, found.content.events);
  return assembled.loaded;
}

/**
 * The SessionEntry of a key's current session and its release family, from `schema_meta` and `session_nodes`
 * alone (no transcript row is read) — for what prints a stored report (issue 17). Null when only a full load can
 * decide: the session is not a key's current one (no entry is stored for it), or the family depends on
 * projection snapshots in the transcript (an app_version before 2026.9, schema/versionInfo). Never throws.
 */
export function readSqliteStoredEntry(
  stateDir: string,
  dbPath: string,
  sessionId: string,
  options?: ReadOptions,
): StoredEntry | LoadError | null {
  const abs = path.resolve(stateDir, dbPath);
  const dbRel = rel(stateDir, abs);
  const read = (ctx: Q.ReadCtx) => {
    const meta = Q.readSchemaMeta(ctx);
    const verdict = checkSchema(meta, ctx.tables);
    return { meta, verdict, nodes: verdict.ok ? Q.readNodes(ctx, Q.ALL_ROWS) : [] };
  };
  const out = readDatabase(abs, (db) => read({ db, tables: Q.readTables(db), dbRel, issues: [] }), options);
  if (!out.ok) return fail(out.code, out.message, out.status);
  const { meta, verdict, nodes } = out.value;
  if (!verdict.ok) return fail(verdict.code, verdict.message, 422);
  const node = nodes.find((n) => n.currentSessionId === sessionId);
  if (!node) return null;
  const { entry } = parseEntry(node, `${dbRel}#session_nodes`);
  const stored = { sessionId, sessionKey: node.sessionKey, entry };
  if (storedRunReport(entry).report === null) return { ...stored, family: null, version: null };
  // The load decides with or without projection snapshots in the transcript: known here when both agree. The
  // family may agree while the reason differs (it names the snapshots): then only the family is known.
  const without = versionInfo(meta, false);
  const withSnapshots = versionInfo(meta, true);
  if (without.family !== withSnapshots.family) return null;
  const same = without.reason === withSnapshots.reason && without.appVersion === withSnapshots.appVersion;
  return { ...stored, family: without.family, version: same ? without : null };
}
