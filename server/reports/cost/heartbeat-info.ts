// Heartbeat totals and the cadence flags of a session (spec cache-and-cost.md §7; the rules are in
// openclaw/heartbeat.ts, the configured cadence in openclaw/config/agent-settings.ts).

import type { CostCallDTO, GapCostDTO, HeartbeatInfo, ObservedTtlDTO } from "../../../shared/cost.ts";
import type { JsonObject } from "../../../shared/json.ts";
import type { LoadedSession } from "../../model/session.ts";
import { configuredPruning, heartbeatEvery } from "../../openclaw/config/agent-settings.ts";
import {
  HEARTBEAT_EVERY_UNSET,
  HEARTBEAT_SIGNALS,
  heartbeatCadenceFlags,
  isCronSessionKey,
} from "../../openclaw/heartbeat.ts";

/**
 * The heartbeat calls' count and cost, and the expired-cache gaps on them, as folds that only grow: calls and
 * gaps in append order (a call's gap right after the call). `exact` turns false when a heartbeat call's entry id
 * names an earlier gap (a duplicate id): the sums then come from a scan of every call and gap (heartbeatSums).
 */
export class HeartbeatSums {
  calls = 0;
  costUsd = 0;
  rewrites = 0;
  rewritePremiumUsd = 0;
  exact = true;
  private readonly ids = new Set<string | null>();
  private readonly gapIds = new Set<string | null>();

  addCall(c: CostCallDTO): void {
    if (!c.heartbeat) return;
    this.calls++;
    this.costUsd += c.costUsd ?? 0;
    if (this.ids.has(c.entryId)) return;
    if (this.gapIds.has(c.entryId)) this.exact = false;
    this.ids.add(c.entryId);
  }

  addGap(g: GapCostDTO): void {
    this.gapIds.add(g.callEntryId);
    if (!this.ids.has(g.callEntryId)) return;
    this.rewrites++;
    this.rewritePremiumUsd += g.premiumUsd ?? 0;
  }
}

/** The heartbeat sums of `calls` and `gapCosts` (a gap counts when a heartbeat call has its entry id). */
export function heartbeatSums(calls: readonly CostCallDTO[], gapCosts: readonly GapCostDTO[]): HeartbeatSums {
  const sums = new HeartbeatSums();
  for (const c of calls) sums.addCall(c);
  for (const g of gapCosts) sums.addGap(g);
  return sums;
}

export function heartbeatInfo(
  config: JsonObject | null,
  session: LoadedSession,
  cacheTtlMs: number | null,
  sums: HeartbeatSums,
  mainProvider: string | null,
  observed: ObservedTtlDTO | null = null,
): HeartbeatInfo {
  const every = heartbeatEvery(config, session.summary.agentId, session.version.family);
  const pruning = configuredPruning(config);
  return {
    cronSession: isCronSessionKey(session.summary.sessionKey),
    heartbeatCalls: sums.calls,
    heartbeatCostUsd: sums.costUsd,
    heartbeatRewrites: sums.rewrites,
    heartbeatRewritePremiumUsd: sums.rewritePremiumUsd,
    signals: [...HEARTBEAT_SIGNALS],
    heartbeatEveryMs: every.ms,
    heartbeatEverySource: every.value === undefined ? HEARTBEAT_EVERY_UNSET : every.source,
    cacheTtlMs,
    pruningMode: pruning.mode,
    pruningTtlMs: pruning.ttlMs,
    flags: heartbeatCadenceFlags({ every, cacheTtlMs, pruning, mainProvider, observed }),
  };
}
