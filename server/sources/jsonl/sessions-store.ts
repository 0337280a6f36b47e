// JSONL-era session listing of one agent's `sessions/` dir (spec storage.md §3, §7).
//
// What the list shows (kept cheap — no JSON.parse of whole transcripts):
// - one row per transcript FILE. Keys of `sessions.json` that point to the same transcript are merged
//   into one row (`sessionKeys`, primary = most recently updated entry; the corpus has cron keys
//   sharing an id with their run key);
// - one row per entry whose transcript does not exist ("entry without file": entryCount null + issue);
// - every other `<id>.jsonl` as archived "orphan", `*.jsonl.reset.<ts>` / `*.jsonl.deleted.<ts>` as
//   "reset"/"deleted".
// - `updatedAt`: entry `updatedAt` → last envelope timestamp in the file → archive time in the file
//   name → file mtime; model/provider: entry → last model assistant (transcript-only ones skipped);
// - `entryCount` = number of non-empty lines (a fast byte scan, not a parse); `parseErrorCount` is 0 in
//   the list — lines are only validated when a session is loaded (the state reader fills the real
//   count in for sessions it has parsed).
// - Row ids (`summary.sessionId`): the file name without `.jsonl` for live/orphan/topic files
//   (`<id>`, `<id>-topic-<thread>`); `<id>.reset.<ts>` / `<id>.deleted.<ts>` for archives, so every
//   archived file is addressable and never collides with the live id; the entry's `sessionId` when
//   there is no file.
// Skipped (never listed): `*.trajectory.jsonl` (run trace), `*.checkpoint.<uuid>.jsonl` (pre-compaction
// copies of a live transcript, ≈2026.4.x — duplicates of the live history), `*.lock`, `*.bak…`, `*.tmp`,
// `*.zst` (SQLite-era derived archives) and non-transcript files. Skipped transcript-like files are
// returned in `skippedFiles` so callers can show them.

import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isObject, type JsonObject, num, obj, str, tryParseJson } from "../../../shared/json.ts";
import type { ArchivedKind, ParseIssue, SessionSummary, Transcript } from "../../model/session.ts";
import { isTranscriptOnlyAssistant as isTranscriptOnly } from "../../openclaw/transcript-only.ts";
import { isSafeId } from "../discover.ts";
import { isInside, realpathOrNull } from "../fs-safety.ts";

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

export type TranscriptFileKind =
  | { kind: "live"; id: string }
  | { kind: "reset" | "deleted"; id: string; baseName: string; archivedAt: number | null }
  | { kind: "skip"; reason: string }
  | { kind: "other" };

const ARCHIVE_RE = /^(.+)\.jsonl\.(reset|deleted)\.(\d{4}-\d{2}-\d{2}T[0-9:.-]+Z)$/;
const CHECKPOINT_RE = /\.checkpoint\.[^.]+\.jsonl$/;

/** `2026-04-05T04-22-28.629Z` (archive suffix: `:` and `.` replaced by `-`) → epoch ms. */
export function parseArchiveTimestamp(ts: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})[-:](\d{2})[-:](\d{2})(?:[-.](\d+))?Z$/.exec(ts);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ? `.${m[5]}` : ""}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** Classify a file name of a sessions dir (storage.md §3.2). Pure. */
export function classifyTranscriptFileName(name: string): TranscriptFileKind {
  if (name.endsWith(".trajectory.jsonl")) return { kind: "skip", reason: "trajectory (run trace)" };
  if (CHECKPOINT_RE.test(name)) return { kind: "skip", reason: "pre-compaction checkpoint copy" };
  if (/\.lock$/.test(name)) return { kind: "skip", reason: "writer lock" };
  if (/\.jsonl\..*\bbak\b|\.bak$/.test(name)) return { kind: "skip", reason: "backup copy" };
  if (/\.(tmp|zst)$/.test(name))
    return { kind: "skip", reason: name.endsWith(".zst") ? "compressed archive" : "temp file" };
  if (name.endsWith(".jsonl")) return { kind: "live", id: name.slice(0, -".jsonl".length) };
  const m = ARCHIVE_RE.exec(name);
  if (m?.[1] && m[3] && (m[2] === "reset" || m[2] === "deleted")) {
    return {
      kind: m[2],
      id: `${m[1]}.${m[2]}.${m[3]}`,
      baseName: `${m[1]}.jsonl`,
      archivedAt: parseArchiveTimestamp(m[3]),
    };
  }
  if (name.includes(".jsonl.")) return { kind: "skip", reason: "unrecognised transcript-like file" };
  return { kind: "other" };
}

/** JSON.parse error → 1-based line (V8 messages carry `line N` or `position N`). */
function jsonErrorLine(text: string, error: string): number | undefined {
  const lineMatch = /\(line (\d+) column \d+\)/.exec(error);
  if (lineMatch) return Number(lineMatch[1]);
  const posMatch = /position (\d+)/.exec(error);
  if (!posMatch) return undefined;
  const pos = Number(posMatch[1]);
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parse `sessions.json` text (key → SessionEntry). Pure; never throws. */
export function parseSessionsStoreText(
  text: string,
  source: string,
): { entries: [string, JsonObject][]; issues: ParseIssue[] } {
  const parsed = tryParseJson(text);
  if (!parsed.ok) {
    const issue: ParseIssue = {
      source,
      code: "invalid-json",
      message: `sessions.json is not valid JSON (${parsed.error}); sessions are listed from the transcript files only`,
      severity: "error",
    };
    const line = jsonErrorLine(text, parsed.error);
    if (line !== undefined) issue.line = line;
    return { entries: [], issues: [issue] };
  }
  if (!isObject(parsed.value)) {
    return {
      entries: [],
      issues: [
        { source, code: "invalid-store", message: "sessions.json is not a JSON object", severity: "error" },
      ],
    };
  }
  const entries: [string, JsonObject][] = [];
  const issues: ParseIssue[] = [];
  for (const [key, value] of Object.entries(parsed.value)) {
    if (!isObject(value)) {
      issues.push({
        source,
        code: "invalid-entry",
        message: `entry ${key} is not an object; skipped`,
        severity: "error",
      });
      continue;
    }
    if (str(value, "sessionId") === undefined) {
      issues.push({
        source,
        code: "invalid-entry",
        message: `entry ${key} has no sessionId; skipped`,
        severity: "error",
      });
      continue;
    }
    entries.push([key, value]);
  }
  return { entries, issues };
}

export interface TranscriptQuickScan {
  sizeBytes: number;
  mtimeMs: number;
  /** Non-empty lines (header included); a trailing line without `\n` counts too. */
  lineCount: number;
  /** Envelope timestamp of the last line that parses, epoch ms. */
  lastTimestamp: number | null;
  /** provider/model of the last model assistant (transcript-only assistants skipped). */
  provider: string | null;
  model: string | null;
}

const scanCache = new Map<string, TranscriptQuickScan>();
const SCAN_CACHE_MAX = 4096;
const ASSISTANT_MARK = Buffer.from('"role":"assistant"');
/** How many lines from the end are inspected for the last assistant (keeps the scan O(file) + small). */
const MAX_TAIL_PARSES = 400;

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** Count lines and find the last timestamp/model without parsing every line. */
export function quickScanBuffer(buf: Buffer): Omit<TranscriptQuickScan, "sizeBytes" | "mtimeMs"> {
  const lines: [number, number][] = [];
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    if (!isBlank(buf, start, end)) lines.push([start, end]);
    start = end + 1;
  }
  let lastTimestamp: number | null = null;
  let provider: string | null = null;
  let model: string | null = null;
  let parses = 0;
  for (let i = lines.length - 1; i >= 0 && parses < MAX_TAIL_PARSES; i--) {
    const range = lines[i];
    if (!range) continue;
    const needTimestamp = lastTimestamp === null;
    const slice = buf.subarray(range[0], range[1]);
    const maybeAssistant = model === null && slice.indexOf(ASSISTANT_MARK) !== -1;
    if (!needTimestamp && !maybeAssistant) continue;
    parses++;
    const parsed = tryParseJson(slice.toString("utf8"));
    if (!parsed.ok || !isObject(parsed.value)) continue;
    if (needTimestamp) {
      const ts = str(parsed.value, "timestamp");
      const ms = ts !== undefined ? Date.parse(ts) : Number.NaN;
      if (Number.isFinite(ms)) lastTimestamp = ms;
    }
    const message = obj(parsed.value, "message");
    if (maybeAssistant && message && str(message, "role") === "assistant" && !isTranscriptOnly(message)) {
      provider = str(message, "provider") ?? null;
      model = str(message, "model") ?? null;
    }
    if (lastTimestamp !== null && model !== null) break;
  }
  return { lineCount: lines.length, lastTimestamp, provider, model };
}

/** Quick scan of a transcript file, cached by path + size + mtime. Null when unreadable. */
export function quickScanTranscript(absPath: string): TranscriptQuickScan | null {
  let size: number;
  let mtimeMs: number;
  try {
    const st = statSync(absPath);
    size = st.size;
    mtimeMs = st.mtimeMs;
  } catch {
    return null;
  }
  const key = `${absPath}\u0000${size}\u0000${mtimeMs}`;
  const hit = scanCache.get(key);
  if (hit) return hit;
  let buf: Buffer;
  try {
    buf = readFileSync(absPath);
  } catch {
    return null;
  }
  const scan: TranscriptQuickScan = { sizeBytes: size, mtimeMs, ...quickScanBuffer(buf) };
  if (scanCache.size >= SCAN_CACHE_MAX) {
    const oldest = scanCache.keys().next().value;
    if (oldest !== undefined) scanCache.delete(oldest);
  }
  scanCache.set(key, scan);
  return scan;
}

const storeCache = new Map<string, { entries: [string, JsonObject][]; issues: ParseIssue[] }>();
const STORE_CACHE_MAX = 16;

/**
 * Read + parse a `sessions.json`, cached by path + size + mtime (real stores reach several MB because
 * every entry carries its systemPromptReport, and every session load needs the store). A missing file
 * is an empty store without issue (an agent dir with transcripts only). Never throws.
 */
export function readSessionsStore(
  file: string,
  source: string,
): { entries: [string, JsonObject][]; issues: ParseIssue[] } {
  let key: string;
  try {
    const st = statSync(file);
    key = `${file}\u0000${st.size}\u0000${st.mtimeMs}`;
  } catch {
    return { entries: [], issues: [] };
  }
  const hit = storeCache.get(key);
  if (hit) return hit;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return {
      entries: [],
      issues: [
        {
          source,
          code: "read-failed",
          message: `cannot read sessions.json: ${e instanceof Error ? e.message : String(e)}`,
          severity: "error",
        },
      ],
    };
  }
  const parsed = parseSessionsStoreText(text, source);
  if (storeCache.size >= STORE_CACHE_MAX) {
    const oldest = storeCache.keys().next().value;
    if (oldest !== undefined) storeCache.delete(oldest);
  }
  storeCache.set(key, parsed);
  return parsed;
}

/** What the list derives from a transcript's content (quick scan or full parse). */
export interface TranscriptTail {
  lastTimestamp: number | null;
  provider: string | null;
  model: string | null;
}

/** Same facts as the quick scan, from a parsed transcript. Pure. */
export function transcriptTail(t: Transcript): TranscriptTail {
  let lastTimestamp: number | null = null;
  let provider: string | null = null;
  let model: string | null = null;
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i];
    if (!e) continue;
    if (lastTimestamp === null && e.timestamp !== null) {
      const ms = Date.parse(e.timestamp);
      if (Number.isFinite(ms)) lastTimestamp = ms;
    }
    const message = obj(e.raw, "message");
    if (model === null && message && str(message, "role") === "assistant" && !isTranscriptOnly(message)) {
      provider = str(message, "provider") ?? null;
      model = str(message, "model") ?? null;
    }
    if (lastTimestamp !== null && model !== null) break;
  }
  return { lastTimestamp, provider, model };
}

/**
 * Summary fields that depend on the data (pure): `updatedAt` = entry `updatedAt` → last envelope
 * timestamp in the file → archive time from the file name → file mtime; model/provider = entry
 * (`model`, `modelProvider`) → last model assistant of the transcript.
 */
export function summaryTimesAndModel(
  entry: JsonObject | null,
  archivedAt: number | null,
  fileFacts: { mtimeMs: number } | null,
  tail: TranscriptTail | null,
): Pick<SessionSummary, "updatedAt" | "model" | "provider"> {
  return {
    updatedAt: num(entry, "updatedAt") ?? tail?.lastTimestamp ?? archivedAt ?? fileFacts?.mtimeMs ?? null,
    model: str(entry, "model") ?? tail?.model ?? null,
    provider: str(entry, "modelProvider") ?? tail?.provider ?? null,
  };
}

function statFacts(file: string): { sizeBytes: number; mtimeMs: number } | null {
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

/**
 * Which transcript file a SessionEntry uses (storage.md §3, §7):
 * 1. the recorded absolute `sessionFile` when it exists inside this state dir's `agents/<id>/sessions`;
 * 2. else `<sessionsDir>/<basename(sessionFile)>` (rebased);
 * 3. else `<sessionsDir>/<sessionId>.jsonl` (rebased when a `sessionFile` was recorded);
 * 4. else none. A recorded path outside the state dir is never opened.
 */
function resolveEntryFile(
  entry: JsonObject,
  sessionsDir: string,
  realStateDir: string,
  existing: Set<string>,
): { file: string | null; rebased: { recorded: string; actual: string } | null } {
  const recorded = str(entry, "sessionFile");
  const sessionId = str(entry, "sessionId") ?? "";
  if (recorded && path.isAbsolute(recorded)) {
    const real = realpathOrNull(recorded);
    const agentsDir = path.join(realStateDir, "agents");
    if (real && isInside(real, agentsDir) && path.basename(path.dirname(real)) === "sessions") {
      // Same dir as the one being read (possibly through a symlinked state dir): use our own spelling
      // so the file is recognised as consumed; a sibling agent's sessions dir is used as is.
      const realSessionsDir = realpathOrNull(sessionsDir);
      if (realSessionsDir && path.dirname(real) === realSessionsDir) {
        return { file: path.join(sessionsDir, path.basename(real)), rebased: null };
      }
      return { file: real, rebased: null };
    }
  }
  const candidates: string[] = [];
  if (recorded) {
    const base = path.basename(recorded.replace(/\\/g, "/"));
    if (base && base !== "." && base !== ".." && !base.includes("/")) candidates.push(base);
  }
  if (isSafeId(sessionId)) candidates.push(`${sessionId}.jsonl`);
  for (const name of candidates) {
    if (existing.has(name)) {
      const actual = path.join(sessionsDir, name);
      return { file: actual, rebased: recorded && recorded !== actual ? { recorded, actual } : null };
    }
  }
  return { file: null, rebased: null };
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
  const doScan = opts.scan ?? true;
  const issues: ParseIssue[] = [];
  const skippedFiles: { name: string; reason: string }[] = [];
  const realStateDir = realpathOrNull(stateDir) ?? path.resolve(stateDir);
  const storeSource = relPosix(stateDir, path.join(sessionsDir, "sessions.json"));

  // 1. sessions.json (a broken store still lets the directory listing work).
  const store = readSessionsStore(path.join(sessionsDir, "sessions.json"), storeSource);
  const storeEntries = store.entries;
  issues.push(...store.issues);

  // 2. Directory listing.
  let dirents: Dirent[] = [];
  try {
    dirents = readdirSync(sessionsDir, { withFileTypes: true });
  } catch (e) {
    issues.push({
      source: relPosix(stateDir, sessionsDir),
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
      // A symlinked transcript is listed only when it stays inside the state dir.
      const real = realpathOrNull(path.join(sessionsDir, d.name));
      if (real && isInside(real, realStateDir)) existing.add(d.name);
      else if (classifyTranscriptFileName(d.name).kind !== "other") {
        skippedFiles.push({ name: d.name, reason: "symlink leaving the state dir" });
      }
    }
  }

  // 3. Entries → files, grouping keys that share a transcript.
  interface Group {
    keys: { key: string; entry: JsonObject }[];
    file: string | null;
    rebased: { recorded: string; actual: string } | null;
    sessionId: string;
  }
  const groups = new Map<string, Group>();
  for (const [key, entry] of storeEntries) {
    const sessionId = str(entry, "sessionId") ?? "";
    const { file, rebased } = resolveEntryFile(entry, sessionsDir, realStateDir, existing);
    const groupKey = file ?? `\u0000${sessionId}`;
    const g = groups.get(groupKey);
    if (g) g.keys.push({ key, entry });
    else groups.set(groupKey, { keys: [{ key, entry }], file, rebased, sessionId });
  }

  const rows: JsonlSessionRow[] = [];
  const usedIds = new Set<string>();
  const consumedFiles = new Set<string>();
  const uniqueId = (id: string): string => {
    let out = id;
    for (let n = 2; usedIds.has(out); n++) out = `${id}.dup${n}`;
    usedIds.add(out);
    return out;
  };

  for (const g of groups.values()) {
    g.keys.sort(
      (a, b) =>
        (num(b.entry, "updatedAt") ?? 0) - (num(a.entry, "updatedAt") ?? 0) ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    const primary = g.keys[0];
    if (!primary) continue;
    const rowIssues: ParseIssue[] = [];
    let scan: TranscriptQuickScan | null = null;
    let facts: { sizeBytes: number; mtimeMs: number } | null = null;
    let archivedAt: number | null = null;
    let id = g.sessionId;
    if (g.file) {
      if (path.dirname(g.file) === sessionsDir) consumedFiles.add(path.basename(g.file));
      const kind = classifyTranscriptFileName(path.basename(g.file));
      if (kind.kind === "live" || kind.kind === "reset" || kind.kind === "deleted") id = kind.id;
      if (kind.kind === "reset" || kind.kind === "deleted") archivedAt = kind.archivedAt;
      scan = doScan ? quickScanTranscript(g.file) : null;
      facts = scan ?? statFacts(g.file);
      if (!facts) {
        rowIssues.push({
          source: relPosix(stateDir, g.file),
          code: "read-failed",
          message: "transcript exists but cannot be read",
          severity: "error",
        });
      }
    } else {
      rowIssues.push({
        source: storeSource,
        code: "transcript-missing",
        message: `entry ${g.keys.map((k) => k.key).join(", ")} → ${g.sessionId}.jsonl does not exist (no transcript yet, or archived)`,
        severity: "warning",
      });
    }
    if (!isSafeId(id)) {
      rowIssues.push({
        source: storeSource,
        code: "unsafe-session-id",
        message: `session id ${JSON.stringify(id)} is not addressable (allowed: letters, digits, . _ : -)`,
        severity: "warning",
      });
    }
    const entry = primary.entry;
    const summary: SessionSummary = {
      agentId,
      sessionId: uniqueId(id),
      sessionKey: primary.key,
      storage: "jsonl",
      archived: null,
      ...summaryTimesAndModel(entry, archivedAt, facts, scan),
      entryCount: scan ? scan.lineCount : null,
      parseErrorCount: 0,
      location: relPosix(stateDir, g.file ?? path.join(sessionsDir, `${g.sessionId}.jsonl`)),
      sizeBytes: facts ? facts.sizeBytes : null,
    };
    rows.push({
      summary,
      entry,
      sessionKeys: g.keys.map((k) => k.key),
      file: g.file,
      rebased: g.rebased,
      issues: rowIssues,
      scanned: doScan,
      archivedAt,
      fileFacts: facts,
    });
  }

  // 4. Files no entry points to: archives and orphans.
  for (const name of [...existing].sort()) {
    const kind = classifyTranscriptFileName(name);
    if (kind.kind === "skip") {
      skippedFiles.push({ name, reason: kind.reason });
      continue;
    }
    if (kind.kind === "other" || consumedFiles.has(name)) continue;
    const file = path.join(sessionsDir, name);
    const scan = doScan ? quickScanTranscript(file) : null;
    const facts = scan ?? statFacts(file);
    const archived: ArchivedKind = kind.kind === "live" ? "orphan" : kind.kind;
    const rowIssues: ParseIssue[] = [];
    if (!facts) {
      rowIssues.push({
        source: relPosix(stateDir, file),
        code: "read-failed",
        message: "transcript cannot be read",
        severity: "error",
      });
    }
    if (!isSafeId(kind.id)) {
      rowIssues.push({
        source: relPosix(stateDir, file),
        code: "unsafe-session-id",
        message: `file name ${JSON.stringify(name)} gives no addressable session id`,
        severity: "warning",
      });
    }
    const archivedAt = kind.kind === "live" ? null : kind.archivedAt;
    rows.push({
      summary: {
        agentId,
        sessionId: uniqueId(kind.id),
        sessionKey: null,
        storage: "jsonl",
        archived,
        ...summaryTimesAndModel(null, archivedAt, facts, scan),
        entryCount: scan ? scan.lineCount : null,
        parseErrorCount: 0,
        location: relPosix(stateDir, file),
        sizeBytes: facts ? facts.sizeBytes : null,
      },
      entry: null,
      sessionKeys: [],
      file,
      rebased: null,
      issues: rowIssues,
      scanned: doScan,
      archivedAt,
      fileFacts: facts,
    });
  }

  rows.sort(
    (a, b) =>
      (b.summary.updatedAt ?? Number.NEGATIVE_INFINITY) - (a.summary.updatedAt ?? Number.NEGATIVE_INFINITY) ||
      (a.summary.sessionId < b.summary.sessionId ? -1 : a.summary.sessionId > b.summary.sessionId ? 1 : 0),
  );
  return { rows, issues, skippedFiles, entryKeyCount: storeEntries.length };
}
