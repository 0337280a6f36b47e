// The state reader's memory (issue 8 "Live", issue 9 warm reports): parsed transcripts kept per file (JSONL) or
// per session (SQLite) in a small LRU, returned as the SAME object while the file's identity is unchanged, so
// everything memoised per Transcript object (service/report-memo.ts) is reused; a grown file is read from its end
// (jsonl/tail.ts), a grown SQLite session from its last seq (sqlite/incremental.ts).

import { statSync } from "node:fs";
import type { JsonObject } from "../../shared/json.ts";
import type { LoadedSession, Transcript, VersionInfo } from "../model/session.ts";
import { LruCache } from "../tokens/token-cache.ts";
import { detectJsonlVersion, type TranscriptSignals, transcriptSignals } from "./detect-version.ts";
import { fileIdentity, sqliteFilesIdentity, statIdentity } from "./fs-safety.ts";
import { countLineErrors } from "./jsonl/read-transcript.ts";
import { HALF_LINE_GRACE_MS, type JsonlTailState, loadJsonlIncremental } from "./jsonl/tail.ts";
import { errorMessage, fail, type LoadError } from "./session-era.ts";
import { type SqliteEventsState, sqliteEventsState, sqliteExtras } from "./sqlite/sqlite-source.ts";

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
 * (service/report-memo.ts) but also read the SessionEntry: when only the entry changed (OpenClaw rewrites
 * sessions.json / session_nodes after a run), a new object makes them recompute.
 */
export function retag(t: Transcript): Transcript {
  const copy = { ...t };
  const info = loadInfo.get(t);
  if (info) loadInfo.set(copy, info);
  return copy;
}

/** Same active branch, issues (by code) and context-eligibility: a reload that changed nothing the reports see. */
export function sameBranch(a: Transcript, b: Transcript): boolean {
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

interface CachedJsonl {
  identity: string;
  transcript: Transcript;
  /** Incremental-read state (jsonl/tail.ts). */
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
  /** sqliteFilesIdentity of the database when `session` was read. */
  fileIdentity: string;
  /** The whole loaded session, returned as is while `fileIdentity` is unchanged (warm path: no SQL). */
  session: LoadedSession;
  /** Summary + SessionEntry the transcript was returned with (JSON text). */
  metaKey: string;
}

/** Loads a SQLite session; `prev` = the decoded rows of the previous load of it, for an incremental read. */
export type SqliteLoader = (prev: SqliteEventsState | undefined) => LoadedSession | LoadError;

export class TranscriptCache {
  private readonly jsonlFiles: LruCache<string, CachedJsonl>;
  private readonly sqliteSessions: LruCache<string, CachedSqlite>;
  private readonly versions = new WeakMap<Transcript, { entryKey: string; version: VersionInfo }>();
  private readonly signals = new WeakMap<Transcript, TranscriptSignals>();
  /** The Transcript a tail read or a retag made this one from (same file, same entries in front). */
  private readonly previous = new WeakMap<Transcript, Transcript>();

  constructor(size: number) {
    const n = Math.max(1, Math.floor(size));
    this.jsonlFiles = new LruCache(n);
    this.sqliteSessions = new LruCache(n);
  }

  /** Lines lost to parse errors in the cached parse of `real` (a realpath), when it is still current. */
  errorCount(real: string): number | null {
    const hit = this.jsonlFiles.get(real);
    if (!hit || hit.identity !== fileIdentity(real)) return null;
    return countLineErrors(hit.transcript);
  }

  /**
   * Parse a JSONL transcript (`real` = its realpath): unchanged file → the same Transcript object (a new one,
   * same content, when only the SessionEntry changed); grown file → only the appended bytes are parsed;
   * shrunk/replaced file → full parse.
   */
  jsonl(real: string, source: string, entryKey: string): Transcript | LoadError {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(real);
    } catch {
      return fail("read-failed", `cannot stat ${source}`, 500);
    }
    const identity = statIdentity(st);
    const hit = this.jsonlFiles.get(real);
    const graceOver = (h: CachedJsonl) => h.pendingWaiting && Date.now() - h.mtimeMs >= HALF_LINE_GRACE_MS;
    if (hit && hit.identity === identity && !graceOver(hit)) {
      if (hit.entryKey !== entryKey) {
        const retagged = retag(hit.transcript);
        this.previous.set(retagged, hit.transcript);
        hit.transcript = retagged;
        hit.entryKey = entryKey;
      }
      return hit.transcript;
    }
    let load: ReturnType<typeof loadJsonlIncremental>;
    try {
      load = loadJsonlIncremental(real, source, hit?.tail ?? null);
    } catch (e) {
      return fail("read-failed", `cannot read ${source}: ${errorMessage(e)}`, 500);
    }
    loadInfo.set(load.transcript, { loadedBy: load.loadedBy, appendedEntries: load.appendedEntries });
    if (hit && load.loadedBy === "tail") this.previous.set(load.transcript, hit.transcript);
    this.jsonlFiles.set(real, {
      identity,
      transcript: load.transcript,
      tail: load.state,
      mtimeMs: st.mtimeMs,
      pendingWaiting: load.pendingWaiting,
      entryKey,
    });
    return load.transcript;
  }

  /**
   * detectJsonlVersion scans every entry for version signals (≈4 ms per load of a 100 MB transcript, most of
   * a warm report, which loads the session once per report; issue 9). It is pure in (entry, transcript) and
   * a Transcript is never changed once returned (an append or a new entry gives a new object), so the
   * verdict is kept per Transcript object and entry JSON.
   */
  jsonlVersion(entry: JsonObject | null, entryKey: string, t: Transcript): VersionInfo {
    const hit = this.versions.get(t);
    if (hit?.entryKey === entryKey) return { ...hit.version };
    const version = detectJsonlVersion(entry, t, this.rowSignals(t));
    this.versions.set(t, { entryKey, version: { ...version } });
    return version;
  }

  /**
   * The row signals of `t`: scanned once per Transcript, and after a tail read only over the appended entries
   * (the earlier Transcript of the same file keeps the same entry objects in front).
   */
  private rowSignals(t: Transcript): TranscriptSignals {
    let s = this.signals.get(t);
    if (s) return s;
    const prev = this.previous.get(t);
    const from = prev ? this.signals.get(prev) : undefined;
    const n = from?.scanned ?? 0;
    const continues =
      prev !== undefined && n <= t.entries.length && (n === 0 || t.entries[n - 1] === prev.entries[n - 1]);
    s = transcriptSignals(t, continues ? from : undefined);
    this.signals.set(t, s);
    // the link is needed once: kept, it would chain every Transcript since the last full read
    this.previous.delete(t);
    return s;
  }

  /**
   * A SQLite session of `dbPath`, through `load`. Any commit changes the database, its WAL or its rollback
   * journal: while none of them changed since the last read, the cached session is current and no transaction
   * is needed. A reload with the same rows, branch and entry keeps the previous Transcript object.
   */
  sqlite(dbPath: string, sessionId: string, load: SqliteLoader): LoadedSession | LoadError {
    const key = `${dbPath}\u0000${sessionId}`;
    const hit = this.sqliteSessions.get(key);
    const identity = sqliteFilesIdentity(dbPath);
    if (hit && identity !== null && hit.fileIdentity === identity) return hit.session;
    const loaded = load(hit?.events);
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
      loaded.transcript = hit.transcript;
    } else {
      const incremental = hit !== undefined && sqliteExtras(loaded)?.eventsRead?.mode === "incremental";
      loadInfo.set(t, {
        loadedBy: incremental ? "sqlite-incremental" : "sqlite-full",
        appendedEntries: incremental ? t.entries.length - hit.events.entries.length : t.entries.length,
      });
    }
    this.sqliteSessions.set(key, {
      events,
      transcript: loaded.transcript,
      metaKey,
      fileIdentity: identity ?? "",
      session: loaded,
    });
    return loaded;
  }
}
