// The words for each spend cause (issue 14 §2), shared by the Cache & cost card, the HTML export and the
// *Copy as issue* Markdown so the three say the same thing. Pure.

import type { CacheVerdict, SpendCause } from "./cost.ts";

export const SPEND_CAUSE_TEXT: Record<SpendCause, string> = {
  hit: "cache hit: the prefix was read, only the new suffix written",
  "cold-start": "first call: nothing cached yet",
  "ttl-expired": "the idle gap outlived the cache lifetime",
  compaction: "a compaction rewrote the history",
  pruning: "a pruning round (soft-trim / hard-clear) rewrote the prefix",
  "system-prompt-changed": "the system prompt changed (bootstrap files, skills, tools or text)",
  "bootstrap-edited": "the agent edited an injected workspace file",
  "model-switch": "another model: a separate cache",
  "thinking-change": "the thinking level changed",
  reset: "a reset started the history over",
  "below-min-cacheable": "prompt below the model's minimum cacheable length",
  "date-rollover": "the local date in the prompt turned over",
  "channel-switch": "the run came from another chat or channel (its context is in the prompt)",
  "images-pruned": "older images in the history were replaced by a marker",
  "tool-result-resent":
    "a capped tool result went out live in one form and was replayed from the transcript in another",
  "provider-dropped":
    "OpenClaw re-sent the same prefix (mid-run, or a new run with the prompt shown unchanged) and the provider did not serve its cache",
  "reasoning-dropped":
    "OpenAI removed the previous run's reasoning items at the new user message; the prompt after the first of them was written again",
  "merged-user-messages": "two merged user messages were re-sent differently",
  "not-cached": "the provider did not cache (caching off or unsupported)",
  "no-usage": "error or aborted call with no usage",
  unknown: "a miss nothing on disk explains",
};

/** The spend cause a verdict restates by its own name (nothing to add to the verdict's badge). */
const VERDICT_OWN_CAUSE: Readonly<Record<string, SpendCause>> = {
  hit: "hit",
  "cold-start": "cold-start",
  "ttl-expired": "ttl-expired",
  "model-switch": "model-switch",
  "below-minimum": "below-min-cacheable",
  "no-usage": "no-usage",
  "not-cached": "not-cached",
} satisfies Partial<Record<CacheVerdict, SpendCause>>;

/**
 * A call's verdict as the per-call tables show it: the verdict, and after it the cause the attribution decided
 * when that says more (`prefix-changed: tool-result-resent`, `unexplained: provider-dropped`, `cold-start:
 * reset`), so the table, the export and the "Where the money went" card name the same cause.
 */
export function verdictWithCause(verdict: CacheVerdict | string, cause: SpendCause | string): string {
  return VERDICT_OWN_CAUSE[verdict] === cause ? verdict : `${verdict}: ${cause}`;
}
