// Incremental JSONL reads for live sessions (issue 8 "Live"): OpenClaw (≤2026.7.1) only ever appends whole
// `JSON.stringify(entry) + "\n"` lines to a transcript, so a grown file is read from the end of its last
// complete line instead of being re-parsed. Line-level parsing is delegated to read-transcript.ts
// (parseTranscriptLines on the appended bytes — one definition of what a line means); the tree (header,
// leaf, active branch) is recomputed over the extended entry list with tree.ts, which costs no JSON parsing.
// The result equals a full parse of the same bytes (test/server/live.test.ts checks this on j1).
//
// A last line without its `\n` in a file seen before is a write in progress: it is re-read on every call and
// only reported (`truncated-line` warning, as read-transcript.ts does) once the file has not changed for
// `graceMs` — "the file stopped growing". A first read reports it at once, like read-transcript.ts.
// A full re-parse happens when the file shrank, was replaced (dev/inode), or its first bytes or the bytes
// before the consumed offset differ (rewritten in place).

import { closeSync, fstatSync, readSync } from "node:fs";
import type { ByteReader } from "../../model/lazy-text.ts";
import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";
import { openRegular } from "../regular-file.ts";
import { extendTree, type TreeMemo, treeMemo } from "./append-tree.ts";
import { assembleTranscript, parseTranscriptLines } from "./read-transcript.ts";

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
  /** The tree of exactly those entries, for the append fast path (absent: the next read assembles in full). */
  tree?: TreeMemo;
  /** Reads cut texts back; one per full read, so its id (a token-cache key part) names these very bytes. */
  reader?: ByteReader;
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
  prev: Pick<JsonlTailState, "entries" | "lineIssues" | "lines" | "tree"> | null;
  /** Appended bytes that end with `\n` (may be empty). */
  complete: Uint8Array;
  /** Where `complete` starts for `reader` (cut tool-result texts are read back through it). */
  completeOffset?: number;
  reader?: ByteReader;
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
  /** Set when `transcript` is the tree of exactly the complete lines (no pending line in it). */
  tree?: TreeMemo;
  appendedEntries: number;
  pendingWaiting: boolean;
}

/** Parse bytes as lines that start at physical line `firstLine`, entries numbered from `firstIndex`. */
function parseChunk(
  bytes: Uint8Array,
  source: string,
  firstIndex: number,
  lineOffset: number,
  at?: { reader: ByteReader; offset: number },
): { entries: TranscriptEntry[]; issues: ParseIssue[]; lines: number } {
  if (bytes.length === 0) return { entries: [], issues: [], lines: 0 };
  const t = parseTranscriptLines(bytes, source, at ? { reader: at.reader, baseOffset: at.offset } : {});
  for (const e of t.entries) {
    e.index += firstIndex;
    if (e.line !== undefined) e.line += lineOffset;
  }
  // line-level issues only (the tree's are computed over the whole list), in line order
  for (const i of t.issues) if (i.line !== undefined) i.line += lineOffset;
  return t;
}

/** Header checks and tree over the whole entry list: read-transcript.ts's assembly on a copy of the line issues. */
function assemble(entries: TranscriptEntry[], lineIssues: ParseIssue[], source: string): Transcript {
  return assembleTranscript(entries, [...lineIssues], source);
}

type ParsedLines = Pick<JsonlTailState, "entries" | "lineIssues" | "lines">;

/** Parsed complete lines + more complete lines (no tree: that is built once, over the final list). */
function appendComplete(
  prev: ParsedLines | null,
  complete: Uint8Array,
  source: string,
  at: { reader: ByteReader; offset: number } | undefined,
): ParsedLines {
  const prevEntries = prev?.entries ?? [];
  const prevLines = prev?.lines ?? 0;
  const added = parseChunk(complete, source, prevEntries.length, prevLines, at);
  return {
    entries: prevEntries.concat(added.entries),
    lineIssues: (prev?.lineIssues ?? []).concat(added.issues),
    lines: prevLines + added.lines, // `complete` ends with its last "\n": one line per "\n"
  };
}

/** Extend parsed complete lines with appended bytes. Pure (the entry objects of `prev` are shared, not copied). */
export function extendTranscript(input: ExtendInput): ExtendOutput {
  const prevEntries = input.prev?.entries ?? [];
  const offset = input.completeOffset ?? 0;
  const reader = input.reader;
  const { entries, lineIssues, lines } = appendComplete(
    input.prev,
    input.complete,
    input.source,
    reader ? { reader, offset } : undefined,
  );
  let withPending = entries;
  let issues = lineIssues;
  let pendingWaiting = false;
  if (input.pending.length > 0) {
    const p = parseChunk(
      input.pending,
      input.source,
      entries.length,
      lines,
      reader ? { reader, offset: offset + input.complete.length } : undefined,
    );
    const truncated = p.issues.some((i) => i.code === "truncated-line");
    if (truncated && !input.reportPending) {
      pendingWaiting = true;
    } else {
      withPending = entries.concat(p.entries);
      issues = lineIssues.concat(p.issues);
    }
  }
  const appendedEntries = withPending.length - prevEntries.length;
  if (withPending !== entries) {
    return {
      entries,
      lineIssues,
      lines,
      transcript: assemble(withPending, issues, input.source),
      appendedEntries,
      pendingWaiting,
    };
  }
  const prevTree = input.prev?.tree;
  const fast = prevTree
    ? extendTree(prevTree, entries, prevEntries.length, lineIssues.slice(input.prev?.lineIssues.length ?? 0))
    : null;
  const tree = fast ?? treeMemo(assemble(entries, issues, input.source));
  return { entries, lineIssues, lines, transcript: tree.transcript, tree, appendedEntries, pendingWaiting };
}

/** Read `len` bytes at `position` into the start of `buf`; returns how many were read. */
function readInto(fd: number, buf: Buffer, len: number, position: number): number {
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

function readRange(fd: number, start: number, end: number): Buffer {
  const len = Math.max(0, end - start);
  const buf = Buffer.allocUnsafe(len);
  const got = readInto(fd, buf, len, start);
  return got === len ? buf : buf.subarray(0, got);
}

/**
 * Reads bytes of this very file back (cut tool-result texts, model/lazy-text.ts): null once the path names
 * another file or the file shrank below them. OpenClaw only appends, so bytes once read never change.
 */
export function fileByteReader(absPath: string, dev: number, ino: number): ByteReader {
  fullReads++;
  return {
    // the read generation: a file rewritten in place (same inode) is read in full again and its texts get
    // new ids, so nothing cached under the old bytes is taken for the new ones
    id: `${absPath}#${dev}:${ino}#${fullReads}`,
    read(offset, length) {
      let fd: number;
      try {
        fd = openRegular(absPath);
      } catch {
        return null;
      }
      try {
        const st = fstatSync(fd);
        if (st.dev !== dev || st.ino !== ino || st.size < offset + length) return null;
        const bytes = readRange(fd, offset, offset + length);
        return bytes.length === length ? bytes : null;
      } catch {
        return null;
      } finally {
        closeSync(fd);
      }
    },
  };
}

let fullReads = 0;

/**
 * Bytes read and parsed per step: the file is never held whole (a 100 MB transcript used to be one 100 MB
 * Buffer next to its parsed objects — the peak RSS of issue 9). A line longer than a step grows the step.
 */
export const READ_STEP_BYTES = 8 * 1024 * 1024;

/**
 * The previous state when the file only grew since (same file, same first bytes, same bytes before the consumed
 * offset, no BOM at the appended start — which the line parser would strip where only a file start may have
 * one); else null (read in full).
 */
function reusableBase(
  fd: number,
  st: { dev: number; ino: number; size: number },
  prev: JsonlTailState | null,
  source: string,
): JsonlTailState | null {
  if (
    !prev ||
    prev.source !== source ||
    prev.dev !== st.dev ||
    prev.ino !== st.ino ||
    st.size < prev.consumed
  )
    return null;
  const head = readRange(fd, 0, prev.head.length);
  const edge = readRange(fd, prev.consumed - prev.edge.length, prev.consumed);
  if (!head.equals(prev.head) || !edge.equals(prev.edge)) return null;
  if (st.size - prev.consumed >= 3) {
    const bom = readRange(fd, prev.consumed, prev.consumed + 3);
    if (bom[0] === 0xef && bom[1] === 0xbb && bom[2] === 0xbf) return null;
  }
  return prev;
}

/**
 * Parse bytes [from, size) in steps of `stepBytes` (a line longer than a step grows the step), appending to
 * `base`; the last step also parses the unterminated tail line (pending). Returns where complete lines end.
 */
function readSteps(
  fd: number,
  size: number,
  from: number,
  base: ExtendInput["prev"],
  read: { stepBytes: number; reportPending: boolean; source: string; reader: ByteReader },
): { out: ExtendOutput; consumed: number; pendingBytes: number } {
  let acc = base;
  let pos = from;
  let buf = Buffer.allocUnsafe(Math.min(read.stepBytes, Math.max(0, size - from)));
  for (;;) {
    const want = Math.min(buf.length, size - pos);
    const got = want > 0 ? readInto(fd, buf, want, pos) : 0;
    const view = buf.subarray(0, got);
    const lastNl = view.lastIndexOf(0x0a);
    if (pos + got >= size || got < want) {
      const complete = view.subarray(0, lastNl + 1);
      const pending = view.subarray(lastNl + 1);
      const { reportPending, source, reader } = read;
      const out = extendTranscript({
        prev: acc,
        complete,
        completeOffset: pos,
        pending,
        reportPending,
        source,
        reader,
      });
      return { out, consumed: pos + complete.length, pendingBytes: pending.length };
    }
    if (lastNl === -1) {
      buf = Buffer.allocUnsafe(buf.length * 2); // one line longer than the step: read it whole
      continue;
    }
    acc = appendComplete(acc, view.subarray(0, lastNl + 1), read.source, {
      reader: read.reader,
      offset: pos,
    });
    pos += lastNl + 1;
  }
}

/**
 * Read a JSONL transcript, from `prev.consumed` when the file only grew (tail), else from the start (full).
 * Throws only on I/O errors (the caller turns them into a load error).
 */
export function loadJsonlIncremental(
  absPath: string,
  source: string,
  prev: JsonlTailState | null,
  opts: { now?: number; graceMs?: number; stepBytes?: number } = {},
): JsonlLoad {
  const now = opts.now ?? Date.now();
  const graceMs = opts.graceMs ?? HALF_LINE_GRACE_MS;
  const fd = openRegular(absPath);
  try {
    const st = fstatSync(fd);
    const base = reusableBase(fd, st, prev, source);
    // Only a file seen growing waits; a first read reports a half line at once (read-transcript.ts behaviour).
    const reportPending = prev === null || now - st.mtimeMs >= graceMs;
    const reader = base?.reader ?? fileByteReader(absPath, st.dev, st.ino);
    const stepBytes = Math.max(1, opts.stepBytes ?? READ_STEP_BYTES);
    const { out, consumed, pendingBytes } = readSteps(fd, st.size, base ? base.consumed : 0, base, {
      stepBytes,
      reportPending,
      source,
      reader,
    });
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
        ...(out.tree ? { tree: out.tree } : {}),
        reader,
      },
      transcript: out.transcript,
      loadedBy: base ? "tail" : "full",
      appendedEntries: out.transcript.entries.length - (base?.entries.length ?? 0),
      pendingBytes,
      pendingWaiting: out.pendingWaiting,
    };
  } finally {
    closeSync(fd);
  }
}
