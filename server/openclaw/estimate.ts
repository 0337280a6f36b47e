// OpenClaw's character estimates for the model-context messages the pruner sees.
// Three generations (spec pruning.md §1.4, §1.5, §2.3):
//   2026.3.2 — plain UTF-16 lengths;
//   2026.7.1 — CJK weighting (a CJK code point counts 4);
//   2026.9.x — a finer weighted table (common CJK 4, rare 12, two-token symbols 8, supplementary 16).
// System prompt and tool schemas are never counted. Tokens are always ceil(chars / 4) (token-estimate.ts).
// Pure: no I/O.

import { isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";
import { lazyTextOf } from "../model/lazy-text.ts";
import { IMAGE_CHAR_ESTIMATE, OTHER_ROLE_CHAR_ESTIMATE } from "./token-estimate.ts";

/** Which OpenClaw generation's estimate to reproduce. */
export type EstimateFlavor = "2026.3" | "2026.7" | "2026.9";

/** JSON.stringify of tool-call arguments that throws counts 128 (pruning.md §1.4). */
const TOOL_CALL_FALLBACK_CHARS = 128;

/** Any non-ASCII code unit? Text without one is counted as its plain length (fast path). */
export function hasNonAscii(text: string): boolean {
  return NON_ASCII.test(text);
}
const NON_ASCII = /[\u0080-\uffff]/;

/** 2026.7.1: `length − S + 3·C` — CJK code points count 4, astral CJK pairs once (pruning.md §1.5). */
export function weightedChars2026_7(text: string): number {
  if (!hasNonAscii(text)) return text.length;
  let weighted = text.length;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp > 0xffff) {
      i++;
      if (cp >= 0x20000 && cp <= 0x2fa1f) weighted += 3 - 1;
      continue;
    }
    if (
      (cp >= 0x2e80 && cp <= 0x9fff) ||
      (cp >= 0xa000 && cp <= 0xa4ff) ||
      (cp >= 0xac00 && cp <= 0xd7af) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xff01 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6)
    ) {
      weighted += 3;
    }
  }
  return weighted;
}

/**
 * Total weight of a code point of a 2026.9.x weighted class — A 4, B 12, Cc 8, D 12, E 16 (pruning.md §2.3) —
 * or null for any other code point. Used by the pruner's estimate and by OpenClaw's map (weight-2 floor).
 */
export function classWeight2026_9(cp: number): number | null {
  if (cp < 0x00b7) return null;
  // Class A — common CJK etc., total weight 4.
  if (
    cp === 0xb7 ||
    (cp >= 0x3000 && cp <= 0x319f) ||
    (cp >= 0x4e00 && cp <= 0x9fa5) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0xff01 && cp <= 0xff60)
  )
    return 4;
  // Class B — rare BMP, 12.
  if (
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x2e80 && cp <= 0x2fff) ||
    (cp >= 0x31a0 && cp <= 0x4dff) ||
    (cp >= 0x9fa6 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4ff) ||
    (cp >= 0xa700 && cp <= 0xa707) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xd7b0 && cp <= 0xd7ff) ||
    (cp >= 0xf900 && cp <= 0xfaff)
  )
    return 12;
  // Class Cc — two-token symbols, 8.
  if (
    cp === 0x2c7 ||
    (cp >= 0x2c9 && cp <= 0x2cb) ||
    cp === 0x2d9 ||
    (cp >= 0x2ea && cp <= 0x2eb) ||
    cp === 0x305 ||
    cp === 0x323 ||
    (cp >= 0xfe10 && cp <= 0xfe4f) ||
    (cp >= 0xff61 && cp <= 0xffdc) ||
    (cp >= 0xffe0 && cp <= 0xffe6)
  )
    return 8;
  // Class D (astral), 12.
  if (cp >= 0x1d360 && cp <= 0x1d371) return 12;
  // Class E — supplementary ideographs etc. (astral), 16.
  if (
    (cp >= 0x16fe0 && cp <= 0x16fff) ||
    (cp >= 0x1aff0 && cp <= 0x1afff) ||
    (cp >= 0x1b000 && cp <= 0x1b16f) ||
    (cp >= 0x1f200 && cp <= 0x1f2ff) ||
    (cp >= 0x20000 && cp <= 0x2fa1f) ||
    (cp >= 0x30000 && cp <= 0x3347f)
  )
    return 16;
  return null;
}

/** Extra weight of one BMP code point in 2026.9.x (class A +3, B +11, Cc +7 at m = 1): total − its 1 unit × m. */
function extraBmp2026_9(cp: number, m: number): number {
  const w = classWeight2026_9(cp);
  return w === null ? 0 : w - m;
}

/** Extra weight of one astral code point in 2026.9.x (class D +10, E +14 at m = 1): total − its 2 units × m. */
function extraAstral2026_9(cp: number, m: number): number {
  const w = classWeight2026_9(cp);
  return w === null ? 0 : w - 2 * m;
}

/**
 * 2026.9.x: `length + 3A + 11B + 7Cc + 10D + 14E` (pruning.md §2.3).
 * `minRawWeight` is the floor of OpenClaw's `/context map` tool-result estimate (context-report.md §5.4: 2): every
 * UTF-16 code unit outside the weighted classes counts that many (ASCII = 2 × length, an emoji pair = 4), while a
 * weighted class keeps its total weight (4 / 12 / 8 / 12 / 16), so CJK is not doubled twice. 1 = the pruner's.
 */
export function weightedChars2026_9(text: string, minRawWeight = 1): number {
  const m = Math.max(1, minRawWeight);
  if (!hasNonAscii(text)) return text.length * m;
  let weighted = text.length * m;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp > 0xffff) {
      i++;
      weighted += extraAstral2026_9(cp, m);
    } else {
      weighted += extraBmp2026_9(cp, m);
    }
  }
  return weighted;
}

/** The text weighting of a generation (2026.3.2 has none: plain length). */
export function weightedChars(text: string, flavor: EstimateFlavor): number {
  if (flavor === "2026.9") return weightedChars2026_9(text);
  if (flavor === "2026.7") return weightedChars2026_7(text);
  return text.length;
}

function jsonLength(value: JsonValue | undefined): number {
  try {
    const s = JSON.stringify(value ?? {});
    return typeof s === "string" ? s.length : TOOL_CALL_FALLBACK_CHARS;
  } catch {
    return TOOL_CALL_FALLBACK_CHARS;
  }
}

const asciiBlocks = new WeakMap<object, boolean>();

/**
 * Whether a text block's `text` is pure ASCII — then every generation's weighting is its plain length.
 * Remembered per block object (reports estimate the same stored blocks again after every append), and known
 * without a scan for texts not kept in memory (model/lazy-text.ts: only ASCII texts are cut).
 */
export function isAsciiTextBlock(block: JsonObject, text: string): boolean {
  let ascii = asciiBlocks.get(block);
  if (ascii === undefined) {
    ascii = lazyTextOf(block) !== undefined || !hasNonAscii(text);
    asciiBlocks.set(block, ascii);
  }
  return ascii;
}

/** Whether every text of a message content (a string, or its `text` blocks) is pure ASCII. */
export function contentTextIsAscii(content: JsonValue | undefined): boolean {
  if (typeof content === "string") return !hasNonAscii(content);
  if (!Array.isArray(content)) return true;
  for (const b of content) {
    if (!isObject(b) || b.type !== "text") continue;
    const text = typeof b.text === "string" ? b.text : "";
    if (!isAsciiTextBlock(b, text)) return false;
  }
  return true;
}

/** weightedChars of a text block's `text`, without scanning a block known to be ASCII. */
function blockWeightedChars(block: JsonObject, text: string, flavor: EstimateFlavor): number {
  return isAsciiTextBlock(block, text) ? text.length : weightedChars(text, flavor);
}

/** A user / toolResult `text` block: weighted text; 7.1+ counts a non-string `text` as its JSON. */
function textBlockChars(block: JsonObject, flavor: EstimateFlavor): number {
  const text = block.text;
  if (typeof text === "string") return blockWeightedChars(block, text, flavor);
  if (flavor === "2026.3") return 0;
  const json = JSON.stringify(text ?? null);
  return weightedChars(typeof json === "string" ? json : "", flavor);
}

/** user / toolResult / custom-like content: string or text + image blocks. */
function userLikeChars(content: JsonValue | undefined, flavor: EstimateFlavor): number {
  if (typeof content === "string") return weightedChars(content, flavor);
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text") chars += textBlockChars(block, flavor);
    else if (block.type === "image") chars += IMAGE_CHAR_ESTIMATE;
  }
  return chars;
}

function strOrEmpty(block: JsonObject, key: string): string {
  const v = block[key];
  return typeof v === "string" ? v : "";
}

function assistantChars(content: JsonValue | undefined, flavor: EstimateFlavor): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    switch (block.type) {
      case "text":
        // Non-string assistant text is ignored (pruning.md §2.3).
        if (typeof block.text === "string") chars += blockWeightedChars(block, block.text, flavor);
        break;
      case "thinking":
        chars += weightedChars(strOrEmpty(block, "thinking"), flavor);
        // 2026.3.2 counts only the thinking text; 7.1+ also the signature.
        if (flavor !== "2026.3") chars += weightedChars(strOrEmpty(block, "thinkingSignature"), flavor);
        break;
      case "redacted_thinking":
        if (flavor !== "2026.3") {
          chars += weightedChars(strOrEmpty(block, "thinking"), flavor);
          chars += weightedChars(strOrEmpty(block, "thinkingSignature"), flavor);
          chars += weightedChars(strOrEmpty(block, "data"), flavor);
        }
        break;
      case "toolCall":
        // Tool-call JSON is never weighted.
        chars += jsonLength(block.arguments);
        break;
      case "image":
        if (flavor === "2026.9") chars += IMAGE_CHAR_ESTIMATE;
        break;
      default:
        break;
    }
  }
  return chars;
}

/**
 * Estimated chars of one model-context message (pruning.md §1.4 / §2.3), by role.
 * `role` is the context role (`user`, `assistant`, `toolResult`, `custom`, `compactionSummary`, …).
 * NOTE: OpenClaw drops thinking blocks before estimating for providers whose transcript policy drops
 * them; that provider list is UNVERIFIED, so thinking is always counted here.
 */
export function estimateMessageChars(role: string, message: JsonObject, flavor: EstimateFlavor): number {
  if (role === "user") return userLikeChars(message.content, flavor);
  if (role === "toolResult") {
    // A string content is not a valid tool result; count it like a user string to stay defensive.
    return userLikeChars(message.content, flavor);
  }
  if (role === "assistant") return assistantChars(message.content, flavor);
  return OTHER_ROLE_CHAR_ESTIMATE;
}
