// What the state reader asks of each storage era (spec storage.md §2: JSONL files ≤2026.7.1, the per-agent
// SQLite store ≥2026.7.2). jsonl/jsonl-era.ts and sqlite/sqlite-era.ts implement it; state-reader.ts composes
// them per agent and resolve-ref.ts looks references up in what they list.

import type { JsonObject } from "../../shared/json.ts";
import type { LoadedSession, ParseIssue, SessionSummary, VersionInfo } from "../model/session.ts";
import type { DiscoveredAgent } from "./discover.ts";

export interface LoadError {
  error: { code: string; message: string; status: 404 | 422 | 500 };
}

export interface LoadRef {
  agentId: string;
  sessionId: string;
  /** JSONL only: a file name inside the agent's sessions dir (e.g. `<id>.jsonl.reset.<ts>`), loaded directly. */
  archivedFile?: string;
}

/** One listed session with what reference lookups need. */
export interface ListedRow {
  summary: SessionSummary;
  /** Session keys that route to this row (storage.md §3.1), primary first. */
  sessionKeys: string[];
  /** The SessionEntry's own `sessionId` (JSONL rows whose file name differs, e.g. Telegram topic files). */
  entrySessionId: string | null;
}

/**
 * One session listed once, with its loader bound to the listed row: an aggregate over every session (GET
 * /api/cost) lists each agent once instead of once per load.
 */
export interface LoadableSession {
  summary: SessionSummary;
  /**
   * Changes whenever anything `load()` reads changes: the transcript file's identity (device, inode, size, mtime)
   * and its SessionEntry (JSONL), the session's event count, bytes and update time (SQLite). Null when unknown
   * (the file cannot be stat'ed): never cache by it. A function: an aggregate stats each file in its own slice.
   */
  identity(): string | null;
  load(): LoadedSession | LoadError;
  /**
   * A listing without scan knows some rows' `updatedAt` only once they are loaded (an orphan's last entry time):
   * consecutive rows with the same group are in the scanned listing's order when sorted by the LOADED summaries
   * with `compareListedSummaries`. Null: the listed order is final.
   */
  orderGroup: string | null;
}

/**
 * What a stored report is printed from, read without the transcript (`/context list|json`, issue 17): the
 * SessionEntry, the ids `noRunReportJson` names, and the release family exactly as a full load decides it —
 * null when the entry holds no `source:"run"` report (the texts then depend on no family).
 */
export interface StoredEntry {
  sessionId: string;
  sessionKey: string | null;
  entry: JsonObject | null;
  family: VersionInfo["family"] | null;
  /**
   * The VersionInfo a load would decide, field for field, when it is known without parsing the transcript
   * (asked for with `{ version: true }`: a JSONL session may need a byte scan of its file for it); else null.
   */
  version: VersionInfo | null;
}

export interface StoredEntryOptions {
  /** Also decide StoredEntry.version (what prints the release's defaults and reasons: `truncation`). */
  version?: boolean;
}

export interface SessionEra {
  /** `scan: false` = lookups only (ids, keys, files): no transcript is read. Problems go to `issues`. */
  list(agent: DiscoveredAgent, scan: boolean, issues: ParseIssue[]): ListedRow[];
  load(agent: DiscoveredAgent, ref: LoadRef): LoadedSession | LoadError;
  /**
   * The session's StoredEntry without reading its transcript, or null when only a full load can decide (the
   * family depends on transcript rows, the session is not one whose entry is stored): then call load().
   */
  storedEntry(
    agent: DiscoveredAgent,
    ref: LoadRef,
    options?: StoredEntryOptions,
  ): StoredEntry | LoadError | null;
  /** Every session of the agent, listed once (no scan), each with its loader and identity. */
  loadable(agent: DiscoveredAgent, issues: ParseIssue[]): LoadableSession[];
}

export function fail(code: string, message: string, status: 404 | 422 | 500): LoadError {
  return { error: { code, message, status } };
}

export function isLoadError<T extends object>(v: T | LoadError): v is LoadError {
  return "error" in v;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
