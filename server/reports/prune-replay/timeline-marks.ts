// What the pruning timeline marks besides the calls (issue 15): the compactions and resets on the active branch
// (the transcript's `compaction` / `reset` rows, which rebuild the model-context list: model/context-messages.ts)
// placed between the calls around them, and the $ of each expired cache gap — the cost report's gap costs
// (reports/cost/gap-costs.ts: one definition), joined to the replay's calls by the call's entry id. Pure.

import type { GapCostDTO } from "../../../shared/cost.ts";
import type { PruneCallDTO, PruneMarksDTO, PruneTimelineEventDTO } from "../../../shared/prune.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";

const EVENT_KINDS: ReadonlySet<string> = new Set(["compaction", "reset"]);

/** The timeline mark of a compaction / reset entry after `beforeCall` calls (null for any other entry). */
export function timelineEvent(e: TranscriptEntry, beforeCall: number): PruneTimelineEventDTO | null {
  if (!EVENT_KINDS.has(e.type)) return null;
  const at = e.timestamp === null ? Number.NaN : Date.parse(e.timestamp);
  return {
    kind: e.type === "reset" ? "reset" : "compaction",
    at: Number.isFinite(at) ? at : null,
    beforeCall,
  };
}

function eventsOf(
  transcript: Transcript,
  calls: readonly Pick<PruneCallDTO, "entryIndex">[],
): PruneTimelineEventDTO[] {
  const callAt = new Set(calls.map((c) => c.entryIndex));
  const out: PruneTimelineEventDTO[] = [];
  let callsBefore = 0;
  for (const idx of transcript.activeBranch) {
    if (callAt.has(idx)) {
      callsBefore++;
      continue;
    }
    const e = transcript.entries[idx];
    const event = e ? timelineEvent(e, callsBefore) : null;
    if (event) out.push(event);
  }
  return out;
}

/** Each expired-gap cost on the timeline, at the call `callIndexOf` finds for its entry id (else left out). */
export function gapMarks(
  gapCosts: readonly GapCostDTO[],
  callIndexOf: (entryId: string) => number | undefined,
): PruneMarksDTO["gaps"] {
  const gaps: PruneMarksDTO["gaps"] = [];
  for (const g of gapCosts) {
    const call = g.callEntryId === null ? undefined : callIndexOf(g.callEntryId);
    if (call === undefined) continue;
    gaps.push({
      call,
      gapMs: g.gapMs,
      cacheTtlMs: g.cacheTtlMs,
      rewrittenTokens: g.rewrittenTokens,
      premiumUsd: g.premiumUsd,
    });
  }
  return gaps;
}

/** Call index by entry id (the later call wins for a repeated id). */
export function callIndexById(calls: readonly Pick<PruneCallDTO, "entryId">[]): Map<string, number> {
  const indexById = new Map<string, number>();
  calls.forEach((c, i) => {
    if (c.entryId !== null) indexById.set(c.entryId, i);
  });
  return indexById;
}

/**
 * The timeline's compaction / reset marks and expired-gap costs for the replay's `calls` (a replay run keeps
 * both as it goes: ReplayResult.marks).
 */
export function timelineMarks(
  transcript: Transcript,
  calls: readonly Pick<PruneCallDTO, "entryIndex" | "entryId">[],
  gapCosts: readonly GapCostDTO[],
): PruneMarksDTO {
  const indexById = callIndexById(calls);
  return { events: eventsOf(transcript, calls), gaps: gapMarks(gapCosts, (id) => indexById.get(id)) };
}
