// What a 2026.9.x `reset` keeps of the history before it (spec transcript.md §6): a reset written with
// `firstKeptEntryId` (the "preserve-tail" reset context, session-reset-boundary-event.ts) keeps, of the path
// entries from that id up to the reset, only `message` rows that are user or assistant messages and the tool
// results paired with a tool call of that range — openclaw@2026.9.6 tool-result-pairing.ts
// `selectResetKeptEntries`, used by session.ts `iterateSessionContextEntries`. Those kept messages are replayed
// as stored: `excludeFromContext` is not honoured for them (the "reset-retained" context). Custom messages,
// branch summaries and unpaired results of the range are dropped. Pure.

import { isObject, str } from "../../shared/json.ts";
import type { TranscriptEntry } from "./session.ts";

/** The entries of `range` (path entries from firstKeptEntryId to the reset) that the reset keeps. */
export function selectResetKeptEntries(range: readonly TranscriptEntry[]): TranscriptEntry[] {
  const callIds = new Set<string>();
  const paired = new Set<string>();
  const kept: TranscriptEntry[] = [];
  for (const e of range) {
    const m = e.type === "message" ? e.raw.message : undefined;
    if (!isObject(m)) continue;
    const role = str(m, "role");
    if (role === "user") kept.push(e);
    else if (role === "assistant") {
      kept.push(e);
      if (Array.isArray(m.content))
        for (const b of m.content) {
          const id = isObject(b) && b.type === "toolCall" ? str(b, "id") : undefined;
          if (id) callIds.add(id);
        }
    } else if (role === "toolResult") {
      // classifyToolUseResultPairing: the first result of a call made earlier in the range pairs with it
      const id = str(m, "toolCallId");
      if (id && callIds.has(id) && !paired.has(id)) {
        paired.add(id);
        kept.push(e);
      }
    }
  }
  return kept;
}
