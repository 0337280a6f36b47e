// What each expired cache gap cost (spec cache-and-cost.md §5, §7): the prefix re-written instead of read.

import type { GapCostDTO } from "../../../shared/cost.ts";
import { type PricedCall, writeRate } from "./price-call.ts";

export function gapCosts(priced: readonly PricedCall[]): GapCostDTO[] {
  const out: GapCostDTO[] = [];
  for (const p of priced) {
    if (p.verdict.verdict !== "ttl-expired") continue;
    const ev = p.verdict.evidence;
    const tokens = Math.min(ev.missDeficit ?? 0, p.row.usage.cacheWrite);
    out.push({
      callEntryId: p.row.entryId,
      gapMs: ev.lineageGapMs ?? 0,
      cacheTtlMs: ev.cacheTtlMs ?? 0,
      rewrittenTokens: tokens,
      premiumUsd: p.price
        ? (tokens * (writeRate(p.price, p.price.rates, p.dto.writeTier) - p.price.rates.cacheRead)) / 1e6
        : null,
    });
  }
  return out;
}
