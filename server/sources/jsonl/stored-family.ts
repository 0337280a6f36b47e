// The release family of a JSONL session decided WITHOUT parsing its transcript, for what prints a stored report
// (`clawscope context --mode list|json`, issue 17). detect-version.ts decides from the SessionEntry, the header
// and four kinds of transcript rows: `reset` entries and projection snapshots (`prunedToolResults`) → 2026.9,
// `leaf` rows and side appends (`appendMode`) → 2026.7. Here the header comes from the first line, and the rows
// are looked for as bytes: each signal needs its literal JSON text in the file (`"reset"`, `"leaf"` as a value,
// `"prunedToolResults"`, `"appendMode"` as a key — OpenClaw writes JSON.stringify output, which never escapes
// ASCII letters). No candidate in the bytes → no such row, and the verdict from the entry and header is the
// parse's. A candidate → null: only the parse can tell (a false hit, e.g. a tool argument "reset", costs a full
// load, never a wrong family). A header version ≥ 4 decides 2026.9 without the scan.

import fs from "node:fs";
import { isObject, type JsonObject, num, str, tryParseJson } from "../../../shared/json.ts";
import type { Transcript, VersionInfo } from "../../model/session.ts";
import { detectJsonlVersion } from "../detect-version.ts";

const bytes = (...texts: string[]) => texts.map((t) => Buffer.from(t));
/** Row signals that would raise a 2026.7 verdict (to 2026.9), and a 2026.3 one (to 2026.7 or 2026.9). */
const RAISE_2026_7 = bytes('"reset"', '"prunedToolResults"');
const RAISE_2026_3 = [...RAISE_2026_7, ...bytes('"leaf"', '"appendMode"')];
const OVERLAP = Math.max(...RAISE_2026_3.map((p) => p.length)) - 1;
const STEP = 8 << 20;
/** A header line longer than this is not OpenClaw's (its header is a few hundred bytes): let the parse decide. */
const HEADER_MAX = 64 << 10;

/**
 * The transcript's first entry as the parser would see it (the first non-blank line), or undefined when that
 * line is not a JSON object read whole from the first HEADER_MAX bytes (the parse may skip it: let it decide).
 */
function firstEntry(fd: number): JsonObject | undefined {
  const buf = Buffer.allocUnsafe(HEADER_MAX);
  const n = fs.readSync(fd, buf, 0, HEADER_MAX, 0);
  const text = buf.subarray(0, n).toString("utf8");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length - (n === HEADER_MAX ? 1 : 0); i++) {
    const line = lines[i] ?? "";
    if (!line.trim()) continue;
    const parsed = tryParseJson(line);
    return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  }
  return undefined;
}

/**
 * Which of `signals` occur in the file (read in STEP-byte steps, never whole). Stops at the end of the file, once
 * every signal is found, or once one of `stopOn` is (then the caller's answer is decided anyway).
 */
function signalsIn(fd: number, signals: readonly Buffer[], stopOn: ReadonlySet<Buffer>): Set<Buffer> {
  const found = new Set<Buffer>();
  if (signals.length === 0) return found;
  const buf = Buffer.allocUnsafe(STEP + OVERLAP);
  let pos = 0;
  let carry = 0;
  for (;;) {
    const n = fs.readSync(fd, buf, carry, STEP, pos);
    if (n === 0) return found;
    pos += n;
    const view = buf.subarray(0, carry + n);
    for (const p of signals) {
      if (found.has(p) || view.indexOf(p) < 0) continue;
      found.add(p);
      if (stopOn.has(p)) return found;
    }
    if (found.size === signals.length) return found;
    carry = Math.min(OVERLAP, view.length);
    view.copy(buf, 0, view.length - carry);
  }
}

/** The header-only transcript of the file and the verdict detect-version.ts gives it with `entry`. */
function headerVerdict(fd: number, entry: JsonObject | null): VersionInfo | null {
  const first = firstEntry(fd);
  if (first === undefined) return null;
  const isHeader = str(first, "type") === "session" && str(first, "id") !== undefined;
  const headerOnly: Transcript = {
    header: isHeader ? first : null,
    version: isHeader ? (num(first, "version") ?? null) : null,
    entries: [],
    activeBranch: [],
    leafIndex: null,
    issues: [],
  };
  const version = detectJsonlVersion(entry, headerOnly);
  // Rows only ever raise the family, and nothing is above 2026.9; a session without a verdict of its own takes
  // the install's (version-fallback.ts), which rows could still give it: leave that to the load.
  return version.decidedBy === "session" ? version : null;
}

/** What a full parse of a file would decide, known without it: the family, and the whole VersionInfo when asked. */
export interface StoredVerdict {
  family: VersionInfo["family"];
  /**
   * The VersionInfo itself — family AND reason, which lists the row signals — or null when not asked for or when a
   * candidate of a row signal the reason would name is in the bytes.
   */
  version: VersionInfo | null;
}

/**
 * The verdict a full parse of `file` would give with `entry`, from its header line and at most one scan of its
 * bytes, or null when only the parse can tell (a row signal that could raise the family, or no verdict of the
 * session's own). `wantVersion`: also decide the reason (a 2026.9 verdict then scans too: its reason lists the
 * 2026.9 row signals).
 */
export function jsonlStoredVerdict(
  entry: JsonObject | null,
  file: string,
  wantVersion: boolean,
): StoredVerdict | null {
  const fd = fs.openSync(file, "r");
  try {
    const version = headerVerdict(fd, entry);
    if (version === null) return null;
    const { family } = version;
    const raising: readonly Buffer[] =
      family === "2026.9" ? [] : family === "2026.7" ? RAISE_2026_7 : RAISE_2026_3;
    // the signals the reason would name: the 2026.9 row signals, below 2026.9 every one (a superset of `raising`)
    const named = family === "2026.9" ? RAISE_2026_7 : RAISE_2026_3;
    const raises = new Set<Buffer>(raising);
    const found = signalsIn(fd, wantVersion ? named : raising, raises);
    if ([...found].some((p) => raises.has(p))) return null;
    return { family, version: wantVersion && found.size === 0 ? version : null };
  } finally {
    fs.closeSync(fd);
  }
}

/** The family a full parse of `file` would decide with `entry`, or null when only the parse can tell. */
export function jsonlFamilyWithoutParse(
  entry: JsonObject | null,
  file: string,
): VersionInfo["family"] | null {
  return jsonlStoredVerdict(entry, file, false)?.family ?? null;
}
