// Splitting JSONL bytes into lines for read-transcript.ts (issue 9 speed and memory): the bytes are decoded in
// 4 MB steps that end on a newline (never one string of the whole file), and lines holding long values nothing
// keeps are cut before decoding (cut-long-strings.ts). Pure.

import { CUT_MIN_VALUE_BYTES, decodeBytes, findCuts, type LineCut, skeletonOf } from "../cut-long-strings.ts";

const NEWLINE = 0x0a;
const CR = 0x0d;

export interface RawLine {
  text: string;
  /** 1-based physical line number. */
  line: number;
  /** False for a last line with no trailing newline. */
  terminated: boolean;
  /** Set when long values were cut out of `text` (cut-long-strings.ts): the stored line and where it is. */
  cut?: { bytes: Buffer; cuts: LineCut[]; offset: number };
}

/**
 * Bytes decoded per step. The file is walked in steps that end on a `\n`: each step is decoded and split
 * as a string (fast native paths) and its lines are parsed — so a 100 MB transcript never exists as one
 * 100 MB string next to its parsed objects (issue 9: "do not hold what you do not show"). V8's JSON.parse
 * keeps string values as slices of the line they came from, so a step's text lives as long as any value
 * parsed from it: lines of BIG_LINE_CHARS or more are therefore decoded on their own (a big line then only
 * pins its own text).
 */
export const STEP_BYTES = 4 * 1024 * 1024;

/** Lines at least this long (bytes) are decoded alone, never inside a shared step. */
export const BIG_LINE_BYTES = 64 * 1024;

/**
 * Files up to this size are decoded in steps of STEP_BYTES; larger ones (and any size when a test lowers
 * it) line by line. Both ways give the same lines: a UTF-8 multi-byte sequence never contains 0x0A, and
 * every step ends just after a `\n`.
 */
export const WHOLE_DECODE_MAX_BYTES = 256 * 1024 * 1024;

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
export function* splitLines(
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
