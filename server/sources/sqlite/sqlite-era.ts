// The SQLite era behind the state reader's SessionEra (spec storage.md §4–§5): rows from listSqliteSessions, one
// session through the transcript cache (decoding only rows appended since the previous load, incremental.ts).

import path from "node:path";
import type { LoadedSession, ParseIssue } from "../../model/session.ts";
import type { DiscoveredAgent } from "../discover.ts";
import {
  errorMessage,
  fail,
  type ListedRow,
  type LoadError,
  type LoadRef,
  type SessionEra,
} from "../session-era.ts";
import type { TranscriptCache } from "../transcript-cache.ts";
import { listSqliteSessions, loadSqliteSession } from "./sqlite-source.ts";

export class SqliteEra implements SessionEra {
  constructor(
    private readonly stateDir: string,
    private readonly cache: TranscriptCache,
  ) {}

  list(agent: DiscoveredAgent, _scan: boolean, issues: ParseIssue[]): ListedRow[] {
    if (!agent.sqlitePath) return [];
    try {
      const res = listSqliteSessions(this.stateDir, agent.agentId, agent.sqlitePath);
      issues.push(...res.issues);
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
