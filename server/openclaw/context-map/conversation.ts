// OpenClaw 2026.9.x's `/context map` Conversation group: the per-message char estimate of the map (OpenClaw's
// tool-result char estimator, spec context-report.md §5.4 conversation table) summed into five buckets, over the
// messages of openClawMapMessages (inputs.ts). Source: `src/auto-reply/reply/context-treemap.ts` (9.6). Pure.

import { isObject, type JsonObject, type JsonValue, str } from "../../../shared/json.ts";
import { blocksOf, type MessageBlock } from "../../model/message-blocks.ts";
import { summaryWireText } from "../../model/summary-text.ts";
import { bashExecutionText } from "../bash-execution.ts";
import { hasNonAscii, isAsciiTextBlock, weightedChars2026_9 } from "../estimate.ts";
import { IMAGE_CHAR_ESTIMATE } from "../token-estimate.ts";

// ---------------------------------------------------------------------------------------------------------------
// Conversation leaves (2026.9.x): per-message estimate of spec §5.4 (OpenClaw's tool-result char estimator).

export interface ConversationBuckets {
  user: number;
  assistant: number;
  toolResults: number;
  summaries: number;
  other: number;
}

/** Size of a block of unknown shape: a string's length, else its JSON length (256 if that throws). */
function unknownChars(b: MessageBlock): number {
  if (b.kind === "other" && typeof b.raw === "string") return b.raw.length;
  return b.jsonLength ?? 256;
}

/**
 * User-like content (a string is one text part): text length (tool results: weighted, floor 2), image 8,000
 * (×2), other blocks as JSON (×2).
 */
function contentChars(content: JsonValue | undefined, toolResult: boolean): number {
  const weight = toolResult ? 2 : 1;
  let total = 0;
  for (const b of blocksOf(content)) {
    if (b.kind === "text" && b.text !== undefined) {
      const text = b.text;
      const ascii = b.block ? isAsciiTextBlock(b.block, text) : !hasNonAscii(text);
      total += !toolResult ? text.length : ascii ? text.length * 2 : weightedChars2026_9(text, 2);
    } else if (b.kind === "image") total += IMAGE_CHAR_ESTIMATE * weight;
    else total += unknownChars(b) * weight;
  }
  return total;
}

/** Assistant blocks (a string content counts 0; non-object blocks are skipped, as OpenClaw does). */
function assistantChars(message: JsonObject): number {
  if (!Array.isArray(message.content)) return 0;
  let total = 0;
  for (const b of blocksOf(message.content)) {
    if (b.kind === "other" && !isObject(b.raw)) continue;
    if (b.kind === "text" && b.text !== undefined) total += b.text.length;
    else if (b.kind === "thinking" && b.text !== undefined)
      total += b.text.length; // no signature
    else if (b.kind === "toolCall") total += b.argsJson?.length ?? 128;
    else total += unknownChars(b);
  }
  return total;
}

/** Map bucket of a message: by role exactly (a `tool`-role result is estimated as a result but lands in Other). */
function bucketOf(role: JsonValue | undefined): keyof ConversationBuckets {
  if (role === "user") return "user";
  if (role === "assistant") return "assistant";
  if (role === "toolResult") return "toolResults";
  if (role === "branchSummary" || role === "compactionSummary") return "summaries";
  return "other";
}

type Estimate = { bucket: keyof ConversationBuckets; chars: number };

/**
 * Estimates per message object: a transcript's message objects are immutable and shared by the Transcripts of
 * an append (sources/jsonl/tail.ts), so the map of a grown session estimates only its new messages (issue 18).
 */
const estimates = new WeakMap<JsonObject, Estimate>();

/** Chars of one message for the 2026.9.x map (OpenClaw's `estimateMessageChars`), and its bucket. */
export function openClawMessageEstimate(message: JsonObject): Estimate {
  let e = estimates.get(message);
  if (e === undefined) {
    e = estimateOf(message);
    estimates.set(message, e);
  }
  return e;
}

function estimateOf(message: JsonObject): Estimate {
  const role = message.role;
  const bucket = bucketOf(role);
  if (message.excludeFromContext === true) return { bucket, chars: 0 };
  if (role === "user") return { bucket, chars: contentChars(message.content, false) };
  if (role === "assistant") return { bucket, chars: assistantChars(message) };
  if (role === "toolResult" || role === "tool" || message.type === "toolResult")
    return { bucket, chars: contentChars(message.content, true) };
  if (role === "bashExecution") return { bucket, chars: bashExecutionText(message).length };
  if (role === "branchSummary" || role === "compactionSummary")
    return { bucket, chars: summaryWireText(role, str(message, "summary") ?? "").length };
  if (role === "custom") return { bucket, chars: contentChars(message.content, false) };
  return { bucket, chars: 256 };
}

/** Σ per-message estimates by bucket over the messages OpenClaw reads for the map (spec §5.4). */
export function conversationBuckets(messages: readonly JsonObject[]): ConversationBuckets {
  const out: ConversationBuckets = { user: 0, assistant: 0, toolResults: 0, summaries: 0, other: 0 };
  for (const m of messages) {
    const { bucket, chars } = openClawMessageEstimate(m);
    out[bucket] += chars;
  }
  return out;
}
