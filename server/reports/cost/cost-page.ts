// The Cache & cost tab's paged shape of a cost report (shared/cost-page.ts, issue 18): slim rows for the table and
// one full call on demand. A projection only: every field is copied from the report's own call, so the page, the
// full DTO and the CLI's `cost --json` cannot disagree. Memoized per report object (the service memoizes reports),
// so a warm tab costs one lookup, not a new 11k-row projection per request.

import type { CostCallDTO, CostReportDTO } from "../../../shared/cost.ts";
import type { CostCallRowDTO, CostliestCallDTO, CostReportPageDTO } from "../../../shared/cost-page.ts";

export function costCallRow(c: CostCallDTO, n: number): CostCallRowDTO {
  const row: CostCallRowDTO = {
    n,
    entryIndex: c.entryIndex,
    timestamp: c.timestamp,
    input: c.input,
    output: c.output,
    cacheRead: c.cacheRead,
    cacheWrite: c.cacheWrite,
    promptTokens: c.promptTokens,
    costUsd: c.costUsd,
    hitRate: c.hitRate,
    writeAwareHitRate: c.writeAwareHitRate,
    verdict: c.verdict,
    spendCause: c.cause.cause,
    gapMs: c.gapMs,
    missCostUsd: c.missCostUsd,
  };
  if (c.clockBack !== undefined) row.clockBack = c.clockBack;
  if (c.writeTier.tier === "1h") row.oneHourWrite = true;
  if (!c.onActiveBranch) row.offBranch = true;
  if (c.heartbeat) row.heartbeatSignals = c.heartbeatSignals;
  return row;
}

/** `provider/model` of every unpriced call, once each, sorted. */
function unpricedModels(calls: readonly CostCallDTO[]): string[] {
  const keys = new Set<string>();
  for (const c of calls) if (c.costSource === "unpriced") keys.add(`${c.provider ?? "?"}/${c.model ?? "?"}`);
  return [...keys].sort();
}

/** The `count` costliest priced calls (cost > 0), costliest first; a stable sort keeps call order on ties. */
export function costliestCalls(calls: readonly CostCallDTO[], count = 5): CostliestCallDTO[] {
  return calls
    .map((c, i) => ({ c, n: i + 1 }))
    .filter(({ c }) => c.costUsd !== null && c.costUsd > 0)
    .sort((a, b) => (b.c.costUsd ?? 0) - (a.c.costUsd ?? 0))
    .slice(0, count)
    .map(({ c, n }) => ({
      n,
      entryIndex: c.entryIndex,
      costUsd: c.costUsd ?? 0,
      cause: c.cause.cause,
      detail: c.cause.detail,
    }));
}

/** `#` and entry index of each call a gap-cost or pruning-round row names. */
function linkedCalls(report: CostReportDTO): Record<string, { n: number; entryIndex: number }> {
  const wanted = new Set<string>();
  for (const g of report.gapCosts) if (g.callEntryId !== null) wanted.add(g.callEntryId);
  for (const r of report.pruningRounds) wanted.add(r.callEntryId);
  const out: Record<string, { n: number; entryIndex: number }> = {};
  report.calls.forEach((c, i) => {
    if (c.entryId !== null && wanted.has(c.entryId) && !(c.entryId in out))
      out[c.entryId] = { n: i + 1, entryIndex: c.entryIndex };
  });
  return out;
}

const pages = new WeakMap<CostReportDTO, CostReportPageDTO>();
const byEntry = new WeakMap<CostReportDTO, Map<number, CostCallDTO>>();

/** The report with `rows` (one per call, in call order) instead of `calls`. */
export function costReportPage(report: CostReportDTO): CostReportPageDTO {
  const hit = pages.get(report);
  if (hit) return hit;
  const { calls, ...rest } = report;
  const rows = calls.map((c, i) => costCallRow(c, i + 1));
  const page: CostReportPageDTO = {
    ...rest,
    rows,
    costliest: costliestCalls(calls),
    unpricedModels: unpricedModels(calls),
    linkedCalls: linkedCalls(report),
  };
  pages.set(report, page);
  return page;
}

/** The full call whose transcript entry index is `entryIndex` (the table's row key), if the report has it. */
export function costCallAt(report: CostReportDTO, entryIndex: number): CostCallDTO | undefined {
  let index = byEntry.get(report);
  if (!index) {
    index = new Map(report.calls.map((c) => [c.entryIndex, c]));
    byEntry.set(report, index);
  }
  return index.get(entryIndex);
}
