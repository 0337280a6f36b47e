// Cuts the long string values nothing needs in memory out of a stored line BEFORE it is decoded and parsed
// (issue 9: "do not parse what you do not need, and do not hold what you do not show"):
//   - base64 `data` of image blocks (nothing in clawscope reads image bytes; elide-image-data.ts),
//   - long pure-ASCII `text` of tool-result text blocks (read back on demand; model/lazy-text.ts).
// Working on the bytes means those values are never UTF-8-decoded, never scanned by JSON.parse and never
// allocated: a 100 MB transcript is mostly tool output, so this is most of the parse.
//
// How: every `"text":"` / `"data":"` key in the line whose opening quote is not escaped starts a JSON string
// (in valid JSON an unescaped quote followed by `text":` can only be a key); its closing quote is the next
// quote preceded by an even number of backslashes. A value is cut only when it is long, pure ASCII and has no
// `\u` escape — then its UTF-16 length is its byte length minus one per two-byte escape, and every estimate
// OpenClaw makes from it (ASCII = 1 per char) is exact with a same-length placeholder. The skeleton holds a
// marker instead; restoreCuts swaps the markers for placeholders and reports false when a marker is not in a
// place where a placeholder is safe (the caller then parses the whole line as stored).
// Pure: the caller supplies the ByteReader the cut texts are read back from.

import { isAscii } from "node:buffer";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { attachLazyText, type ByteReader, HEAD_CHARS } from "../model/lazy-text.ts";
import { placeholderOfLength } from "./elide-image-data.ts";
import { scanner, type WasmStringScanner } from "./string-scan/string-scan.ts";

/** Values shorter than this (bytes) are left in the line. */
export const CUT_MIN_VALUE_BYTES = 1024;

const TEXT_KEY = Buffer.from('"text":"');
const DATA_KEY = Buffer.from('"data":"');
const TOOL_RESULT_ROLE = Buffer.from('"role":"toolResult"');
const IMAGE_TYPE = Buffer.from('"type":"image"');
/**
 * Searched first: Buffer#indexOf took ~4× longer for IMAGE_TYPE, whose search stalls on the quotes and the
 * `"type":"` of every block, than for this short needle (47 vs 12 ms over the 90 MB of long lines of the
 * bench session, where no line has an image). A line with IMAGE_TYPE has it, so the result is the same.
 */
const IMAGE_WORD = Buffer.from('"image"');
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const MARKER_PREFIX = "@@clawscope-cut-";
const MARKER = /^@@clawscope-cut-(\d+)@@$/;

export interface LineCut {
  kind: "text" | "image";
  /** Value bytes (inside the quotes), relative to the line start. */
  start: number;
  end: number;
  /** UTF-16 length of the decoded value. */
  chars: number;
}

/** Number of backslashes right before `at` (down to `floor`). */
function backslashesBefore(line: Uint8Array, at: number, floor: number): number {
  let n = 0;
  for (let k = at - 1; k >= floor && line[k] === BACKSLASH; k--) n++;
  return n;
}

/** Bytes walked in JS before a native search: escapes in printed JSON are a few bytes apart, in prose kilobytes. */
const NEAR = 64;

/** The next `byte` at or after `from` in `buf`: a short walk (dense hits), then a native search (sparse ones). */
function nextByte(buf: Buffer, byte: number, from: number): number {
  const stop = Math.min(buf.length, from + NEAR);
  for (let i = from; i < stop; i++) if (buf[i] === byte) return i;
  return stop < buf.length ? buf.indexOf(byte, stop) : -1;
}

/**
 * Index of the quote closing the string whose body starts at `from`, or -1: the first quote not escaped by an
 * odd run of backslashes. (One native search per escaped quote cost ~50 ms per real session whose tool
 * results print JSON, a `\"` every few bytes: nextByte walks those.)
 */
function closingQuote(line: Buffer, from: number): number {
  let q = line.indexOf(QUOTE, from);
  while (q !== -1 && backslashesBefore(line, q, from) % 2 === 1) q = nextByte(line, QUOTE, q + 1);
  return q;
}

/** Characters JSON allows after a backslash, `u` excepted (a `\u` escape is never cut). */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/**
 * UTF-16 length of an ASCII JSON string body whose escapes are all two-byte ones (`\"` `\\` `\/` `\b` `\f` `\n`
 * `\r` `\t`): one char per byte, one per escape pair. Null when the body is not such a valid JSON string
 * body — another escape (`\u…`, or one JSON.parse rejects) or a raw control character, which JSON.parse
 * rejects — so the line is left to JSON.parse, which decides as OpenClaw's parser would.
 */
function asciiBodyChars(body: Buffer): number | null {
  let escapes = 0;
  let b = body.indexOf(BACKSLASH);
  while (b !== -1) {
    const next = body[b + 1];
    if (next === undefined || !SIMPLE_ESCAPES.has(next)) return null;
    escapes++;
    b = nextByte(body, BACKSLASH, b + 2);
  }
  return hasControlByte(body) ? null : body.length - escapes;
}

/**
 * Any byte below 0x20 in ASCII bytes? Four bytes at a time: for bytes < 0x80, `(w − 0x20202020) & ~w &
 * 0x80808080` is non-zero exactly when some byte of the word is < 0x20.
 */
function hasControlByte(body: Buffer): boolean {
  const start = body.byteOffset;
  const aligned = (start + 3) & ~3;
  const head = Math.min(body.length, aligned - start);
  for (let i = 0; i < head; i++) if ((body[i] ?? 0) < 0x20) return true;
  const words = (body.length - head) >>> 2;
  if (words > 0) {
    const w32 = new Uint32Array(body.buffer, start + head, words);
    for (let i = 0; i < words; i++) {
      const w = w32[i] ?? 0;
      if (((w - 0x20202020) & ~w & 0x80808080) !== 0) return true;
    }
  }
  for (let i = head + words * 4; i < body.length; i++) if ((body[i] ?? 0) < 0x20) return true;
  return false;
}

/** The next unescaped occurrence of `key` at or after `from` (its opening quote is not inside a string). */
function nextKey(line: Buffer, key: Buffer, from: number): number {
  let k = line.indexOf(key, from);
  while (k !== -1 && backslashesBefore(line, k, 0) % 2 === 1) k = line.indexOf(key, k + 1);
  return k;
}

/** Where the string whose body starts at `start` ends (-1: unclosed), and its UTF-16 length when it may be cut. */
function stringAt(
  line: Buffer,
  start: number,
  wasm: WasmStringScanner | null,
): { end: number; chars: number | null } {
  if (wasm) {
    const r = wasm.scan(start);
    return { end: r.end, chars: r.simple ? r.end - start - r.escapes : null };
  }
  const end = closingQuote(line, start);
  if (end - start < CUT_MIN_VALUE_BYTES) return { end, chars: null };
  const body = line.subarray(start, end);
  return { end, chars: isAscii(body) ? asciiBodyChars(body) : null };
}

/**
 * The cuttable values of one line (no trailing newline): long ASCII `text` values when the line is a tool
 * result, long `data` values when it has image blocks. Empty when there is nothing to cut. `scan`: the
 * WebAssembly scan of the bodies (string-scan.ts), null for the JavaScript one; both give the same cuts.
 */
export function findCuts(line: Buffer, scan: WasmStringScanner | null = scanner()): LineCut[] {
  if (line.length < CUT_MIN_VALUE_BYTES) return [];
  // a stored string that looks like a marker would be mistaken for one: such a line is parsed as stored
  if (line.indexOf(MARKER_PREFIX) !== -1) return [];
  const texts = line.indexOf(TOOL_RESULT_ROLE) !== -1;
  const images = line.indexOf(IMAGE_WORD) !== -1 && line.indexOf(IMAGE_TYPE) !== -1;
  if (!texts && !images) return [];
  const wasm = scan?.load(line) ? scan : null;
  const cuts: LineCut[] = [];
  let nextText = texts ? nextKey(line, TEXT_KEY, 0) : -1;
  let nextData = images ? nextKey(line, DATA_KEY, 0) : -1;
  while (nextText !== -1 || nextData !== -1) {
    const isText = nextData === -1 || (nextText !== -1 && nextText < nextData);
    const start = (isText ? nextText : nextData) + TEXT_KEY.length; // both keys have the same length
    const { end, chars } = stringAt(line, start, wasm);
    if (end === -1) break;
    if (end - start >= CUT_MIN_VALUE_BYTES && chars !== null)
      cuts.push({ kind: isText ? "text" : "image", start, end, chars });
    if (nextText !== -1 && nextText < end) nextText = nextKey(line, TEXT_KEY, end + 1);
    if (nextData !== -1 && nextData < end) nextData = nextKey(line, DATA_KEY, end + 1);
  }
  return cuts;
}

/** Decode line bytes: ASCII as latin1 (a plain copy), anything else as UTF-8. */
export function decodeBytes(buf: Buffer, start: number, end: number): string {
  return isAscii(buf.subarray(start, end))
    ? buf.toString("latin1", start, end)
    : buf.toString("utf8", start, end);
}

/** The line as text with every cut value replaced by a marker string. */
export function skeletonOf(line: Buffer, cuts: readonly LineCut[]): string {
  let out = "";
  let pos = 0;
  cuts.forEach((c, i) => {
    out += `${decodeBytes(line, pos, c.start)}${MARKER_PREFIX}${i}@@`;
    pos = c.end;
  });
  return out + decodeBytes(line, pos, line.length);
}

/**
 * The first HEAD_CHARS chars of the cut text body line[start, end) (checked by asciiBodyChars), decoded from its
 * first bytes only. Offsets, not a subarray: a Buffer view per cut was ~1 µs (7k cuts per 100 MB session).
 */
function headOf(line: Buffer, start: number, end: number): string {
  let stop = Math.min(end, start + HEAD_CHARS * 2);
  // never end inside a `\x` escape
  if (backslashesBefore(line, stop, start) % 2 === 1) stop--;
  const text: unknown = JSON.parse(`"${line.toString("latin1", start, stop)}"`);
  return typeof text === "string" ? text.slice(0, HEAD_CHARS) : "";
}

/**
 * Put placeholders where the markers are: text cuts only into `text` blocks of a tool-result message, image
 * cuts only into `data` of image blocks. `lineOffset` = where the line starts for `reader`. False when some
 * marker is anywhere else (the caller must parse the stored line instead).
 */
export function restoreCuts(
  raw: JsonObject,
  line: Buffer,
  cuts: readonly LineCut[],
  reader: ByteReader,
  lineOffset: number,
): boolean {
  const used = new Set<number>();
  const visit = (content: unknown, toolResult: boolean): void => {
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isObject(b)) continue;
      const key = b.type === "image" ? "data" : b.type === "text" && toolResult ? "text" : null;
      const value = key ? b[key] : undefined;
      const m = typeof value === "string" ? MARKER.exec(value) : null;
      const i = m ? Number(m[1]) : -1;
      const cut = cuts[i];
      if (!key || !cut || used.has(i) || cut.kind !== (key === "text" ? "text" : "image")) continue;
      b[key] = placeholderOfLength(cut.chars);
      if (cut.kind === "text") {
        attachLazyText(b, {
          reader,
          offset: lineOffset + cut.start,
          bytes: cut.end - cut.start,
          chars: cut.chars,
          head: headOf(line, cut.start, cut.end),
        });
      }
      used.add(i);
    }
  };
  const message = raw.message;
  if (isObject(message)) visit(message.content, message.role === "toolResult");
  visit(raw.content, false);
  return used.size === cuts.length;
}
