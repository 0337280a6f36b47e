// What the pruning timeline marks besides the calls (issue 15): the compactions and resets on the active branch
// (the transcript's `compaction` / `reset` rows, which rebuild the model-context list: model/context-messages.ts)
// placed between the calls around them, and the $ of each expired cache gap — the cost report's gap costs
// (reports/cost/gap-costs.ts: one definition), joined to the replay's calls by the call's entry id. Pure.

import type { GapCostDTO } from "../../../shared/cost.ts";
import type { PruneCallDTO, PruneMarksDTO, PruneTimelineEventDTO } from "../../../shared/prune.ts";
import type { Transcript } from "../../model/session.ts";

const EVENT_KINDS: ReadonlySet<string> = new Set(["compaction", "reset"]);

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
    if (!e || !EVENT_KINDS.has(e.type)) continue;
    const at = e.timestamp === null ? Number.NaN : Date.parse(e.timestamp);
    out.push({
      kind: e.type === "reset" ? "reset" : "compaction",
      at: Number.isFinite(at) ? at : null,
      beforeCall: callsBefore,
    });
  }
  return out;
}

/** The timeline's compaction / reset marks and expired-gap costs for the replay's `calls`. */
export function timelineMarks(
  transcript: Transcript,
  calls: readonly Pick<PruneCallDTO, "entryIndex" | "entryId">[],
  gapCosts: readonly GapCostDTO[],
): PruneMarksDTO {
  const indexById = new Map<string, number>();
  calls.forEach((c, i) => {
    if (c.entryId !== null) indexById.set(c.entryId, i);
  });
  const gaps: PruneMarksDTO["gaps"] = [];
  for (const g of gapCosts) {
    const call = g.callEntryId === null ? undefined : indexById.get(g.callEntryId);
    if (call === undefined) continue;
    gaps.push({
      call,
      gapMs: g.gapMs,
      cacheTtlMs: g.cacheTtlMs,
      rewrittenTokens: g.rewrittenTokens,
      premiumUsd: g.premiumUsd,
    });
  }
  return { events: eventsOf(transcript, calls), gaps };
}
