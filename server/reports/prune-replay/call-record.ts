// One replayed call as plain data (PruneCallDTO): what the gate and the round saw and did. Its tool-result
// states are not part of it; they are derived on demand from its CallRecord (replay-result.ts statesAt,
// linear-replay.ts).

import { clockBackLabel } from "../../../shared/clock-labels.ts";
import type { PruneCallDTO } from "../../../shared/prune.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import { GATE_TEXT, type GateResult } from "../../openclaw/pruning/gate.ts";
import type { PrunerInput, PrunerResult } from "../../openclaw/pruning/pruner-input.ts";
import { roundOf } from "./next-call.ts";
import type { ListedToolResult } from "./pruner-list.ts";
import type { SnapshotCheck } from "./snapshot-check.ts";
import type { CallChanges } from "./wire-states.ts";

/** What one call needs to derive its tool-result states later. */
export interface CallRecord {
  /** The list's tool results (the array grows with later calls; `count` is this call's view of it). */
  list: readonly ListedToolResult[];
  count: number;
  changes: CallChanges;
  /** 2026.7: results whose first wire form may differ (a `read` capped live). */
  liveForm: ReadonlySet<number> | null;
  /** The round's prunable range: [start, cutoff) positions, null without a round. */
  start: number | null;
  cutoff: number | null;
}

/** One request as the round saw it, for its call record. */
export interface RequestOutcome {
  entry: TranscriptEntry;
  call: ModelCall;
  gate: GateResult;
  touchAtGate: number | null;
  input: PrunerInput;
  result: PrunerResult | null;
  changes: CallChanges;
  totalAfter: number;
  flags: string[];
  snapshotCheck: SnapshotCheck;
}

/** A call's record as plain data; its tool-result states are derived on demand (ReplayResult.statesAt). */
export function callRecordDto(o: RequestOutcome): PruneCallDTO {
  const { input, gate: g, result, totalAfter } = o;
  let gate = g.gate;
  if (result && result.reason !== "pruned" && result.reason !== "no-change") gate = result.reason;
  let soft = 0;
  let hard = 0;
  for (const ch of o.changes.values()) {
    if (ch.state === "soft-trim") soft++;
    else hard++;
  }
  const charWindow = input.charWindow;
  // a touch "after" the request (the clock went back): OpenClaw's gate sees a negative idle time, TTL not expired
  const clockBack = clockBackLabel(g.idleMs);
  return {
    entryId: o.entry.id,
    responseId: o.call.responseId,
    timestamp: o.call.atMs ?? 0,
    lastCacheTouchAt: o.touchAtGate,
    idleMs: g.idleMs,
    // undefined, not a spread: JSON leaves it out the same, and one literal shape builds ~5× faster
    clockBack: clockBack ?? undefined,
    ttlExpired: g.ttlExpired,
    round: roundOf(result),
    messageChars: totalAfter,
    toolResults: {},
    entryIndex: o.entry.index,
    gate,
    gateText: GATE_TEXT[gate],
    messageCount: input.count,
    totalCharsBefore: input.totalChars,
    totalCharsAfter: totalAfter,
    charWindow,
    ratioBefore: charWindow > 0 ? input.totalChars / charWindow : 0,
    ratioAfter: charWindow > 0 ? totalAfter / charWindow : 0,
    charsRemoved: input.totalChars - totalAfter,
    softTrimmedNow: soft,
    hardClearedNow: hard,
    details: [],
    snapshotCheck: o.snapshotCheck,
    flags: o.flags,
  };
}
