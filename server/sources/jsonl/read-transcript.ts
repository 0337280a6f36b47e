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

import { pushAll } from "../../../shared/big-lists.ts";
import { isObject, type JsonObject, num, str, tryParseJson } from "../../../shared/json.ts";
import type { ByteReader } from "../../model/lazy-text.ts";
import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";
import { computeActiveBranch } from "../../model/tree.ts";
import { decodeBytes, restoreCuts } from "../cut-long-strings.ts";
import { elideImageData } from "../elide-image-data.ts";
import {
  BIG_LINE_BYTES,
  type RawLine,
  STEP_BYTES,
  splitLines,
  WHOLE_DECODE_MAX_BYTES,
} from "./split-lines.ts";

/** Codes of issues that mean "a line was lost" (counted as parse errors in session lists). */
export const LINE_ERROR_CODES: ReadonlySet<string> = new Set(["invalid-json", "not-an-object"]);

function preview(line: string): string {
  const oneLine = line.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 60)}…` : oneLine;
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
  const { entries, issues } = parseTranscriptLines(buf, source, opts);
  return assembleTranscript(entries, issues, source);
}

/**
 * The line pass of parseTranscriptBytes alone: entries, line-level issues and the number of physical lines
 * read (`\n`s of bytes that end with one: jsonl/tail.ts counts lines without a search of its own), no
 * header checks and no tree.
 * jsonl/tail.ts parses a file in steps and assembles once over all of them (a tree per step was ~8 % of a
 * cold 100 MB load, thrown away).
 */
export function parseTranscriptLines(
  buf: Uint8Array,
  source: string,
  opts: Parameters<typeof parseTranscriptBytes>[2] = {},
): ParsedLines {
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

interface ParsedLines {
  entries: TranscriptEntry[];
  issues: ParseIssue[];
  /** The last physical line's number (1-based): the number of lines read. */
  lines: number;
}

function parseLines(lines: Iterable<RawLine>, source: string, reader: ByteReader): ParsedLines {
  const issues: ParseIssue[] = [];
  const entries: TranscriptEntry[] = [];
  let lineCount = 0;
  for (const raw of lines) {
    lineCount = raw.line; // every physical line is yielded, blank ones too
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
  return { entries, issues, lines: lineCount };
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
  pushAll(issues, branch.issues);

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

/** Number of lines lost to parse errors (what session lists show as `parseErrorCount`). */
export function countLineErrors(transcript: Transcript): number {
  let n = 0;
  for (const i of transcript.issues) if (LINE_ERROR_CODES.has(i.code)) n++;
  return n;
}

const finished = new WeakMap<Transcript, Transcript>();

/**
 * The transcript of a file nobody appends to any more (a reset/deleted archive, a backup or checkpoint copy): an
 * unterminated last line that does not parse is then a damaged fragment, not an entry being written — a
 * located `invalid-json` error instead of the `truncated-line` warning. Same object for the same input (warm
 * reports are memoised per Transcript); unchanged when there is no such line.
 */
export function asFinishedFile(t: Transcript): Transcript {
  if (!t.issues.some((i) => i.code === "truncated-line")) return t;
  const hit = finished.get(t);
  if (hit) return hit;
  const issues = t.issues.map(
    (i): ParseIssue =>
      i.code === "truncated-line"
        ? {
            ...i,
            code: "invalid-json",
            severity: "error",
            message: `last line is incomplete JSON in an archived transcript (archives are never appended to, so it is a damaged fragment); skipped: ${i.message.replace(/^.*ignored: /, "")}`,
          }
        : i,
  );
  const out = { ...t, issues };
  finished.set(t, out);
  return out;
}
