// What every tool result looked like on the wire, call by call (pruning.md §2.6 sticky projections, §1.6
// stateless rounds). 2026.9.x keeps live projections that only change when a round or a snapshot restore
// changes them: each change is recorded with the call index it applies from, so a call's states are derived
// on demand (statesAt) and a replay stays linear in the session size. stateless rounds (≤ 2026.9.1) apply to one request:
// the changes of each call are kept as they are.

import type { ToolResultWireState } from "../../../shared/prune.ts";
import type { PrunerChange } from "../../openclaw/pruning/pruner-input.ts";
import type { Projection } from "../../openclaw/pruning/sticky-2026-9.ts";
import type { PrunerList } from "./pruner-list.ts";

export type CallChanges = ReadonlyMap<number, PrunerChange>;

export const NO_CHANGES: CallChanges = new Map();

export interface WireState {
  state: ToolResultWireState;
  chars: number;
}

interface Transition extends WireState {
  /** The call index the state applies from. */
  call: number;
}

export function projectionState(p: Projection | undefined): ToolResultWireState {
  if (!p) return "full";
  return p.mode === "hard" ? "hard-clear" : "soft-trim";
}

export class WireStates {
  /** 2026.9.x: the live projection of each tool result (entry index → projection). */
  readonly live = new Map<number, Projection>();
  /** Σ (projected − full chars) over the live projections of tool results in the current list. */
  delta = 0;
  /** The list generation `delta` was computed for (a compaction/reset starts a new list). */
  deltaGeneration: number;
  private readonly transitions = new Map<number, Transition[]>();
  /** Stateless rounds: the changes of each call (null: none). */
  private readonly perCall: (CallChanges | null)[] = [];

  /** `fullChars`: the estimate of a tool result as stored, by entry index. */
  constructor(
    private readonly sticky: boolean,
    private readonly fullChars: (entryIndex: number) => number,
    generation: number,
  ) {
    this.deltaGeneration = generation;
  }

  /** Set (or drop) the live projection of a tool result from call `call` on. */
  set(entryIndex: number, p: Projection | undefined, call: number): void {
    if (p) this.live.set(entryIndex, p);
    else this.live.delete(entryIndex);
    const state = projectionState(p);
    const chars = p ? p.chars : this.fullChars(entryIndex);
    let list = this.transitions.get(entryIndex);
    if (!list) {
      list = [];
      this.transitions.set(entryIndex, list);
    }
    const last = list[list.length - 1];
    if (last && last.call === call) {
      last.state = state;
      last.chars = chars;
    } else if (!last || last.state !== state || last.chars !== chars) {
      list.push({ call, state, chars });
    }
  }

  /** A round's changes at call `call`: sticky ones become live projections; stateless ones are kept per call. */
  applyRound(changes: CallChanges, call: number, placeholder: string): void {
    if (!this.sticky) {
      this.perCall.push(changes.size === 0 ? null : changes);
      return;
    }
    this.perCall.push(null);
    for (const [entryIndex, ch] of changes) {
      const full = this.fullChars(entryIndex);
      const before = this.live.get(entryIndex);
      this.delta -= before ? before.chars - full : 0;
      const p: Projection =
        ch.state === "hard-clear"
          ? { mode: "hard", chars: ch.chars, placeholder }
          : { mode: "soft", chars: ch.chars };
      this.set(entryIndex, p, call);
      this.delta += p.chars - full;
    }
  }

  /** Projections do not survive a reset (transcript.md §6). */
  clear(call: number): void {
    for (const entryIndex of [...this.live.keys()]) this.set(entryIndex, undefined, call);
    this.delta = 0;
  }

  /** Replace the live projections by `restored` (a snapshot restore, pruning.md §2.6) from call `call` on. */
  replace(restored: ReadonlyMap<number, Projection>, call: number, list: PrunerList): void {
    for (const entryIndex of [...this.live.keys()]) {
      if (!restored.has(entryIndex)) this.set(entryIndex, undefined, call);
    }
    for (const [entryIndex, p] of restored) {
      const old = this.live.get(entryIndex);
      if (!old || old.mode !== p.mode || old.chars !== p.chars) this.set(entryIndex, p, call);
    }
    this.recomputeDelta(list);
  }

  /** `delta` over the tool results of `list` (after a compaction/reset rebuilt it, or a restore). */
  recomputeDelta(list: PrunerList): void {
    this.deltaGeneration = list.generation;
    this.delta = 0;
    for (const [entryIndex, p] of this.live) {
      if (list.positionOf.has(entryIndex)) this.delta += p.chars - this.fullChars(entryIndex);
    }
  }

  /**
   * Per tool result (entry index), the calls below `calls` at which its state can differ from the call
   * before — ascending, each once. Sticky: the calls of its transitions; stateless: each call whose round
   * changed it and the call after (a stateless round applies to one request). O(changes).
   */
  changePoints(calls: number): Map<number, number[]> {
    const out = new Map<number, number[]>();
    if (this.sticky) {
      for (const [entryIndex, tl] of this.transitions) {
        const points: number[] = [];
        for (const t of tl) if (t.call < calls) points.push(t.call);
        if (points.length > 0) out.set(entryIndex, points);
      }
      return out;
    }
    for (let call = 0; call < Math.min(calls, this.perCall.length); call++) {
      const changes = this.perCall[call];
      if (!changes) continue;
      for (const entryIndex of changes.keys()) {
        let points = out.get(entryIndex);
        if (!points) {
          points = [];
          out.set(entryIndex, points);
        }
        if (points[points.length - 1] !== call) points.push(call);
        if (call + 1 < calls) points.push(call + 1);
      }
    }
    return out;
  }

  /** The state of one tool result at call `call` (−1: before any call). */
  stateAt(entryIndex: number, call: number): WireState {
    const full = { state: "full" as const, chars: this.fullChars(entryIndex) };
    if (call < 0) return full;
    if (!this.sticky) return this.perCall[call]?.get(entryIndex) ?? full;
    const tl = this.transitions.get(entryIndex);
    if (!tl) return full;
    for (let i = tl.length - 1; i >= 0; i--) {
      const x = tl[i];
      if (x && x.call <= call) return { state: x.state, chars: x.chars };
    }
    return full;
  }
}
