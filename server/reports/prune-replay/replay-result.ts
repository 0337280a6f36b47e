// A finished replay (ReplayRun.finish): plain call records plus the per-call tool-result states, derived on
// demand. Per-call states are O(calls × tool results) — tens of MB of JSON for a long session — so the UI gets
// the calls without them (`summary`) and asks for the selected call's (`statesAt`); the CLI prints per-call
// changes and per-result transitions (`linear`, `prune --json`), one call's maps (`callAt`, `--call N`) or
// every call's (`full`, `--full`). A result stays valid while its run continues over appended entries.

import type { GapCostDTO } from "../../../shared/cost.ts";
import type {
  PruneCallDetailDTO,
  PruneCallDTO,
  PruneLinearReplayDTO,
  PruneMarksDTO,
  PruneNextDTO,
  PruneReplayDTO,
  PruneToolResultDTO,
  ToolResultWireState,
} from "../../../shared/prune.ts";
import type { CallRecord } from "./call-record.ts";
import { linearReplay } from "./linear-replay.ts";
import type { ReplayMarks, ReplayRound } from "./run-marks.ts";
import type { WireStates } from "./wire-states.ts";

export type CallStates = Pick<PruneCallDetailDTO, "toolResults" | "details">;

export class ReplayResult {
  private summaryDto: PruneReplayDTO | null = null;
  private fullDto: PruneReplayDTO | null = null;
  private linearDto: PruneLinearReplayDTO | null = null;
  private readonly cache = new Map<number, CallStates>();

  /**
   * `replay`: the DTO whose calls carry empty `toolResults` / `details`; `records[i]` belongs to
   * `replay.calls[i]`.
   */
  constructor(
    private readonly replay: PruneReplayDTO,
    private readonly records: readonly CallRecord[],
    private readonly wire: WireStates,
    private readonly isToolPrunable: (toolName: string) => boolean,
    /** The run's rounds and timeline marks as of these calls. */
    private readonly marks: ReplayMarks,
  ) {}

  /** The calls a round changed, with the chars it removed (what the cost report reads of the replay). */
  get pruningRounds(): readonly ReplayRound[] {
    return this.marks.rounds;
  }

  /** The timeline's compaction / reset marks and the expired-gap costs at their calls. */
  timelineMarks(gapCosts: readonly GapCostDTO[]): PruneMarksDTO {
    return this.marks.timeline(gapCosts);
  }

  /** Would the next call prune, at the replay's `at` (spec pruning.md §5.5)? */
  get next(): PruneNextDTO {
    return this.replay.next;
  }

  /** The calls without their tool-result states (plain data, shared by summary and full). */
  get calls(): readonly PruneCallDTO[] {
    return this.replay.calls;
  }

  /** The replay with every call's `toolResults` / `details` left empty (`callsDetail: "summary"`). */
  summary(): PruneReplayDTO {
    this.summaryDto ??= { ...this.replay, calls: this.replay.calls.slice(), callsDetail: "summary" };
    return this.summaryDto;
  }

  /** The complete replay: every call with its tool-result states (the `prune --json` contract). */
  full(): PruneReplayDTO {
    this.fullDto ??= {
      ...this.replay,
      calls: this.replay.calls.map((c, i) => {
        const s = this.statesAt(i);
        return s ? { ...c, toolResults: s.toolResults, details: s.details } : c;
      }),
    };
    return this.fullDto;
  }

  /** Per call what changed, per tool result its transitions: O(calls + tool results) (`prune --json`). */
  linear(): PruneLinearReplayDTO {
    this.linearDto ??= linearReplay(this.replay, this.records, this.wire);
    return this.linearDto;
  }

  /** One call with its tool-result states (`prune --call N`), or null for an index outside the replay. */
  callAt(index: number): PruneCallDTO | null {
    const c = this.replay.calls[index];
    const s = this.statesAt(index);
    return c && s ? { ...c, toolResults: s.toolResults, details: s.details } : null;
  }

  /** One call's tool-result states, or null for an index outside the replay. */
  statesAt(index: number): CallStates | null {
    const hit = this.cache.get(index);
    if (hit) return hit;
    const record = this.records[index];
    if (!record) return null;
    const states = this.derive(index, record);
    this.cache.set(index, states);
    return states;
  }

  /** `GET …/prune/call?call=N`. */
  callDetail(index: number): PruneCallDetailDTO | null {
    const s = this.statesAt(index);
    return s ? { index, toolResults: s.toolResults, details: s.details } : null;
  }

  private derive(callIndex: number, r: CallRecord): CallStates {
    const toolResults: Record<string, ToolResultWireState> = {};
    const details: PruneToolResultDTO[] = [];
    for (let i = 0; i < r.count; i++) {
      const tr = r.list[i];
      if (!tr) continue;
      const now = this.wire.stateAt(tr.entryIndex, callIndex);
      toolResults[tr.toolCallId] = now.state;
      const prev = this.wire.stateAt(tr.entryIndex, callIndex - 1);
      const d: PruneToolResultDTO = {
        toolCallId: tr.toolCallId,
        toolName: tr.toolName,
        entryIndex: tr.entryIndex,
        state: now.state,
        charsFull: tr.chars,
        charsSent: now.chars,
        changedThisCall: r.changes.has(tr.entryIndex) || now.state !== prev.state,
        inPrunableRange:
          r.start !== null && r.cutoff !== null && tr.position >= r.start && tr.position < r.cutoff,
        toolAllowed: this.isToolPrunable(tr.toolName),
      };
      if (r.liveForm?.has(tr.entryIndex) === true) d.liveFormMayDiffer = true;
      details.push(d);
    }
    return { toolResults, details };
  }
}
