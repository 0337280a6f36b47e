// The session's spend by cause (issue 14 §2) and how much of the miss cost is still `unknown`: folds over the
// calls CauseAttributor (breakdown.ts) decided. Σ breakdown costUsd = totals.costUsd (each priced call counts once).

import type { CostBreakdownRowDTO, CostCallDTO, SpendCause, UnknownMissDTO } from "../../../shared/cost.ts";
import { CROSS_REGION_PROFILE } from "./provider-dropped.ts";

/** What would decide an `unknown` call (always the first call of a new run: mid-run ones are `provider-dropped`). */
function wouldDecide(c: CostCallDTO): string {
  const region = CROSS_REGION_PROFILE.test(c.model ?? "")
    ? " (Bedrock cross-region inference profile: the region that served each call, not recorded, would decide whether it was routed to another region's cache)"
    : "";
  // The run-level signals breakdown.ts already ruled out, so the hint names only what is left.
  const checked =
    "checked and ruled out: edits of injected files, the run reports, the date, the chat and sender, images cut from the history; too few of the session's earlier new runs read their whole prefix to vouch for the prompt";
  return c.cacheRead === 0
    ? `first calls of a run that read nothing, not even the tool/system prefix (${checked}): a gateway system event in the prompt (not kept on disk), tools or system prompt changing without a stored run report, or the cache was dropped — a run report per run (OpenClaw keeps only the last one) or a request capture would decide${region}`
    : `first calls of a run that read only an early prefix (${checked}): an early message sent differently, or the provider's cache holding only part of the prefix — a request capture would decide${region}`;
}

const callTokens = (c: CostCallDTO) => c.input + c.output + c.cacheRead + c.cacheWrite;

/** The spend by cause, costliest first (Σ costUsd = the total): a fold that only grows (a continued cost run adds its new calls, in order). */
export class BreakdownFold {
  private readonly byCause = new Map<SpendCause, CostBreakdownRowDTO>();

  add(c: CostCallDTO): void {
    let row = this.byCause.get(c.cause.cause);
    if (!row) {
      row = {
        cause: c.cause.cause,
        calls: 0,
        tokens: 0,
        costUsd: 0,
        unpricedCalls: 0,
        missCostUsd: 0,
        shareOfSpend: null,
      };
      this.byCause.set(c.cause.cause, row);
    }
    row.calls++;
    row.tokens += callTokens(c);
    if (c.costUsd === null) row.unpricedCalls++;
    else row.costUsd += c.costUsd;
    row.missCostUsd += c.missCostUsd ?? 0;
  }

  /** The rows so far with their share of `totalCostUsd`, most spend first (new objects each time). */
  rows(totalCostUsd: number): CostBreakdownRowDTO[] {
    const out = [...this.byCause.values()].map((r) => ({
      ...r,
      shareOfSpend: totalCostUsd > 0 ? r.costUsd / totalCostUsd : null,
    }));
    return out.sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls);
  }
}

/** How much of the miss cost is still `unknown`, and what evidence would decide it: a fold over the calls in order. */
export class UnknownMissFold {
  private all = 0;
  private unknown = 0;
  private readonly hints = new Map<string, number>();

  add(c: CostCallDTO): void {
    this.all += c.missCostUsd ?? 0;
    if (c.cause.cause !== "unknown") return;
    this.unknown += c.missCostUsd ?? 0;
    const h = wouldDecide(c);
    this.hints.set(h, (this.hints.get(h) ?? 0) + (c.missCostUsd ?? 0));
  }

  result(): UnknownMissDTO {
    return {
      missCostUsd: this.unknown,
      shareOfMissCost: this.all > 0 ? this.unknown / this.all : null,
      wouldDecide: [...this.hints.entries()].sort((a, b) => b[1] - a[1]).map(([h]) => h),
    };
  }
}
