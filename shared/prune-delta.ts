// The Pruning tab's what-if against the run as recorded (issue 15): rounds and tool results trimmed / cleared
// from the two pruning replays (as configured — the replay of what OpenClaw did — and under the what-if), cache
// tokens written and $ from the comparison of the session as run with the same what-if (GET /api/compare:
// the cost report's pricing and counterfactuals, one definition — a what-if the cost model does not cover
// stays null with the comparison's reason, never a number made up here). Pure.

import type { CompareDTO } from "./compare.ts";
import type { PruneCallDTO, PruneReplayDTO } from "./prune.ts";

/** What the delta reads of a replay. */
export type ReplayCounts = Pick<PruneReplayDTO, "rounds"> & {
  calls: readonly Pick<PruneCallDTO, "softTrimmedNow" | "hardClearedNow">[];
};
/** What the delta reads of the comparison (a: as run, b: the what-if). */
export interface CompareCosts {
  a: Pick<CompareDTO["a"], "costUsd" | "tokensWritten">;
  b: Pick<CompareDTO["b"], "costUsd" | "tokensWritten" | "costBasis">;
  diff: Pick<CompareDTO["diff"], "costUsd" | "tokensWritten">;
}

export interface PruneDeltaRow {
  key: "rounds" | "softTrimmed" | "hardCleared" | "tokensWritten" | "costUsd";
  label: string;
  asRun: number | null;
  whatIf: number | null;
  /** whatIf − asRun; null when either is unknown. */
  delta: number | null;
  /** Why a value is missing, or how it was made. */
  note: string | null;
}

/** Σ over the replay's calls of the tool results each call's round soft-trimmed / hard-cleared. */
function prunedCounts(dto: ReplayCounts): { soft: number; hard: number } {
  let soft = 0;
  let hard = 0;
  for (const c of dto.calls) {
    soft += c.softTrimmedNow;
    hard += c.hardClearedNow;
  }
  return { soft, hard };
}

const diff = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : b - a);

function row(
  key: PruneDeltaRow["key"],
  label: string,
  asRun: number | null,
  whatIf: number | null,
  note: string | null = null,
  delta: number | null = diff(asRun, whatIf),
): PruneDeltaRow {
  return { key, label, asRun, whatIf, delta, note };
}

/**
 * The rows of the delta. `cmp` is the comparison of the session as run (a) with it under the same what-if (b);
 * undefined while it loads (its rows then read null, noted so).
 */
export function pruneWhatIfDelta(
  asRun: ReplayCounts,
  whatIf: ReplayCounts,
  cmp: CompareCosts | undefined,
): PruneDeltaRow[] {
  const a = prunedCounts(asRun);
  const b = prunedCounts(whatIf);
  const costNote = cmp === undefined ? "loading the comparison…" : cmp.b.costBasis;
  const written = cmp === undefined ? null : cmp.b.tokensWritten;
  return [
    row("rounds", "pruning rounds", asRun.rounds, whatIf.rounds),
    row("softTrimmed", "tool results soft-trimmed (Σ over rounds)", a.soft, b.soft),
    row("hardCleared", "tool results hard-cleared (Σ over rounds)", a.hard, b.hard),
    row(
      "tokensWritten",
      "cache tokens written",
      cmp?.a.tokensWritten ?? null,
      written,
      written === null ? costNote : null,
      cmp?.diff.tokensWritten ?? null,
    ),
    row(
      "costUsd",
      "cost",
      cmp?.a.costUsd ?? null,
      cmp?.b.costUsd ?? null,
      costNote,
      cmp?.diff.costUsd ?? null,
    ),
  ];
}
