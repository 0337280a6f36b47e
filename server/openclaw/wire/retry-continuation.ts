// Retried requests of a failed turn (wire-format.md §1; own capture w1): a request that fails before a reply is
// retried, and only ONE assistant is stored for all attempts (`stopReason: "error"`, no `responseId`), while each
// attempt appends one `openclaw.cache-ttl` touch marker. From the second attempt on, the persisted prompt is an
// "orphaned trailing user message" and the attempt's prompt is the internal continuation prompt, merged as
// openclaw@2026.9.6 context-engine-maintenance.ts `mergeOrphanedTrailingUserPrompt` does:
// `[QUEUED_USER_MESSAGE_MARKER, <orphan text>, "", CONTINUATION_PROMPT].join("\n")` (embedded-agent.ts
// `prepareCompactedTranscriptRetry` → `activateInternalPrompt(CONTINUATION_PROMPT)`), stamped with the time of
// the attempt — the attempt's touch marker. Pure.

import { isObject, num, str } from "../../../shared/json.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import type { AgentMessage } from "./agent-message.ts";

export const QUEUED_USER_MESSAGE_MARKER =
  "[Queued user message from a previous active turn; preserved as context only. Continue with the active prompt below.]";
export const CONTINUATION_PROMPT =
  "Continue the current task from the existing transcript, preserving completed work. If an action was interrupted, inspect its state before deciding whether to retry it. Do not restart the task or repeat completed actions.";

/**
 * The touch-marker times of the attempts of a failed call: the `openclaw.cache-ttl` entries with a timestamp
 * since the last message on the path (oldest first). Empty when the call is not a failed, unanswered request.
 */
export function failedAttemptTimes(path: readonly TranscriptEntry[]): number[] {
  const times: number[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i];
    if (!e || e.type === "message") break;
    if (e.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") continue;
    const t = isObject(e.raw.data) ? num(e.raw.data, "timestamp") : undefined;
    if (t !== undefined) times.unshift(t);
  }
  return times;
}

/** extractUserMessagePromptText: the prompt's text parts joined with `\n`, trimmed. */
function promptText(m: AgentMessage): string {
  if (typeof m.content === "string") return m.content.trim();
  const texts: string[] = [];
  for (const p of m.content) if (p.type === "text" && p.text.trim()) texts.push(p.text.trim());
  return texts.join("\n").trim();
}

/** The prompt of a retry attempt made at `at`. */
export function continuationPrompt(orphan: AgentMessage, at: number): AgentMessage {
  const text = promptText(orphan);
  const content = text
    ? [QUEUED_USER_MESSAGE_MARKER, text, "", CONTINUATION_PROMPT].join("\n")
    : CONTINUATION_PROMPT;
  const { media: _media, ...rest } = orphan;
  return { ...rest, content, timestamp: at, entryIndex: -1 };
}
