// What the retention / heartbeat advisor needs of one session, taken from its cost report (one price, one verdict,
// one miss premium per call) while the session is loaded: its real idle gaps, what each miss cost over a read, what
// one keep-warm call reading that prefix would have cost, the 1-hour-retention counterfactual, and what re-writing
// each bootstrap file on a full cache write cost.

import type { CostReportDTO } from "../../../shared/cost.ts";
import { ratesFor } from "../../../shared/pricing.ts";
import type { BootstrapFileRow } from "../../model/system-prompt-report.ts";
import type { PriceTable } from "../../pricing/price-table.ts";

/**
 * ESTIMATE of one keep-warm heartbeat call besides reading the cached prefix: the heartbeat prompt and the
 * HEARTBEAT_OK reply, written as the new suffix (OpenClaw's default heartbeat prompt is ~40 tokens; the reply a
 * few). Rounded up so the advisor does not flatter keep-warm.
 */
export const KEEP_WARM_SUFFIX_TOKENS = 100;
export const KEEP_WARM_OUTPUT_TOKENS = 10;

export interface GapFact {
  /** Idle gap to the previous call of the same lineage (provider + model), ms. */
  gapMs: number;
  /** The call found the cache expired (verdict `ttl-expired`). */
  expired: boolean;
  /** What re-writing the expired prefix cost over reading it (GapCostDTO.premiumUsd; null: unpriced). */
  premiumUsd: number | null;
  /** ESTIMATE: one keep-warm call reading this prefix (null: no price known). */
  keepWarmCallUsd: number | null;
}

export interface SessionAdviceFacts {
  agentId: string;
  retention: { value: "none" | "short" | "long" | null; source: string; cacheTtlMs: number | null };
  asRunUsd: number;
  /** The cost report's `retention-1h` counterfactual (null: not computed or unpriced). */
  retention1hUsd: number | null;
  gaps: GapFact[];
  firstMs: number | null;
  lastMs: number | null;
  /** The session's TTL flags (pruning ttl outside the observed lifetime bracket etc.). */
  flags: { kind: string; message: string }[];
  pruning: { mode: string | null; ttlMs: number | null };
  heartbeatEveryMs: number | null;
  bootstrap: BootstrapFacts;
  switches: SwitchFacts;
}

/**
 * The DM-scope advisor's facts: new runs that came from another DM chat than the run before in the same session
 * (cost cause `channel-switch`, kind `chat` — two direct chats in one session, which session.dmScope "main" or
 * "per-peer" does) and what their misses cost over a read.
 */
export interface SwitchFacts {
  calls: number;
  missUsd: number;
  /** Switch calls whose miss is unpriced. */
  unpriced: number;
}

/**
 * The bootstrap advisor's facts (issue 14 §4): the injected workspace files of the session's stored run report, and
 * its full cache re-writes — calls that read nothing from the cache and wrote the prompt (usage cacheRead = 0,
 * cacheWrite > 0): each re-wrote every bootstrap file, which sits at the front of the system prompt.
 */
export interface BootstrapFacts {
  files: { name: string; injectedChars: number }[];
  /** Full re-write calls. */
  rewrites: number;
  /** Σ over the priced re-writes of their cache-write rate, USD per token (null: none priced). */
  writeUsdPerToken: number | null;
  /** Re-writes without a price. */
  unpricedRewrites: number;
}

function bootstrapFacts(
  r: CostReportDTO,
  prices: PriceTable | null,
  files: readonly BootstrapFileRow[],
): BootstrapFacts {
  let rewrites = 0;
  let unpricedRewrites = 0;
  let writeUsdPerToken: number | null = null;
  for (const c of r.calls) {
    if (c.cacheRead !== 0 || c.cacheWrite <= 0) continue;
    rewrites++;
    const at = c.timestamp === null ? null : Date.parse(c.timestamp);
    const price = prices?.priceFor(r.agentId, c.provider, c.model, at).price ?? null;
    if (!price) {
      unpricedRewrites++;
      continue;
    }
    writeUsdPerToken = (writeUsdPerToken ?? 0) + ratesFor(price, c.input + c.cacheWrite).cacheWrite / 1e6;
  }
  const injected = files.filter((f) => !f.missing && f.nativeUnverified !== true && f.injectedChars > 0);
  return {
    files: injected.map((f) => ({ name: f.name, injectedChars: f.injectedChars })),
    rewrites,
    writeUsdPerToken,
    unpricedRewrites,
  };
}

function switchFacts(r: CostReportDTO): SwitchFacts {
  const facts: SwitchFacts = {
    calls: 0,
    missUsd: 0,
    unpriced: 0,
  };
  for (const c of r.calls) {
    if (c.cause.cause !== "channel-switch" || c.cause.channelSwitch !== "chat") continue;
    facts.calls++;
    if (c.missCostUsd === null) facts.unpriced++;
    else facts.missUsd += c.missCostUsd;
  }
  return facts;
}

export function sessionAdviceFacts(
  r: CostReportDTO,
  prices: PriceTable | null,
  files: readonly BootstrapFileRow[] = [],
): SessionAdviceFacts {
  const premiums = new Map(r.gapCosts.map((g) => [g.callEntryId, g.premiumUsd]));
  const gaps: GapFact[] = [];
  let firstMs: number | null = null;
  let lastMs: number | null = null;
  for (const c of r.calls) {
    const at = c.timestamp === null ? null : Date.parse(c.timestamp);
    if (at !== null && Number.isFinite(at)) {
      firstMs = firstMs === null ? at : Math.min(firstMs, at);
      lastMs = lastMs === null ? at : Math.max(lastMs, at);
    }
    const gap = c.evidence.lineageGapMs;
    if (gap === null || c.verdict === "no-usage") continue;
    const expired = c.verdict === "ttl-expired";
    const prefix = c.evidence.expectedRead ?? 0;
    const answer = prices?.priceFor(r.agentId, c.provider, c.model, at) ?? null;
    const price = answer?.price ?? null;
    let keepWarmCallUsd: number | null = null;
    if (price) {
      const rates = ratesFor(price, prefix + KEEP_WARM_SUFFIX_TOKENS);
      keepWarmCallUsd =
        (prefix * rates.cacheRead +
          KEEP_WARM_SUFFIX_TOKENS * rates.cacheWrite +
          KEEP_WARM_OUTPUT_TOKENS * rates.output) /
        1e6;
    }
    gaps.push({
      gapMs: gap,
      expired,
      premiumUsd: expired ? (premiums.get(c.entryId) ?? null) : 0,
      keepWarmCallUsd,
    });
  }
  const long = r.counterfactuals.find((c) => c.id === "retention-1h");
  return {
    agentId: r.agentId,
    retention: { value: r.retention.value, source: r.retention.source, cacheTtlMs: r.retention.cacheTtlMs },
    asRunUsd: r.totals.costUsd,
    retention1hUsd: long?.costUsd ?? null,
    gaps,
    firstMs,
    lastMs,
    flags: r.heartbeat.flags.map((f) => ({ kind: f.kind, message: f.message })),
    pruning: { mode: r.heartbeat.pruningMode, ttlMs: r.heartbeat.pruningTtlMs },
    heartbeatEveryMs: r.heartbeat.heartbeatEveryMs,
    bootstrap: bootstrapFacts(r, prices, files),
    switches: switchFacts(r),
  };
}
