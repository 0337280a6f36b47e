// Two sessions, or one session as run and under a what-if, side by side (issue 16): each side's cost and cache
// writes (as run, or the cost report's counterfactual that IS the what-if — never an invented number: a what-if
// the cost model does not cover says so and gives null), pruning rounds, and its context composition; the diff
// is b − a. Pure.

import type { CompareDTO, CompareSideDTO, CompareWhatIfDTO } from "../../../shared/compare.ts";
import { COUNTERFACTUAL_WHATIFS, parseCompareWhatIf } from "../../../shared/compare-params.ts";
import type { ContextMapDTO } from "../../../shared/context-map.ts";
import type { CostReportDTO } from "../../../shared/cost.ts";
import type { LoadedSession } from "../../model/session.ts";
import type { ReplayResult } from "../prune-replay/replay-result.ts";
import { causeDiff, spendByCause } from "./causes.ts";
import { composition, compositionDiff } from "./composition.ts";

export interface CompareSideInput {
  session: LoadedSession;
  /** The session's cost report as run (its counterfactuals price the what-ifs it covers). */
  cost: CostReportDTO;
  /** The replay this side's context was sent with (as configured, or the what-if's). */
  replay: ReplayResult;
  /** The context map of this side (tool results as sent at the last call under `replay`). */
  map: ContextMapDTO;
  /** null: the session as run. */
  whatIf: CompareWhatIfDTO | null;
}

/** The what-if in words. */
export function whatIfLabel(w: CompareWhatIfDTO | null): string {
  if (!w) return "as run";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(w.prune).sort(([x], [y]) => x.localeCompare(y)))
    parts.push(`${k}=${Array.isArray(v) ? v.join(",") : v}`);
  if (w.maxPerFile !== null) parts.push(`bootstrapMaxChars=${w.maxPerFile}`);
  if (w.maxTotal !== null) parts.push(`bootstrapTotalMaxChars=${w.maxTotal}`);
  if (w.retention !== null) parts.push(`cacheRetention=${w.retention}`);
  return parts.length ? `what-if: ${parts.join(", ")}` : "as run";
}

/** Cost and cache tokens of a side: as run, or the one counterfactual that is exactly this what-if. */
function costOf(
  input: CompareSideInput,
): Pick<CompareSideDTO, "costUsd" | "costBasis" | "tokensWritten" | "tokensRead"> {
  const { cost, whatIf } = input;
  const t = cost.totals;
  const asRun = {
    costUsd: t.unpricedCalls > 0 && t.unpricedCalls === t.calls ? null : t.costUsd,
    costBasis: t.unpricedCalls > 0 ? `as run; ${t.unpricedCalls} unpriced call(s) count as 0` : "as run",
    tokensWritten: t.cacheWrite,
    tokensRead: t.cacheRead,
  };
  const label = whatIfLabel(whatIf);
  if (label === "as run") return asRun;
  // the counterfactual that makes exactly this change (compared in words: one canonical form of a what-if)
  const c = cost.counterfactuals.find((x) => {
    const q = COUNTERFACTUAL_WHATIFS[x.id];
    return q !== undefined && whatIfLabel(parseCompareWhatIf(q)) === label;
  });
  // with no caching nothing is written or read; the other counterfactuals price tokens they do not itemise
  const pick = c
    ? { written: c.id === "no-caching" ? 0 : null, read: c.id === "no-caching" ? 0 : null }
    : null;
  if (!pick || !c)
    return {
      costUsd: null,
      costBasis: "not modelled: the cost report has no counterfactual for this what-if",
      tokensWritten: null,
      tokensRead: null,
    };
  return {
    costUsd: c.costUsd,
    costBasis: `estimate: the cost report's "${c.label}" counterfactual (${c.assumptions.join("; ")})`,
    tokensWritten: pick.written,
    tokensRead: pick.read,
  };
}

export function compareSide(input: CompareSideInput): CompareSideDTO {
  const { session, replay, map } = input;
  return {
    agentId: session.summary.agentId,
    sessionId: session.summary.sessionId,
    sessionKey: session.summary.sessionKey,
    label: whatIfLabel(input.whatIf),
    family: session.version.family,
    calls: replay.calls.length,
    ...costOf(input),
    pruningRounds: replay.summary().rounds,
    trackedChars: map.trackedChars,
    groups: composition(map.root),
    causes: input.whatIf ? null : spendByCause(input.cost.breakdown),
  };
}

export function compareReport(
  a: CompareSideDTO,
  b: CompareSideDTO,
  whatIf: CompareWhatIfDTO | null,
): CompareDTO {
  const notes: string[] = [];
  if (a.family !== b.family)
    notes.push(
      `the sides were written by different OpenClaw families (${a.family} vs ${b.family}): their rules differ`,
    );
  if (whatIf && (whatIf.maxPerFile !== null || whatIf.maxTotal !== null))
    notes.push(
      "bootstrap caps change the workspace files' injected chars (the truncation what-if); the conversation is as run",
    );
  return {
    a,
    b,
    whatIf,
    diff: {
      costUsd: a.costUsd === null || b.costUsd === null ? null : b.costUsd - a.costUsd,
      tokensWritten:
        a.tokensWritten === null || b.tokensWritten === null ? null : b.tokensWritten - a.tokensWritten,
      groups: compositionDiff(a.groups, b.groups),
      causes: causeDiff(a.causes, b.causes),
    },
    notes,
  };
}
