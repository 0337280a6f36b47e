// The composition the API and CLI use: discover agents, list sessions of both storage eras, load one
// session, resolve a user-typed reference. Read-only (spec storage.md: never write into the state dir).
//
// Session addressing (`SessionRef = {agentId, sessionId}`):
// - live JSONL sessions: the transcript file name without `.jsonl` (= the SessionEntry's sessionId);
// - archived JSONL files: `<id>.reset.<ts>` / `<id>.deleted.<ts>` (the file name without the `.jsonl`
//   part), unique per agent and never equal to the live id; orphans: their file stem;
// - SQLite sessions: whatever server/sources/sqlite/sqlite-source.ts lists;
// - JSONL files beside a SQLite store (an upgraded install): `legacy:<id>`.
// Request-supplied ids must match SAFE_ID (no `/`, no `..`) and every opened path must stay under the
// state dir after realpath — a hostile ref or symlink cannot read other files.

import path from "node:path";
import type { LoadedSession, ParseIssue, SessionRef, SessionSummary } from "../model/session.ts";
import { type DiscoveredAgent, type DiscoveredState, discoverState, isSafeId } from "./discover.ts";
import { JsonlEra } from "./jsonl/jsonl-era.ts";
import type { ScanStore } from "./jsonl/scan-store.ts";
import { type AgentRows, resolveRefInRows } from "./resolve-ref.ts";
import {
  fail,
  isLoadError,
  type ListedRow,
  type LoadableSession,
  type LoadError,
  type LoadRef,
  type StoredEntry,
  type StoredEntryOptions,
} from "./session-era.ts";
import { SqliteEra } from "./sqlite/sqlite-era.ts";
import { TranscriptCache } from "./transcript-cache.ts";
import { InstallSignalsReader } from "./version-fallback.ts";

export type { LoadableSession, LoadError, LoadRef, StoredEntry, StoredEntryOptions } from "./session-era.ts";
export { type TranscriptLoadInfo, transcriptLoadInfo } from "./transcript-cache.ts";

export interface StateReader {
  /** Absolute state dir (as given, resolved). */
  readonly stateDir: string;
  discover(): DiscoveredState;
  listSessions(): { sessions: SessionSummary[]; issues: ParseIssue[] };
  loadSession(ref: LoadRef): LoadedSession | LoadError;
  /**
   * What a stored report is printed from, without reading the transcript; null when only loadSession can tell
   * (see SessionEra.storedEntry).
   */
  storedEntry(ref: LoadRef, options?: StoredEntryOptions): StoredEntry | LoadError | null;
  /** Every session listed once with its loader and identity (aggregates over all sessions; no scan). */
  listLoadable(): { sessions: LoadableSession[]; issues: ParseIssue[] };
  /** REF = a session id, a session key (`agent:main:main`), or `AGENT/SESSIONID`. */
  resolveRef(ref: string): SessionRef | null;
}

export interface StateReaderOptions {
  /** Parsed transcripts kept in memory (LRU). Default 8. */
  cacheSize?: number;
  /** Persistent cache of the session list's transcript scans (outside the state dir; scan-store.ts). */
  scanStore?: ScanStore | null;
}

const LEGACY_PREFIX = "legacy:";

/**
 * An upgraded install keeps its pre-2026.7.2 `sessions/` folder beside the SQLite store (a migration input for
 * `openclaw doctor --fix`, not live data — spec storage.md §2). Both eras are shown; the JSONL rows are marked
 * `legacy` and addressed as `legacy:<id>` so they never shadow a SQLite session with the same id, and session
 * keys keep routing to the live SQLite store.
 */
function asLegacy<T extends { summary: SessionSummary }>(row: T): T {
  return {
    ...row,
    summary: {
      ...row.summary,
      sessionId: `${LEGACY_PREFIX}${row.summary.sessionId}`,
      archived: row.summary.archived ?? "legacy",
    },
  };
}

class Reader implements StateReader {
  readonly stateDir: string;
  private readonly jsonl: JsonlEra;
  private readonly sqlite: SqliteEra;

  constructor(stateDir: string, opts: StateReaderOptions) {
    this.stateDir = path.resolve(stateDir);
    const cache = new TranscriptCache(opts.cacheSize ?? 8);
    const install = new InstallSignalsReader(this.stateDir);
    this.jsonl = new JsonlEra(
      this.stateDir,
      cache,
      () => install.read(this.discover().agents),
      opts.scanStore ?? null,
    );
    this.sqlite = new SqliteEra(this.stateDir, cache);
  }

  discover(): DiscoveredState {
    return discoverState(this.stateDir);
  }

  listSessions(): { sessions: SessionSummary[]; issues: ParseIssue[] } {
    const all = this.listAll(true);
    return { sessions: all.agents.flatMap((a) => a.rows.map((r) => r.summary)), issues: all.issues };
  }

  /** The agent a ref names, or why the ref is refused (request-supplied ids must be SAFE_ID). */
  private agentOf(ref: LoadRef): DiscoveredAgent | LoadError {
    if (!isSafeId(ref.agentId))
      return fail("invalid-ref", `invalid agent id ${JSON.stringify(ref.agentId)}`, 422);
    if (!isSafeId(ref.sessionId))
      return fail("invalid-ref", `invalid session id ${JSON.stringify(ref.sessionId)}`, 422);
    if (ref.archivedFile !== undefined && !isSafeId(ref.archivedFile))
      return fail("invalid-ref", `invalid file name ${JSON.stringify(ref.archivedFile)}`, 422);
    const found = this.discover().agents.find((a) => a.agentId === ref.agentId);
    if (!found) return fail("agent-not-found", `no agent ${ref.agentId} in ${this.stateDir}`, 404);
    return this.withSessionStore(found, []);
  }

  storedEntry(ref: LoadRef, options?: StoredEntryOptions): StoredEntry | LoadError | null {
    const agent = this.agentOf(ref);
    if (isLoadError(agent)) return agent;
    if (!agent.sqlitePath) return this.jsonl.storedEntry(agent, ref, options);
    if (!agent.sessionsDir || !ref.sessionId.startsWith(LEGACY_PREFIX))
      return this.sqlite.storedEntry(agent, ref, options);
    const stored = this.jsonl.storedEntry(
      agent,
      { agentId: ref.agentId, sessionId: ref.sessionId.slice(LEGACY_PREFIX.length) },
      options,
    );
    // A legacy id that is not there, or any doubt: the load says it the way it says it for a load.
    if (stored === null || isLoadError(stored)) return null;
    return { ...stored, sessionId: `${LEGACY_PREFIX}${stored.sessionId}` };
  }

  loadSession(ref: LoadRef): LoadedSession | LoadError {
    const agent = this.agentOf(ref);
    if (isLoadError(agent)) return agent;
    if (!agent.sqlitePath) return this.jsonl.load(agent, ref);
    if (!agent.sessionsDir || !ref.sessionId.startsWith(LEGACY_PREFIX)) return this.sqlite.load(agent, ref);
    const loaded = this.jsonl.load(agent, {
      agentId: ref.agentId,
      sessionId: ref.sessionId.slice(LEGACY_PREFIX.length),
    });
    if (isLoadError(loaded)) {
      return loaded.error.code === "session-not-found"
        ? fail("session-not-found", `no session ${ref.sessionId} for agent ${ref.agentId}`, 404)
        : loaded;
    }
    return { ...loaded, summary: asLegacy(loaded).summary };
  }

  listLoadable(): { sessions: LoadableSession[]; issues: ParseIssue[] } {
    const disc = this.discover();
    const issues = [...disc.issues];
    const sessions: LoadableSession[] = [];
    for (const found of disc.agents) {
      const agent = this.withSessionStore(found, issues);
      if (!agent.sqlitePath) {
        sessions.push(...this.jsonl.loadable(agent, issues));
        continue;
      }
      sessions.push(...this.sqlite.loadable(agent, issues));
      for (const l of this.jsonl.loadable(agent, issues)) {
        const { summary } = asLegacy(l);
        sessions.push({
          ...l,
          summary,
          load: () => {
            const loaded = l.load();
            return isLoadError(loaded) ? loaded : asLegacy(loaded);
          },
        });
      }
    }
    return { sessions, issues };
  }

  resolveRef(ref: string): SessionRef | null {
    return resolveRefInRows(ref, this.listAll(false).agents);
  }

  /** Every agent's rows: its SQLite store (plus legacy JSONL rows beside it), else its JSONL store. */
  private listAll(scan: boolean): { agents: AgentRows[]; issues: ParseIssue[] } {
    const disc = this.discover();
    const issues = [...disc.issues];
    const agents = disc.agents.map((agent) => ({
      agentId: agent.agentId,
      rows: this.listAgent(this.withSessionStore(agent, issues), scan, issues),
    }));
    return { agents, issues };
  }

  /**
   * The agent as its sessions are read: an `openclaw-agent.sqlite` that holds no session tables (a pre-2026.7.2
   * auth/cache store) is treated exactly as if it were absent, with one warning per listing.
   */
  private withSessionStore(agent: DiscoveredAgent, issues: ParseIssue[]): DiscoveredAgent {
    const why = agent.sqlitePath ? this.sqlite.noSessions(agent.sqlitePath) : null;
    if (!agent.sqlitePath || why === null) return agent;
    issues.push({
      source: path.relative(this.stateDir, agent.sqlitePath).split(path.sep).join("/"),
      code: "no-session-tables",
      message: `agent ${agent.agentId}: openclaw-agent.sqlite ${why}`,
      severity: "warning",
    });
    return { ...agent, sqlitePath: null };
  }

  private listAgent(agent: DiscoveredAgent, scan: boolean, issues: ParseIssue[]): ListedRow[] {
    if (!agent.sqlitePath) return this.jsonl.list(agent, scan, issues);
    const rows = this.sqlite.list(agent, scan, issues);
    // A key routes to the live SQLite store; a legacy row keeps only the keys the store does not have, so every
    // key the list prints resolves.
    const live = new Set(rows.flatMap((r) => r.sessionKeys));
    for (const r of this.jsonl.list(agent, scan, issues))
      rows.push({ ...asLegacy(r), sessionKeys: r.sessionKeys.filter((k) => !live.has(k)) });
    return rows;
  }
}

export function openStateReader(stateDir: string, opts: StateReaderOptions = {}): StateReader {
  return new Reader(stateDir, opts);
}
