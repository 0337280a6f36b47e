// Image payloads are not kept in memory (issue 9: "parse base64 image payloads lazily — count their length,
// do not keep them"). Nothing in clawscope reads an image's bytes: the reports count image blocks, size them
// with OpenClaw's fixed estimate (map-tree IMAGE_CHARS, pruning.md §2.3) and hash only text blocks
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

/** Lines shorter than this are parsed as they are (their payloads are small and share a step string). */
export const CUT_MIN_LINE_CHARS = 64 * 1024;

const MARKER = /^@@clawscope-image-(\d+)@@$/;

/**
 * V8's JSON.parse keeps string values as slices of the parsed text, so replacing `data` after the parse
 * frees nothing while any other value of the line is alive. For a long line with image blocks, this cuts
 * each long base64 value of a `"data"` key out of the text BEFORE parsing (a short marker instead) and
 * returns the cut lengths; restoreImagePayloads puts same-length placeholders back. Null = nothing to cut.
 */
export function cutImagePayloads(line: string): { text: string; lengths: number[] } | null {
  if (line.length < CUT_MIN_LINE_CHARS || line.indexOf('"image"') === -1) return null;
  const lengths: number[] = [];
  const re = new RegExp(`"data":"([A-Za-z0-9+/=]{${ELIDE_MIN_CHARS},})"`, "g");
  const text = line.replace(re, (_m, payload: string) => {
    lengths.push(payload.length);
    return `"data":"@@clawscope-image-${lengths.length - 1}@@"`;
  });
  return lengths.length > 0 ? { text, lengths } : null;
}

function restoreBlocks(content: unknown, lengths: number[], used: Set<number>): void {
  if (!Array.isArray(content)) return;
  for (const b of content) {
    if (!isObject(b) || b.type !== "image" || typeof b.data !== "string") continue;
    const m = MARKER.exec(b.data);
    const n = m ? lengths[Number(m[1])] : undefined;
    if (m && n !== undefined) {
      b.data = placeholderOfLength(n);
      used.add(Number(m[1]));
    }
  }
}

/**
 * Put placeholders of the cut lengths where the markers are. False when a marker is not in an image
 * block (a `data` key elsewhere): the caller then parses the original line instead.
 */
export function restoreImagePayloads(raw: JsonObject, lengths: number[]): boolean {
  const used = new Set<number>();
  restoreBlocks(raw.content, lengths, used);
  if (isObject(raw.message)) restoreBlocks(raw.message.content, lengths, used);
  return used.size === lengths.length;
}
