// The turn scrubber's fixed layout (issue 16): every tile any call of the session had, at its largest — each
// message that was ever in a call's model-context list (the windows before compactions and resets included),
// tool results in full, plus the run report's tiles. The web lays this map out once and draws each call's tiles
// inside their slots, so a tile keeps its place while scrubbing and only grows, shrinks, appears or goes. Pure.

import type { ContextMapDTO } from "../../../shared/context-map.ts";
import { obj } from "../../../shared/json.ts";
import { ContextBuilder } from "../../model/context-messages.ts";
import type { ContextMessage } from "../../model/session.ts";
import { buildContextMap } from "../context-map/context-map.ts";
import type { SentInput } from "./sent-calls.ts";

/** Every message that entered the model-context list at some point, in first-seen order. */
export function everContextMessages(input: SentInput): ContextMessage[] {
  const transcript = input.session.transcript;
  const builder = new ContextBuilder();
  const seen = new Set<number>();
  const out: ContextMessage[] = [];
  let generation = builder.generation;
  let synced = 0;
  for (const idx of transcript.activeBranch) {
    const entry = transcript.entries[idx];
    if (!entry) continue;
    builder.push(entry);
    if (builder.generation !== generation) {
      generation = builder.generation;
      synced = 0;
    }
    for (; synced < builder.messages.length; synced++) {
      const m = builder.messages[synced];
      if (m && !seen.has(m.entryIndex)) {
        seen.add(m.entryIndex);
        out.push(m);
      }
    }
  }
  return out;
}

export function sentSlots(input: SentInput): ContextMapDTO {
  return buildContextMap({
    session: input.session,
    report: obj(input.session.entry, "systemPromptReport") ?? null,
    contextMessages: everContextMessages(input),
    lastCallUsage: null,
    windowTokens: null,
  });
}
