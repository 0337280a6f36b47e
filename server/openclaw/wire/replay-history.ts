// What OpenClaw removes from replayed history before a model call (wire-format.md §2 steps 4 and 11):
// openclaw@2026.9.6 src/agents/embedded-agent-runner/replay-history.ts `normalizeAssistantReplayContent`
// (run on the history at attempt start and again on the whole list at the LLM boundary; 2026.7.1 has the same
// rule) and tool-result-truncation.ts `dropThinkingBlocks` with the replay policy of provider-replay-helpers.ts
// `shouldDropClaudeThinkingBlocks` (2026.9.x only). Pure.

import type { AgentMessage, Part } from "./agent-message.ts";

/** OpenClaw's STREAM_ERROR_FALLBACK_TEXT (replay-turn-classification.ts). */
export const STREAM_ERROR_FALLBACK_TEXT = "[assistant turn failed before producing content]";
/** ANTHROPIC_OMITTED_REASONING_TEXT: what a thinking-only assistant becomes when its thinking is dropped. */
export const OMITTED_REASONING_TEXT = "[assistant reasoning omitted]";
const SILENT_REPLY_TOKEN = "NO_REPLY";
/** MANAGED_DISPLAY_BLOCK_TYPES: display-only blocks inside assistant content, never replayed. */
const MANAGED_DISPLAY = new Set(["attachment", "attachment_error", "audio", "image", "video"]);

/** isStreamErrorFallbackContent: no content, blank, or only the stream-error fallback text. */
export function isStreamErrorFallbackContent(content: AgentMessage["content"]): boolean {
  if (typeof content === "string") return !content.trim() || content.trim() === STREAM_ERROR_FALLBACK_TEXT;
  return content.every(
    (p) => p.type === "text" && (!p.text.trim() || p.text.trim() === STREAM_ERROR_FALLBACK_TEXT),
  );
}

/** isSilentReplyText for the plain token (the reasoning-prefixed and JSON-envelope variants are not ported). */
function isSilent(text: string): boolean {
  return text.trim() === SILENT_REPLY_TOKEN;
}

function isThinking(p: Part): boolean {
  return p.type === "thinking";
}

function hasOnlyReasoning(parts: readonly Part[]): boolean {
  let reasoning = false;
  for (const p of parts) {
    if (isThinking(p)) reasoning = true;
    else if (!(p.type === "text" && !p.text.trim())) return false;
  }
  return reasoning;
}

/** sanitizeUserReplayContent: blank user messages and blank text blocks are dropped (media keeps the turn). */
function sanitizeUser(m: AgentMessage): AgentMessage | null {
  const hasMedia = (m.media?.length ?? 0) > 0;
  if (typeof m.content === "string") return m.content.trim() || hasMedia ? m : null;
  const kept = m.content.filter((p) => p.type !== "text" || p.text.trim().length > 0);
  if (kept.length === 0) return hasMedia ? { ...m, content: "" } : null;
  return kept.length === m.content.length ? m : { ...m, content: kept };
}

/** normalizeAssistantReplayBlockContent + the string-content variant. */
function sanitizeAssistant(m: AgentMessage): AgentMessage | null {
  if (m.transcriptOnly) return null;
  const emptyStop = m.stopReason === "stop" && m.zeroUsage === true;
  if (isStreamErrorFallbackContent(m.content) && (m.stopReason === "error" || emptyStop)) return null;
  if (typeof m.content === "string") {
    if (!m.content.trim() || isSilent(m.content)) return null;
    return { ...m, content: [{ type: "text", text: m.content }] };
  }
  let removedSilent = false;
  const kept: Part[] = [];
  for (const p of m.content) {
    if (p.type === "other" && p.blockType !== undefined && MANAGED_DISPLAY.has(p.blockType)) continue;
    if (p.type === "image") continue;
    if (p.type === "text" && isSilent(p.text)) {
      removedSilent = true;
      continue;
    }
    kept.push(p);
  }
  if (kept.length !== m.content.length) {
    if (kept.length === 0) return null;
    if (removedSilent && hasOnlyReasoning(kept)) return null;
  }
  const next = kept.length === m.content.length ? m : { ...m, content: kept };
  // isReasoningOnlyLengthAssistantTurn: a reply cut at max tokens with nothing but reasoning.
  if (next.stopReason === "length" && typeof next.content !== "string" && hasOnlyReasoning(next.content))
    return null;
  return next;
}

function sameParts(a: AgentMessage["content"], b: AgentMessage["content"]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const sanitizedUser = new WeakMap<AgentMessage, AgentMessage | null>();
const sanitizedAssistant = new WeakMap<AgentMessage, AgentMessage | null>();

function sanitized(m: AgentMessage): AgentMessage | null {
  if (m.role !== "user" && m.role !== "assistant") return m;
  const cache = m.role === "user" ? sanitizedUser : sanitizedAssistant;
  const hit = cache.get(m);
  if (hit !== undefined) return hit;
  const out = m.role === "user" ? sanitizeUser(m) : sanitizeAssistant(m);
  cache.set(m, out);
  return out;
}

/**
 * normalizeAssistantReplayContent: drops transcript-only and failed-empty assistants, silent replies, blank
 * users and display-only blocks; a zero-usage copy of the previous assistant (bare delivery-mirror duplicate)
 * is dropped too. Returns the input array itself when nothing changed.
 */
export function normalizeReplayContent(messages: readonly AgentMessage[]): readonly AgentMessage[] {
  const out: AgentMessage[] = [];
  return appendNormalized(out, messages) ? out : messages;
}

/** normalizeReplayContent of `messages` appended to an already normalized `out`; true when any changed. */
export function appendNormalized(out: AgentMessage[], messages: readonly AgentMessage[]): boolean {
  let touched = false;
  for (const m of messages) {
    const next = sanitized(m);
    if (next !== m) touched = true;
    if (!next) continue;
    if (next.role === "assistant" && isBareMirrorDuplicate(out, next)) {
      touched = true;
      continue;
    }
    out.push(next);
  }
  return touched;
}

function hasToolCall(m: AgentMessage): boolean {
  return typeof m.content !== "string" && m.content.some((p) => p.type === "toolCall");
}

/** isBareDeliveryMirrorDuplicate: a zero-usage `stop` assistant repeating the previous assistant's content. */
function isBareMirrorDuplicate(out: readonly AgentMessage[], next: AgentMessage): boolean {
  const prev = out.at(-1);
  if (prev?.role !== "assistant" || next.zeroUsage !== true || next.stopReason !== "stop") return false;
  if (hasToolCall(prev) || hasToolCall(next)) return false;
  return typeof prev.content !== "string" && prev.content.length > 0 && sameParts(prev.content, next.content);
}

/** The newest assistant with content (the one dropThinkingBlocks spares), or -1. */
export function latestAssistantWithContent(messages: readonly AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "assistant" && typeof m.content !== "string" && m.content.length > 0) return i;
  }
  return -1;
}

/**
 * dropThinkingBlocks: every assistant but the newest one with content loses its thinking; one left empty says
 * `[assistant reasoning omitted]`. `spareLatest: false` — for a part of a history whose newest assistant
 * comes later — drops it everywhere.
 */
export function dropThinkingBlocks(
  messages: readonly AgentMessage[],
  spareLatest = true,
): readonly AgentMessage[] {
  const latest = spareLatest ? latestAssistantWithContent(messages) : -1;
  let touched = false;
  const out = messages.map((m, i) => {
    if (i === latest || m.role !== "assistant" || typeof m.content === "string") return m;
    const kept = m.content.filter((p) => !isThinking(p));
    if (kept.length === m.content.length) return m;
    touched = true;
    const content: readonly Part[] = kept.length ? kept : [{ type: "text", text: OMITTED_REASONING_TEXT }];
    return { ...m, content };
  });
  return touched ? out : messages;
}

const ANTHROPIC_FAMILY = new Set(["anthropic", "amazon-bedrock", "anthropic-vertex"]);
const PRESERVES_THINKING =
  /(?:^|-)claude-(?:fable-5|mythos-(?:5|preview)|opus-4-(?:5|6|7|8)|sonnet-(?:5|4-6))(?=$|[^a-z0-9])/;
const OPUS_5 = /(?:^|-)claude-opus-5(?=$|[^a-z0-9])/;

/**
 * shouldDropClaudeThinkingBlocks (2026.9.x anthropic-family replay policy): Claude models that do not keep
 * signed thinking across turns have it dropped from history (e.g. claude-sonnet-4-5, claude-3-*, mock ids).
 */
export function dropsClaudeThinking(provider: string | undefined, modelId: string | undefined): boolean {
  if (!ANTHROPIC_FAMILY.has((provider ?? "").toLowerCase())) return false;
  const id = (modelId ?? "").toLowerCase();
  const isClaude = id.startsWith("claude-") || OPUS_5.test(id);
  return isClaude && !OPUS_5.test(id) && !PRESERVES_THINKING.test(id);
}
