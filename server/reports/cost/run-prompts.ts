// Which user message starts a run: the entry the cause rules (breakdown.ts) measure "a new run since the
// previous call" against. OpenClaw starts a run per inbound user message and builds its system prompt once per
// run (docs/openclaw-facts.md §5), so a user prompt between two calls on the later one's path is a new run.

import { obj, str } from "../../../shared/json.ts";
import type { TranscriptEntry } from "../../model/session.ts";

/** A user message that enters the context (a context-free command reply's prompt does not start a run). */
export function isUserPrompt(e: TranscriptEntry): boolean {
  const m = e.type === "message" ? obj(e.raw, "message") : undefined;
  return m !== undefined && str(m, "role") === "user" && m.excludeFromContext !== true;
}
