// The Pruning tab's what-if against the run as recorded (shared/prune-delta.ts, issue 15): counts from the two
// replays, tokens and $ from the comparison — taken as they are (its diff), null with its reason when not modelled.

import { describe, expect, it } from "vitest";
import { type CompareCosts, pruneWhatIfDelta, type ReplayCounts } from "../../shared/prune-delta.ts";

const replay = (rounds: number, calls: [number, number][]): ReplayCounts => ({
  rounds,
  calls: calls.map(([softTrimmedNow, hardClearedNow]) => ({ softTrimmedNow, hardClearedNow })),
});
const byKey = (rows: ReturnType<typeof pruneWhatIfDelta>) => new Map(rows.map((r) => [r.key, r]));

describe("pruneWhatIfDelta", () => {
  const asRun = replay(2, [
    [0, 0],
    [3, 0],
    [1, 2],
  ]);
  const off = replay(0, [
    [0, 0],
    [0, 0],
    [0, 0],
  ]);

  it("rounds and trimmed / cleared tool results from the two replays, the difference what-if − as recorded", () => {
    const r = byKey(pruneWhatIfDelta(asRun, off, undefined));
    expect(r.get("rounds")).toMatchObject({ asRun: 2, whatIf: 0, delta: -2 });
    expect(r.get("softTrimmed")).toMatchObject({ asRun: 4, whatIf: 0, delta: -4 });
    expect(r.get("hardCleared")).toMatchObject({ asRun: 2, whatIf: 0, delta: -2 });
    // the comparison still loading: its rows are unknown and say so
    expect(r.get("costUsd")).toMatchObject({
      asRun: null,
      whatIf: null,
      delta: null,
      note: "loading the comparison…",
    });
  });

  it("tokens written and $ are the comparison's, its diff included; unmodelled ones stay null with its reason", () => {
    const priced: CompareCosts = {
      a: { costUsd: 3.5, tokensWritten: 900 },
      b: {
        costUsd: 5.25,
        tokensWritten: null,
        costBasis: 'estimate: the cost report\'s "Pruning off" counterfactual',
      },
      diff: { costUsd: 1.75, tokensWritten: null },
    };
    const r = byKey(pruneWhatIfDelta(asRun, off, priced));
    expect(r.get("costUsd")).toMatchObject({ asRun: 3.5, whatIf: 5.25, delta: 1.75 });
    expect(r.get("costUsd")?.note).toContain("Pruning off");
    expect(r.get("tokensWritten")).toMatchObject({ asRun: 900, whatIf: null, delta: null });
    expect(r.get("tokensWritten")?.note).toContain("Pruning off");
    const notModelled: CompareCosts = {
      a: priced.a,
      b: { costUsd: null, tokensWritten: null, costBasis: "not modelled: no counterfactual" },
      diff: { costUsd: null, tokensWritten: null },
    };
    const n = byKey(pruneWhatIfDelta(asRun, asRun, notModelled));
    expect(n.get("costUsd")).toMatchObject({
      asRun: 3.5,
      whatIf: null,
      delta: null,
      note: "not modelled: no counterfactual",
    });
    expect(n.get("rounds")).toMatchObject({ asRun: 2, whatIf: 2, delta: 0 });
    // a known written count carries no note
    const written = byKey(
      pruneWhatIfDelta(asRun, off, {
        ...priced,
        b: { ...priced.b, tokensWritten: 0 },
        diff: { costUsd: 1, tokensWritten: -900 },
      }),
    );
    expect(written.get("tokensWritten")).toMatchObject({ whatIf: 0, delta: -900, note: null });
  });
});
