// Soft-trim and hard-clear texts of a tool result (spec pruning.md §1.7, §2.5). These texts are what
// the model saw on the wire, so they are reproduced byte for byte:
//   <first headChars>\n...\n<last tailChars>\n\n[Tool result trimmed: kept first H chars and last T chars of N chars.]
// 2026.3.2 ignores images (such results are never pruned); 2026.7.1+ turns each image block into the
// marker `[image removed during context pruning]`; from 2026.8.1 (the 2026.9 estimate flavor) head and tail are
// sliced UTF-16-safely (`sliceUtf16Safe`). Pure.

import { isObject, type JsonValue } from "../../../shared/json.ts";
import { blockText } from "../../model/lazy-text.ts";
import type { EstimateFlavor } from "../estimate.ts";

export const IMAGE_REMOVED_MARKER = "[image removed during context pruning]";

export interface SoftTrimConfig {
  maxChars: number;
  headChars: number;
  tailChars: number;
}

export interface JoinedToolText {
  /** Text parts joined with `\n` (images as markers when `imageMarkers`). */
  text: string;
  hasImage: boolean;
}

/**
 * The joined text of a tool result's content (pruning.md §1.7: parts joined with `\n`). Texts not kept in
 * memory are same-length ASCII placeholders (model/lazy-text.ts) — exact for every size and estimate; pass
 * `resolve` where the text itself is shown.
 */
export function joinToolResultText(
  content: JsonValue | undefined,
  imageMarkers: boolean,
  resolve = false,
): JoinedToolText {
  if (typeof content === "string") return { text: content, hasImage: false };
  const parts: string[] = [];
  let hasImage = false;
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text")
        parts.push(resolve ? blockText(block) : typeof block.text === "string" ? block.text : "");
      else if (block.type === "image") {
        hasImage = true;
        if (imageMarkers) parts.push(IMAGE_REMOVED_MARKER);
      }
    }
  }
  return { text: parts.join("\n"), hasImage };
}

/** The trim note appended after head … tail. */
export function softTrimNote(headChars: number, tailChars: number, totalChars: number): string {
  return `\n\n[Tool result trimmed: kept first ${headChars} chars and last ${tailChars} chars of ${totalChars} chars.]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** First `n` UTF-16 units, never ending on a lone high surrogate (2026.9.x). */
export function headUtf16Safe(text: string, n: number): string {
  let end = Math.min(n, text.length);
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** Last `n` UTF-16 units, never starting on a lone low surrogate (2026.9.x). */
export function tailUtf16Safe(text: string, n: number): string {
  let start = Math.max(0, text.length - n);
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  return text.slice(start);
}

/** How a generation slices and rewrites (the one place that says which flavor does what). */
export function softTrimRulesOf(flavor: EstimateFlavor): { utf16Safe: boolean; imagesForceRewrite: boolean } {
  return { utf16Safe: flavor === "2026.9", imagesForceRewrite: flavor !== "2026.3" };
}

/**
 * Soft-trim a joined tool text. Returns the replacement text (one text block), or null when the result
 * stays unchanged. `imagesForceRewrite`: 7.1+/9.x replace a short result that had images by its joined
 * text (the images become markers) even when no trimming happens.
 */
export function softTrimText(
  joined: JoinedToolText,
  cfg: SoftTrimConfig,
  opts: { utf16Safe: boolean; imagesForceRewrite: boolean },
): string | null {
  const n = joined.text.length;
  if (n <= cfg.maxChars || cfg.headChars + cfg.tailChars >= n) {
    return opts.imagesForceRewrite && joined.hasImage ? joined.text : null;
  }
  const head = opts.utf16Safe
    ? headUtf16Safe(joined.text, cfg.headChars)
    : joined.text.slice(0, cfg.headChars);
  const tail = opts.utf16Safe
    ? tailUtf16Safe(joined.text, cfg.tailChars)
    : joined.text.slice(Math.max(0, n - cfg.tailChars));
  return `${head}\n...\n${tail}${softTrimNote(cfg.headChars, cfg.tailChars, n)}`;
}
