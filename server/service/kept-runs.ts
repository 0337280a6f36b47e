// Runs kept per session to be continued when the session grows (report-memo.ts, context-lists.ts).

import type { Transcript } from "../model/session.ts";

/**
 * Runs kept per session to be continued when the session grows (issue 9, 18: append → report): the
 * as-configured pruning replay (ReplayRun.extend) and the cost report (CostRun.extend) of each open session,
 * so an append computes only what was appended. Bounded to the `max` sessions used last.
 */
export class KeptRuns<R> {
  private readonly runs = new Map<string, { transcript: Transcript; run: R }>();

  constructor(private readonly max = 8) {}

  /** The run under `key`: the kept one continued over what was appended (`extend`), else a new one. */
  runFor(key: string, transcript: Transcript, extend: (run: R) => boolean, start: () => R): R {
    const kept = this.runs.get(key);
    this.runs.delete(key);
    const run = kept && kept.transcript !== transcript && extend(kept.run) ? kept.run : start();
    this.runs.set(key, { transcript, run });
    for (const k of this.runs.keys()) {
      if (this.runs.size <= this.max) break;
      this.runs.delete(k);
    }
    return run;
  }
}
