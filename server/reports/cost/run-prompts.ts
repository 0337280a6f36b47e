// Which user prompt started a call's run: the entry the cause rules (breakdown.ts) measure "a new run since the
// previous call" against. OpenClaw starts a run per inbound user message and builds its system prompt once per
// run (docs/openclaw-facts.md §5), so a user prompt between two calls on the later one's path is a new run.

import { obj, str } from "../../../shared/json.ts";
import type { TranscriptEntry } from "../../model/session.ts";

/** A user message that enters the context (a context-free command reply's prompt does not start a run). */
export function isUserPrompt(e: TranscriptEntry): boolean {
  const m = e.type === "message" ? obj(e.raw, "message") : undefined;
  return m !== undefined && str(m, "role") === "user" && m.excludeFromContext !== true;
}

/**
 * The nearest user prompt at or above an entry on its parent chain, memoised for every entry a walk passes: each
 * entry is walked once per report, not once per call after it (parents never change as the transcript grows, so
 * the memo stays right when it does). A chain that loops counts as having no prompt.
 */
export class PromptAbove {
  /** Entry index → the index of the nearest user prompt at or above it (-1: none). */
  private readonly memo = new Map<number, number>();

  constructor(
    private readonly parentOf: (e: TranscriptEntry) => TranscriptEntry | undefined,
    private readonly entryCount: () => number,
  ) {}

  /** The index of the nearest user prompt at or above `start` (-1 for none). */
  of(start: TranscriptEntry): number {
    const path: number[] = [];
    let found = -1;
    for (let cur: TranscriptEntry | undefined = start; cur; cur = this.parentOf(cur)) {
      const known = this.memo.get(cur.index);
      if (known !== undefined) {
        found = known;
        break;
      }
      if (isUserPrompt(cur)) {
        found = cur.index;
        break;
      }
      path.push(cur.index);
      if (path.length > this.entryCount()) break; // a parent loop
    }
    for (const i of path) this.memo.set(i, found);
    return found;
  }
}
