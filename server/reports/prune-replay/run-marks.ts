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
  private readonly callIndex = new Map<string, number>();
  /** An entry id seen on two calls: an earlier snapshot's index of it moved on (it then builds its own). */
  private repeatedId = false;

  /** An active-branch entry, after `callsBefore` calls. */
  entry(e: TranscriptEntry, callsBefore: number): void {
    const event = timelineEvent(e, callsBefore);
    if (event) this.events.push(event);
  }

  /** The call at `index`. */
  call(c: Pick<PruneCallDTO, "entryId" | "round" | "charsRemoved">, index: number): void {
    if (c.entryId === null) return;
    if (this.callIndex.has(c.entryId)) this.repeatedId = true;
    this.callIndex.set(c.entryId, index);
    if (c.round !== "none") this.rounds.push({ entryId: c.entryId, charsRemoved: c.charsRemoved });
  }

  /** The marks as of `calls` (every call fed so far). */
  snapshot(calls: readonly Pick<PruneCallDTO, "entryId">[]): ReplayMarks {
    const count = calls.length;
    let own: Map<string, number> | null = null;
    const indexOf = (id: string): number | undefined => {
      if (this.repeatedId) {
        own ??= callIndexById(calls);
        return own.get(id);
      }
      const i = this.callIndex.get(id);
      return i !== undefined && i < count ? i : undefined;
    };
    return new ReplayMarks(this.rounds.slice(), this.events.slice(), indexOf);
  }
}
