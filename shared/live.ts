// Live-update contracts shared by the server (server/live/*, server/routes/events.ts) and the web client
// (web/api/live.ts): the SSE messages of GET /api/events and the cache clock of GET /api/sessions/:a/:s/clock.

/** One SSE `data:` payload of GET /api/events (unnamed SSE events, so EventSource `onmessage` gets them). */
export type LiveEvent =
  | { type: "sessions-changed" }
  | { type: "session-changed"; agentId: string; sessionId: string };

/**
 * The TTL countdown of one session (server/live/cache-clock.ts). Two clocks run from the same cache touch:
 * the provider's prompt cache lifetime (cost report `retention.cacheTtlMs`) and OpenClaw's cache-TTL pruning
 * TTL (`contextPruning.ttl`, spec pruning.md §2.2) — they can differ (the cost report flags the mismatch).
 */
export interface CacheClockDTO {
  /** Provider cache still warm at `now` (null TTL → unknown → false). */
  warm: boolean;
  /** Cache lifetime left (ms; ≤ 0 = expired), null without a touch or a known TTL. */
  msLeft: number | null;
  /** When the cache was last touched (ms): OpenClaw's `lastCacheTouchAt`, else the last model call's start. */
  lastCallAt: number | null;
  /** Cache lifetime used (ms) and where it came from (cost report retention). */
  cacheTtlMs: number | null;
  cacheTtlSource: string;
  /** ESTIMATE: prompt tokens of the last call — what a cold next call re-writes (before any pruning). */
  rewriteTokens: number | null;
  /** ESTIMATE: that re-write at the model's cache-write price (USD); null when the model is unpriced. */
  rewriteUsd: number | null;
  /** ESTIMATE: the extra paid over a warm read of the same tokens (write − read price). */
  rewritePremiumUsd: number | null;
  /** Pruning TTL left (ms; ≤ 0 = a round can fire on the next call), null when pruning has no clock. */
  pruneMsLeft: number | null;
  /** Tool results the first call after the pruning TTL would soft-trim or clear (0 = none), null when unknown. */
  pruneCount: number | null;
  /** Time the clock was evaluated at (ms). */
  now: number;
}
