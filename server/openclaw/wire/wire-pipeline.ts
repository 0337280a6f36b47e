// The order in which OpenClaw turns the model-context list of one call into the provider `messages`, per release
// family (wire-format.md §2; 2026.7.1 differences §7). Composition only — each step is its rule module:
//
//   history (before the run's prompt) ── normalize ─ drop thinking (9.6 policy) ─ validate turns   (per attempt)
//   history′ + prompt + attempt messages ── pruning projection ─ history images (9.6: prune/hydrate; 7.1: prune)
//     ─ media note on the prompt (9.6) ─ normalize ─ timestamps ─ delimiter escape (9.6, header v4)
//     ─ convertToLlm (summaries/custom → user) ─ carrier (9.6) ─ transport transform ─ Anthropic conversion
//
// History′ changes only when the prompt changes; the pruning states and the image cut can change per call, so a
// call's wire is built in two parts — the history part (cacheable, see wire-run.ts) and the current part (prompt
// + the attempt's messages) — which never interact: the prompt is a user message that is never merged, tool-result
// runs never cross it, and dangling tool calls were stripped from history. Pure.

import type { AgentMessage, Part } from "./agent-message.ts";
import { convertAnthropicMessages } from "./anthropic-messages.ts";
import {
  hydrateMedia,
  type ImageFamily,
  type MediaAccess,
  mediaNote,
  pruneMessageImages,
  withMediaNote,
} from "./history-images.ts";
import { dropThinkingBlocks, normalizeReplayContent } from "./replay-history.ts";
import { escapeMessageDelimiters } from "./runtime-context.ts";
import { projectToolResult, type ToolResultWire } from "./tool-result-projection.ts";
import { type TargetModel, transformTransport } from "./transport-transform.ts";
import { validateAnthropicTurns } from "./turn-validation.ts";
import { stampUserMessage } from "./user-timestamps.ts";
import type { WireMessage } from "./wire-message.ts";

/** The rule family of a session: 2026.9.x (SQLite era) or ≤2026.7.1 (JSONL era; 2026.3 data is read with it). */
export type WireFamily = ImageFamily;

/** Everything a call's reconstruction depends on besides the messages. */
export interface WirePolicy {
  family: WireFamily;
  /** A runtime-context carrier goes after the prompt (2026.9.3+: wire-release.ts). */
  runtimeCarrier: boolean;
  /** Whose history image cut applies (2026.9.5+ has 2026.9.6's: wire-release.ts). */
  imageCut: ImageFamily;
  /** validateAnthropicTurns merges consecutive users (off only for append-only runtime-context models). */
  mergeUsers: boolean;
  /** 2026.9.x history policy drops thinking (dropsClaudeThinking). */
  dropThinking: boolean;
  /** Thinking replayed at conversion (thinking level not off). */
  replayThinking: boolean;
  imageInput: boolean;
  target: TargetModel;
  /** Zone of the user-message stamps. */
  timeZone: string;
  /** 2026.9.x sessions with header version 4: carrier delimiters in user text are escaped. */
  escapeDelimiters: boolean;
  media: MediaAccess;
  /** Read cut texts back (byte-exact output). */
  resolveText: boolean;
}

/** prepareEmbeddedAttemptHistory: the run's history before its prompt, sanitized and validated. */
export function prepareHistory(history: readonly AgentMessage[], p: WirePolicy): readonly AgentMessage[] {
  let list = normalizeReplayContent(history);
  if (p.dropThinking) list = dropThinkingBlocks(list);
  return validateAnthropicTurns(list, { mergeUsers: p.mergeUsers });
}

// ---------------------------------------------------------------------------------------------------------------
// Per-message boundary forms

function memoized(fn: (m: AgentMessage) => AgentMessage): (m: AgentMessage) => AgentMessage {
  const cache = new WeakMap<AgentMessage, AgentMessage>();
  return (m) => {
    let out = cache.get(m);
    if (!out) {
      out = fn(m);
      cache.set(m, out);
    }
    return out;
  };
}

const prunedImages = {
  "2026.9": memoized((m) => pruneMessageImages(m, "2026.9")),
  "2026.7": memoized((m) => pruneMessageImages(m, "2026.7")),
};
const escaped = memoized(escapeMessageDelimiters);
const llmForm = memoized(toLlm);

/** convertToLlm: summaries and custom messages become user messages (never stamped, never merged). */
function toLlm(m: AgentMessage): AgentMessage {
  switch (m.role) {
    case "custom":
    case "compactionSummary":
    case "branchSummary": {
      const content: readonly Part[] =
        typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      return { ...m, role: "user", content };
    }
    default:
      return m;
  }
}

const KNOWN_ROLES = new Set([
  "user",
  "assistant",
  "toolResult",
  "custom",
  "compactionSummary",
  "branchSummary",
]);

/** One part (history or current) of a call after every per-message boundary step. */
export interface PartInput {
  messages: readonly AgentMessage[];
  /** Position of `messages[0]` in the whole list (for the image cut). */
  offset: number;
  /** History images are replaced before this position of the whole list (-1: none). */
  imageCut: number;
  projectionOf: (m: AgentMessage) => ToolResultWire | undefined;
  /** The run's prompt (its index in `messages`), or -1. */
  promptIndex: number;
}

export function boundaryPart(input: PartInput, p: WirePolicy): readonly AgentMessage[] {
  const out: AgentMessage[] = [];
  const { messages, offset, imageCut } = input;
  let prompt: AgentMessage | undefined;
  for (let i = 0; i < messages.length; i++) {
    let m = messages[i];
    if (!m || !KNOWN_ROLES.has(m.role)) continue;
    m = projectToolResult(m, input.projectionOf(m));
    if (offset + i < imageCut) m = prunedImages[p.family](m);
    else if (p.family === "2026.9") m = hydrateMedia([m], p.media)[0] ?? m;
    if (i === input.promptIndex) {
      const original = messages[i];
      if (p.family === "2026.9" && original?.media?.length)
        m = withMediaNote(m, mediaNote(original.media, p.media));
      prompt = m;
    }
    out.push(m);
  }
  const normalized = normalizeReplayContent(out);
  const result: AgentMessage[] = [];
  for (const m0 of normalized) {
    let m = m0.role === "user" ? stampUserMessage(m0, p.timeZone, m0 === prompt) : m0;
    if (p.escapeDelimiters) m = escaped(m);
    result.push(llmForm(m));
  }
  return result;
}

/** The wire messages of one part, and their counted chars. */
export interface WirePart {
  messages: WireMessage[];
  carrierIndexes: Set<number>;
  chars: number;
}

export function wirePart(
  part: readonly AgentMessage[],
  p: WirePolicy,
  opts: { tail: boolean; carrierLast: boolean },
): WirePart {
  const transformed = transformTransport(part, p.target);
  const { params, carrierIndexes, chars } = convertAnthropicMessages(transformed, {
    imageInput: p.imageInput,
    replayThinking: p.replayThinking,
    // The assistant before a trailing run of tool results keeps its thinking — only when nothing follows
    // the run (in 2026.9.x the carrier always does).
    findActiveToolTurn: opts.tail && !opts.carrierLast,
    resolveText: p.resolveText,
  });
  return { messages: params, carrierIndexes, chars };
}
