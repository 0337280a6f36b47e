// Image payloads are not kept in memory (issue 9: "parse base64 image payloads lazily — count their length,
// do not keep them"). Nothing in clawscope reads an image's bytes: the reports count image blocks, size them
// with OpenClaw's fixed estimate (openclaw/estimate.ts IMAGE_CHAR_ESTIMATE, pruning.md §2.3) and hash only text blocks
// (pruning-2026-9 sourceTexts). So after parsing, the `data` string of each large image block is swapped for
// a same-length run of "A" that is a slice of one shared string (V8 keeps a slice as a pointer + length,
// not a copy): `data.length` stays exact, the hundreds of KB of base64 per image are freed.

import { isObject, type JsonObject } from "../../shared/json.ts";

/** Smaller payloads are left alone (not worth the walk, and small test fixtures stay byte-identical). */
export const ELIDE_MIN_CHARS = 1024;

let filler = "A".repeat(1 << 20);

/** A string of `n` × "A" that shares memory with every other placeholder. */
export function placeholderOfLength(n: number): string {
  if (n > filler.length) filler = "A".repeat(Math.max(n, filler.length * 2));
  return filler.slice(0, n);
}

function elideBlocks(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) {
    if (!isObject(b) || b.type !== "image") continue;
    const data = b.data;
    if (typeof data === "string" && data.length >= ELIDE_MIN_CHARS) {
      b.data = placeholderOfLength(data.length);
      n++;
    }
  }
  return n;
}

/**
 * Replace large image `data` in a parsed transcript entry (message content blocks — user, toolResult,
 * custom_message) in place. `line` is the raw text when known: entries without `"image"` are skipped
 * without walking. Returns how many payloads were dropped.
 */
export function elideImageData(raw: JsonObject, line?: string): number {
  if (line !== undefined && line.indexOf('"image"') === -1) return 0;
  let n = elideBlocks(raw.content);
  const message = raw.message;
  if (isObject(message)) n += elideBlocks(message.content);
  return n;
}
