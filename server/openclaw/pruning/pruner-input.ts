// The pruner's input for one request's model-context list: per-message estimates and the positions the
// algorithms need (assistants for the keep-last cutoff, the first user message, tool results).
// The replay maintains one incrementally; `makePrunerInput` builds one from a message list (tests,
// one-off previews). Pure.

import { type JsonValue, str } from "../../../shared/json.ts";
import type { ContextMessage } from "../../model/session.ts";
import { type EstimateFlavor, estimateMessageChars, weightedChars } from "../estimate.ts";
import {
  type JoinedToolText,
  joinToolResultText,
  type SoftTrimConfig,
  softTrimRulesOf,
  softTrimText,
} from "./soft-trim.ts";

/** One tool result of the list, with what the pruner needs. */
export interface PrunerToolResult {
  /** Position in the message list. */
  position: number;
  /** Transcript entry index (stable identity across calls; keys projections). */
  entryIndex: number;
  toolCallId: string;
  toolName: string;
  /** Full estimate (pruning.md §1.4 / §2.3). */
  chars: number;
  hasImage: boolean;
}

export interface PrunerInput {
  /** Number of messages in the list. */
  count: number;
  /** Σ estimates of the list as it stands before this round (9.x: with existing projections applied). */
  totalChars: number;
  /** W × 4. */
  charWindow: number;
  /** Positions of assistant messages, ascending. */
  assistantPositions: readonly number[];
  /** Position of the first `user` message, or null. */
  firstUserPosition: number | null;
  /** Tool results, ascending by position. */
  toolResults: readonly PrunerToolResult[];
}

/** Per-run settings of the pruner (the knobs; 9.x passes its fixed values). */
export interface PrunerSettings {
  keepLastAssistants: number;
  softTrimRatio: number;
  hardClearRatio: number;
  minPrunableToolChars: number;
  softTrim: SoftTrimConfig;
  hardClearEnabled: boolean;
  placeholder: string;
  isToolPrunable: (toolName: string) => boolean;
  flavor: EstimateFlavor;
  /** Returns the soft-trimmed size of a result (null = unchanged); the replay caches it per entry. */
  softTrimChars: (tr: PrunerToolResult) => number | null;
}

export type PrunerReason =
  | "no-window"
  | "too-few-assistants"
  | "no-user-message"
  | "below-soft-trim-ratio"
  | "pruned"
  | "no-change";

export interface PrunerChange {
  state: "soft-trim" | "hard-clear";
  /** Estimated chars after the change. */
  chars: number;
}

export interface PrunerResult {
  reason: PrunerReason;
  totalBefore: number;
  totalAfter: number;
  /** Keep-last-assistants cutoff position (results at or after it are protected), or null. */
  cutoff: number | null;
  /** First user position (results before it are protected), or null. */
  start: number | null;
  /** entryIndex → change made in this round. */
  changes: Map<number, PrunerChange>;
}

/** Position of the `keep`-th assistant from the end; `keep ≤ 0` → the message count; too few → null. */
export function assistantCutoff(view: PrunerInput, keep: number): number | null {
  if (keep <= 0) return view.count;
  const idx = view.assistantPositions.length - keep;
  if (idx < 0) return null;
  return view.assistantPositions[idx] ?? null;
}

/** Soft-trim text of a tool result message for a generation (2026.3.2: results with images are never trimmed). */
export function softTrimToolMessage(
  content: JsonValue | undefined,
  cfg: SoftTrimConfig,
  flavor: EstimateFlavor,
): { joined: JoinedToolText; text: string | null } {
  const joined = joinToolResultText(content, flavor !== "2026.3");
  if (flavor === "2026.3" && joined.hasImage) return { joined, text: null };
  const text = softTrimText(joined, cfg, softTrimRulesOf(flavor));
  return { joined, text };
}

/** A full view of a message list (no projections): for tests and one-off previews. */
export function makePrunerInput(
  messages: readonly ContextMessage[],
  flavor: EstimateFlavor,
  charWindow: number,
): PrunerInput & { perMessageChars: number[] } {
  const assistantPositions: number[] = [];
  const toolResults: PrunerToolResult[] = [];
  const perMessageChars: number[] = [];
  let firstUserPosition: number | null = null;
  let total = 0;
  messages.forEach((m, position) => {
    const chars = estimateMessageChars(m.role, m.message, flavor);
    perMessageChars.push(chars);
    total += chars;
    if (m.role === "assistant") assistantPositions.push(position);
    if (m.role === "user" && firstUserPosition === null) firstUserPosition = position;
    if (m.role === "toolResult") {
      toolResults.push({
        position,
        entryIndex: m.entryIndex,
        toolCallId: str(m.message, "toolCallId") ?? "",
        toolName: str(m.message, "toolName") ?? "",
        chars,
        hasImage: joinToolResultText(m.message.content, true).hasImage,
      });
    }
  });
  return {
    count: messages.length,
    totalChars: total,
    charWindow,
    assistantPositions,
    firstUserPosition,
    toolResults,
    perMessageChars,
  };
}

/** softTrimChars for makePrunerInput users: computes the trimmed text of the message behind each result. */
export function softTrimCharsFor(
  messages: readonly ContextMessage[],
  cfg: SoftTrimConfig,
  flavor: EstimateFlavor,
): (tr: PrunerToolResult) => number | null {
  return (tr) => {
    const m = messages[tr.position];
    if (!m) return null;
    const { text } = softTrimToolMessage(m.message.content, cfg, flavor);
    return text === null ? null : weightedChars(text, flavor);
  };
}
