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
// Speed: the file is read as one Buffer and split on 0x0A by hand (no readline), each line decoded
// separately, so a 100 MB transcript costs one read plus one JSON.parse per line.

import { readFileSync } from "node:fs";
import { isObject, type JsonObject, num, str, tryParseJson } from "../../../shared/json.ts";
import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";
import { computeActiveBranch } from "../../model/tree.ts";

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
 * Files up to this size are decoded in one go and split as a string (fastest); larger ones line by
 * line, because V8 strings stop at ~512 M UTF-16 units.
 */
const WHOLE_DECODE_MAX_BYTES = 256 * 1024 * 1024;

/** Split UTF-8 bytes into lines. A UTF-8 multi-byte sequence never contains 0x0A, so both ways agree. */
function splitLines(bytes: Uint8Array, wholeDecodeMax: number): RawLine[] {
  // A Buffer view (no copy) gives native memchr indexOf and fast UTF-8 decoding.
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length <= wholeDecodeMax) return splitText(buf.toString("utf8"));
  const out: RawLine[] = [];
  let start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let lineNo = 1;
  while (start < buf.length) {
    let end = buf.indexOf(NEWLINE, start);
    const terminated = end !== -1;
    if (!terminated) end = buf.length;
    const stop = end > start && buf[end - 1] === CR ? end - 1 : end;
    out.push({ text: buf.toString("utf8", start, stop), line: lineNo, terminated });
    start = end + 1;
    lineNo++;
  }
  return out;
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

/**
 * Parse JSONL bytes. Pure. `opts.wholeDecodeMaxBytes` (default 256 MiB) only exists so tests can force
 * the line-by-line path.
 */
export function parseTranscriptBytes(
  buf: Uint8Array,
  source: string,
  opts: { wholeDecodeMaxBytes?: number } = {},
): Transcript {
  return parseLines(splitLines(buf, opts.wholeDecodeMaxBytes ?? WHOLE_DECODE_MAX_BYTES), source);
}

function parseLines(lines: RawLine[], source: string): Transcript {
  const issues: ParseIssue[] = [];
  const entries: TranscriptEntry[] = [];
  for (const raw of lines) {
    if (raw.text.trim() === "") continue;
    const parsed = tryParseJson(raw.text);
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
          message: `line is not valid JSON (${parsed.error}); skipped: ${preview(raw.text)}`,
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
        message: `line is JSON but not an object; skipped: ${preview(raw.text)}`,
        severity: "error",
      });
      continue;
    }
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
  return parseLines(splitText(text), source);
}

/** Header checks, tree (leaf, active branch, duplicate ids, missing parents, cycles). */
function assembleTranscript(entries: TranscriptEntry[], issues: ParseIssue[], source: string): Transcript {
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
