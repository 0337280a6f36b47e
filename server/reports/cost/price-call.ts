// One call priced (spec cache-and-cost.md §4–§5): its write tier, where its cost comes from (the recorded
// usage.cost, the pricing table, or nothing known), the ≤ 2026.7 one-hour write correction, and what its
// cache miss cost over a read. Each call is priced on its own, so a grown session prices only its new calls.

import { clockBackLabel } from "../../../shared/clock-labels.ts";
import type {
  CallCauseDTO,
  CostCallDTO,
  CostSource,
  PriceOriginDTO,
  WriteTierInfo,
} from "../../../shared/cost.ts";
import {
  costOf,
  costTermsOf,
  type PriceRates,
  type ResolvedPrice,
  ratesFor,
  type UsageBuckets,
  writeRateOf,
} from "../../../shared/pricing.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { CallVerdict } from "../../openclaw/cache/verdict.ts";
import type { CacheRetention, ConfigFamily } from "../../openclaw/config/agent-settings.ts";
import type { PriceAnswer } from "../../pricing/price-table.ts";
import { readHitRate, writeAwareHitRate } from "./hit-rates.ts";

/** A call with its cache verdict, its price (null = none known) and its DTO row. */
export interface PricedCall {
  row: ModelCall;
  dto: CostCallDTO;
  price: ResolvedPrice | null;
  verdict: CallVerdict;
}

export function writeTierOf(call: ModelCall, retention: CacheRetention | null): WriteTierInfo {
  const u = call.usage;
  if (u.cacheWrite === 0)
    return { tier: "none", cacheWrite1h: 0, source: u.cacheWrite1h !== null ? "usage" : "default" };
  if (u.cacheWrite1h !== null) {
    const w = Math.min(u.cacheWrite1h, u.cacheWrite);
    return { tier: w === 0 ? "5m" : w === u.cacheWrite ? "1h" : "mixed", cacheWrite1h: w, source: "usage" };
  }
  if (retention === "long") return { tier: "1h", cacheWrite1h: u.cacheWrite, source: "config" };
  if (retention === "short") return { tier: "5m", cacheWrite1h: 0, source: "config" };
  return { tier: "5m", cacheWrite1h: 0, source: "default" };
}

/** The call's usage as pricing buckets, with `w1h` of its writes in the 1-hour tier. */
export function buckets(c: ModelCall, w1h: number): UsageBuckets {
  const u = c.usage;
  return {
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead,
    cacheWrite: u.cacheWrite,
    cacheWrite1h: w1h,
  };
}

/** Write price per 1M for a call's tier (1 h = the 1-hour multiplier × input, spec §1/§4). */
export function writeRate(price: ResolvedPrice, rates: PriceRates, tier: WriteTierInfo): number {
  return writeRateOf(price, rates, tier.tier === "1h");
}

/** The as-run buckets of a priced call. */
export function asRunBuckets(p: PricedCall): UsageBuckets {
  return buckets(p.row, p.dto.writeTier.cacheWrite1h);
}

interface CostOf {
  costUsd: number | null;
  costSource: CostSource;
  priceSource: string | null;
  priceOrigin: PriceOriginDTO;
}

/**
 * Recorded usage.cost where meaningful, else the price table, else unpriced (§4 precedence). An all-zero recorded
 * cost on non-zero usage is OpenClaw's "no price", not $0 (research deps.md §1); a provider-billed 0 is kept
 * (OpenClaw 7.1 "preserved zero", docs/openclaw-facts.md §6.4).
 */
function costSourceOf(row: ModelCall, answer: PriceAnswer, computed: number | null): CostOf {
  const u = row.usage;
  const recorded = row.recordedCost;
  if (recorded !== null && (recorded > 0 || (recorded === 0 && row.providerBilled))) {
    return row.providerBilled
      ? {
          costUsd: recorded,
          costSource: "provider-billed",
          priceSource: "usage.cost.total (provider-billed)",
          priceOrigin: "recorded",
        }
      : {
          costUsd: recorded,
          costSource: "recorded",
          priceSource: "usage.cost.total",
          priceOrigin: "recorded",
        };
  }
  if (u.input + u.output + u.cacheRead + u.cacheWrite === 0) {
    return {
      costUsd: recorded ?? 0,
      costSource: "recorded",
      priceSource: "no tokens",
      priceOrigin: "recorded",
    };
  }
  const price = answer.price;
  if (price && computed !== null)
    return {
      costUsd: computed,
      costSource: "pricing-table",
      priceSource: price.source,
      priceOrigin: price.origin,
    };
  const what = `${row.provider ?? "?"}/${row.model ?? "?"}`;
  const hint = answer.suggestion ? ` — suggested: ${answer.suggestion} (not applied: unknown provider)` : "";
  return {
    costUsd: null,
    costSource: "unpriced",
    priceSource: `${recorded === 0 ? "recorded cost 0" : "no recorded cost"} and no price known for ${what}${hint}`,
    priceOrigin: null,
  };
}

/**
 * Miss deficit priced as what was paid instead of a read (§5): re-written tokens at the write rate, or — for
 * providers without a write counter — uncached input. Capped by what the call actually paid for.
 */
function missCost(
  row: ModelCall,
  v: CallVerdict,
  price: ResolvedPrice | null,
  tier: WriteTierInfo,
): number | null {
  if (v.verdict === "hit") return 0;
  // A model switch reads nothing of the other model's cache: everything it wrote was the miss (issue 14 §2).
  const deficit = v.verdict === "model-switch" ? row.usage.cacheWrite : (v.evidence.missDeficit ?? 0);
  if (!price || deficit <= 0) return null;
  const r = ratesFor(price, row.promptTokens);
  return v.evidence.writeCounterMissing
    ? (Math.min(deficit, row.usage.input) * (r.input - r.cacheRead)) / 1e6
    : (Math.min(deficit, row.usage.cacheWrite) * (writeRate(price, r, tier) - r.cacheRead)) / 1e6;
}

/** costOf's terms in USD, the two write tiers together. */
function bucketCosts(b: UsageBuckets, price: ResolvedPrice): CostCallDTO["costByBucket"] {
  const t = costTermsOf(b, price);
  return {
    input: t.input / 1e6,
    output: t.output / 1e6,
    cacheRead: t.cacheRead / 1e6,
    cacheWrite: (t.cacheWrite5m + t.cacheWrite1h) / 1e6,
  };
}

export interface PricingContext {
  /** The price of a call below its recorded cost (server/pricing/price-table.ts). */
  priceOf: (row: ModelCall) => PriceAnswer;
  family: ConfigFamily;
  retentionOf: (row: ModelCall) => CacheRetention | null;
}

/** Price one call; `previousStartMs` = the start of the session's previous call (any model), for its gap. */
export function priceCall(
  row: ModelCall,
  verdict: CallVerdict,
  ctx: PricingContext,
  previousStartMs: number | null,
  heartbeatSignals: string[],
  cause: CallCauseDTO,
): PricedCall {
  const retention = ctx.retentionOf(row);
  const tier = writeTierOf(row, retention);
  const answer = ctx.priceOf(row);
  const price = answer.price;
  const b = buckets(row, tier.cacheWrite1h);
  const computed = price ? costOf(b, price) : null;
  const cost = costSourceOf(row, answer, computed);
  // ≤ 2026.7.x (`@openclaw/ai` 7.1 / 7.35 `calculateCost`: no 1-hour term, docs/openclaw-facts.md §6.6) priced
  // every write at the 5-minute rate; with `long` retention show the 1 h correction (§4) — not on a provider-billed
  // total, which is the bill itself.
  const oneHourWriteCorrectionUsd =
    (ctx.family === "2026.3" || ctx.family === "2026.7") &&
    retention === "long" &&
    !row.providerBilled &&
    price &&
    row.recordedCost !== null &&
    row.recordedCost > 0
      ? (row.usage.cacheWrite * (writeRateOf(price, price.rates, true) - price.rates.cacheWrite)) / 1e6
      : null;
  const gapMs = previousStartMs !== null && row.atMs !== null ? row.atMs - previousStartMs : null;
  // real transcripts jump back days after a reset on another machine: flagged, never shown as a negative gap
  const clockBack = clockBackLabel(gapMs);
  const dto: CostCallDTO = {
    entryId: row.entryId,
    responseId: row.responseId,
    timestamp: row.atMs !== null ? new Date(row.atMs).toISOString() : null,
    provider: row.provider,
    model: row.model,
    input: row.usage.input,
    output: row.usage.output,
    cacheRead: row.usage.cacheRead,
    cacheWrite: row.usage.cacheWrite,
    costUsd: cost.costUsd,
    costSource: cost.costSource,
    hitRate: readHitRate(row.usage),
    verdict: verdict.verdict,
    gapMs,
    // undefined, not a spread: JSON leaves it out the same, and one literal shape builds ~5× faster
    clockBack: clockBack ?? undefined,
    entryIndex: row.entryIndex,
    onActiveBranch: row.onActiveBranch,
    api: row.api,
    stopReason: row.stopReason,
    promptTokens: row.promptTokens,
    writeAwareHitRate: writeAwareHitRate(b),
    writeTier: tier,
    priceSource: cost.priceSource,
    priceOrigin: cost.priceOrigin,
    recordedCostUsd: row.recordedCost,
    computedCostUsd: computed,
    costByBucket: price ? bucketCosts(b, price) : null,
    oneHourWriteCorrectionUsd,
    evidence: verdict.evidence,
    missCostUsd: missCost(row, verdict, price, tier),
    cause,
    heartbeat: heartbeatSignals.length > 0,
    heartbeatSignals,
  };
  return { row, dto, price, verdict };
}
