// `clawscope prune --json` (issue 18): the replay in O(calls + tool results). Each call carries only the
// states that changed at it; each tool result, once per stay in the context list, its first call and its
// state transitions. The complete per-call maps (`--full`, O(calls × tool results): tens of MB for a long
// session, out of memory for a 100 MB one) are derived from the same records (replay-result.ts).

import type {
  PruneCallDTO,
  PruneLinearCallDTO,
  PruneLinearReplayDTO,
  PruneReplayDTO,
  PruneToolResultHistoryDTO,
  ToolResultWireState,
} from "../../../shared/prune.ts";
import type { CallRecord } from "./call-record.ts";
import type { ListedToolResult } from "./pruner-list.ts";
import type { WireStates } from "./wire-states.ts";

/** One stay of a tool result in the context list: calls [first, last] (0-based). */
interface Stay {
  tr: ListedToolResult;
  first: number;
  last: number;
}

/**
 * The stays of every tool result. The calls that share one pruner list are consecutive and see a growing
 * prefix of it (`count`); a compaction or reset starts a new list, which keeps some results of the old one.
 */
function staysOf(records: readonly CallRecord[]): Stay[] {
  const stays: Stay[] = [];
  let open = new Map<number, Stay>();
  for (let a = 0; a < records.length; ) {
    const list = records[a]?.list;
    let b = a;
    while (records[b + 1]?.list === list) b++;
    const next = new Map<number, Stay>();
    let p = 0;
    for (let call = a; call <= b; call++) {
      const count = records[call]?.count ?? 0;
      for (; p < count; p++) {
        const tr = list?.[p];
        if (!tr) continue;
        const prev = open.get(tr.entryIndex);
        let stay: Stay;
        if (prev && prev.last === a - 1 && call === a) {
          prev.last = b;
          stay = prev;
        } else {
          stay = { tr, first: call, last: b };
          stays.push(stay);
        }
        next.set(tr.entryIndex, stay);
      }
    }
    open = next;
    a = b + 1;
  }
  return stays;
}

const STATES: readonly ToolResultWireState[] = ["full", "soft-trim", "hard-clear"];

/** Per-call tallies, as difference arrays over the call index. */
class CallTally {
  private readonly diff: Record<ToolResultWireState, Int32Array>;
  readonly changes: (Record<string, ToolResultWireState> | undefined)[];

  constructor(private readonly calls: number) {
    this.diff = {
      full: new Int32Array(calls + 1),
      "soft-trim": new Int32Array(calls + 1),
      "hard-clear": new Int32Array(calls + 1),
    };
    this.changes = new Array(calls);
  }

  /** A state held from call `from` (0-based) to `to` inclusive. */
  hold(state: ToolResultWireState, from: number, to: number): void {
    const d = this.diff[state];
    d[from] = (d[from] ?? 0) + 1;
    d[to + 1] = (d[to + 1] ?? 0) - 1;
  }

  change(call: number, toolCallId: string, state: ToolResultWireState): void {
    const at = this.changes[call] ?? {};
    at[toolCallId] = state;
    this.changes[call] = at;
  }

  /** The per-call state counts, running sums of the differences. */
  counts(): Record<ToolResultWireState, number>[] {
    const out: Record<ToolResultWireState, number>[] = [];
    const run = { full: 0, "soft-trim": 0, "hard-clear": 0 };
    for (let call = 0; call < this.calls; call++) {
      for (const s of STATES) run[s] += this.diff[s][call] ?? 0;
      out.push({ ...run });
    }
    return out;
  }
}

/** The transitions of one stay (calls 1-based), tallied per call. */
function historyOf(
  stay: Stay,
  points: readonly number[],
  wire: WireStates,
  tally: CallTally,
  liveForm: ReadonlySet<number>,
): PruneToolResultHistoryDTO {
  const { tr, first, last } = stay;
  const transitions: PruneToolResultHistoryDTO["transitions"] = [];
  let state: ToolResultWireState = "full";
  let since = first;
  const move = (call: number, next: ToolResultWireState): void => {
    if (next === state) return;
    if (call > since) tally.hold(state, since, call - 1);
    transitions.push({ call: call + 1, state: next });
    tally.change(call, tr.toolCallId, next);
    state = next;
    since = call;
  };
  move(first, wire.stateAt(tr.entryIndex, first).state);
  for (const call of points) {
    if (call > first && call <= last) move(call, wire.stateAt(tr.entryIndex, call).state);
  }
  tally.hold(state, since, last);
  const row: PruneToolResultHistoryDTO = {
    toolCallId: tr.toolCallId,
    tool: tr.toolName,
    chars: tr.chars,
    firstCall: first + 1,
    transitions,
    lastCall: last + 1,
    entryIndex: tr.entryIndex,
  };
  if (liveForm.has(tr.entryIndex)) row.liveFormMayDiffer = true;
  return row;
}

function linearCall(
  c: PruneCallDTO,
  call: number,
  changes: Record<string, ToolResultWireState>,
  toolResultStates: Record<ToolResultWireState, number>,
): PruneLinearCallDTO {
  const { toolResults: _states, details: _rows, entryId, responseId, timestamp, ...rest } = c;
  const { lastCacheTouchAt, idleMs, ttlExpired, round, messageChars, ...extras } = rest;
  return {
    call,
    entryId,
    responseId,
    timestamp,
    lastCacheTouchAt,
    idleMs,
    ttlExpired,
    round,
    messageChars,
    changes,
    toolResultStates,
    ...extras,
  };
}

/** `replay`: the summary DTO (calls without their maps); `records[i]` belongs to `replay.calls[i]`. */
export function linearReplay(
  replay: PruneReplayDTO,
  records: readonly CallRecord[],
  wire: WireStates,
): PruneLinearReplayDTO {
  const calls = replay.calls.length;
  const tally = new CallTally(calls);
  const points = wire.changePoints(calls);
  const liveForm = new Set<number>();
  for (const r of records) for (const e of r.liveForm ?? []) liveForm.add(e);
  const toolResults = staysOf(records).map((stay) =>
    historyOf(stay, points.get(stay.tr.entryIndex) ?? [], wire, tally, liveForm),
  );
  const counts = tally.counts();
  const {
    callsDetail: _detail,
    calls: summaryCalls,
    algorithm,
    settings,
    contextWindowTokens,
    next,
    ...extras
  } = replay;
  return {
    algorithm,
    settings,
    contextWindowTokens,
    calls: summaryCalls.map((c, i) =>
      linearCall(c, i + 1, tally.changes[i] ?? {}, counts[i] ?? { full: 0, "soft-trim": 0, "hard-clear": 0 }),
    ),
    toolResults,
    next,
    ...extras,
    callsDetail: "linear",
  };
}
