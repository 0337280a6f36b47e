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

export function heartbeatInfo(
  config: JsonObject | null,
  session: LoadedSession,
  cacheTtlMs: number | null,
  calls: readonly CostCallDTO[],
  gapCosts: readonly GapCostDTO[],
  mainProvider: string | null,
  observed: ObservedTtlDTO | null = null,
): HeartbeatInfo {
  const heartbeatCalls = calls.filter((c) => c.heartbeat);
  const rewrites = gapCosts.filter((g) => heartbeatCalls.some((c) => c.entryId === g.callEntryId));
  const every = heartbeatEvery(config, session.summary.agentId, session.version.family);
  const pruning = configuredPruning(config);
  return {
    cronSession: isCronSessionKey(session.summary.sessionKey),
    heartbeatCalls: heartbeatCalls.length,
    heartbeatCostUsd: heartbeatCalls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    heartbeatRewrites: rewrites.length,
    heartbeatRewritePremiumUsd: rewrites.reduce((sum, g) => sum + (g.premiumUsd ?? 0), 0),
    signals: [...HEARTBEAT_SIGNALS],
    heartbeatEveryMs: every.ms,
    heartbeatEverySource: every.value === undefined ? HEARTBEAT_EVERY_UNSET : every.source,
    cacheTtlMs,
    pruningMode: pruning.mode,
    pruningTtlMs: pruning.ttlMs,
    flags: heartbeatCadenceFlags({ every, cacheTtlMs, pruning, mainProvider, observed }),
  };
}
