// The SQLite era behind the state reader's SessionEra (spec storage.md §4–§5): rows from listSqliteSessions, one
// session through the transcript cache (decoding only rows appended since the previous load, incremental.ts).

import path from "node:path";
import { pushAll } from "../../../shared/big-lists.ts";
import type { LoadedSession, ParseIssue } from "../../model/session.ts";
import type { DiscoveredAgent } from "../discover.ts";
import { sqliteFilesIdentity } from "../fs-safety.ts";
import {
  errorMessage,
  fail,
  type ListedRow,
  type LoadableSession,
  type LoadError,
  type LoadRef,
  type SessionEra,
  type StoredEntry,
  type StoredEntryOptions,
} from "../session-era.ts";
import type { TranscriptCache } from "../transcript-cache.ts";
import { readDatabase } from "./open-readonly.ts";
import * as Q from "./queries.ts";
import { listSqliteSessions, loadSqliteSession, readSqliteStoredEntry } from "./sqlite-source.ts";

/**
 * Why an `openclaw-agent.sqlite` holds no sessions, or null when it does (or cannot be read: then the SQLite
 * reader reports the located error). OpenClaw 2026.6.5–2026.7.1 create the per-agent database for auth profiles,
 * caches and the memory index only (agent schema 1, tables schema_meta / cache_entries / auth_profile_* /
 * memory_index_*; docs/openclaw-facts.md §3); sessions and transcripts are in it from 2026.7.2-beta.1 (which
 * writes agent schema 8). Tables are detected, never inferred from the file's existence or its schema number.
 */
function noSessionsReason(dbPath: string): string | null {
  const out = readDatabase(dbPath, (db) => {
    const tables = Q.readTables(db);
    const schema = Q.readSchemaMeta({ db, tables, dbRel: "", issues: [] })?.schemaVersion ?? null;
    return { tables, schema };
  });
  if (!out.ok) return null;
  const { tables, schema } = out.value;
  if (tables.has("session_nodes") || tables.has("transcript_events")) return null;
  const which = schema === null ? "no agent schema_meta row" : `agent schema ${schema}`;
  return `holds no session tables (${which}: OpenClaw 2026.6.5–2026.7.1 keep only auth, cache and memory data there); the agent's JSONL sessions are read as if the file were absent`;
}

/**
 * noSessionsReason per database, kept while its files are unchanged — per process, not per reader: a cold
 * report (a new service) must not pay a second open of the database for it.
 */
const sessionless = new Map<string, { identity: string | null; reason: string | null }>();

export class SqliteEra implements SessionEra {
  constructor(
    private readonly stateDir: string,
    private readonly cache: TranscriptCache,
  ) {}

  /** Null when `dbPath` holds sessions; else why it is no session store (see noSessionsReason). */
  noSessions(dbPath: string): string | null {
    const identity = sqliteFilesIdentity(dbPath);
    const hit = sessionless.get(dbPath);
    if (hit && hit.identity === identity) return hit.reason;
    const reason = noSessionsReason(dbPath);
    sessionless.set(dbPath, { identity, reason });
    return reason;
  }

  /**
   * `scan: false` (reference lookups) skips summing each session's event bytes: that sum reads every row's
   * payload (100 MB for a 100 MB session), while ids, keys and counts come from the index.
   */
  list(agent: DiscoveredAgent, scan: boolean, issues: ParseIssue[]): ListedRow[] {
    if (!agent.sqlitePath) return [];
    try {
      const res = listSqliteSessions(this.stateDir, agent.agentId, agent.sqlitePath, undefined, scan);
      pushAll(issues, res.issues);
      return res.sessions.map((s) => ({
        summary: s,
        sessionKeys: s.sessionKey ? [s.sessionKey] : [],
        entrySessionId: null,
      }));
    } catch (e) {
      issues.push({
        source: path.relative(this.stateDir, agent.sqlitePath),
        code: "read-failed",
        message: `cannot list SQLite sessions: ${errorMessage(e)}`,
        severity: "error",
      });
      return [];
    }
  }

  /**
   * A session's identity is its listed row: event count, event bytes and update time change with every append or
   * rewrite of its rows, and its SessionEntry's `updated_at` with every run (OpenClaw stamps it on each write).
   */
  loadable(agent: DiscoveredAgent, issues: ParseIssue[]): LoadableSession[] {
    // The identity needs the byte sums (a rewrite of the same number of rows changes them).
    return this.list(agent, true, issues).map((r) => ({
      summary: r.summary,
      identity: () => `sqlite\u0000${JSON.stringify(r.summary)}`,
      load: () => this.load(agent, { agentId: agent.agentId, sessionId: r.summary.sessionId }),
      orderGroup: null,
    }));
  }

  /** Decides StoredEntry.version whenever it can (no transcript row is read either way): `options` unused. */
  storedEntry(
    agent: DiscoveredAgent,
    ref: LoadRef,
    _options?: StoredEntryOptions,
  ): StoredEntry | LoadError | null {
    if (!agent.sqlitePath) return fail("session-not-found", `agent ${ref.agentId} has no SQLite store`, 404);
    return readSqliteStoredEntry(this.stateDir, agent.sqlitePath, ref.sessionId);
  }

  load(agent: DiscoveredAgent, ref: LoadRef): LoadedSession | LoadError {
    const dbPath = agent.sqlitePath;
    if (!dbPath) return fail("session-not-found", `agent ${ref.agentId} has no SQLite store`, 404);
    try {
      return this.cache.sqlite(dbPath, ref.sessionId, (prev) =>
        loadSqliteSession(this.stateDir, agent.agentId, dbPath, ref.sessionId, undefined, prev),
      );
    } catch (e) {
      return fail("read-failed", `cannot load SQLite session: ${errorMessage(e)}`, 500);
    }
  }
}
