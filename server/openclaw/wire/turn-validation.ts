// Anthropic turn validation of replayed history (wire-format.md §2 step 5): openclaw@2026.9.6
// src/agents/embedded-agent-helpers/turns.ts `validateAnthropicTurns` (same in 2026.7.1):
//   (a) consecutive assistants merge (content concatenated, the later stopReason wins);
//   (b) tool calls without a result before the next assistant are stripped (`stripDanglingAnthropicToolUses`):
//       an assistant left with none, or one with thinking whose calls do not all resolve, says
//       `[tool calls omitted]` (an aborted/failed turn is emptied instead);
//   (c) consecutive users merge: the blocks of both (a string becomes one text block), the LATER message's
//       fields and `timestamp: later ?? earlier` — so a merged turn is stamped once, with the later time.
// (c) is off only for append-only runtime-context models (Claude Opus 5.5 / Fable 5.1, `bindsClaudeThinkingPrefix`).
// Pure.

import type { AgentMessage, Part } from "./agent-message.ts";

export const TOOL_CALLS_OMITTED_TEXT = "[tool calls omitted]";

function mergeRuns(
  messages: readonly AgentMessage[],
  role: string,
  merge: (a: AgentMessage, b: AgentMessage) => AgentMessage,
): readonly AgentMessage[] {
  const out: AgentMessage[] = [];
  let last: string | undefined;
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (prev && m.role === last && last === role) {
      out[out.length - 1] = merge(prev, m);
      continue;
    }
    out.push(m);
    last = m.role;
  }
  return out.length === messages.length ? messages : out;
}

function partsForMerge(content: AgentMessage["content"]): readonly Part[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function mergeAssistants(a: AgentMessage, b: AgentMessage): AgentMessage {
  const content = [
    ...(typeof a.content === "string" ? [] : a.content),
    ...(typeof b.content === "string" ? [] : b.content),
  ];
  return b.stopReason ? { ...a, content, stopReason: b.stopReason } : { ...a, content };
}

function mergeUsers(a: AgentMessage, b: AgentMessage): AgentMessage {
  const content = [...partsForMerge(a.content), ...partsForMerge(b.content)];
  return { ...b, content, timestamp: b.timestamp ?? a.timestamp };
}

/** Tool-result ids (and their tool names) between position `i` and the next assistant. */
function resultsBeforeNextAssistant(messages: readonly AgentMessage[], i: number): Map<string, string> {
  const found = new Map<string, string>();
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j];
    if (!m || m.role === "assistant") break;
    if (m.role === "toolResult" && m.toolCallId) found.set(m.toolCallId, m.toolName ?? "");
  }
  return found;
}

function stripDanglingToolUses(messages: readonly AgentMessage[]): readonly AgentMessage[] {
  let touched = false;
  const out = messages.map((m, i) => {
    if (m.role !== "assistant" || typeof m.content === "string" || m.content.length === 0) return m;
    if (!m.content.some((p) => p.type === "toolCall")) return m;
    const results = resultsBeforeNextAssistant(messages, i);
    const aborted = m.stopReason === "aborted" || m.stopReason === "error";
    const omitted: readonly Part[] = aborted ? [] : [{ type: "text", text: TOOL_CALLS_OMITTED_TEXT }];
    if (m.content.some((p) => p.type === "thinking")) {
      const allResolved = m.content.every((p) => {
        if (p.type !== "toolCall") return true;
        if (!p.id || !p.name) return false;
        const name = results.get(p.id);
        return name !== undefined && (name === "" || name === p.name);
      });
      if (allResolved) return m;
      touched = true;
      return { ...m, content: omitted };
    }
    const kept = m.content.filter((p) => p.type !== "toolCall" || (p.id !== "" && results.has(p.id)));
    if (kept.length === m.content.length) return m;
    touched = true;
    return { ...m, content: kept.length === 0 ? omitted : kept };
  });
  return touched ? out : messages;
}

/** validateAnthropicTurns over replayed history. */
export function validateAnthropicTurns(
  messages: readonly AgentMessage[],
  opts: { mergeUsers: boolean },
): readonly AgentMessage[] {
  const stripped = stripDanglingToolUses(mergeRuns(messages, "assistant", mergeAssistants));
  return opts.mergeUsers ? mergeRuns(stripped, "user", mergeUsers) : stripped;
}
