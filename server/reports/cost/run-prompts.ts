// Which user message starts a run: the entry the cause rules (breakdown.ts) measure "a new run since the
// previous call" against. OpenClaw starts a run per inbound user message and builds its system prompt once per
// run (docs/openclaw-facts.md §5), so a user prompt between two calls on the later one's path is a new run.

import { isObject, obj, str } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { TranscriptEntry } from "../../model/session.ts";

/** A user message that enters the context (a context-free command reply's prompt does not start a run). */
export function isUserPrompt(e: TranscriptEntry): boolean {
  const m = e.type === "message" ? obj(e.raw, "message") : undefined;
  return m !== undefined && str(m, "role") === "user" && m.excludeFromContext !== true;
}

/** The text blocks of a user message, joined. */
export function userText(e: TranscriptEntry): string {
  const content = obj(e.raw, "message")?.content;
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? content : [])
    .filter(isObject)
    .map((b) => str(b, "text") ?? "")
    .join("\n");
}

/**
 * The user message that started n's run (the newest on `path` after m) and the one that started m's run (the
 * oldest on `path`, at or before m), or null when either is not on n's path.
 */
export function runPrompts(
  path: readonly TranscriptEntry[],
  m: ModelCall,
): { before: TranscriptEntry; now: TranscriptEntry } | null {
  const prompts = path.filter(isUserPrompt);
  const now = prompts.find((e) => e.index > m.entryIndex);
  const before = prompts.at(-1);
  return now && before && before.index <= m.entryIndex ? { before, now } : null;
}
