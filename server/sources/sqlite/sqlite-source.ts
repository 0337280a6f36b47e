// SQLite-era session source (OpenClaw ≥2026.7.2, reference 2026.9.6 / agent schema 23): reads
// `agents/<agentId>/agent/openclaw-agent.sqlite` into the same model as the JSONL era (server/model/session.ts),
// so every report works unchanged. Spec storage.md §4–§6, transcript.md §1 and §5.
//
// Access rules (storage.md §5, open-readonly.ts): strictly read-only, one read transaction per call, the handle
// closed afterwards, snapshot copy when `-shm` is missing, SQLITE_BUSY retried. Row decoding, zstd, the active
// branch and the version family are pure functions in the sibling files; decoding happens after the read
// transaction ended so OpenClaw's checkpoints are never held up by our CPU work.

import fs from "node:fs";
import path from "node:path";
import type { JsonObject } from "../../../shared/json.ts";
import { isObject, str } from "../../../shared/json.ts";
import type {
  LoadedSession,
  ParseIssue,
  SessionSummary,
  Transcript,
  TranscriptEntry,
} from "../../model/session.ts";
import { computeActiveBranch } from "../../model/tree.ts";
import { type ActiveRow, type IndexStateRow, resolveActiveBranch } from "./active-branch.ts";
import { decodeArchiveBytes, parseJsonlText, sha256Hex } from "./archives.ts";
import { eventsFromRows, readEventsSince, type SqliteEventsState } from "./incremental.ts";
import { type ReadOptions, readDatabase } from "./open-readonly.ts";
import * as Q from "./queries.ts";
import { type EventRow, headerOf } from "./read-events.ts";
import { checkSchema, hasOptional, type SchemaMeta, type TableColumns, versionInfo } from "./schema.ts";
import { type PromptCacheSample, promptCacheSamples, type TrajectoryRow } from "./trajectory.ts";
import {
  buildSummaries,
  COLD_SUFFIX,
  type ColdFile,
  type ColdRow,
  coldFileSessionId,
  parseEntry,
  type StoreRows,
  type WindowRow,
  windowChain,
} from "./windows.ts";

export type { SqliteEventsState } from "./incremental.ts";
export type { ReadOptions } from "./open-readonly.ts";
export type { PromptCacheSample } from "./trajectory.ts";

/** SQLite-only facts about a loaded session (proposed as `LoadedSession.sqlite?: SqliteExtras`). */
export interface SqliteExtras {
  /** `schema_meta` agent row. */
  schemaVersion: number | null;
  appVersion: string | null;
  /** Where the transcript came from. */
  source: "transcript_events" | "cold-archive" | "transcript-archive";
  /** Rows per storage column (`event_json` / `event_zstd`); zero for archives. */
  storage: { json: number; zstd: number };
  /** Whether the active branch is OpenClaw's materialised one or recomputed from the tree. */
  activeBranchSource: "active-events-table" | "tree-fallback";
  /** Reason when the data was read from a temp copy (storage.md §5), else null. */
  snapshotCopy: string | null;
  /** `session_windows` row of this session id (null for archives / missing table). */
  window: { sessionKey: string; previousSessionId: string | null; reason: string | null } | null;
  /** Session ids of the key's history, oldest first, ending with this one (previous_session_id chain). */
  windowChain: string[];
  /** `trajectory_runtime_events` `model.completed` → `data.promptCache`, in trajectory order. */
  promptCache: PromptCacheSample[];
  /** How `transcript_events` were read: all rows, or only `seq` > the newest of the previous load (live). */
  eventsRead?: { mode: "full" | "incremental"; rows: number };
}

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

type LoadError = { error: { code: string; message: string; status: 404 | 422 | 500 } };

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

function storeIssue(
  source: string,
  code: string,
  message: string,
  severity: "error" | "warning",
): ParseIssue {
  return { source, code, message, severity };
}

/** Issues every read reports: snapshot copy, file warnings (truncation), schema warnings, missing optional tables. */
function readNotes(
  dbRel: string,
  snapshotCopy: string | null,
  warnings: string[],
  schemaWarnings: string[],
  tables: TableColumns,
): ParseIssue[] {
  const out: ParseIssue[] = [];
  if (snapshotCopy !== null) {
    out.push(
      storeIssue(
        dbRel,
        "snapshot-copy",
        `read from a snapshot copy in the temp dir: ${snapshotCopy}`,
        "warning",
      ),
    );
  }
  for (const w of warnings) out.push(storeIssue(dbRel, "database-truncated", w, "error"));
  for (const w of schemaWarnings)
    out.push(storeIssue(`${dbRel}#schema_meta`, "unsupported-schema-version", w, "warning"));
  if (!hasOptional(tables, "windows")) {
    out.push(
      storeIssue(
        `${dbRel}#session_windows`,
        "missing-table",
        "table session_windows is missing: earlier windows of a key are not listed",
        "warning",
      ),
    );
  }
  return out;
}

interface ListRead {
  tables: TableColumns;
  verdict: ReturnType<typeof checkSchema>;
  rows: StoreRows | null;
  issues: ParseIssue[];
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
): { sessions: SessionSummary[]; issues: ParseIssue[] } {
  const abs = path.resolve(stateDir, dbPath);
  const dbRel = rel(stateDir, abs);
  const out = readDatabase(
    abs,
    (db): ListRead => {
      const issues: ParseIssue[] = [];
      const tables = Q.readTables(db);
      const meta = Q.readSchemaMeta(db, tables, `${dbRel}#schema_meta`, issues);
      const verdict = checkSchema(meta, tables);
      if (!verdict.ok) return { tables, verdict, rows: null, issues };
      const rows: StoreRows = {
        nodes: Q.readNodes(db, tables, "", [], `${dbRel}#session_nodes`, issues),
        windows: Q.readWindows(db, tables, "", [], `${dbRel}#session_windows`, issues),
        stats: Q.readEventStats(db, tables, "", [], `${dbRel}#transcript_events`, issues),
        archives: Q.readArchives(db, tables, "", [], `${dbRel}#session_transcript_archives`, issues),
        cold: Q.readCold(db, tables, "", [], `${dbRel}#session_transcript_cold_archives`, issues),
      };
      return { tables, verdict, rows, issues };
    },
    options,
  );
  if (!out.ok) {
    const truncated = out.warnings.map((w) => storeIssue(dbRel, "database-truncated", w, "error"));
    return { sessions: [], issues: [...truncated, storeIssue(dbRel, out.code, out.message, "error")] };
  }
  const { tables, verdict, rows } = out.value;
  if (!verdict.ok || rows === null) {
    const message = verdict.ok ? "store could not be read" : verdict.message;
    const code = verdict.ok ? "unreadable" : verdict.code;
    return { sessions: [], issues: [...out.value.issues, storeIssue(dbRel, code, message, "error")] };
  }
  const notes = readNotes(dbRel, out.snapshotCopy, out.warnings, verdict.warnings, tables);
  const built = buildSummaries(
    agentId,
    dbRel,
    rel(stateDir, coldDir(stateDir, agentId)),
    rows,
    listColdFiles(stateDir, agentId),
  );
  return { sessions: built.sessions, issues: [...notes, ...out.value.issues, ...built.issues] };
}

/** Everything a load needs, fetched inside the read transaction (decoding happens after it). */
interface LoadRead {
  tables: TableColumns;
  meta: SchemaMeta | null;
  verdict: ReturnType<typeof checkSchema>;
  issues: ParseIssue[];
  kind: "events" | "cold" | "archive" | "cold-file" | "not-found";
  rows: StoreRows | null;
  eventRows: EventRow[] | null;
  /** Rows read by incremental.ts (null when its statement failed and queries.ts's full read was used). */
  /** Rows read and decoded in the read transaction (readEventsSince); null after a statement failed. */
  eventsSince: ReturnType<typeof readEventsSince> | null;
  activeRows: ActiveRow[] | null;
  indexState: IndexStateRow | null;
  trajectory: TrajectoryRow[];
  keyWindows: WindowRow[];
  archive: {
    blob: Uint8Array;
    encoding: string;
    sha256: string | null;
    name: string;
    sessionKey: string;
    reason: string;
  } | null;
  coldBlob: Uint8Array | null;
  coldRow: ColdRow | null;
}

function emptyLoad(
  tables: TableColumns,
  meta: SchemaMeta | null,
  verdict: ReturnType<typeof checkSchema>,
  issues: ParseIssue[],
): LoadRead {
  return {
    tables,
    meta,
    verdict,
    issues,
    kind: "not-found",
    rows: null,
    eventRows: null,
    eventsSince: null,
    activeRows: null,
    indexState: null,
    trajectory: [],
    keyWindows: [],
    archive: null,
    coldBlob: null,
    coldRow: null,
  };
}

function hasProjectionSnapshots(entries: TranscriptEntry[]): boolean {
  return entries.some((e) => {
    if (e.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") return false;
    const data = e.raw.data;
    return isObject(data) && (Array.isArray(data.prunedToolResults) || Array.isArray(data.frozenToolResults));
  });
}

function assembleTranscript(
  entries: TranscriptEntry[],
  issues: ParseIssue[],
  branch: Pick<Transcript, "activeBranch" | "leafIndex"> & { contextEligible?: Map<number, boolean> },
): Transcript {
  const { header, version } = headerOf(entries);
  const t: Transcript = {
    header,
    version,
    entries,
    activeBranch: branch.activeBranch,
    leafIndex: branch.leafIndex,
    issues,
  };
  if (branch.contextEligible) t.contextEligible = branch.contextEligible;
  return t;
}

/** Cold file candidates: `archive_name`, else `<archive_sha256>.jsonl.zst` (the documented file name, storage.md §2). */
function coldFileCandidates(dir: string, name: string, sha: string | null): string[] {
  // archive_name may not contain path separators (schema CHECK); a damaged row must not escape the cold dir.
  const safe = (n: string): boolean => n !== "" && n !== "." && n !== ".." && !/[\\/]/.test(n);
  const names = [name, sha === null ? "" : `${sha}${COLD_SUFFIX}`].filter(safe);
  return [...new Set(names)].map((n) => path.join(dir, n));
}

/** Decode a cold archive (file under sessions/cold, or blob in the table). */
function readColdArchive(
  stateDir: string,
  agentId: string,
  dbRel: string,
  name: string,
  blobFromTable: Uint8Array | null,
  expectedSha: string | null,
):
  | { ok: true; entries: TranscriptEntry[]; issues: ParseIssue[]; location: string }
  | { ok: false; message: string; status: 404 | 422 } {
  let location = `${dbRel}#session_transcript_cold_archives/${name}`;
  let bytes: Uint8Array | null = blobFromTable;
  if (bytes === null) {
    const candidates = coldFileCandidates(coldDir(stateDir, agentId), name, expectedSha);
    const found = candidates.find((p) => fs.existsSync(p));
    location = rel(stateDir, found ?? candidates[0] ?? coldDir(stateDir, agentId));
    try {
      if (found === undefined) throw new Error("file not found");
      bytes = fs.readFileSync(found);
    } catch (e) {
      return {
        ok: false,
        message: `cold archive ${location} cannot be read: ${e instanceof Error ? e.message : String(e)}`,
        status: 404,
      };
    }
  }
  const text = decodeArchiveBytes(bytes, "zstd");
  if (!text.ok) return { ok: false, message: `cold archive ${location}: ${text.error}`, status: 422 };
  const parsed = parseJsonlText(text.text, location);
  if (expectedSha !== null) {
    const stored = sha256Hex(bytes);
    const raw = sha256Hex(Buffer.from(text.text, "utf8"));
    if (expectedSha !== stored && expectedSha !== raw) {
      parsed.issues.push({
        source: location,
        code: "checksum-mismatch",
        message: `archive_sha256 ${expectedSha} matches neither the stored nor the decoded bytes`,
        severity: "warning",
      });
    }
  }
  return { ok: true, entries: parsed.entries, issues: parsed.issues, location };
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
  const eventsSource = `${dbRel}#transcript_events`;
  const out = readDatabase(
    abs,
    (db): LoadRead => {
      const issues: ParseIssue[] = [];
      const tables = Q.readTables(db);
      const meta = Q.readSchemaMeta(db, tables, `${dbRel}#schema_meta`, issues);
      const verdict = checkSchema(meta, tables);
      const r = emptyLoad(tables, meta, verdict, issues);
      if (!verdict.ok) return r;
      // Without the byte sum: the rows read below give it (set after decoding, same transaction).
      const stats = Q.readEventStats(
        db,
        tables,
        "WHERE session_id = ?",
        [sessionId],
        eventsSource,
        issues,
        false,
      );
      const ownWindow =
        Q.readWindows(db, tables, "WHERE session_id = ?", [sessionId], `${dbRel}#session_windows`, issues) ??
        [];
      let nodes = Q.readNodes(
        db,
        tables,
        "WHERE current_session_id = ?",
        [sessionId],
        `${dbRel}#session_nodes`,
        issues,
      );
      const key = nodes[0]?.sessionKey ?? ownWindow[0]?.sessionKey ?? null;
      if (key !== null && nodes.length === 0)
        nodes = Q.readNodes(db, tables, "WHERE session_key = ?", [key], `${dbRel}#session_nodes`, issues);
      const keyWindows =
        key === null
          ? ownWindow
          : (Q.readWindows(db, tables, "WHERE session_key = ?", [key], `${dbRel}#session_windows`, issues) ??
            ownWindow);
      const cold = Q.readCold(
        db,
        tables,
        "WHERE session_id = ?",
        [sessionId],
        `${dbRel}#session_transcript_cold_archives`,
        issues,
      );
      r.rows = { nodes, windows: keyWindows, stats, archives: [], cold };
      r.keyWindows = keyWindows;
      r.coldRow = cold?.[0] ?? null;
      if ((stats[0]?.count ?? 0) > 0 || (r.coldRow === null && (nodes.length > 0 || ownWindow.length > 0))) {
        r.kind = "events";
        const prev = prevEvents && prevEvents.dbPath === abs ? prevEvents : null;
        try {
          r.eventsSince = readEventsSince(
            db,
            tables,
            sessionId,
            prev,
            { dbPath: abs, sessionId },
            eventsSource,
          );
        } catch (e) {
          const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "";
          if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) throw e;
          // a damaged table: the full read of queries.ts records the located issue
          r.eventRows = Q.readEventRows(db, tables, sessionId, eventsSource, issues);
        }
        r.activeRows = Q.readActiveRows(
          db,
          tables,
          sessionId,
          `${dbRel}#session_transcript_active_events`,
          issues,
        );
        r.indexState = Q.readIndexState(
          db,
          tables,
          sessionId,
          `${dbRel}#session_transcript_index_state`,
          issues,
        );
        r.trajectory = Q.readTrajectory(db, tables, sessionId, `${dbRel}#trajectory_runtime_events`, issues);
        if (r.coldRow !== null) {
          issues.push(
            storeIssue(
              `${dbRel}#session_transcript_cold_archives`,
              "cold-and-live",
              `session ${sessionId} has live transcript rows and a cold archive; the live rows are shown`,
              "warning",
            ),
          );
        }
        return r;
      }
      if (r.coldRow !== null) {
        r.kind = "cold";
        if (r.coldRow.storage === "sqlite")
          r.coldBlob = Q.readColdBlob(db, sessionId, `${dbRel}#session_transcript_cold_archives`, issues);
        r.trajectory = Q.readTrajectory(db, tables, sessionId, `${dbRel}#trajectory_runtime_events`, issues);
        return r;
      }
      if (hasOptional(tables, "archives")) {
        const a = Q.readArchives(
          db,
          tables,
          "WHERE archive_name = ?",
          [sessionId],
          `${dbRel}#session_transcript_archives`,
          issues,
        )?.[0];
        const b = a ? Q.readArchiveBlob(db, sessionId, `${dbRel}#session_transcript_archives`, issues) : null;
        if (a && b) {
          r.kind = "archive";
          r.archive = { ...b, name: a.archiveName, sessionKey: a.sessionKey, reason: a.reason };
          r.rows = { nodes: [], windows: [], stats: [], archives: [a], cold: [] };
          return r;
        }
      }
      return r;
    },
    options,
  );
  if (!out.ok) return { error: { code: out.code, message: out.message, status: out.status } };
  const read = out.value;
  if (!read.verdict.ok)
    return { error: { code: read.verdict.code, message: read.verdict.message, status: 422 } };
  const storeIssues = [
    ...readNotes(dbRel, out.snapshotCopy, out.warnings, read.verdict.warnings, read.tables),
    ...read.issues,
  ];

  let entries: TranscriptEntry[] = [];
  let tIssues: ParseIssue[] = [];
  let storage = { json: 0, zstd: 0 };
  let branchSource: SqliteExtras["activeBranchSource"] = "tree-fallback";
  let branch: { activeBranch: number[]; leafIndex: number | null; contextEligible?: Map<number, boolean> };
  let summary: SessionSummary | undefined;
  let source: SqliteExtras["source"] = "transcript_events";
  let eventsState: SqliteEventsState | null = null;
  const coldFiles = read.kind === "not-found" ? listColdFiles(stateDir, agentId) : [];

  if (read.kind === "events") {
    if (read.eventsSince === null && read.eventRows === null) {
      return {
        error: {
          code: "database-corrupt",
          message: `transcript rows of ${sessionId} cannot be read: ${read.issues.map((i) => i.message).join("; ")}`,
          status: 422,
        },
      };
    }
    eventsState =
      read.eventsSince?.state ??
      eventsFromRows(read.eventRows ?? [], { dbPath: abs, sessionId }, eventsSource);
    const decoded = eventsState;
    // The stored bytes of the summary: the rows just read (plus the earlier ones of an incremental read,
    // which are trusted only while their byte total is unchanged) — what readEventStats's sum would say.
    for (const s of read.rows?.stats ?? []) if (s.sessionId === sessionId) s.bytes = eventsState.bytes;
    entries = decoded.entries;
    storage = decoded.storage;
    const maxSeq = eventsState.maxSeq;
    const ab = resolveActiveBranch(
      entries,
      read.activeRows,
      read.indexState,
      maxSeq,
      `${dbRel}#session_transcript_active_events`,
    );
    branch = ab;
    branchSource = ab.source;
    tIssues = [...decoded.issues, ...ab.issues];
  } else if (read.kind === "cold" || read.kind === "not-found") {
    const coldRow = read.coldRow;
    const file = coldRow ? null : coldFiles.find((f) => coldFileSessionId(f.name) === sessionId);
    if (!coldRow && !file) {
      return {
        error: { code: "session-not-found", message: `no session ${sessionId} in ${dbRel}`, status: 404 },
      };
    }
    const name = coldRow?.archiveName ?? file?.name ?? "";
    const c = readColdArchive(stateDir, agentId, dbRel, name, read.coldBlob, coldRow?.archiveSha256 ?? null);
    if (!c.ok)
      return {
        error: {
          code: c.status === 404 ? "archive-missing" : "archive-undecodable",
          message: c.message,
          status: c.status,
        },
      };
    entries = c.entries;
    tIssues = c.issues;
    if (coldRow?.eventCount != null && coldRow.eventCount !== entries.length) {
      tIssues.push(
        storeIssue(
          c.location,
          "count-mismatch",
          `cold archive decoded to ${entries.length} events, the table says ${coldRow.eventCount}`,
          "warning",
        ),
      );
    }
    const b = computeActiveBranch(entries, c.location);
    branch = b;
    tIssues.push(...b.issues);
    source = "cold-archive";
    if (file) {
      summary = buildSummaries(
        agentId,
        dbRel,
        rel(stateDir, coldDir(stateDir, agentId)),
        { nodes: [], windows: [], stats: [], archives: [], cold: [] },
        [file],
      ).sessions[0];
    }
  } else {
    const a = read.archive;
    if (a === null)
      return {
        error: { code: "session-not-found", message: `no session ${sessionId} in ${dbRel}`, status: 404 },
      };
    const location = `${dbRel}#session_transcript_archives/${a.name}`;
    const text = decodeArchiveBytes(a.blob, a.encoding);
    if (!text.ok)
      return { error: { code: "archive-undecodable", message: `${location}: ${text.error}`, status: 422 } };
    const parsed = parseJsonlText(text.text, location);
    entries = parsed.entries;
    tIssues = parsed.issues;
    if (
      a.sha256 !== null &&
      a.sha256 !== sha256Hex(a.blob) &&
      a.sha256 !== sha256Hex(Buffer.from(text.text, "utf8"))
    ) {
      tIssues.push(
        storeIssue(
          location,
          "checksum-mismatch",
          `archive_sha256 ${a.sha256} matches neither the stored nor the decoded bytes`,
          "warning",
        ),
      );
    }
    const b = computeActiveBranch(entries, location);
    branch = b;
    tIssues.push(...b.issues);
    source = "transcript-archive";
  }

  if (!summary && read.rows) {
    const built = buildSummaries(agentId, dbRel, rel(stateDir, coldDir(stateDir, agentId)), read.rows, []);
    summary = built.sessions.find((s) => s.sessionId === sessionId);
  }
  if (!summary)
    return {
      error: { code: "session-not-found", message: `no session ${sessionId} in ${dbRel}`, status: 404 },
    };
  summary = { ...summary, parseErrorCount: tIssues.filter((i) => i.severity === "error").length };
  if (source !== "transcript_events") summary.entryCount = entries.length;

  // SessionEntry only for the key's current session: it describes that window's last run (storage.md §6).
  let entry: JsonObject | null = null;
  const node = read.rows?.nodes.find((n) => n.currentSessionId === sessionId);
  if (node && source !== "transcript-archive") {
    const parsed = parseEntry(node, `${dbRel}#session_nodes`);
    entry = parsed.entry;
    if (parsed.issue) storeIssues.push(parsed.issue);
  }

  const traj = promptCacheSamples(read.trajectory, `${dbRel}#trajectory_runtime_events`);
  storeIssues.push(...traj.issues);
  const own = read.keyWindows.find((w) => w.sessionId === sessionId) ?? null;
  const loaded: LoadedSession = {
    summary,
    entry,
    transcript: assembleTranscript(entries, tIssues, branch),
    version: versionInfo(read.meta, hasProjectionSnapshots(entries)),
    rebasedPaths: [],
    issues: storeIssues,
  };
  extrasOf.set(loaded, {
    schemaVersion: read.meta?.schemaVersion ?? null,
    appVersion: read.meta?.appVersion ?? null,
    source,
    storage,
    activeBranchSource: branchSource,
    snapshotCopy: out.snapshotCopy,
    window: own
      ? { sessionKey: own.sessionKey, previousSessionId: own.previousSessionId, reason: own.reason }
      : null,
    windowChain: own ? windowChain(read.keyWindows, sessionId) : [],
    promptCache: traj.samples,
    ...(eventsState
      ? {
          eventsRead: {
            mode: read.eventsSince?.mode ?? "full",
            rows: read.eventsSince?.rows ?? read.eventRows?.length ?? 0,
          },
        }
      : {}),
  });
  if (eventsState) eventsStateOf.set(loaded, eventsState);
  return loaded;
}
