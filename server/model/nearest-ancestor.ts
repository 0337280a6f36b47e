// The nearest entry at or above another on its parent chain that matches a predicate (the user prompt that
// started a call's run, for the cost causes and the heartbeat detector), memoised for every entry a walk passes:
// each entry is walked once per report, not once per call after it. Parents never change as a transcript grows,
// so the memo stays right when it does. A chain that loops counts as having no match. Pure.

import type { TranscriptEntry } from "./session.ts";

export class NearestAncestor {
  /** Entry index → the index of the nearest match at or above it (-1: none). */
  private readonly memo = new Map<number, number>();

  constructor(
    private readonly matches: (e: TranscriptEntry) => boolean,
    private readonly parentOf: (e: TranscriptEntry) => TranscriptEntry | undefined,
    private readonly entryCount: () => number,
  ) {}

  /** The index of the nearest match at or above `start` (-1 for none). */
  of(start: TranscriptEntry): number {
    const path: number[] = [];
    let found = -1;
    for (let cur: TranscriptEntry | undefined = start; cur; cur = this.parentOf(cur)) {
      const known = this.memo.get(cur.index);
      if (known !== undefined) {
        found = known;
        break;
      }
      if (this.matches(cur)) {
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
