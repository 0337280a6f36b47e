// `Compactable transcript: R real conversation message(s) / M transcript message(s)` of `/context detail`
// (2026.7.1+). Spec context-report.md §5.2; classifier = OpenClaw `src/agents/compaction-real-conversation.ts`.
// Pure: transcript in, counts out.
//
// M = `message` entries before the command's own user message, gateway-injected replies and
//     `excludeFromContext` pairs included (s1 final: 51, s4 step 029: 94).
//     2026.7.1 adds the `compaction` rows before it and does NOT apply the compaction window (j1: 51 + 2 = 53).
// R = those that are "real conversation" (below); `excludeFromContext` messages and 7.1 compaction rows are not.
//
// Which rows are read: 2026.9.x reads the session's active events (the active branch); 2026.7.1 reads the
// transcript file, so every row in append order. In the fixtures (no branches) both are the same. Unverified:
// whether 9.x counts `custom_message` rows, and 9.x counting after a compaction or `reset` (held-back only).

import { arr, isObject, type JsonObject, type JsonValue, str } from "../../shared/json.ts";
import type { Transcript, TranscriptEntry } from "../model/session.ts";
import type { ContextFamily, TranscriptCounts } from "./context-text/types.ts";
import { stripHeartbeatToken } from "./heartbeat.ts";

const SILENT_REPLY_TOKEN = "NO_REPLY";
/** A toolResult is real when one of the 20 messages before it is a real user/custom/bash/summary message. */
const TOOL_RESULT_LOOKBACK = 20;
/** Blocks that do not make a message "real" (tool-call metadata, reasoning). */
const NON_CONVERSATION_BLOCKS = new Set(["toolCall", "toolUse", "functionCall", "thinking", "reasoning"]);
const ANCHOR_ROLES = new Set(["user", "custom", "bashExecution", "branchSummary", "compactionSummary"]);
const CONVERSATION_ROLES = new Set([...ANCHOR_ROLES, "assistant"]);

/** OpenClaw's hasMeaningfulText: not empty, not the silent reply, not only a heartbeat acknowledgement. */
function hasMeaningfulText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  if (new RegExp(`^\\s*${SILENT_REPLY_TOKEN}\\s*$`).test(trimmed)) return false;
  const hb = stripHeartbeatToken(trimmed, { mode: "message" });
  return !hb.didStrip || hb.text.trim().length > 0;
}

function hasMeaningfulContent(content: JsonValue | undefined): boolean {
  if (typeof content === "string") return hasMeaningfulText(content);
  if (!Array.isArray(content)) return false;
  let meaningfulNonText = false;
  for (const block of content) {
    if (!isObject(block)) continue;
    const type = block.type;
    if (type !== "text") {
      if (typeof type === "string" && NON_CONVERSATION_BLOCKS.has(type)) continue;
      meaningfulNonText = true;
      continue;
    }
    const text = str(block, "text");
    if (text !== undefined && hasMeaningfulText(text)) return true;
  }
  return meaningfulNonText;
}

/** A counted row: a stored message, or (7.1) a compaction row, which is never real. */
type CountedRow = { kind: "message"; message: JsonObject } | { kind: "compaction" };

const meaningful = new WeakMap<JsonObject, boolean>();

/**
 * Remembered per stored message object: a tool result's look-back asks about the same anchors up to 20 times,
 * and every report after an append asks about every message again (entries are shared across tail reads).
 */
function hasMeaningfulConversation(message: JsonObject): boolean {
  let v = meaningful.get(message);
  if (v === undefined) {
    v = computeMeaningfulConversation(message);
    meaningful.set(message, v);
  }
  return v;
}

function computeMeaningfulConversation(message: JsonObject): boolean {
  // Context-free commands (`/status`) and their replies are not conversation (spec §5.2, transcript.md §8).
  if (message.excludeFromContext === true) return false;
  const role = str(message, "role");
  if (role === "custom") return message.display !== false && hasMeaningfulContent(message.content);
  if (role === "bashExecution") {
    const command = str(message, "command") ?? "";
    const output = str(message, "output") ?? "";
    return hasMeaningfulText(`${command}\n${output}`);
  }
  if (role === "branchSummary" || role === "compactionSummary") {
    const summary = str(message, "summary");
    return summary !== undefined && hasMeaningfulText(summary);
  }
  return hasMeaningfulContent(message.content);
}

function isAnchor(row: CountedRow | undefined): boolean {
  if (row?.kind !== "message") return false;
  const role = str(row.message, "role");
  return role !== undefined && ANCHOR_ROLES.has(role) && hasMeaningfulConversation(row.message);
}

function isReal(rows: CountedRow[], index: number): boolean {
  const row = rows[index];
  if (row?.kind !== "message") return false;
  const role = str(row.message, "role");
  if (role !== undefined && CONVERSATION_ROLES.has(role)) return hasMeaningfulConversation(row.message);
  if (role !== "toolResult") return false;
  const start = Math.max(0, index - TOOL_RESULT_LOOKBACK);
  for (let i = index - 1; i >= start; i -= 1) {
    if (isAnchor(rows[i])) return true;
  }
  return false;
}

function rowsOf(
  transcript: Transcript,
  family: ContextFamily,
  beforeIndex: number | undefined,
): CountedRow[] {
  const source: TranscriptEntry[] =
    family === "2026.9"
      ? transcript.activeBranch.flatMap((i) => {
          const e = transcript.entries[i];
          return e ? [e] : [];
        })
      : transcript.entries;
  const rows: CountedRow[] = [];
  for (const e of source) {
    if (beforeIndex !== undefined && e.index >= beforeIndex) continue;
    if (e.type === "message") {
      const message = e.raw.message;
      if (isObject(message)) rows.push({ kind: "message", message });
    } else if (e.type === "compaction" && family !== "2026.9") {
      rows.push({ kind: "compaction" });
    }
  }
  return rows;
}

/**
 * M / R for `/context detail`. `beforeIndex` = index (Transcript.entries) of the command's own user message;
 * omit it to count everything (what a `/context detail` sent now would count).
 * Returns `{unavailable: "no transcript messages found"}` when M = 0 (OpenClaw's wording).
 */
export function countTranscriptMessages(
  transcript: Transcript,
  family: ContextFamily,
  beforeIndex?: number,
): TranscriptCounts {
  const rows = rowsOf(transcript, family, beforeIndex);
  if (rows.length === 0) return { unavailable: "no transcript messages found" };
  let real = 0;
  for (let i = 0; i < rows.length; i += 1) if (isReal(rows, i)) real += 1;
  return { messages: rows.length, real };
}

/** The text of a user `message` entry (string content, or its text blocks joined), else null. */
export function userMessageText(e: TranscriptEntry): string | null {
  if (e.type !== "message") return null;
  const message = e.raw.message;
  if (!isObject(message) || message.role !== "user") return null;
  const content = message.content;
  return typeof content === "string"
    ? content
    : (arr(message, "content") ?? [])
        .filter(isObject)
        .map((b) => str(b, "text") ?? "")
        .join("");
}

/** Index of the last user message whose text is exactly `command` (e.g. `/context detail`), or undefined. */
export function findCommandMessageIndex(transcript: Transcript, command: string): number | undefined {
  let found: number | undefined;
  for (const e of transcript.entries) {
    if (userMessageText(e)?.trim() === command) found = e.index;
  }
  return found;
}
