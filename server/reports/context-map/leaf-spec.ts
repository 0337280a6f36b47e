// The leaf records clawscope's context map is built from (before they become MapNodes), their ids and names.

import { obj } from "../../../shared/json.ts";
import type { ContextMessage } from "../../model/session.ts";

/** Usage of the last model call: the three prompt buckets (transcript.md §4). */
export interface LastCallUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /**
   * Transcript entry index of the call's reply (model/model-calls.ts): the prompt is every context message before
   * it. Absent: the last assistant message with a usage object in the context list.
   */
  entryIndex?: number;
}

export interface LeafSpec {
  id: string;
  name: string;
  group: string;
  chars: number;
  source: string;
  /**
   * Text to tokenise for the tiktoken mode (absent: the caller must supply a count by id, or none). For a
   * tool result whose text was not kept in memory (model/lazy-text.ts) this is a same-length placeholder and
   * `lazy` reads the real text back (only the tokenizer needs it, in the background).
   */
  text?: string;
  lazy?: { key: string; load: () => string | null };
  /** Chars of parts that are not text (images, opaque blocks): counted as chars/4 in the tiktoken mode. */
  nonTextChars: number;
  /** Image blocks among those parts (each IMAGE_CHARS, context-numbers.ts). */
  images?: number;
  /** Conversation leaves: position of the message in the context list (for the last-call boundary). */
  messagePos?: number;
}

/** Hands out unique ids: a repeated base gets `~2`, `~3`, … in the order asked. */
export class IdAllocator {
  private readonly used = new Set<string>();
  take(base: string): string {
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}~${n}`;
    this.used.add(id);
    return id;
  }
}

/**
 * `s` with each lone UTF-16 surrogate written as the text `\uXXXX` (JSON lets a stored id hold one; the
 * provider sent it). Well-formed text is returned as it is; distinct lone surrogates stay distinct.
 */
function wellFormed(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++; // a pair
      continue;
    }
    out += `${s.slice(from, i)}\\u${c.toString(16)}`;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Path segment for ids: URL-safe, `/`-free, defined for any string (encodeURIComponent throws on a lone surrogate). */
export function idSegment(s: string): string {
  return encodeURIComponent(s === "" ? "(empty)" : wellFormed(s));
}

/** A one-line name from the head of a text. */
export function preview(text: string, max = 60): string {
  // Only the head matters: never scan a megabyte tool result for a 60-char name.
  const one = text
    .slice(0, max * 8)
    .replace(/\s+/g, " ")
    .trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * Which messages the last call's prompt held: every context message before the call's reply — the message of
 * `replyEntryIndex` when given (the billed call), else the last assistant message that carries a `usage` object.
 * Returns that position, or null when there is no such message in the list.
 */
export function lastCallReplyPos(
  messages: readonly ContextMessage[],
  replyEntryIndex?: number,
): number | null {
  if (replyEntryIndex !== undefined) {
    const pos = messages.findIndex((m) => m.entryIndex === replyEntryIndex);
    return pos >= 0 ? pos : null;
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.role === "assistant" && obj(m.message, "usage")) return i;
  }
  return null;
}
