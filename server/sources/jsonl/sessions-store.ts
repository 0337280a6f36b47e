// JSONL-era session listing of one agent's `sessions/` dir (spec storage.md §3, §7).
//
// What the list shows (kept cheap — no JSON.parse of whole transcripts):
// - one row per transcript FILE. Keys of `sessions.json` that point to the same transcript are merged
//   into one row (`sessionKeys`, primary = most recently updated entry; the corpus has cron keys
//   sharing an id with their run key);
// - one row per entry whose transcript does not exist ("entry without file": `missing: true`, entryCount
//   null + issue) — unless a reset/deleted archive of it exists: then the newest archive is its transcript
//   (archived "reset"/"deleted"; OpenClaw deleted or reset the session but kept the key);
// - every other `<id>.jsonl` as archived "orphan", `*.jsonl.reset.<ts>` / `*.jsonl.deleted.<ts>` (any suffix
//   file-names.ts reads: ISO-Z, epoch, local offset) as "reset"/"deleted", and the copies `*.jsonl.bak…` /
//   `*.checkpoint.<uuid>.jsonl` as "backup"/"checkpoint" with `copyOf` (their entries duplicate another
//   transcript's: totals leave them out).
// - `updatedAt`: entry `updatedAt` → last envelope timestamp in the file → archive time in the file
//   name → file mtime; model/provider: entry → last model assistant (transcript-only ones skipped);
// - `entryCount` = number of non-empty lines (a fast byte scan, not a parse); `parseErrorCount` is 0 in
//   the list — lines are only validated when a session is loaded (the state reader fills the real
//   count in for sessions it has parsed).
// - Row ids (`summary.sessionId`): the file name without `.jsonl` for live/orphan/topic files
//   (`<id>`, `<id>-topic-<thread>`); `<id>.reset.<ts>` / `<id>.deleted.<ts>` for archives, so every
//   archived file is addressable and never collides with the live id; the entry's `sessionId` when
//   there is no file.
// Skipped (never listed): `*.trajectory.jsonl` (run trace), `*.lock`, `*.tmp`, `*.zst` (SQLite-era derived
// archives) and non-transcript files. Skipped transcript-like files are
// returned in `skippedFiles` so callers can show them.

import { type Dirent, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pushAll } from "../../../shared/big-lists.ts";
import { type JsonObject, num, str } from "../../../shared/json.ts";
import type { ArchivedKind, ParseIssue, SessionSummary } from "../../model/session.ts";
import { isSafeId } from "../discover.ts";
import { isInside, realpathOrNull } from "../fs-safety.ts";
import { withSpawnedBy } from "../spawned-by.ts";
import { newestArchives, resolveEntryFile } from "./entry-file.ts";
import { classifyTranscriptFileName } from "./file-names.ts";
import { quickScanTranscript, summaryTimesAndModel, type TranscriptQuickScan } from "./quick-scan.ts";
import type { ScanStore } from "./scan-store.ts";
import { readSessionsStore } from "./sessions-json.ts";

export { classifyTranscriptFileName, parseArchiveTimestamp, type TranscriptFileKind } from "./file-names.ts";
export { quickScanBuffer, quickScanTranscript, summaryTimesAndModel, transcriptTail } from "./quick-scan.ts";
export { parseSessionsStoreText, readSessionsStore } from "./sessions-json.ts";

export interface JsonlSessionRow {
  summary: SessionSummary;
  /** SessionEntry of the primary key (null for archived/orphan files). */
  entry: JsonObject | null;
  /** Every sessions.json key pointing to this transcript, primary first. */
  sessionKeys: string[];
  /** Absolute transcript path, or null for an entry without file. */
  file: string | null;
  /** Set when the recorded `sessionFile` was not used as-is (storage.md §7). */
  rebased: { recorded: string; actual: string } | null;
  /** Problems of this row (missing transcript, unaddressable id, …). */
  issues: ParseIssue[];
  /** False when listed with `scan: false` (entryCount null, model/updatedAt not yet from the file). */
  scanned: boolean;
  /** Time encoded in a `.reset.<ts>` / `.deleted.<ts>` file name. */
  archivedAt: number | null;
  /** size/mtime of the transcript file, when it exists. */
  fileFacts: { sizeBytes: number; mtimeMs: number } | null;
}

export interface ListJsonlOptions {
  /**
   * Read every transcript for its line count / last model (default true). `false` only stats the
   * files: enough to resolve ids and load one session without reading all of them.
   */
  scan?: boolean;
  /** The persistent scan cache (scan-store.ts), when the process has one. */
  scanStore?: ScanStore | null;
}

export interface JsonlSessionsListing {
  rows: JsonlSessionRow[];
  /** Store-level problems (broken sessions.json, bad entries). */
  issues: ParseIssue[];
  /** Transcript-like files deliberately not listed, with why. */
  skippedFiles: { name: string; reason: string }[];
  /** Number of sessions.json keys read (valid entries). */
  entryKeyCount: number;
}

interface FileFacts {
  sizeBytes: number;
  mtimeMs: number;
}

const NOT_A_FILE = "transcript is not a regular file (a FIFO, a device or a folder); not read";

/** True when `file` exists as something else than a regular file (a FIFO would block the read). */
function isNotRegular(file: string): boolean {
  try {
    return !statSync(file).isFile();
  } catch {
    return false;
  }
}

function statFacts(file: string): FileFacts | null {
  try {
    const st = statSync(file);
    return { sizeBytes: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

function relPosix(stateDir: string, abs: string): string {
  return path.relative(stateDir, abs).split(path.sep).join("/");
}

interface Group {
  keys: { key: string; entry: JsonObject }[];
  file: string | null;
  rebased: { recorded: string; actual: string } | null;
  sessionId: string;
}

/** One listing of one sessions dir; the fields are what the steps of `listJsonlSessions` share. */
class SessionsDirListing {
  readonly issues: ParseIssue[] = [];
  readonly skippedFiles: { name: string; reason: string }[] = [];
  readonly rows: JsonlSessionRow[] = [];
  private readonly realStateDir: string;
  private readonly storeSource: string;
  private readonly usedIds = new Set<string>();
  private readonly consumedFiles = new Set<string>();
  /** Transcript names that exist as something else than a file (a FIFO, a device, a folder): never opened. */
  private readonly notRegular = new Set<string>();

  constructor(
    private readonly stateDir: string,
    private readonly agentId: string,
    private readonly sessionsDir: string,
    private readonly scan: boolean,
    private readonly scanStore: ScanStore | null = null,
  ) {
    this.realStateDir = realpathOrNull(stateDir) ?? path.resolve(stateDir);
    this.storeSource = relPosix(stateDir, path.join(sessionsDir, "sessions.json"));
  }

  /** sessions.json entries (a broken store still lets the directory listing work). */
  readStore(): [string, JsonObject][] {
    const store = readSessionsStore(path.join(this.sessionsDir, "sessions.json"), this.storeSource);
    pushAll(this.issues, store.issues);
    return store.entries;
  }

  /** File names of the dir; a symlinked transcript only when it stays inside the state dir. */
  existingFiles(): Set<string> {
    let dirents: Dirent[] = [];
    try {
      dirents = readdirSync(this.sessionsDir, { withFileTypes: true });
    } catch (e) {
      this.issues.push({
        source: relPosix(this.stateDir, this.sessionsDir),
        code: "read-failed",
        message: `cannot list sessions dir: ${e instanceof Error ? e.message : String(e)}`,
        severity: "error",
      });
    }
    const existing = new Set<string>();
    for (const d of dirents) {
      if (d.isFile()) {
        existing.add(d.name);
      } else if (d.isSymbolicLink()) {
        const real = realpathOrNull(path.join(this.sessionsDir, d.name));
        if (real && isInside(real, this.realStateDir)) existing.add(d.name);
        else if (classifyTranscriptFileName(d.name).kind !== "other") {
          this.skippedFiles.push({ name: d.name, reason: "symlink leaving the state dir" });
        }
      } else if (classifyTranscriptFileName(d.name).kind !== "other") {
        this.notRegular.add(d.name);
        this.skippedFiles.push({ name: d.name, reason: "not a regular file" });
      }
    }
    return existing;
  }

  /** Entries → files, grouping the keys that share a transcript (primary = most recently updated). */
  groupEntries(entries: [string, JsonObject][], existing: Set<string>): Group[] {
    const newestArchive = newestArchives(existing);
    const groups = new Map<string, Group>();
    for (const [key, entry] of entries) {
      const sessionId = str(entry, "sessionId") ?? "";
      const file = resolveEntryFile(entry, this.sessionsDir, this.realStateDir, existing, newestArchive);
      const { rebased } = file;
      const groupKey = file.file ?? `\u0000${sessionId}`;
      const g = groups.get(groupKey);
      if (g) g.keys.push({ key, entry });
      else groups.set(groupKey, { keys: [{ key, entry }], file: file.file, rebased, sessionId });
    }
    for (const g of groups.values()) {
      g.keys.sort(
        (a, b) =>
          (num(b.entry, "updatedAt") ?? 0) - (num(a.entry, "updatedAt") ?? 0) ||
          (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
      );
    }
    return [...groups.values()];
  }

  /** The row of a group of sessions.json keys (with or without its transcript file). */
  addEntryRow(g: Group): void {
    const primary = g.keys[0];
    if (!primary) return;
    const rowIssues: ParseIssue[] = [];
    let scan: TranscriptQuickScan | null = null;
    let facts: { sizeBytes: number; mtimeMs: number } | null = null;
    let archivedAt: number | null = null;
    let archived: ArchivedKind | null = null;
    let id = g.sessionId;
    if (g.file) {
      if (path.dirname(g.file) === this.sessionsDir) this.consumedFiles.add(path.basename(g.file));
      const kind = classifyTranscriptFileName(path.basename(g.file));
      if (kind.kind !== "skip" && kind.kind !== "other") id = kind.id;
      if (kind.kind === "reset" || kind.kind === "deleted") {
        archivedAt = kind.archivedAt;
        archived = kind.kind;
        this.noteTimestamp(g.file, kind.timestampNote, rowIssues);
      }
      if (isNotRegular(g.file)) {
        rowIssues.push(this.fileIssue(g.file, "not-a-file", NOT_A_FILE, "error"));
      } else {
        scan = this.scan ? quickScanTranscript(g.file, this.scanStore) : null;
        facts = scan ?? statFacts(g.file);
        if (!facts)
          rowIssues.push(
            this.fileIssue(g.file, "read-failed", "transcript exists but cannot be read", "error"),
          );
      }
    } else if (this.notRegular.has(`${g.sessionId}.jsonl`)) {
      rowIssues.push(
        this.fileIssue(
          path.join(this.sessionsDir, `${g.sessionId}.jsonl`),
          "not-a-file",
          NOT_A_FILE,
          "error",
        ),
      );
    } else {
      rowIssues.push({
        source: this.storeSource,
        code: "transcript-missing",
        message: `entry ${g.keys.map((k) => k.key).join(", ")} → ${g.sessionId}.jsonl does not exist (no transcript yet, or archived)`,
        severity: "warning",
      });
    }
    if (!isSafeId(id)) {
      rowIssues.push({
        source: this.storeSource,
        code: "unsafe-session-id",
        message: `session id ${JSON.stringify(id)} is not addressable (allowed: letters, digits, . _ : -)`,
        severity: "warning",
      });
    }
    const location = relPosix(this.stateDir, g.file ?? path.join(this.sessionsDir, `${g.sessionId}.jsonl`));
    this.rows.push({
      summary: {
        ...this.summary(id, primary.key, archived, primary.entry, { archivedAt, facts, scan, location }),
        ...(g.file ? {} : { missing: true as const }),
      },
      entry: primary.entry,
      sessionKeys: g.keys.map((k) => k.key),
      file: g.file,
      rebased: g.rebased,
      issues: rowIssues,
      scanned: this.scan,
      archivedAt,
      fileFacts: facts,
    });
  }

  /** Files no entry points to: archives and orphans; skipped copies go to `skippedFiles`. */
  addFileRows(existing: Set<string>): void {
    for (const name of [...existing].sort()) {
      const kind = classifyTranscriptFileName(name);
      if (kind.kind === "skip") {
        this.skippedFiles.push({ name, reason: kind.reason });
        continue;
      }
      if (kind.kind === "other" || this.consumedFiles.has(name)) continue;
      const file = path.join(this.sessionsDir, name);
      const scan = this.scan ? quickScanTranscript(file, this.scanStore) : null;
      const facts = scan ?? statFacts(file);
      const rowIssues: ParseIssue[] = [];
      if (!facts) rowIssues.push(this.fileIssue(file, "read-failed", "transcript cannot be read", "error"));
      if (!isSafeId(kind.id)) {
        const message = `file name ${JSON.stringify(name)} gives no addressable session id`;
        rowIssues.push(this.fileIssue(file, "unsafe-session-id", message, "warning"));
      }
      const archived: ArchivedKind = kind.kind === "live" ? "orphan" : kind.kind;
      const archivedAt = kind.kind === "live" ? null : kind.archivedAt;
      if (kind.kind !== "live") this.noteTimestamp(file, kind.timestampNote, rowIssues);
      const copyOf = kind.kind === "backup" || kind.kind === "checkpoint" ? { copyOf: kind.baseName } : {};
      const location = relPosix(this.stateDir, file);
      this.rows.push({
        summary: {
          ...this.summary(kind.id, null, archived, null, { archivedAt, facts, scan, location }),
          ...copyOf,
        },
        entry: null,
        sessionKeys: [],
        file,
        rebased: null,
        issues: rowIssues,
        scanned: this.scan,
        archivedAt,
        fileFacts: facts,
      });
    }
  }

  private summary(
    id: string,
    sessionKey: string | null,
    archived: ArchivedKind | null,
    entry: JsonObject | null,
    f: {
      archivedAt: number | null;
      facts: FileFacts | null;
      scan: TranscriptQuickScan | null;
      location: string;
    },
  ): SessionSummary {
    const summary: SessionSummary = {
      agentId: this.agentId,
      sessionId: this.uniqueId(id),
      sessionKey,
      storage: "jsonl",
      archived,
      ...summaryTimesAndModel(entry, f.archivedAt, f.facts, f.scan),
      entryCount: f.scan ? f.scan.lineCount : null,
      parseErrorCount: 0,
      location: f.location,
      sizeBytes: f.facts ? f.facts.sizeBytes : null,
    };
    return withSpawnedBy(summary, entry);
  }

  /** An archive suffix that is not OpenClaw's own format: say how its time was read. */
  private noteTimestamp(file: string, note: string | null, issues: ParseIssue[]): void {
    if (note === null) return;
    const message = `archive time in the file name read as ${note}`;
    issues.push(this.fileIssue(file, "archive-name-format", message, "warning"));
  }

  private uniqueId(id: string): string {
    let out = id;
    for (let n = 2; this.usedIds.has(out); n++) out = `${id}.dup${n}`;
    this.usedIds.add(out);
    return out;
  }

  private fileIssue(file: string, code: string, message: string, severity: "error" | "warning"): ParseIssue {
    return { source: relPosix(this.stateDir, file), code, message, severity };
  }
}

/** The listing's order: most recently updated first, then by id. */
export function compareListedSummaries(
  a: Pick<SessionSummary, "updatedAt" | "sessionId">,
  b: Pick<SessionSummary, "updatedAt" | "sessionId">,
): number {
  return (
    (b.updatedAt ?? Number.NEGATIVE_INFINITY) - (a.updatedAt ?? Number.NEGATIVE_INFINITY) ||
    (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0)
  );
}

/**
 * List one agent's JSONL sessions (see the header comment for what the rows mean).
 * `stateDir` and `sessionsDir` should be absolute. Never throws.
 */
export function listJsonlSessions(
  stateDir: string,
  agentId: string,
  sessionsDir: string,
  opts: ListJsonlOptions = {},
): JsonlSessionsListing {
  const listing = new SessionsDirListing(stateDir, agentId, sessionsDir, opts.scan ?? true, opts.scanStore);
  const entries = listing.readStore();
  const existing = listing.existingFiles();
  for (const g of listing.groupEntries(entries, existing)) listing.addEntryRow(g);
  listing.addFileRows(existing);
  const rows = listing.rows.sort((a, b) => compareListedSummaries(a.summary, b.summary));
  return { rows, issues: listing.issues, skippedFiles: listing.skippedFiles, entryKeyCount: entries.length };
}
