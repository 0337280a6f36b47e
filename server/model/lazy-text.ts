// Long tool-result texts that are not kept in memory (issue 9: "do not parse what you do not need, and do not
// hold what you do not show"). The JSONL and SQLite readers cut the long, pure-ASCII `text` values of tool
// results out of the stored bytes before JSON.parse (sources/cut-long-strings.ts) and put back a same-length
// run of "A" (one shared string, see elide-image-data.ts). Everything OpenClaw derives from such a text
// depends only on its length and on which code points it holds — the char estimates (estimate.ts: ASCII counts 1 per char in every
// generation), the soft-trim decision and its size (head + tail + note of an ASCII text), the map tile sizes —
// so those numbers stay exact with the placeholder. Whatever SHOWS or HASHES the text (the wire text of a
// soft-trimmed result, previews, the tokenizer, 2026.9 source hashes) asks this module for the real text,
// which is read back from where it was stored.
//
// The registry is keyed by the content block object, so a copy of a block is a plain (placeholder) block:
// code that copies blocks must resolve first. Pure apart from the injected ByteReader.

import { isObject, type JsonObject } from "../../shared/json.ts";

/** Reads stored bytes back; null when they can no longer be read as they were (file replaced or shrunk). */
export interface ByteReader {
  /** Identity of the bytes (file + dev/ino or database row, + read generation; or a buffer): part of cache keys. */
  readonly id: string;
  read(offset: number, length: number): Uint8Array | null;
}

/** Where a cut text is: the bytes of its JSON string literal (without quotes), and its UTF-16 length. */
export interface LazyText {
  reader: ByteReader;
  offset: number;
  bytes: number;
  chars: number;
  /** The first HEAD_CHARS chars of the text (for names and previews without a read). */
  head: string;
}

/** Chars of the real text kept with a cut text (map tile names read at most 480). */
export const HEAD_CHARS = 512;

const registry = new WeakMap<object, LazyText>();

/** Record that `block.text` is a placeholder for the text at `lazy`. */
export function attachLazyText(block: JsonObject, lazy: LazyText): void {
  registry.set(block, lazy);
}

/** The cut text behind a content block, if its `text` is a placeholder. */
export function lazyTextOf(block: unknown): LazyText | undefined {
  return isObject(block) ? registry.get(block) : undefined;
}

/** Stable identity of a cut text (its bytes never change while the reader's id is the same). */
export function lazyTextKey(lazy: LazyText): string {
  return `${lazy.reader.id}@${lazy.offset}+${lazy.bytes}`;
}

const decoder = new TextDecoder("latin1");

/**
 * The real text, or null when the stored bytes cannot be read back as they were (file replaced or shrunk,
 * database unreadable). The stored bytes are a JSON string literal body of pure ASCII (the cutter only cuts
 * those), so decoding is `JSON.parse('"' + bytes + '"')`.
 */
export function readLazyText(lazy: LazyText): string | null {
  const bytes = lazy.reader.read(lazy.offset, lazy.bytes);
  if (!bytes) return null;
  try {
    const text: unknown = JSON.parse(`"${decoder.decode(bytes)}"`);
    return typeof text === "string" && text.length === lazy.chars && text.startsWith(lazy.head) ? text : null;
  } catch {
    return null;
  }
}

/**
 * The real text; when it cannot be read back, a notice of the same length instead of wrong text (the
 * numbers derived from the length stay right). Caches must use readLazyText and not keep a failure.
 */
export function resolveLazyText(lazy: LazyText): string {
  const text = readLazyText(lazy);
  if (text !== null) return text;
  const notice = `[clawscope: this text is no longer readable where it was stored (${lazy.reader.id}); ${lazy.chars} chars]`;
  return notice.length >= lazy.chars ? notice.slice(0, lazy.chars) : notice.padEnd(lazy.chars, " ");
}

/** The text of a `text` content block, read back when it was cut ("" for a non-string `text`). */
export function blockText(block: JsonObject): string {
  const lazy = registry.get(block);
  if (lazy) return resolveLazyText(lazy);
  return typeof block.text === "string" ? block.text : "";
}

/** The text of a `text` content block, read back when it was cut; null when it cannot be read back. */
export function readBlockText(block: JsonObject): string | null {
  const lazy = registry.get(block);
  if (lazy) return readLazyText(lazy);
  return typeof block.text === "string" ? block.text : "";
}

/** The first `n` chars of a text block without reading a cut text back (n ≤ HEAD_CHARS is exact). */
export function blockTextHead(block: JsonObject, n: number): string {
  const lazy = registry.get(block);
  if (lazy) return lazy.head.slice(0, n);
  return typeof block.text === "string" ? block.text.slice(0, n) : "";
}
