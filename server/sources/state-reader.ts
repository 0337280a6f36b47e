// The composition the API and CLI use: discover agents, list sessions of both storage eras, load one
// session, resolve a user-typed reference. Read-only (spec storage.md: never write into the state dir).
//
// Session addressing (`SessionRef = {agentId, sessionId}`):
// - live JSONL sessions: the transcript file name without `.jsonl` (= the SessionEntry's sessionId);
// - archived JSONL files: `<id>.reset.<ts>` / `<id>.deleted.<ts>` (the file name without the `.jsonl`
//   part), unique per agent and never equal to the live id; orphans: their file stem;
// - SQLite sessions: whatever server/sources/sqlite/sqlite-source.ts lists.
// Request-supplied ids must match SAFE_ID (no `/`, no `..`) and every opened path must stay under the
// state dir after realpath — a hostile ref or symlink cannot read other files.

import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isObject, type JsonObject, str } from "../../shared/json.ts";
import type {
  LoadedSession,
  ParseIssue,
  SessionRef,
  SessionSummary,
  Transcript,
  VersionInfo,
} from "../model/session.ts";
import { detectJsonlVersion } from "./detect-version.ts";
import { type DiscoveredAgent, type DiscoveredState, discoverState, isSafeId } from "./discover.ts";
import { countLineErrors } from "./jsonl/read-transcript.ts";
import {
  type JsonlSessionRow,
  listJsonlSessions,
  summaryTimesAndModel,
  transcriptTail,
} from "./jsonl/sessions-store.ts";
import { HALF_LINE_GRACE_MS, type JsonlTailState, loadJsonlIncremental } from "./jsonl/tail.ts";
import {
  listSqliteSessions,
  loadSqliteSession,
  type SqliteEventsState,
  sqliteEventsState,
  sqliteExtras,
} from "./sqlite/sqlite-source.ts";

export interface LoadError {
  error: { code: string; message: string; status: 404 | 422 | 500 };
}

export interface LoadRef {
  agentId: string;
  sessionId: string;
  /** JSONL only: a file name inside the agent's sessions dir (e.g. `<id>.jsonl.reset.<ts>`), loaded directly. */
  archivedFile?: string;
}

export interface StateReader {
  /** Absolute state dir (as given, resolved). */
  readonly stateDir: string;
  discover(): DiscoveredState;
  listSessions(): { sessions: SessionSummary[]; issues: ParseIssue[] };
  loadSession(ref: LoadRef): LoadedSession | LoadError;
  /** REF = a session id, a session key (`agent:main:main`), or `AGENT/SESSIONID`. */
  resolveRef(ref: string): SessionRef | null;
}

export interface StateReaderOptions {
  /** Parsed transcripts kept in memory (LRU). Default 8. */
  cacheSize?: number;
}

/** One listed session with what lookups need (keys for JSONL rows). */
interface ListedRow {
  summary: SessionSummary;
  sessionKeys: string[];
  jsonl: JsonlSessionRow | null;
}

interface CachedTranscript {
  identity: string;
  transcript: Transcript;
  /** Incremental-read state (server/sources/jsonl/tail.ts). */
  tail: JsonlTailState;
  mtimeMs: number;
  /** An unterminated last line waits for its newline (re-read once the grace period has passed). */
  pendingWaiting: boolean;
  /** The SessionEntry the transcript was returned with (JSON text). */
  entryKey: string;
}

interface CachedSqlite {
  events: SqliteEventsState;
  transcript: Transcript;
  /** Size + mtime of the database and its -wal/-journal files when `session` was read. */
  fileIdentity: string;
  /** The whole loaded session, returned as is while `fileIdentity` is unchanged (warm path: no SQL). */
  session: LoadedSession;
  /** Summary + SessionEntry the transcript was returned with (JSON text). */
  metaKey: string;
}

/** How a transcript object was produced (live updates: tests and diagnostics). */
export interface TranscriptLoadInfo {
  loadedBy: "full" | "tail" | "sqlite-full" | "sqlite-incremental";
  /** Entries read by this load (all of them for a full read). */
  appendedEntries: number;
}

const loadInfo = new WeakMap<Transcript, TranscriptLoadInfo>();

/** How `transcript` was read, for transcripts returned by a StateReader (null otherwise). */
export function transcriptLoadInfo(transcript: Transcript): TranscriptLoadInfo | null {
  return loadInfo.get(transcript) ?? null;
}

/**
 * A new Transcript object with the same content. Reports are memoised per Transcript object
 * (session-service.ts) but also read the SessionEntry: when only the entry changed (OpenClaw rewrites
 * sessions.json / session_nodes after a run), a new object makes them recompute.
 */
function retag(t: Transcript): Transcript {
  const copy = { ...t };
  const info = loadInfo.get(t);
  if (info) loadInfo.set(copy, info);
  return copy;
}

function sameBranch(a: Transcript, b: Transcript): boolean {
  if (a.leafIndex !== b.leafIndex || a.activeBranch.length !== b.activeBranch.length) return false;
  if (a.issues.length !== b.issues.length) return false;
  for (let i = 0; i < a.activeBranch.length; i++) if (a.activeBranch[i] !== b.activeBranch[i]) return false;
  for (let i = 0; i < a.issues.length; i++) if (a.issues[i]?.code !== b.issues[i]?.code) return false;
  const ea = a.contextEligible;
  const eb = b.contextEligible;
  if (!ea || !eb) return ea === eb;
  if (ea.size !== eb.size) return false;
  for (const [k, v] of ea) if (eb.get(k) !== v) return false;
  return true;
}

function isLoadError(v: unknown): v is LoadError {
  return isObject(v) && isObject(v.error);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

const LEGACY_PREFIX = "legacy:";

/** A JSONL row of an agent that also has a SQLite store: marked `legacy`, id prefixed, no key routing. */
function asLegacyRow(row: ListedRow): ListedRow {
  const summary: SessionSummary = {
    ...row.summary,
    sessionId: `${LEGACY_PREFIX}${row.summary.sessionId}`,
    archived: row.summary.archived ?? "legacy",
  };
  return { ...row, summary, sessionKeys: [] };
}

/** `size:mtime` of a SQLite database and its sidecars; null when the main file cannot be stat'ed. */
function sqliteFileIdentity(dbPath: string): string | null {
  const part = (p: string): string => {
    try {
      const st = statSync(p);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return "-";
    }
  };
  const main = part(dbPath);
  if (main === "-") return null;
  return [main, part(`${dbPath}-wal`), part(`${dbPath}-journal`)].join("|");
}

function fail(code: string, message: string, status: 404 | 422 | 500): LoadError {
  return { error: { code, message, status } };
}

function emptyTranscript(): Transcript {
  return { header: null, version: null, entries: [], activeBranch: [], leafIndex: null, issues: [] };
}

/**
 * Rebase `systemPromptReport.workspaceDir` for file access (storage.md §7): when the recorded dir does
 * not exist here and lies under the recorded state dir (prefix of `sessionFile` before
 * `/agents/<id>/sessions/`, or of `workspaceDir` before `/workspace[-<id>]`), swap that prefix for the
 * state dir being read. Rendered output must keep the recorded string; this is only for reading files.
 */
function rebaseWorkspace(
  entry: JsonObject | null,
  stateDir: string,
): { recorded: string; actual: string } | null {
  const report = entry?.systemPromptReport;
  const workspaceDir = isObject(report) ? str(report, "workspaceDir") : undefined;
  if (!workspaceDir || !path.isAbsolute(workspaceDir)) return null;
  try {
    statSync(workspaceDir);
    return null; // exists where recorded: nothing to rebase
  } catch {
    // fall through
  }
  const norm = workspaceDir.replace(/\\/g, "/").replace(/\/+$/, "");
  const sessionFile = str(entry, "sessionFile")?.replace(/\\/g, "/");
  const fromSessionFile = sessionFile
    ? /^(.*)\/agents\/[^/]+\/sessions\/[^/]+$/.exec(sessionFile)?.[1]
    : undefined;
  const fromWorkspace = /^(.*)\/workspace(?:-[^/]+)?$/.exec(norm)?.[1];
  const recordedStateDir = fromSessionFile ?? fromWorkspace;
  if (!recordedStateDir || !norm.startsWith(`${recordedStateDir}/`)) return null;
  const rest = norm.slice(recordedStateDir.length + 1);
  if (rest.split("/").includes("..")) return null;
  return { recorded: workspaceDir, actual: path.join(stateDir, ...rest.split("/")) };
}

export function openStateReader(stateDirInput: string, opts: StateReaderOptions = {}): StateReader {
  const stateDir = path.resolve(stateDirInput);
  const cacheSize = Math.max(1, opts.cacheSize ?? 8);
  const cache = new Map<string, CachedTranscript>();
  const sqliteCache = new Map<string, CachedSqlite>();
  const versionMemo = new WeakMap<Transcript, { entryKey: string; version: VersionInfo }>();

  const remember = <T>(map: Map<string, T>, key: string, value: T): void => {
    map.delete(key);
    map.set(key, value);
    while (map.size > cacheSize) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  };

  const realStateDir = (): string => {
    try {
      return realpathSync(stateDir);
    } catch {
      return stateDir;
    }
  };

  /** Identity of a file for the cache: device + inode + size + mtime. */
  const fileIdentity = (real: string): string | null => {
    try {
      const st = statSync(real);
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
  };

  const cachedErrorCount = (file: string): number | null => {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return null;
    }
    const hit = cache.get(real);
    if (!hit || hit.identity !== fileIdentity(real)) return null;
    return countLineErrors(hit.transcript);
  };

  /** `scan: false` = lookups only (ids, keys, files): no transcript is read. */
  const listAgent = (agent: DiscoveredAgent, scan: boolean): { rows: ListedRow[]; issues: ParseIssue[] } => {
    const issues: ParseIssue[] = [];
    if (agent.sqlitePath) {
      const rows: ListedRow[] = [];
      try {
        const res = listSqliteSessions(stateDir, agent.agentId, agent.sqlitePath);
        issues.push(...res.issues);
        for (const s of res.sessions)
          rows.push({ summary: s, sessionKeys: s.sessionKey ? [s.sessionKey] : [], jsonl: null });
      } catch (e) {
        issues.push({
          source: path.relative(stateDir, agent.sqlitePath),
          code: "read-failed",
          message: `cannot list SQLite sessions: ${errorMessage(e)}`,
          severity: "error",
        });
      }
      // An upgraded install keeps its pre-2026.7.2 `sessions/` folder beside the SQLite store (a migration
      // input for `openclaw doctor --fix`, not live data — spec storage.md §2). Both eras are shown; the
      // JSONL rows are marked `legacy` and addressed as `legacy:<id>` so they never shadow a SQLite session
      // with the same id, and session keys keep routing to the live SQLite store.
      if (agent.sessionsDir)
        rows.push(...listJsonlRows(agent, agent.sessionsDir, scan, issues).map(asLegacyRow));
      return { rows, issues };
    }
    if (!agent.sessionsDir) return { rows: [], issues };
    return { rows: listJsonlRows(agent, agent.sessionsDir, scan, issues), issues };
  };

  const listJsonlRows = (
    agent: DiscoveredAgent,
    sessionsDir: string,
    scan: boolean,
    issues: ParseIssue[],
  ): ListedRow[] => {
    try {
      const listing = listJsonlSessions(stateDir, agent.agentId, sessionsDir, { scan });
      issues.push(...listing.issues);
      const rows: ListedRow[] = listing.rows.map((r) => {
        const errors = r.file ? cachedErrorCount(r.file) : null;
        const summary = errors !== null ? { ...r.summary, parseErrorCount: errors } : r.summary;
        return { summary, sessionKeys: r.sessionKeys, jsonl: r };
      });
      for (const r of listing.rows) issues.push(...r.issues);
      return rows;
    } catch (e) {
      issues.push({
        source: `agents/${agent.agentId}/sessions`,
        code: "read-failed",
        message: `cannot list sessions: ${errorMessage(e)}`,
        severity: "error",
      });
      return [];
    }
  };

  const listAll = (
    scan: boolean,
  ): { agents: { agent: DiscoveredAgent; rows: ListedRow[] }[]; issues: ParseIssue[] } => {
    const disc = discoverState(stateDir);
    const issues = [...disc.issues];
    const agents = disc.agents.map((agent) => {
      const res = listAgent(agent, scan);
      issues.push(...res.issues);
      return { agent, rows: res.rows };
    });
    return { agents, issues };
  };

  /**
   * Parse a JSONL transcript through the LRU cache: unchanged file → the same Transcript object; grown file →
   * only the appended bytes are parsed (jsonl/tail.ts); shrunk/replaced file → full parse.
   */
  const parseCached = (real: string, source: string, entryKey: string): Transcript | LoadError => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(real);
    } catch {
      return fail("read-failed", `cannot stat ${source}`, 500);
    }
    const identity = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    const hit = cache.get(real);
    const graceOver = (h: CachedTranscript) =>
      h.pendingWaiting && Date.now() - h.mtimeMs >= HALF_LINE_GRACE_MS;
    if (hit && hit.identity === identity && !graceOver(hit)) {
      if (hit.entryKey !== entryKey) {
        hit.transcript = retag(hit.transcript);
        hit.entryKey = entryKey;
      }
      remember(cache, real, hit);
      return hit.transcript;
    }
    let load: ReturnType<typeof loadJsonlIncremental>;
    try {
      load = loadJsonlIncremental(real, source, hit?.tail ?? null);
    } catch (e) {
      return fail("read-failed", `cannot read ${source}: ${errorMessage(e)}`, 500);
    }
    loadInfo.set(load.transcript, { loadedBy: load.loadedBy, appendedEntries: load.appendedEntries });
    remember(cache, real, {
      identity,
      transcript: load.transcript,
      tail: load.state,
      mtimeMs: st.mtimeMs,
      pendingWaiting: load.pendingWaiting,
      entryKey,
    });
    return load.transcript;
  };

  /** A SQLite session, decoding only rows appended since the previous load of it (sqlite/incremental.ts). */
  const loadSqliteCached = (agent: DiscoveredAgent, sqlitePath: string, sessionId: string) => {
    const key = `${sqlitePath}\u0000${sessionId}`;
    const hit = sqliteCache.get(key);
    // Any commit changes the database, its WAL or its rollback journal (size or mtime): when none of them
    // changed since the last read, the cached session is current and no transaction is needed.
    const identity = sqliteFileIdentity(sqlitePath);
    if (hit && identity !== null && hit.fileIdentity === identity) return hit.session;
    const loaded = loadSqliteSession(stateDir, agent.agentId, sqlitePath, sessionId, undefined, hit?.events);
    if ("error" in loaded) return loaded;
    const events = sqliteEventsState(loaded);
    if (!events) return loaded; // archives / cold: not incremental
    const metaKey = JSON.stringify([loaded.summary, loaded.entry]);
    const t = loaded.transcript;
    const unchanged =
      hit !== undefined &&
      hit.events.maxSeq === events.maxSeq &&
      hit.events.count === events.count &&
      hit.transcript.entries.length === t.entries.length &&
      sameBranch(hit.transcript, t);
    if (unchanged && hit.metaKey === metaKey) {
      // Same rows, branch and entry: keep the Transcript object so memoised reports are reused.
      loaded.transcript = hit.transcript;
    } else {
      const read = sqliteExtras(loaded)?.eventsRead;
      const incremental = hit !== undefined && read?.mode === "incremental";
      loadInfo.set(t, {
        loadedBy: incremental ? "sqlite-incremental" : "sqlite-full",
        appendedEntries: incremental ? t.entries.length - hit.events.entries.length : t.entries.length,
      });
    }
    remember(sqliteCache, key, {
      events,
      transcript: loaded.transcript,
      metaKey,
      fileIdentity: identity ?? "",
      session: loaded,
    });
    return loaded;
  };

  /**
   * detectJsonlVersion scans every entry for version signals (≈4 ms per load of a 100 MB transcript, most of
   * a warm report, which loads the session once per report; issue 9). It is pure in (entry, transcript) and
   * a Transcript is never changed once returned (an append or a new entry gives a new object), so the
   * verdict is kept per Transcript object and entry JSON.
   */
  const jsonlVersion = (entry: JsonObject | null, entryKey: string, t: Transcript): VersionInfo => {
    const hit = versionMemo.get(t);
    if (hit?.entryKey === entryKey) return { ...hit.version };
    const version = detectJsonlVersion(entry, t);
    versionMemo.set(t, { entryKey, version: { ...version } });
    return version;
  };

  const loadJsonlRow = (row: JsonlSessionRow): LoadedSession | LoadError => {
    const rebasedPaths: { recorded: string; actual: string }[] = [];
    if (row.rebased) rebasedPaths.push(row.rebased);
    const ws = rebaseWorkspace(row.entry, stateDir);
    if (ws) rebasedPaths.push(ws);
    if (row.file === null) {
      // An entry without transcript still has its stored report (/context can render it).
      const transcript = emptyTranscript();
      return {
        summary: row.summary,
        entry: row.entry,
        transcript,
        version: detectJsonlVersion(row.entry, null),
        rebasedPaths,
        issues: [...row.issues],
      };
    }
    let real: string;
    try {
      real = realpathSync(row.file);
    } catch (e) {
      return fail("read-failed", `cannot open ${row.summary.location}: ${errorMessage(e)}`, 500);
    }
    if (!isInside(real, realStateDir())) {
      return fail("path-outside-state-dir", `${row.summary.location} resolves outside the state dir`, 422);
    }
    const source = row.summary.location;
    const entryKey = JSON.stringify(row.entry);
    const parsed = parseCached(real, source, entryKey);
    if (isLoadError(parsed)) return parsed;
    // Rows listed without a scan get the data-derived fields from the parse (same rules as the list).
    const derived = row.scanned
      ? {}
      : summaryTimesAndModel(row.entry, row.archivedAt, row.fileFacts, transcriptTail(parsed));
    return {
      summary: {
        ...row.summary,
        ...derived,
        entryCount: parsed.entries.length,
        parseErrorCount: countLineErrors(parsed),
      },
      entry: row.entry,
      transcript: parsed,
      version: jsonlVersion(row.entry, entryKey, parsed),
      rebasedPaths,
      issues: [...row.issues, ...parsed.issues],
    };
  };

  const reader: StateReader = {
    stateDir,

    discover: () => discoverState(stateDir),

    listSessions() {
      const all = listAll(true);
      return { sessions: all.agents.flatMap((a) => a.rows.map((r) => r.summary)), issues: all.issues };
    },

    loadSession(ref) {
      if (!isSafeId(ref.agentId))
        return fail("invalid-ref", `invalid agent id ${JSON.stringify(ref.agentId)}`, 422);
      if (!isSafeId(ref.sessionId)) {
        return fail("invalid-ref", `invalid session id ${JSON.stringify(ref.sessionId)}`, 422);
      }
      if (ref.archivedFile !== undefined && !isSafeId(ref.archivedFile)) {
        return fail("invalid-ref", `invalid file name ${JSON.stringify(ref.archivedFile)}`, 422);
      }
      const agent = discoverState(stateDir).agents.find((a) => a.agentId === ref.agentId);
      if (!agent) return fail("agent-not-found", `no agent ${ref.agentId} in ${stateDir}`, 404);
      if (agent.sqlitePath && agent.sessionsDir && ref.sessionId.startsWith(LEGACY_PREFIX)) {
        const rows = listJsonlRows(agent, agent.sessionsDir, false, []).map(asLegacyRow);
        const row = rows.find((r) => r.summary.sessionId === ref.sessionId);
        if (!row?.jsonl)
          return fail("session-not-found", `no session ${ref.sessionId} for agent ${ref.agentId}`, 404);
        try {
          const loaded = loadJsonlRow(row.jsonl);
          if (isLoadError(loaded)) return loaded;
          return {
            ...loaded,
            summary: { ...loaded.summary, sessionId: row.summary.sessionId, archived: row.summary.archived },
          };
        } catch (e) {
          return fail("read-failed", `cannot load session: ${errorMessage(e)}`, 500);
        }
      }
      if (agent.sqlitePath) {
        try {
          return loadSqliteCached(agent, agent.sqlitePath, ref.sessionId);
        } catch (e) {
          return fail("read-failed", `cannot load SQLite session: ${errorMessage(e)}`, 500);
        }
      }
      if (!agent.sessionsDir) return fail("session-not-found", `agent ${ref.agentId} has no sessions`, 404);
      const { rows } = listAgent(agent, false);
      let row: JsonlSessionRow | null = null;
      if (ref.archivedFile !== undefined) {
        const name = ref.archivedFile;
        row = rows.find((r) => r.jsonl?.file && path.basename(r.jsonl.file) === name)?.jsonl ?? null;
      } else {
        row =
          rows.find((r) => r.summary.sessionId === ref.sessionId)?.jsonl ??
          // A key whose transcript has another file name (Telegram topic file): accept its entry sessionId.
          rows.find((r) => r.jsonl?.entry && str(r.jsonl.entry, "sessionId") === ref.sessionId)?.jsonl ??
          null;
      }
      if (!row) return fail("session-not-found", `no session ${ref.sessionId} for agent ${ref.agentId}`, 404);
      try {
        return loadJsonlRow(row);
      } catch (e) {
        return fail("read-failed", `cannot load session: ${errorMessage(e)}`, 500);
      }
    },

    resolveRef(input) {
      const ref = input.trim();
      if (!ref) return null;
      const all = listAll(false).agents;
      // Several agents may match: prefer the default agent `main`, then agent-id order (discover sorts).
      const ordered = [...all].sort(
        (a, b) => Number(b.agent.agentId === "main") - Number(a.agent.agentId === "main"),
      );
      const slash = ref.indexOf("/");
      if (slash > 0) {
        const agentId = ref.slice(0, slash);
        const sessionId = ref.slice(slash + 1);
        if (!isSafeId(agentId) || !isSafeId(sessionId)) return null;
        const found = all
          .find((a) => a.agent.agentId === agentId)
          ?.rows.find((r) => r.summary.sessionId === sessionId);
        return found ? { agentId, sessionId: found.summary.sessionId } : null;
      }
      const pickRow = (pred: (r: ListedRow) => boolean): SessionRef | null => {
        for (const a of ordered) {
          const r = a.rows.find(pred);
          if (r) return { agentId: r.summary.agentId, sessionId: r.summary.sessionId };
        }
        return null;
      };
      // 1. session key (keys route by `agent:<agentId>:…`, storage.md §3.1), 2. exact id,
      // 3. an entry's own sessionId, 4. unique id prefix of ≥ 6 chars (CLI convenience).
      const byKey = pickRow((r) => r.sessionKeys.includes(ref));
      if (byKey) return byKey;
      const byId = pickRow((r) => r.summary.sessionId === ref);
      if (byId) return byId;
      const byEntryId = pickRow((r) => r.jsonl?.entry != null && str(r.jsonl.entry, "sessionId") === ref);
      if (byEntryId) return byEntryId;
      if (ref.length >= 6) {
        const matches = all.flatMap((a) => a.rows.filter((r) => r.summary.sessionId.startsWith(ref)));
        const only = matches[0];
        if (matches.length === 1 && only)
          return { agentId: only.summary.agentId, sessionId: only.summary.sessionId };
      }
      return null;
    },
  };
  return reader;
}
