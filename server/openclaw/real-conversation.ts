// OpenClaw's "real conversation message" classifier, `isRealConversationMessage(message, messages, index)` of
// `src/agents/compaction-real-conversation.ts` (read in the 2026.6.6, 2026.7.1 and 2026.9.6 dist bundles;
// docs/openclaw-facts.md §1.2 and §1.5). `/context detail` counts with it (compactable-count.ts). Pure.
//
// A message is real when it carries meaningful conversation: text that is not empty, not the silent reply
// (`NO_REPLY`, repeated, case-insensitive, edge punctuation ignored) and not only a heartbeat acknowledgement; or a
// block other than text, tool calls and reasoning. A tool result is real when one of the 20 list entries before it
// is a meaningful user / custom / bashExecution / summary message. Any other role (the `system` rows that stand for
// resets and compactions) is never real. 2026.7.1 differs from 2026.9.6 in three places, listed in RULES.

import { isObject, type JsonObject, type JsonValue, str } from "../../shared/json.ts";
import type { ContextFamily } from "./context-text/types.ts";
import { stripHeartbeatToken } from "./heartbeat.ts";

export const TOOL_RESULT_LOOKBACK = 20;

interface Rules {
  /** 2026.9.6 honours `excludeFromContext` for every role; 2026.7.1 only for `bashExecution`. */
  excludeAnyRole: boolean;
  /** Blocks that do not make a message meaningful: 9.6 adds the snake_case tool-call types. */
  nonConversationBlocks: ReadonlySet<string>;
  /** Roles judged by their `summary`: 9.6 adds `compactionSummary`. */
  summaryRoles: ReadonlySet<string>;
}

const RULES: Record<"2026.7" | "2026.9", Rules> = {
  "2026.7": {
    excludeAnyRole: false,
    nonConversationBlocks: new Set(["toolCall", "toolUse", "functionCall", "thinking", "reasoning"]),
    summaryRoles: new Set(["branchSummary"]),
  },
  "2026.9": {
    excludeAnyRole: true,
    nonConversationBlocks: new Set([
      "toolCall",
      "toolUse",
      "functionCall",
      "tool_call",
      "tool_use",
      "function_call",
      "thinking",
      "reasoning",
    ]),
    summaryRoles: new Set(["branchSummary", "compactionSummary"]),
  },
};

/** 2026.8.1 – 2026.9.4: 2026.9.6's rules without the snake_case tool-call types (`isToolCallBlockType`, 9.5). */
const RULES_2026_8: Rules = {
  ...RULES["2026.9"],
  nonConversationBlocks: RULES["2026.7"].nonConversationBlocks,
};

function rulesOf(family: ContextFamily, snakeCaseToolCalls: boolean): Rules {
  if (family !== "2026.9") return RULES["2026.7"];
  return snakeCaseToolCalls ? RULES["2026.9"] : RULES_2026_8;
}

const SILENT_REPLY = /^\s*NO_REPLY(?:\s+NO_REPLY)*\s*$/iu;

/** `isSilentReplyText` (src/auto-reply/tokens.ts): the text, or the text without leading/trailing punctuation. */
export function isSilentReplyText(text: string): boolean {
  return SILENT_REPLY.test(text) || SILENT_REPLY.test(text.trim().replace(/^\p{P}+|\p{P}+$/gu, ""));
}

/** `hasMeaningfulText`: not empty, not the silent reply, not only a heartbeat acknowledgement. */
function hasMeaningfulText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed || isSilentReplyText(trimmed)) return false;
  const hb = stripHeartbeatToken(trimmed, { mode: "message" });
  return !hb.didStrip || hb.text.trim().length > 0;
}

/** `hasMeaningfulMessageContent`: a meaningful text block, else any block that is not text/tool call/reasoning. */
function hasMeaningfulContent(content: JsonValue | undefined, rules: Rules): boolean {
  if (typeof content === "string") return hasMeaningfulText(content);
  if (!Array.isArray(content)) return false;
  let meaningfulNonText = false;
  for (const block of content) {
    if (!isObject(block)) continue;
    const type = block.type;
    if (type !== "text") {
      if (!(typeof type === "string" && rules.nonConversationBlocks.has(type))) meaningfulNonText = true;
      continue;
    }
    const text = str(block, "text");
    if (text !== undefined && hasMeaningfulText(text)) return true;
  }
  return meaningfulNonText;
}

function computeMeaningful(message: JsonObject, rules: Rules): boolean {
  const role = str(message, "role");
  // Context-free commands (`/status`) and their replies (spec context-report.md §5.2, transcript.md §8).
  if (message.excludeFromContext === true && (rules.excludeAnyRole || role === "bashExecution")) return false;
  if (role === "custom") return message.display !== false && hasMeaningfulContent(message.content, rules);
  if (role === "bashExecution") {
    return hasMeaningfulText(`${str(message, "command") ?? ""}\n${str(message, "output") ?? ""}`);
  }
  if (role !== undefined && rules.summaryRoles.has(role)) {
    const summary = str(message, "summary");
    return summary !== undefined && hasMeaningfulText(summary);
  }
  return hasMeaningfulContent(message.content, rules);
}

/**
 * Remembered per stored message object and rule set: a tool result's look-back asks about the same anchors up to
 * 20 times, and every report after an append asks about every message again (entries are shared across tail reads).
 */
const meaningful = new Map<Rules, WeakMap<JsonObject, boolean>>();

function hasMeaningfulConversation(message: JsonObject, rules: Rules): boolean {
  let memo = meaningful.get(rules);
  if (!memo) {
    memo = new WeakMap();
    meaningful.set(rules, memo);
  }
  let v = memo.get(message);
  if (v === undefined) {
    v = computeMeaningful(message, rules);
    memo.set(message, v);
  }
  return v;
}

/** Roles judged by their content: these plus the summary roles. Anchors of a tool result: the same but assistant. */
const CONVERSATION_ROLES = new Set(["user", "assistant", "custom", "bashExecution"]);

function isAnchor(message: JsonObject | undefined, rules: Rules): boolean {
  const role = message ? str(message, "role") : undefined;
  if (message === undefined || role === undefined || role === "assistant") return false;
  return (
    (CONVERSATION_ROLES.has(role) || rules.summaryRoles.has(role)) &&
    hasMeaningfulConversation(message, rules)
  );
}

/**
 * `isRealConversationMessage(messages[index], messages, index)` for the family's rules; `snakeCaseToolCalls`:
 * the release knows the snake_case tool-call block types (2026.9.5+; compactable-count.ts displayListRules).
 */
export function isRealConversationMessage(
  messages: readonly JsonObject[],
  index: number,
  family: ContextFamily,
  snakeCaseToolCalls = true,
): boolean {
  const message = messages[index];
  if (!message) return false;
  const rules = rulesOf(family, snakeCaseToolCalls);
  const role = str(message, "role");
  if (role !== undefined && (CONVERSATION_ROLES.has(role) || rules.summaryRoles.has(role))) {
    return hasMeaningfulConversation(message, rules);
  }
  if (role !== "toolResult") return false;
  for (let i = index - 1; i >= Math.max(0, index - TOOL_RESULT_LOOKBACK); i -= 1) {
    if (isAnchor(messages[i], rules)) return true;
  }
  return false;
}
