// What the cost report and the pruning timeline read of a replay besides its calls — the rounds (entry id and
// chars removed), the compaction / reset marks, a call's index by entry id — kept as the run goes, so a
// continued run hands them out in O(rounds + marks) instead of a walk over every call and the whole branch
// (issue 18: append → every view). The same rules as the one-shot walks (timeline-marks.ts).

import type { GapCostDTO } from "../../../shared/cost.ts";
import type { PruneCallDTO, PruneMarksDTO, PruneTimelineEventDTO } from "../../../shared/prune.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import { callIndexById, gapMarks, timelineEvent } from "./timeline-marks.ts";

/** A replayed call whose request a round changed (the cost report's PruningRoundInput). */
export interface ReplayRound {
  entryId: string;
  charsRemoved: number;
}

/** The marks of one finished replay (ReplayResult): a snapshot of the run's at that point. */
export class ReplayMarks {
  constructor(
    /** The calls a round changed, in call order. */
    readonly rounds: readonly ReplayRound[],
    private readonly events: readonly PruneTimelineEventDTO[],
    private readonly callIndexOf: (entryId: string) => number | undefined,
  ) {}

  /** The timeline's compaction / reset marks and the expired-gap costs at their calls. */
  timeline(gapCosts: readonly GapCostDTO[]): PruneMarksDTO {
    return { events: this.events.slice(), gaps: gapMarks(gapCosts, this.callIndexOf) };
  }
}

/** The marks of a replay run, fed entry by entry and call by call in replay order. */
export class RunMarks {
  private readonly rounds: ReplayRound[] = [];
  private readonly events: PruneTimelineEventDTO[] = [];
  /**
   * Call index by entry id, built on the first timeline asked for and extended by later ones (a replay for
   * the cost report alone never builds it).
   */
  private readonly callIndex = new Map<string, number>();
  private indexed = 0;
  /** An entry id seen on two calls: an earlier snapshot's index of it moved on (it then builds its own). */
  private repeatedId = false;

  /** An active-branch entry, after `callsBefore` calls. */
  entry(e: TranscriptEntry, callsBefore: number): void {
    const event = timelineEvent(e, callsBefore);
    if (event) this.events.push(event);
  }

  /** The next call. */
  call(c: Pick<PruneCallDTO, "entryId" | "round" | "charsRemoved">): void {
    if (c.entryId !== null && c.round !== "none")
      this.rounds.push({ entryId: c.entryId, charsRemoved: c.charsRemoved });
  }

  /** The marks as of `calls` (every call fed so far, in order). */
  snapshot(calls: readonly Pick<PruneCallDTO, "entryId">[]): ReplayMarks {
    let own: Map<string, number> | null = null;
    const indexOf = (id: string): number | undefined => {
      this.index(calls);
      if (this.repeatedId) {
        own ??= callIndexById(calls);
        return own.get(id);
      }
      const i = this.callIndex.get(id);
      return i !== undefined && i < calls.length ? i : undefined;
    };
    return new ReplayMarks(this.rounds.slice(), this.events.slice(), indexOf);
  }

  /** Index the calls of `calls` not indexed yet (a snapshot's calls are a prefix of every later one's). */
  private index(calls: readonly Pick<PruneCallDTO, "entryId">[]): void {
    for (; this.indexed < calls.length; this.indexed++) {
      const id = calls[this.indexed]?.entryId;
      if (id == null) continue;
      if (this.callIndex.has(id)) this.repeatedId = true;
      this.callIndex.set(id, this.indexed);
    }
  }
}
