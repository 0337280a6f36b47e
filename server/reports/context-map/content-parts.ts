// What a user / custom / toolResult content contributes to a map leaf: its text (lazy where a cut text was not
// kept in memory), the chars of its non-text parts (images at OpenClaw's estimate, other blocks as JSON) and a
// head for names — walked once through model/message-blocks.ts.

import { fmtInt } from "../../../shared/format.ts";
import type { JsonObject, JsonValue } from "../../../shared/json.ts";
import {
  blockTextHead,
  HEAD_CHARS,
  type LazyText,
  lazyTextKey,
  readBlockText,
} from "../../model/lazy-text.ts";
import { blocksOf } from "../../model/message-blocks.ts";
import { IMAGE_CHAR_ESTIMATE } from "../../openclaw/token-estimate.ts";

export interface ContentParts {
  text: string;
  nonText: number;
  images: number;
  /** The first chars of the real text (names); differs from `text` when a block's text was not kept. */
  head: string;
  /** Reads the real text back when some block's text was not kept in memory (model/lazy-text.ts). */
  lazy?: { key: string; load: () => string | null };
}

/** A text that is all there is (a string content, a wire text). */
export function textParts(text: string): ContentParts {
  return { text, nonText: 0, images: 0, head: text.slice(0, HEAD_CHARS) };
}

/** The joined real texts of text blocks (cut ones read back), or null when one cannot be read back. */
function readBlockTexts(blocks: readonly JsonObject[]): string | null {
  let out = "";
  for (const b of blocks) {
    const text = readBlockText(b);
    if (text === null) return null;
    out += text;
  }
  return out;
}

/** Text + non-text chars of user / custom / toolResult content (string, or text / image / other blocks). */
export function contentParts(content: JsonValue | undefined): ContentParts {
  if (typeof content === "string") return textParts(content);
  const blocks: JsonObject[] = [];
  const texts: string[] = [];
  const lazies: LazyText[] = [];
  let nonText = 0;
  let images = 0;
  for (const b of blocksOf(content)) {
    if (b.kind === "text" && b.block !== null && b.text !== undefined) {
      blocks.push(b.block);
      texts.push(b.text);
      if (b.lazy) lazies.push(b.lazy);
    } else if (b.kind === "image") {
      nonText += IMAGE_CHAR_ESTIMATE;
      images++;
    } else nonText += b.jsonLength ?? 0;
  }
  const text = texts.join("");
  if (lazies.length === 0) return { text, nonText, images, head: text.slice(0, HEAD_CHARS) };
  let head = "";
  for (const b of blocks) {
    if (head.length >= HEAD_CHARS) break;
    head += blockTextHead(b, HEAD_CHARS - head.length);
  }
  return {
    text,
    nonText,
    images,
    head,
    lazy: { key: lazies.map(lazyTextKey).join("|"), load: () => readBlockTexts(blocks) },
  };
}

/** A leaf's source sentence, with what the non-text parts count. */
export function partsSource(base: string, parts: { nonText: number; images: number }): string {
  if (parts.nonText === 0) return base;
  const img =
    parts.images > 0
      ? `${parts.images} image(s) × ${fmtInt(IMAGE_CHAR_ESTIMATE)} chars (OpenClaw's image estimate)`
      : "";
  const other = parts.nonText - parts.images * IMAGE_CHAR_ESTIMATE;
  const oth = other > 0 ? `${fmtInt(other)} chars of other blocks as JSON` : "";
  return `${base} + ${[img, oth].filter((s) => s !== "").join(" + ")}`;
}
