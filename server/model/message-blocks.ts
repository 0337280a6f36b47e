// The content blocks of a message, decoded once (transcript.md §2 "Content blocks"): each block as a small typed
// record, so no report or rule walks `message.content` and re-reads `type` / `text` / `arguments` itself. The
// weights rightly differ per rule (OpenClaw's map, its pruner estimate per generation, clawscope's map and run
// report); the walking does not. Pure; no OpenClaw policy here (what a block COUNTS is the caller's rule).
//
// A block is classified by its `type` field only; the payload fields are given when they are strings (a rule
// that counts a non-string payload its own way still has `block`). Texts stay lazy: a `text` block whose text
// was cut out of memory (model/lazy-text.ts) carries its same-length placeholder in `text` and the cut text in
// `lazy`; nothing here reads it back. JSON lengths are computed on first use only (a long text block is never
// serialised unless a rule asks), and tool-call arguments are serialised once per block.
//
// Memoised per content array: a Transcript's messages are immutable once loaded (the reader replaces, never
// mutates, them), and every report walks the same stored arrays again after each append.

import { isObject, type JsonObject, type JsonValue, str } from "../../shared/json.ts";
import { type LazyText, lazyTextOf } from "./lazy-text.ts";

export type BlockKind = "text" | "thinking" | "redactedThinking" | "toolCall" | "image" | "other";

interface BlockBase {
  /**
   * `JSON.stringify(block).length`, computed on first read; null when the value cannot be serialised (never
   * for parsed JSON, but a rule keeps its own fallback for it).
   */
  readonly jsonLength: number | null;
}

/** `{type:"text"}`; for a string `content`, the one text part it is on the wire (`block` null). */
export interface TextBlock extends BlockBase {
  kind: "text";
  block: JsonObject | null;
  /** `text` when it is a string (a same-length placeholder when `lazy` is set), else undefined. */
  text: string | undefined;
  /** The cut text behind a placeholder `text` (model/lazy-text.ts). */
  lazy: LazyText | undefined;
}

/** `{type:"thinking"}`: `thinking` and `thinkingSignature` when strings. */
export interface ThinkingBlock extends BlockBase {
  kind: "thinking";
  block: JsonObject;
  text: string | undefined;
  signature: string | undefined;
}

/** `{type:"redacted_thinking"}`: the opaque `data`, plus `thinking` / `thinkingSignature` when present. */
export interface RedactedThinkingBlock extends BlockBase {
  kind: "redactedThinking";
  block: JsonObject;
  data: string | undefined;
  thinking: string | undefined;
  signature: string | undefined;
}

/** `{type:"toolCall"}`: id, name and `JSON.stringify(arguments ?? {})` (null if that throws). */
export interface ToolCallBlock extends BlockBase {
  kind: "toolCall";
  block: JsonObject;
  id: string | undefined;
  name: string | undefined;
  argsJson: string | null;
}

/** `{type:"image"}` (base64 data; OpenClaw estimates it, it is not text). */
export interface ImageBlock extends BlockBase {
  kind: "image";
  block: JsonObject;
}

/** Anything else: an object of another `type` (or none), or a non-object array item. */
export interface OtherBlock extends BlockBase {
  kind: "other";
  /** The item as stored. */
  raw: JsonValue;
  /** Its `type` field, when it is an object with a string `type`. */
  type: string | undefined;
}

export type MessageBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolCallBlock
  | ImageBlock
  | OtherBlock;

function serialisedLength(value: JsonValue | undefined): number | null {
  try {
    const s = JSON.stringify(value ?? null);
    return typeof s === "string" ? s.length : null;
  } catch {
    return null;
  }
}

/** The record with a `jsonLength` of `value` computed on first read only. */
function withJsonLength<T extends object>(fields: T, value: JsonValue): T & BlockBase {
  let length: number | null | undefined;
  return {
    ...fields,
    get jsonLength() {
      if (length === undefined) length = serialisedLength(value);
      return length;
    },
  };
}

function argsJsonOf(block: JsonObject): string | null {
  try {
    const s = JSON.stringify(block.arguments ?? {});
    return typeof s === "string" ? s : null;
  } catch {
    return null;
  }
}

/** A block's fields without its lazy `jsonLength` (distributed over the kinds). */
type BlockFields<T = MessageBlock> = T extends unknown ? Omit<T, "jsonLength"> : never;

function decodeFields(item: JsonValue): BlockFields {
  if (!isObject(item)) return { kind: "other", raw: item, type: undefined };
  const type = str(item, "type");
  switch (type) {
    case "text":
      return { kind: "text", block: item, text: str(item, "text"), lazy: lazyTextOf(item) };
    case "thinking":
      return {
        kind: "thinking",
        block: item,
        text: str(item, "thinking"),
        signature: str(item, "thinkingSignature"),
      };
    case "redacted_thinking":
      return {
        kind: "redactedThinking",
        block: item,
        data: str(item, "data"),
        thinking: str(item, "thinking"),
        signature: str(item, "thinkingSignature"),
      };
    case "toolCall":
      return {
        kind: "toolCall",
        block: item,
        id: str(item, "id"),
        name: str(item, "name"),
        argsJson: argsJsonOf(item),
      };
    case "image":
      return { kind: "image", block: item };
    default:
      return { kind: "other", raw: item, type };
  }
}

const memo = new WeakMap<readonly JsonValue[], readonly MessageBlock[]>();

/**
 * The blocks of a message `content`: an array's items in order; a string content is one text block (`block`
 * null); anything else has none.
 */
export function blocksOf(content: JsonValue | undefined): readonly MessageBlock[] {
  if (typeof content === "string")
    return [withJsonLength({ kind: "text", block: null, text: content, lazy: undefined }, content)];
  if (!Array.isArray(content)) return [];
  const hit = memo.get(content);
  if (hit) return hit;
  const blocks = content.map((item) => withJsonLength(decodeFields(item), item));
  memo.set(content, blocks);
  return blocks;
}
