// The JSONL era behind the state reader's SessionEra (spec storage.md §3, §7): rows from sessions-store.ts, one
// session loaded through the transcript cache. Every opened file must resolve inside the state dir.

import path from "node:path";
import { pushAll } from "../../../shared/big-lists.ts";
import { type JsonObject, str } from "../../../shared/json.ts";
import type { LoadedSession, ParseIssue, Transcript, VersionInfo } from "../../model/session.ts";
import { storedRunReport } from "../../model/system-prompt-report.ts";
import { detectJsonlVersion } from "../detect-version.ts";
import type { DiscoveredAgent } from "../discover.ts";
import { fileIdentity, isInside, realpathOrNull } from "../fs-safety.ts";
import { rebaseWorkspace } from "../rebase-workspace.ts";
import {
  errorMessage,
  fail,
  isLoadError,
  type ListedRow,
  type LoadableSession,
  type LoadError,
  type LoadRef,
  type SessionEra,
  type StoredEntry,
  type StoredEntryOptions,
} from "../session-era.ts";
import type { TranscriptCache } from "../transcript-cache.ts";
import { type InstallSignals, installVersion } from "../version-fallback.ts";
import { asFinishedFile, countLineErrors } from "./read-transcript.ts";
import type { ScanStore } from "./scan-store.ts";
import {
  type JsonlSessionRow,
  listJsonlSessions,
  summaryTimesAndModel,
  transcriptTail,
} from "./sessions-store.ts";
import { jsonlStoredVerdict } from "./stored-family.ts";

/**
 * The SessionEntry as JSON text (cache keys: a changed entry is a changed session), once per entry object — the
 * store cache returns the same objects while sessions.json is unchanged.
 */
const entryKeys = new WeakMap<JsonObject, string>();
function entryKey(entry: JsonObject | null): string {
  if (entry === null) return "null";
  let k = entryKeys.get(entry);
  if (k === undefined) {
    k = JSON.stringify(entry);
    entryKeys.set(entry, k);
  }
  return k;
}

function emptyTranscript(): Transcript {
  return { header: null, version: null, entries: [], activeBranch: [], leafIndex: null, issues: [] };
}

/** Archives and copies are never appended to again (a live file or an orphan may still be written). */
function isFinished(row: JsonlSessionRow): boolean {
  const a = row.summary.archived;
  return a === "reset" || a === "deleted" || a === "backup" || a === "checkpoint";
}

export class JsonlEra implements SessionEra {
  constructor(
    private readonly stateDir: string,
    private readonly cache: TranscriptCache,
    /** The install's release signals, for sessions without their own (version-fallback.ts). */
    private readonly installSignals: () => InstallSignals,
    /** The persistent scan cache of the session list (scan-store.ts), when the process has one. */
    private readonly scanStore: ScanStore | null = null,
  ) {}

  list(agent: DiscoveredAgent, scan: boolean, issues: ParseIssue[]): ListedRow[] {
    return this.rows(agent, scan, issues).map((r) => this.listed(r));
  }

  load(agent: DiscoveredAgent, ref: LoadRef): LoadedSession | LoadError {
    const row = this.findRow(agent, ref);
    return isLoadError(row) ? row : this.safeLoadRow(row);
  }

  storedEntry(
    agent: DiscoveredAgent,
    ref: LoadRef,
    options?: StoredEntryOptions,
  ): StoredEntry | LoadError | null {
    const row = this.findRow(agent, ref);
    if (isLoadError(row)) return row;
    const { sessionId, sessionKey } = row.summary;
    const stored = (family: StoredEntry["family"], version: VersionInfo | null = null): StoredEntry => ({
      sessionId,
      sessionKey,
      entry: row.entry,
      family,
      version,
    });
    if (storedRunReport(row.entry).report === null) return stored(null);
    if (row.file === null) {
      // the load's own verdict: the entry alone, with the install's when it says nothing (loadRow)
      const version = this.version(row, detectJsonlVersion(row.entry, null));
      return stored(version.family, version);
    }
    const real = this.safePath(row.file, row.summary.location);
    if (typeof real !== "string") return real;
    try {
      const verdict = jsonlStoredVerdict(row.entry, real, options?.version === true);
      return verdict === null ? null : stored(verdict.family, verdict.version);
    } catch {
      return null; // the load reports why the file cannot be read
    }
  }

  private findRow(agent: DiscoveredAgent, ref: LoadRef): JsonlSessionRow | LoadError {
    if (!agent.sessionsDir) return fail("session-not-found", `agent ${ref.agentId} has no sessions`, 404);
    const rows = this.rows(agent, false, []);
    let row: JsonlSessionRow | undefined;
    if (ref.archivedFile !== undefined) {
      const name = ref.archivedFile;
      row = rows.find((r) => r.file && path.basename(r.file) === name);
    } else {
      row =
        rows.find((r) => r.summary.sessionId === ref.sessionId) ??
        // A key whose transcript has another file name (Telegram topic file): accept its entry sessionId.
        rows.find((r) => r.entry && str(r.entry, "sessionId") === ref.sessionId);
    }
    return row ?? fail("session-not-found", `no session ${ref.sessionId} for agent ${ref.agentId}`, 404);
  }

  /** The row's transcript file resolved, refused when it leads outside the state dir. */
  private safePath(file: string, location: string): string | LoadError {
    const real = realpathOrNull(file);
    if (real === null) return fail("read-failed", `cannot open ${location}`, 500);
    if (!isInside(real, realpathOrNull(this.stateDir) ?? this.stateDir)) {
      return fail("path-outside-state-dir", `${location} resolves outside the state dir`, 422);
    }
    return real;
  }

  loadable(agent: DiscoveredAgent, issues: ParseIssue[]): LoadableSession[] {
    return this.rows(agent, false, issues).map((row) => ({
      summary: row.summary,
      identity: () => {
        const file = row.file === null ? "no file" : fileIdentity(row.file);
        return file === null ? null : `jsonl\u0000${file}\u0000${entryKey(row.entry)}`;
      },
      load: () => this.safeLoadRow(row),
      orderGroup: `jsonl\u0000${agent.agentId}`,
    }));
  }

  private safeLoadRow(row: JsonlSessionRow): LoadedSession | LoadError {
    try {
      return this.loadRow(row);
    } catch (e) {
      return fail("read-failed", `cannot load session: ${errorMessage(e)}`, 500);
    }
  }

  private rows(agent: DiscoveredAgent, scan: boolean, issues: ParseIssue[]): JsonlSessionRow[] {
    if (!agent.sessionsDir) return [];
    try {
      const listing = listJsonlSessions(this.stateDir, agent.agentId, agent.sessionsDir, {
        scan,
        scanStore: this.scanStore,
      });
      pushAll(issues, listing.issues);
      for (const r of listing.rows) pushAll(issues, r.issues);
      return listing.rows;
    } catch (e) {
      issues.push({
        source: `agents/${agent.agentId}/sessions`,
        code: "read-failed",
        message: `cannot list sessions: ${errorMessage(e)}`,
        severity: "error",
      });
      return [];
    }
  }

  /** The lookup row; a transcript parsed earlier (still current) fills in its real parse-error count. */
  private listed(r: JsonlSessionRow): ListedRow {
    const real = r.file ? realpathOrNull(r.file) : null;
    const errors = real !== null ? this.cache.errorCount(real) : null;
    return {
      summary: errors !== null ? { ...r.summary, parseErrorCount: errors } : r.summary,
      sessionKeys: r.sessionKeys,
      entrySessionId: r.entry ? (str(r.entry, "sessionId") ?? null) : null,
    };
  }

  /** The session's own version verdict, else the install's (a cron run, an orphan, an archive without report). */
  private version(row: JsonlSessionRow, own: VersionInfo): VersionInfo {
    return own.decidedBy === "default"
      ? installVersion(own, row.summary.agentId, this.installSignals())
      : own;
  }

  private loadRow(row: JsonlSessionRow): LoadedSession | LoadError {
    const rebasedPaths: { recorded: string; actual: string }[] = [];
    if (row.rebased) rebasedPaths.push(row.rebased);
    const ws = rebaseWorkspace(row.entry, this.stateDir);
    if (ws) rebasedPaths.push(ws);
    if (row.file === null) {
      // An entry without transcript still has its stored report (/context can render it).
      return {
        summary: row.summary,
        entry: row.entry,
        transcript: emptyTranscript(),
        version: this.version(row, detectJsonlVersion(row.entry, null)),
        rebasedPaths,
        issues: [...row.issues],
      };
    }
    const real = this.safePath(row.file, row.summary.location);
    if (typeof real !== "string") return real;
    const key = entryKey(row.entry);
    const read = this.cache.jsonl(real, row.summary.location, key);
    if (isLoadError(read)) return read;
    const parsed = isFinished(row) ? asFinishedFile(read) : read;
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
      version: this.version(row, this.cache.jsonlVersion(row.entry, key, parsed)),
      rebasedPaths,
      issues: [...row.issues, ...parsed.issues],
    };
  }
}
