// The live TTL countdown of one session ("cache warm for 3m12s" → "expired: the next call will re-write ~N
// tokens (≈ $X) and pruning will trim K tool results"). Pure: the replay and cost reports in, the clock out.
//
// - Cache touch: OpenClaw's own clock (`lastCacheTouchAt`, the newest `openclaw.cache-ttl` marker time —
//   spec pruning.md §2.3) as replayed in `replay.next`; without one, the start of the last model call.
// - Cache lifetime: the cost report's effective TTL (`retention.cacheTtlMs`: configured retention, or the
//   lifetime observed in the session when the data contradicts it — cache-and-cost.md §3).
// - Re-write: ESTIMATE = prompt tokens of the last call (its `promptTokens`, transcript.md §4) —
//   a cold next call writes at least that prefix again (minus what a pruning round removes first), priced
//   at the model's cache-write rate (1-hour rate = 2 × input for `long` retention, cache-and-cost.md §4).
// - Pruning: `replay.next` must be evaluated for a message right after the pruning TTL (use `clockReplayAt`
//   as the replay's `at`); its tool-result states that differ from the last call are the K results a round
//   would trim or clear.

import type { CostReportDTO } from "../../shared/cost.ts";
import type { CacheClockDTO } from "../../shared/live.ts";
import {
  overrideFor,
  type PricingOverrides,
  priceFromOverride,
  type ResolvedPrice,
  writeRateOf,
} from "../../shared/pricing.ts";
import type { PruneReplayDTO, ToolResultWireState } from "../../shared/prune.ts";

export interface CacheClockInput {
  /** Pruning replay whose `next` was computed at `clockReplayAt(defaultReplay)` (or later). */
  replay: PruneReplayDTO;
  /**
   * The last call's tool-result states, when `replay` is a summary (calls without their states); default: the
   * states in `replay.calls`.
   */
  lastCallToolResults?: Record<string, ToolResultWireState>;
  cost: CostReportDTO;
  now: number;
  /** The price the cost report used for a call (server/pricing/price-table.ts); default: `pricing` only. */
  priceOf?: (provider: string | null, model: string | null, atMs: number | null) => ResolvedPrice | null;
  /** Prices by `provider/model` or model id, when no `priceOf` is given. */
  pricing?: PricingOverrides;
}

function fromOverrides(pricing: PricingOverrides | undefined) {
  return (provider: string | null, model: string | null): ResolvedPrice | null => {
    const hit = model === null ? undefined : overrideFor(provider, model, pricing);
    return hit ? priceFromOverride(provider, hit.value, null, "pricing-file", `pricing "${hit.key}"`) : null;
  };
}

/**
 * The `at` for the replay whose `next` predicts the first call after the pruning TTL: one ms after
 * `lastCacheTouchAt + ttl`. Constant between calls, so the service's replay memo keeps hitting. Null when
 * pruning has no clock (mode off, TTL 0, no touch yet).
 */
export function clockReplayAt(replay: PruneReplayDTO): number | null {
  const touch = replay.next.lastCacheTouchAt;
  if (touch === null || replay.settings.mode !== "cache-ttl" || replay.settings.ttlMs <= 0) return null;
  return touch + replay.settings.ttlMs + 1;
}

function isoMs(s: string | null): number | null {
  if (s === null) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

export function cacheClock(input: CacheClockInput): CacheClockDTO {
  const { replay, cost, now } = input;
  const lastCall = cost.calls.filter((c) => c.onActiveBranch && c.verdict !== "no-usage").at(-1) ?? null;
  const touch = replay.next.lastCacheTouchAt ?? isoMs(lastCall?.timestamp ?? null);
  const ttl = cost.retention.cacheTtlMs;
  const msLeft = touch !== null && ttl !== null ? touch + ttl - now : null;

  const rewriteTokens = lastCall ? lastCall.promptTokens : null;
  let rewriteUsd: number | null = null;
  let rewritePremiumUsd: number | null = null;
  if (lastCall && rewriteTokens !== null) {
    const priceOf = input.priceOf ?? fromOverrides(input.pricing);
    const price = priceOf(lastCall.provider, lastCall.model, isoMs(lastCall.timestamp));
    if (price) {
      const write = writeRateOf(price, price.rates, cost.retention.value === "long");
      rewriteUsd = (rewriteTokens * write) / 1e6;
      rewritePremiumUsd = (rewriteTokens * (write - price.rates.cacheRead)) / 1e6;
    }
  }

  const pruneExpiry = clockReplayAt(replay);
  const pruneMsLeft = pruneExpiry === null ? null : pruneExpiry - 1 - now;
  let pruneCount: number | null = null;
  // Only a replay evaluated after the pruning TTL predicts the round (see clockReplayAt).
  if (pruneExpiry !== null && replay.next.ttlExpired) {
    const last = input.lastCallToolResults ?? replay.calls.at(-1)?.toolResults;
    pruneCount = 0;
    if (replay.next.wouldPrune) {
      for (const [id, state] of Object.entries(replay.next.toolResults)) {
        if (state !== (last?.[id] ?? "full")) pruneCount++;
      }
    }
  }

  return {
    warm: msLeft !== null && msLeft > 0,
    msLeft,
    lastCallAt: touch,
    cacheTtlMs: ttl,
    cacheTtlSource: cost.retention.ttlSource,
    rewriteTokens,
    rewriteUsd,
    rewritePremiumUsd,
    pruneMsLeft,
    pruneCount,
    now,
  };
}
