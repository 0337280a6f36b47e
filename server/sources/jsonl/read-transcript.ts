// JSONL transcript parser (JSONL era, ≤2026.7.1): one JSON object per line, a `session` header first
// (spec transcript.md §1). Never throws: every bad line becomes a located ParseIssue and the rest loads.
//
// Choices (documented because pi behaves differently):
// - pi treats a file whose first object is not a `session` header with a string `id` as EMPTY.
//   clawscope still loads the entries (so the user can see what is there) and reports
//   `missing-header` as an error saying OpenClaw would ignore the file.
// - Blank lines are skipped silently (pi does the same: `if (!line.trim()) continue`).
// - A last line without its trailing `\n` that does not parse is a session being written right now:
//   a `truncated-line` WARNING, not an error. A complete object without the final `\n` is kept.
// - Unknown entry types are kept as opaque entries (transcript.md §1 "Keep unknown types and fields").
//
// Speed and memory (issue 9): the bytes are decoded in 4 MB steps that end on a newline (never one string
// of the whole file), each line is JSON.parsed once, and long values nothing keeps are cut out of the bytes
// before decoding (cut-long-strings.ts): base64 image payloads and long ASCII tool-result texts, which get a
// same-length placeholder and are read back through a ByteReader when shown (model/lazy-text.ts).

import { readFileSync } from "node:fs";
import { isObject, type JsonObject, num, str, tryParseJson } from "../../../shared/json.ts";
import type { ByteReader } from "../../model/lazy-text.ts";
import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";
import { computeActiveBranch } from "../../model/tree.ts";
import {
  CUT_MIN_VALUE_BYTES,
  decodeBytes,
  findCuts,
  type LineCut,
  restoreCuts,
  skeletonOf,
} from "../cut-long-strings.ts";
import { elideImageData } from "../elide-image-data.ts";

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Codes of issues that mean "a line was lost" (counted as parse errors in session lists). */
export const LINE_ERROR_CODES: ReadonlySet<string> = new Set(["invalid-json", "not-an-object"]);

function preview(line: string): string {
  const oneLine = line.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 60)}…` : oneLine;
}

interface RawLine {
  text: string;
  /** 1-based physical line number. */
  line: number;
  /** False for a last line with no trailing newline. */
  terminated: boolean;
  /** Set when long values were cut out of `text` (cut-long-strings.ts): the stored line and where it is. */
  cut?: { bytes: Buffer; cuts: LineCut[]; offset: number };
}

/** Split text on `\n` (stripping a `\r` before it and a leading BOM), 1-based line numbers. */
function splitText(text: string): RawLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parts = body.split("\n");
  const out: RawLine[] = [];
  const last = parts.length - 1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    // the piece after the final "\n" is empty for a complete file; otherwise it is an unterminated line
    if (i === last && part === "") break;
    out.push({ text: part.endsWith("\r") ? part.slice(0, -1) : part, line: i + 1, terminated: i < last });
  }
  return out;
}

/**
 * Bytes decoded per step. The file is walked in steps that end on a `\n`: each step is decoded and split
 * as a string (fast native paths) and its lines are parsed — so a 100 MB transcript never exists as one
 * 100 MB string next to its parsed objects (issue 9: "do not hold what you do not show"). V8's JSON.parse
 * keeps string values as slices of the line they came from, so a step's text lives as long as any value
 * parsed from it: lines of BIG_LINE_CHARS or more are therefore decoded on their own (a big line then only
 * pins its own text).
 */
const STEP_BYTES = 4 * 1024 * 1024;

/** Lines at least this long (bytes) are decoded alone, never inside a shared step. */
const BIG_LINE_BYTES = 64 * 1024;

/**
 * Files up to this size are decoded in steps of STEP_BYTES; larger ones (and any size when a test lowers
 * it) line by line. Both ways give the same lines: a UTF-8 multi-byte sequence never contains 0x0A, and
 * every step ends just after a `\n`.
 */
const WHOLE_DECODE_MAX_BYTES = 256 * 1024 * 1024;

/** Lines of bytes [start, end) (`end` just after a `\n`, or the end of the data), first one numbered `firstLine`. */
function* decodeStep(
  buf: Buffer,
  start: number,
  end: number,
  firstLine: number,
  fileStart: boolean,
): Generator<RawLine> {
  let text = decodeBytes(buf, start, end);
  if (fileStart && start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const parts = text.split("\n");
  const last = parts.length - 1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    // a step ends after a "\n", so its last piece is empty unless this is an unterminated file end
    if (i === last && part === "") break;
    yield { text: part.endsWith("\r") ? part.slice(0, -1) : part, line: firstLine + i, terminated: i < last };
  }
}

/**
 * The line [start, end) (`end` after its `\n` or at the data end) with its long values cut out, or null when
 * nothing is cut (cut-long-strings.ts). `baseOffset` = where `buf` starts for the ByteReader.
 */
function cutLine(
  buf: Buffer,
  start: number,
  end: number,
  lineNo: number,
  baseOffset: number,
): RawLine | null {
  if (end - start < CUT_MIN_VALUE_BYTES) return null;
  const terminated = buf[end - 1] === NEWLINE;
  let stop = terminated ? end - 1 : end;
  if (stop > start && buf[stop - 1] === CR) stop--;
  // a BOM at the file start is stripped the way decodeStep strips it
  const from =
    start === 0 && baseOffset === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : start;
  const bytes = buf.subarray(from, stop);
  const cuts = findCuts(bytes);
  if (cuts.length === 0) return null;
  return {
    text: skeletonOf(bytes, cuts),
    line: lineNo,
    terminated,
    cut: { bytes, cuts, offset: baseOffset + from },
  };
}

/** Split UTF-8 bytes into lines, lazily. */
function* splitLines(
  bytes: Uint8Array,
  wholeDecodeMax: number,
  stepBytes: number,
  bigLineBytes: number,
  baseOffset: number,
): Generator<RawLine> {
  // A Buffer view (no copy) gives native memchr indexOf and fast UTF-8 decoding.
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // only the first bytes of the file may carry a BOM
  const fileStart = baseOffset === 0;
  if (buf.length <= wholeDecodeMax) {
    let pos = 0;
    let groupStart = 0;
    let groupLine = 1;
    let lineNo = 1;
    while (pos < buf.length) {
      const nl = buf.indexOf(NEWLINE, pos);
      const end = nl === -1 ? buf.length : nl + 1;
      const cut = cutLine(buf, pos, end, lineNo, baseOffset);
      if (cut || end - pos >= bigLineBytes) {
        if (pos > groupStart) yield* decodeStep(buf, groupStart, pos, groupLine, fileStart);
        if (cut) yield cut;
        else yield* decodeStep(buf, pos, end, lineNo, fileStart);
        groupStart = end;
        groupLine = lineNo + 1;
      } else if (end - groupStart >= stepBytes) {
        yield* decodeStep(buf, groupStart, end, groupLine, fileStart);
        groupStart = end;
        groupLine = lineNo + 1;
      }
      pos = end;
      lineNo++;
    }
    if (buf.length > groupStart) yield* decodeStep(buf, groupStart, buf.length, groupLine, fileStart);
    return;
  }
  let start = fileStart && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let lineNo = 1;
  while (start < buf.length) {
    let end = buf.indexOf(NEWLINE, start);
    const terminated = end !== -1;
    if (!terminated) end = buf.length;
    const cut = cutLine(buf, start, terminated ? end + 1 : end, lineNo, baseOffset);
    const stop = end > start && buf[end - 1] === CR ? end - 1 : end;
    yield cut ?? { text: decodeBytes(buf, start, stop), line: lineNo, terminated };
    start = end + 1;
    lineNo++;
  }
}

/** Build a TranscriptEntry from a parsed object. */
function toEntry(raw: JsonObject, index: number, line: number): TranscriptEntry {
  return {
    index,
    type: str(raw, "type") ?? "",
    id: str(raw, "id") ?? null,
    parentId: str(raw, "parentId") ?? null,
    timestamp: str(raw, "timestamp") ?? null,
    raw,
    line,
  };
}

/** A ByteReader over bytes in memory (parses of a buffer that is not a file read from its start). */
export function memoryByteReader(bytes: Uint8Array): ByteReader {
  memoryReaders++;
  return {
    id: `memory:${memoryReaders}`,
    read: (offset, length) =>
      offset >= 0 && offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : null,
  };
}
let memoryReaders = 0;

/**
 * Parse JSONL bytes. Pure. Cut tool-result texts are read back through `opts.reader` (default: these bytes),
 * `opts.baseOffset` = where `buf` starts for that reader. `opts.wholeDecodeMaxBytes` (default 256 MiB),
 * `opts.stepBytes` (default 4 MiB) and `opts.bigLineBytes` (default 64 KiB) only exist so tests can force the
 * line-by-line path and many step boundaries.
 */
export function parseTranscriptBytes(
  buf: Uint8Array,
  source: string,
  opts: {
    wholeDecodeMaxBytes?: number;
    stepBytes?: number;
    bigLineBytes?: number;
    reader?: ByteReader;
    baseOffset?: number;
  } = {},
): Transcript {
  const baseOffset = opts.reader ? (opts.baseOffset ?? 0) : 0;
  const lines = splitLines(
    buf,
    opts.wholeDecodeMaxBytes ?? WHOLE_DECODE_MAX_BYTES,
    Math.max(1, opts.stepBytes ?? STEP_BYTES),
    Math.max(1, opts.bigLineBytes ?? BIG_LINE_BYTES),
    baseOffset,
  );
  return parseLines(lines, source, opts.reader ?? memoryByteReader(buf));
}

/**
 * JSON.parse one line. A line with cut values is parsed as its skeleton and gets placeholders back; when
 * that does not round-trip (a marker outside a place a placeholder is safe), the line as stored.
 */
function parseLine(
  raw: RawLine,
  reader: ByteReader,
): { parsed: ReturnType<typeof tryParseJson>; text: string } {
  const cut = raw.cut;
  if (cut) {
    const parsed = tryParseJson(raw.text);
    if (
      parsed.ok &&
      isObject(parsed.value) &&
      restoreCuts(parsed.value, cut.bytes, cut.cuts, reader, cut.offset)
    ) {
      return { parsed, text: raw.text };
    }
    const text = decodeBytes(cut.bytes, 0, cut.bytes.length);
    return { parsed: tryParseJson(text), text };
  }
  return { parsed: tryParseJson(raw.text), text: raw.text };
}

function parseLines(lines: Iterable<RawLine>, source: string, reader: ByteReader): Transcript {
  const issues: ParseIssue[] = [];
  const entries: TranscriptEntry[] = [];
  for (const raw of lines) {
    if (raw.text.trim() === "") continue;
    const { parsed, text } = parseLine(raw, reader);
    if (!parsed.ok) {
      if (!raw.terminated) {
        issues.push({
          source,
          line: raw.line,
          code: "truncated-line",
          message: `last line has no newline and is incomplete (session being written?); ignored: ${parsed.error}`,
          severity: "warning",
        });
      } else {
        issues.push({
          source,
          line: raw.line,
          code: "invalid-json",
          message: `line is not valid JSON (${parsed.error}); skipped: ${preview(text)}`,
          severity: "error",
        });
      }
      continue;
    }
    if (!isObject(parsed.value)) {
      issues.push({
        source,
        line: raw.line,
        code: "not-an-object",
        message: `line is JSON but not an object; skipped: ${preview(text)}`,
        severity: "error",
      });
      continue;
    }
    elideImageData(parsed.value, text);
    const entry = toEntry(parsed.value, entries.length, raw.line);
    if (entry.type === "") {
      issues.push({
        source,
        line: raw.line,
        code: "missing-type",
        message: "entry has no string `type`; kept as an opaque entry",
        severity: "warning",
      });
    }
    entries.push(entry);
  }
  return assembleTranscript(entries, issues, source);
}

/** Parse JSONL text. Pure. */
export function parseTranscriptText(text: string, source: string): Transcript {
  return parseLines(splitText(text), source, memoryByteReader(new Uint8Array(0)));
}

/**
 * Header checks, tree (leaf, active branch, duplicate ids, missing parents, cycles). Appends to `issues`.
 * Shared with jsonl/tail.ts so an extended transcript equals a full parse of the same bytes.
 */
export function assembleTranscript(
  entries: TranscriptEntry[],
  issues: ParseIssue[],
  source: string,
): Transcript {
  const first = entries[0];
  let header: JsonObject | null = null;
  if (first && first.type === "session" && str(first.raw, "id") !== undefined) {
    header = first.raw;
  } else if (entries.length > 0) {
    const issue: ParseIssue = {
      source,
      code: "missing-header",
      message:
        "first entry is not a `session` header with a string id; OpenClaw treats this file as empty — clawscope still shows its entries",
      severity: "error",
    };
    if (first?.line !== undefined) issue.line = first.line;
    issues.push(issue);
  }
  for (const e of entries) {
    if (e.type === "session" && e.raw !== header) {
      const issue: ParseIssue = {
        source,
        code: "extra-header",
        message: "`session` header after the first entry; kept but ignored for the tree",
        severity: "warning",
      };
      if (e.line !== undefined) issue.line = e.line;
      issues.push(issue);
    }
  }

  const branch = computeActiveBranch(entries, source);
  issues.push(...branch.issues);

  // tree.ts reports missing parents only on the active branch walk; report the rest as warnings so a
  // file with dangling side branches is visible too.
  const ids = new Set<string>();
  for (const e of entries) if (e.id !== null && e.type !== "session") ids.add(e.id);
  const onBranch = new Set(branch.activeBranch);
  for (const e of entries) {
    if (e.type === "session" || e.parentId === null || onBranch.has(e.index)) continue;
    if (!ids.has(e.parentId)) {
      const issue: ParseIssue = {
        source,
        code: "missing-parent",
        message: `entry ${e.id ?? "?"} (off the active branch) names parent ${e.parentId}, which is not in the transcript`,
        severity: "warning",
      };
      if (e.line !== undefined) issue.line = e.line;
      issues.push(issue);
    }
  }

  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return {
    header,
    version: header ? (num(header, "version") ?? null) : null,
    entries,
    activeBranch: branch.activeBranch,
    leafIndex: branch.leafIndex,
    issues,
  };
}

/** Read and parse a transcript file. Never throws: a read failure is an empty transcript with an issue. */
export function readTranscriptFile(absPath: string, source: string): Transcript {
  let buf: Buffer;
  try {
    buf = readFileSync(absPath);
  } catch (e) {
    return {
      header: null,
      version: null,
      entries: [],
      activeBranch: [],
      leafIndex: null,
      issues: [
        {
          source,
          code: "read-failed",
          message: `cannot read transcript: ${e instanceof Error ? e.message : String(e)}`,
          severity: "error",
        },
      ],
    };
  }
  return parseTranscriptBytes(buf, source);
}

/** Number of lines lost to parse errors (what session lists show as `parseErrorCount`). */
export function countLineErrors(transcript: Transcript): number {
  let n = 0;
  for (const i of transcript.issues) if (LINE_ERROR_CODES.has(i.code)) n++;
  return n;
}
