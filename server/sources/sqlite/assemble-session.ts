// The assembly phase of one SQLite session load (after the read transaction, read-session.ts): decoded rows or
// archive text → the era-free model (server/model/session.ts) plus the SQLite-only extras. Pure: no I/O.

import { pushAll } from "../../../shared/big-lists.ts";
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
import { fail, type LoadError } from "../session-era.ts";
import { resolveActiveBranch } from "./active-branch.ts";
import { checksumIssue, decodeArchiveBytes, parseJsonlText } from "./archives.ts";
import { eventsFromRows, type SqliteEventsState } from "./incremental.ts";
import { headerOf } from "./read-events.ts";
import type { SessionRead, TranscriptRead } from "./read-session.ts";
import { hasOptional, type TableColumns, versionInfo } from "./schema.ts";
import { type PromptCacheSample, promptCacheSamples } from "./trajectory.ts";
import { buildSummaries, type ColdFile, parseEntry, type StoreRows, windowChain } from "./windows.ts";

/** SQLite-only facts about a loaded session (sqlite-source.ts `sqliteExtras`). */
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

type Branch = Pick<Transcript, "activeBranch" | "leafIndex"> & { contextEligible?: Map<number, boolean> };

/** A session's transcript content, whichever table or file it came from. */
export interface TranscriptContent {
  entries: TranscriptEntry[];
  issues: ParseIssue[];
  branch: Branch;
  branchSource: SqliteExtras["activeBranchSource"];
  storage: { json: number; zstd: number };
  source: SqliteExtras["source"];
  /** Decoded rows of live sessions (incremental reads); null for archives. */
  events: SqliteEventsState | null;
  eventsRead?: SqliteExtras["eventsRead"];
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
export function readNotes(
  dbRel: string,
  snapshotCopy: string | null,
  warnings: string[],
  schemaWarnings: string[],
  tables: TableColumns,
): ParseIssue[] {
  const out: ParseIssue[] = [];
  if (snapshotCopy !== null)
    out.push(
      storeIssue(
        dbRel,
        "snapshot-copy",
        `read from a snapshot copy in the temp dir: ${snapshotCopy}`,
        "warning",
      ),
    );
  for (const w of warnings) out.push(storeIssue(dbRel, "database-truncated", w, "error"));
  for (const w of schemaWarnings)
    out.push(storeIssue(`${dbRel}#schema_meta`, "unsupported-schema-version", w, "warning"));
  if (!hasOptional(tables, "windows")) {
    const message = "table session_windows is missing: earlier windows of a key are not listed";
    out.push(storeIssue(`${dbRel}#session_windows`, "missing-table", message, "warning"));
  }
  return out;
}

/** Live rows (decoded inside the transaction, or decoded now from the fallback full read) + the active branch. */
export function liveContent(
  t: Extract<TranscriptRead, { kind: "events" }>,
  read: SessionRead,
  ids: { dbPath: string; dbRel: string; sessionId: string },
): TranscriptContent | LoadError {
  if (t.eventsSince === null && t.eventRows === null) {
    const why = read.issues.map((i) => i.message).join("; ");
    return fail("database-corrupt", `transcript rows of ${ids.sessionId} cannot be read: ${why}`, 422);
  }
  const source = `${ids.dbRel}#transcript_events`;
  const events =
    t.eventsSince?.state ??
    eventsFromRows(t.eventRows ?? [], { dbPath: ids.dbPath, sessionId: ids.sessionId }, source);
  // The stored bytes of the summary: the rows just read (plus the earlier ones of an incremental read, which are
  // trusted only while their byte total is unchanged) — what readEventStats's sum would say.
  for (const s of read.rows?.stats ?? []) if (s.sessionId === ids.sessionId) s.bytes = events.bytes;
  const activeSource = `${ids.dbRel}#session_transcript_active_events`;
  const ab = resolveActiveBranch(events.entries, t.activeRows, t.indexState, events.maxSeq, activeSource);
  return {
    entries: events.entries,
    issues: [...events.issues, ...ab.issues],
    branch: ab,
    branchSource: ab.source,
    storage: events.storage,
    source: "transcript_events",
    events,
    eventsRead: {
      mode: t.eventsSince?.mode ?? "full",
      rows: t.eventsSince?.rows ?? t.eventRows?.length ?? 0,
    },
  };
}

/** Decoded archive text (cold or deleted/reset) → entries, checksum check, tree-walked branch. */
export function archiveContent(
  text: string,
  stored: Uint8Array,
  expectedSha: string | null,
  location: string,
  source: "cold-archive" | "transcript-archive",
  /** Cold archives: the table's `event_count`, checked against what the archive decodes to. */
  expectedEvents: number | null = null,
): TranscriptContent {
  const parsed = parseJsonlText(text, location);
  const issues = parsed.issues;
  const mismatch = checksumIssue(expectedSha, stored, text, location);
  if (mismatch) issues.push(mismatch);
  if (expectedEvents !== null && expectedEvents !== parsed.entries.length) {
    const message = `cold archive decoded to ${parsed.entries.length} events, the table says ${expectedEvents}`;
    issues.push(storeIssue(location, "count-mismatch", message, "warning"));
  }
  const branch = computeActiveBranch(parsed.entries, location);
  pushAll(issues, branch.issues);
  return {
    entries: parsed.entries,
    issues,
    branch,
    branchSource: "tree-fallback",
    storage: { json: 0, zstd: 0 },
    source,
    events: null,
  };
}

/** A deleted/reset archive from `session_transcript_archives`. */
export function tableArchiveContent(
  t: Extract<TranscriptRead, { kind: "archive" }>,
  dbRel: string,
): TranscriptContent | LoadError {
  const a = t.archive;
  const location = `${dbRel}#session_transcript_archives/${a.row.archiveName}`;
  const text = decodeArchiveBytes(a.blob, a.encoding);
  if (!text.ok) return fail("archive-undecodable", `${location}: ${text.error}`, 422);
  return archiveContent(text.text, a.blob, a.sha256, location, "transcript-archive");
}

function hasProjectionSnapshots(entries: TranscriptEntry[]): boolean {
  return entries.some((e) => {
    if (e.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") return false;
    const data = e.raw.data;
    return isObject(data) && (Array.isArray(data.prunedToolResults) || Array.isArray(data.frozenToolResults));
  });
}

export interface AssembleCtx {
  agentId: string;
  sessionId: string;
  dbRel: string;
  coldDirRel: string;
  /** An unreferenced cold file the session was found as (its summary comes from the file). */
  coldFile: ColdFile | null;
  snapshotCopy: string | null;
  warnings: string[];
}

/** The loaded session and its extras, or session-not-found when nothing lists it. */
export function assembleSession(
  read: SessionRead,
  content: TranscriptContent,
  ctx: AssembleCtx,
): { loaded: LoadedSession; extras: SqliteExtras } | LoadError {
  const storeIssues = [
    ...readNotes(
      ctx.dbRel,
      ctx.snapshotCopy,
      ctx.warnings,
      read.verdict.ok ? read.verdict.warnings : [],
      read.tables,
    ),
    ...read.issues,
  ];
  const noRows = { nodes: [], windows: [], stats: [], archives: [], cold: [] };
  const summaries = (rows: StoreRows, files: ColdFile[]) =>
    buildSummaries(ctx.agentId, ctx.dbRel, ctx.coldDirRel, rows, files).sessions;
  const listed =
    (ctx.coldFile ? summaries(noRows, [ctx.coldFile])[0] : undefined) ??
    (read.rows ? summaries(read.rows, []).find((s) => s.sessionId === ctx.sessionId) : undefined);
  if (!listed) return fail("session-not-found", `no session ${ctx.sessionId} in ${ctx.dbRel}`, 404);
  const summary: SessionSummary = {
    ...listed,
    parseErrorCount: content.issues.filter((i) => i.severity === "error").length,
  };
  if (content.source !== "transcript_events") summary.entryCount = content.entries.length;

  // SessionEntry only for the key's current session: it describes that window's last run (storage.md §6).
  let entry: JsonObject | null = null;
  const node = read.rows?.nodes.find((n) => n.currentSessionId === ctx.sessionId);
  if (node && content.source !== "transcript-archive") {
    const parsed = parseEntry(node, `${ctx.dbRel}#session_nodes`);
    entry = parsed.entry;
    if (parsed.issue) storeIssues.push(parsed.issue);
  }
  const traj = promptCacheSamples(read.trajectory, `${ctx.dbRel}#trajectory_runtime_events`);
  pushAll(storeIssues, traj.issues);
  const own = read.keyWindows.find((w) => w.sessionId === ctx.sessionId) ?? null;
  const { header, version } = headerOf(content.entries);
  const transcript: Transcript = {
    header,
    version,
    entries: content.entries,
    activeBranch: content.branch.activeBranch,
    leafIndex: content.branch.leafIndex,
    issues: content.issues,
  };
  if (content.branch.contextEligible) transcript.contextEligible = content.branch.contextEligible;
  const loaded: LoadedSession = {
    summary,
    entry,
    transcript,
    version: versionInfo(read.meta, hasProjectionSnapshots(content.entries)),
    rebasedPaths: [],
    issues: storeIssues,
  };
  const extras: SqliteExtras = {
    schemaVersion: read.meta?.schemaVersion ?? null,
    appVersion: read.meta?.appVersion ?? null,
    source: content.source,
    storage: content.storage,
    activeBranchSource: content.branchSource,
    snapshotCopy: ctx.snapshotCopy,
    window: own
      ? { sessionKey: own.sessionKey, previousSessionId: own.previousSessionId, reason: own.reason }
      : null,
    windowChain: own ? windowChain(read.keyWindows, ctx.sessionId) : [],
    promptCache: traj.samples,
    ...(content.eventsRead ? { eventsRead: content.eventsRead } : {}),
  };
  return { loaded, extras };
}
