// Incremental JSONL reads for live sessions (issue 8 "Live"): OpenClaw (≤2026.7.1) only ever appends whole
// `JSON.stringify(entry) + "\n"` lines to a transcript, so a grown file is read from the end of its last
// complete line instead of being re-parsed. Line-level parsing is delegated to read-transcript.ts
// (parseTranscriptBytes on the appended bytes — one definition of what a line means); the tree (header,
// leaf, active branch) is recomputed over the extended entry list with tree.ts, which costs no JSON parsing.
// The result equals a full parse of the same bytes (test/server/live.test.ts checks this on j1).
//
// A last line without its `\n` in a file seen before is a write in progress: it is re-read on every call and
// only reported (`truncated-line` warning, as read-transcript.ts does) once the file has not changed for
// `graceMs` — "the file stopped growing". A first read reports it at once, like read-transcript.ts.
// A full re-parse happens when the file shrank, was replaced (dev/inode), or its first bytes or the bytes
// before the consumed offset differ (rewritten in place).

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";
import { assembleTranscript, parseTranscriptBytes } from "./read-transcript.ts";

/** Issue codes read-transcript.ts attaches to single lines (everything else is recomputed over the tree). */
const LINE_CODES: ReadonlySet<string> = new Set([
  "invalid-json",
  "not-an-object",
  "missing-type",
  "truncated-line",
]);
const HEAD_BYTES = 64;
const EDGE_BYTES = 64;
/** How long an unterminated last line may stay unchanged before it is reported as truncated. */
export const HALF_LINE_GRACE_MS = 2000;

/** What is kept between reads of one file: the parsed complete lines and where they end. */
export interface JsonlTailState {
  source: string;
  dev: number;
  ino: number;
  /** Bytes of complete (newline-terminated) lines parsed. */
  consumed: number;
  /** Physical lines (`\n` count) in those bytes. */
  lines: number;
  /** First bytes of the file and the bytes just before `consumed`: a rewrite in place changes them. */
  head: Buffer;
  edge: Buffer;
  /** Entries and line issues of the complete lines. */
  entries: TranscriptEntry[];
  lineIssues: ParseIssue[];
}

export interface JsonlLoad {
  state: JsonlTailState;
  transcript: Transcript;
  loadedBy: "full" | "tail";
  /** Entries parsed from bytes appended since the previous state (all entries for a full read). */
  appendedEntries: number;
  /** Bytes of an unterminated last line (0 = none). */
  pendingBytes: number;
  /** The unterminated last line does not parse and is not reported yet (waiting for its newline). */
  pendingWaiting: boolean;
}

export interface ExtendInput {
  prev: Pick<JsonlTailState, "entries" | "lineIssues" | "lines"> | null;
  /** Appended bytes that end with `\n` (may be empty). */
  complete: Uint8Array;
  /** Bytes after the last `\n` (may be empty). */
  pending: Uint8Array;
  /** Report an unparseable pending line as `truncated-line` (the file stopped growing). */
  reportPending: boolean;
  source: string;
}

export interface ExtendOutput {
  entries: TranscriptEntry[];
  lineIssues: ParseIssue[];
  lines: number;
  transcript: Transcript;
  appendedEntries: number;
  pendingWaiting: boolean;
}

function countNewlines(b: Uint8Array): number {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  let n = 0;
  let i = buf.indexOf(0x0a);
  while (i !== -1) {
    n++;
    i = buf.indexOf(0x0a, i + 1);
  }
  return n;
}

/** Parse bytes as lines that start at physical line `firstLine`, entries numbered from `firstIndex`. */
function parseChunk(
  bytes: Uint8Array,
  source: string,
  firstIndex: number,
  lineOffset: number,
): { entries: TranscriptEntry[]; issues: ParseIssue[] } {
  if (bytes.length === 0) return { entries: [], issues: [] };
  const t = parseTranscriptBytes(bytes, source);
  const entries = t.entries.map((e) => {
    e.index += firstIndex;
    if (e.line !== undefined) e.line += lineOffset;
    return e;
  });
  const issues = t.issues.filter((i) => LINE_CODES.has(i.code));
  for (const i of issues) if (i.line !== undefined) i.line += lineOffset;
  // the chunk's own parse sorted issues by line; line-level issues stay in line order
  return { entries, issues };
}

/** Header checks and tree over the whole entry list: read-transcript.ts's assembly on a copy of the line issues. */
function assemble(entries: TranscriptEntry[], lineIssues: ParseIssue[], source: string): Transcript {
  return assembleTranscript(entries, [...lineIssues], source);
}

/** Extend parsed complete lines with appended bytes. Pure (the entry objects of `prev` are shared, not copied). */
export function extendTranscript(input: ExtendInput): ExtendOutput {
  const prevEntries = input.prev?.entries ?? [];
  const prevLines = input.prev?.lines ?? 0;
  const added = parseChunk(input.complete, input.source, prevEntries.length, prevLines);
  const entries = prevEntries.concat(added.entries);
  const lineIssues = (input.prev?.lineIssues ?? []).concat(added.issues);
  const lines = prevLines + countNewlines(input.complete);
  let withPending = entries;
  let issues = lineIssues;
  let pendingWaiting = false;
  if (input.pending.length > 0) {
    const p = parseChunk(input.pending, input.source, entries.length, lines);
    const truncated = p.issues.some((i) => i.code === "truncated-line");
    if (truncated && !input.reportPending) {
      pendingWaiting = true;
    } else {
      withPending = entries.concat(p.entries);
      issues = lineIssues.concat(p.issues);
    }
  }
  return {
    entries,
    lineIssues,
    lines,
    transcript: assemble(withPending, issues, input.source),
    appendedEntries: withPending.length - prevEntries.length,
    pendingWaiting,
  };
}

function readRange(fd: number, start: number, end: number): Buffer {
  const len = Math.max(0, end - start);
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? buf : buf.subarray(0, got);
}

/**
 * Read a JSONL transcript, from `prev.consumed` when the file only grew (tail), else from the start (full).
 * Throws only on I/O errors (the caller turns them into a load error).
 */
export function loadJsonlIncremental(
  absPath: string,
  source: string,
  prev: JsonlTailState | null,
  opts: { now?: number; graceMs?: number } = {},
): JsonlLoad {
  const now = opts.now ?? Date.now();
  const graceMs = opts.graceMs ?? HALF_LINE_GRACE_MS;
  const fd = openSync(absPath, "r");
  try {
    const st = fstatSync(fd);
    const size = st.size;
    let base: JsonlTailState | null = null;
    if (
      prev &&
      prev.source === source &&
      prev.dev === st.dev &&
      prev.ino === st.ino &&
      size >= prev.consumed
    ) {
      const head = readRange(fd, 0, prev.head.length);
      const edge = readRange(fd, prev.consumed - prev.edge.length, prev.consumed);
      if (head.equals(prev.head) && edge.equals(prev.edge)) base = prev;
    }
    const start = base ? base.consumed : 0;
    // Appended bytes; a BOM there would be stripped by the line parser, which only a file start may do.
    let bytes = readRange(fd, start, size);
    if (base && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      base = null;
      bytes = readRange(fd, 0, size);
    }
    const from = base ? base.consumed : 0;
    const lastNl = bytes.lastIndexOf(0x0a);
    const complete = bytes.subarray(0, lastNl + 1);
    const pending = bytes.subarray(lastNl + 1);
    // Only a file seen growing waits; a first read reports a half line at once (read-transcript.ts behaviour).
    const reportPending = prev === null || now - st.mtimeMs >= graceMs;
    const out = extendTranscript({ prev: base, complete, pending, reportPending, source });
    const consumed = from + complete.length;
    const head =
      base && base.head.length >= HEAD_BYTES ? base.head : readRange(fd, 0, Math.min(HEAD_BYTES, consumed));
    const edge = readRange(fd, Math.max(0, consumed - EDGE_BYTES), consumed);
    return {
      state: {
        source,
        dev: st.dev,
        ino: st.ino,
        consumed,
        lines: out.lines,
        head,
        edge,
        entries: out.entries,
        lineIssues: out.lineIssues,
      },
      transcript: out.transcript,
      loadedBy: base ? "tail" : "full",
      appendedEntries: out.appendedEntries,
      pendingBytes: pending.length,
      pendingWaiting: out.pendingWaiting,
    };
  } finally {
    closeSync(fd);
  }
}
