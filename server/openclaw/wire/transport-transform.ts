// The transport transform before provider conversion (wire-format.md §2 step 14): openclaw@2026.9.6
// src/agents/transport-message-transform.ts `transformTransportMessages` (2026.7.1: the same rules in
// @openclaw/ai transcript-transform.ts):
//   * thinking of an assistant from another model becomes text (signed/redacted thinking is only replayed to the
//     model that wrote it);
//   * failed turns (`stopReason` error/aborted): with a tool call kept (pairing-aware APIs), with real text
//     replaced by the failure marker, else dropped; reasoning-only `length` turns dropped;
//   * tool calls left without a result get a synthetic `No result provided` error result (Anthropic-family APIs).
// Pure.

import type { AgentMessage, Part } from "./agent-message.ts";
import { isStreamErrorFallbackContent } from "./replay-history.ts";

export const FAILED_TURN_TEXT =
  "[This turn failed before it completed. Do not redo its work without confirming with the user first.]";
export const MISSING_RESULT_TEXT = "No result provided";

/** The model a request goes to. */
export interface TargetModel {
  provider: string | undefined;
  api: string | undefined;
  id: string | undefined;
}

/** SYNTHETIC_TOOL_RESULT_APIS (the Anthropic, Bedrock, Google and OpenAI-responses transports). */
const SYNTHETIC_RESULT_APIS = new Set([
  "anthropic-messages",
  "openclaw-anthropic-messages-transport",
  "bedrock-converse-stream",
  "google-generative-ai",
  "openclaw-google-generative-ai-transport",
  "openai-responses",
  "openai-chatgpt-responses",
  "azure-openai-responses",
  "openclaw-openai-responses-transport",
  "openclaw-openai-chatgpt-responses-transport",
  "openclaw-azure-openai-responses-transport",
]);

function crossModelAssistant(m: AgentMessage, target: TargetModel): AgentMessage {
  if (typeof m.content === "string") return m;
  if (m.provider === target.provider && m.api === target.api && m.model === target.id) return m;
  let touched = false;
  const content: Part[] = [];
  for (const p of m.content) {
    if (p.type !== "thinking") {
      content.push(p);
      continue;
    }
    touched = true;
    if (p.redacted || !p.thinking.trim()) continue;
    content.push({ type: "text", text: p.thinking });
  }
  return touched ? { ...m, content } : m;
}

function reasoningOnlyLength(m: AgentMessage): boolean {
  if (m.role !== "assistant" || m.stopReason !== "length" || typeof m.content === "string") return false;
  let thinking = false;
  for (const p of m.content) {
    if (p.type === "thinking") thinking = true;
    else if (!(p.type === "text" && !p.text.trim())) return false;
  }
  return thinking;
}

/** resolveFailedAssistantReplay. */
function failedReplay(m: AgentMessage, pairingAware: boolean): "keep" | "drop" | "marker" {
  if (m.role !== "assistant" || (m.stopReason !== "error" && m.stopReason !== "aborted")) return "keep";
  const parts = typeof m.content === "string" ? [] : m.content;
  if (parts.some((p) => p.type === "toolCall")) return pairingAware ? "keep" : "drop";
  return parts.some((p) => p.type === "text" && !isStreamErrorFallbackContent(p.text)) ? "marker" : "drop";
}

function missingResult(id: string, name: string): AgentMessage {
  return {
    role: "toolResult",
    content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    timestamp: undefined,
    entryIndex: -1,
    toolCallId: id,
    toolName: name,
    isError: true,
  };
}

/** repairToolUseResultPairing (simplified: a result is looked for in the run right after its assistant). */
function repairPairing(messages: readonly AgentMessage[]): readonly AgentMessage[] {
  let out: AgentMessage[] | null = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!m) continue;
    out?.push(m);
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    const calls = m.content.filter((p) => p.type === "toolCall");
    if (!calls.length) continue;
    const have = new Set<string>();
    let j = i + 1;
    for (; j < messages.length && messages[j]?.role === "toolResult"; j++)
      have.add(messages[j]?.toolCallId ?? "");
    const missing = calls.filter((c) => !have.has(c.id));
    if (!missing.length) continue;
    if (!out) out = messages.slice(0, i + 1);
    for (; i + 1 < j; i++) {
      const r = messages[i + 1];
      if (r) out.push(r);
    }
    for (const c of missing) out.push(missingResult(c.id, c.name));
  }
  return out ?? messages;
}

/** transformTransportMessages for one request to `target`. */
export function transformTransport(
  messages: readonly AgentMessage[],
  target: TargetModel,
): readonly AgentMessage[] {
  const pairingAware = SYNTHETIC_RESULT_APIS.has(target.api ?? "");
  let touched = false;
  const out: AgentMessage[] = [];
  for (const original of messages) {
    const m = original.role === "assistant" ? crossModelAssistant(original, target) : original;
    if (m !== original) touched = true;
    if (reasoningOnlyLength(original)) {
      touched = true;
      continue;
    }
    const f = failedReplay(original, pairingAware);
    if (f === "drop") {
      touched = true;
      continue;
    }
    if (f === "marker") {
      touched = true;
      out.push({ ...m, content: [{ type: "text", text: FAILED_TURN_TEXT }] });
      continue;
    }
    out.push(m);
  }
  const list = touched ? out : messages;
  return pairingAware ? repairPairing(list) : list;
}
