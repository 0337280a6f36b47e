// What each expired cache gap cost (spec cache-and-cost.md §5, §7): the prefix re-written instead of read.

import type { GapCostDTO } from "../../../shared/cost.ts";
import { type PricedCall, writeRate } from "./price-call.ts";

export function gapCosts(priced: readonly PricedCall[]): GapCostDTO[] {
  const out: GapCostDTO[] = [];
  for (const p of priced) {
    const g = gapCostOf(p);
    if (g) out.push(g);
  }
  return out;
}

/** The gap cost of one call, null unless its cache had expired. */
export function gapCostOf(p: PricedCall): GapCostDTO | null {
  if (p.verdict.verdict !== "ttl-expired") return null;
  const ev = p.verdict.evidence;
  const tokens = Math.min(ev.missDeficit ?? 0, p.row.usage.cacheWrite);
  return {
    callEntryId: p.row.entryId,
    gapMs: ev.lineageGapMs ?? 0,
    cacheTtlMs: ev.cacheTtlMs ?? 0,
    rewrittenTokens: tokens,
    premiumUsd: p.price
      ? (tokens * (writeRate(p.price, p.price.rates, p.dto.writeTier) - p.price.rates.cacheRead)) / 1e6
      : null,
  };
}
