// The cache lifetime OpenClaw asks for (spec cache-and-cost.md §1, §2.1 `cacheRetention`): `short` = the
// 5-minute ephemeral cache, `long` = 1 hour (Anthropic `ttl: "1h"`), `none` = no cache_control at all.

import type { CacheRetention } from "../config/agent-settings.ts";

export interface CacheTtl {
  /** Cache lifetime in ms; null = no caching requested (`cacheRetention: none`). */
  ms: number | null;
  source: string;
}

export const CACHE_TTL_MS: Record<CacheRetention, number | null> = {
  none: null,
  short: 5 * 60_000,
  long: 60 * 60_000,
};

/** Cache lifetime for a retention value; unknown → 5 minutes (labelled as assumed). */
export function cacheTtlForRetention(retention: CacheRetention | null, source: string): CacheTtl {
  if (retention === null) return { ms: CACHE_TTL_MS.short, source };
  const ms = CACHE_TTL_MS[retention];
  return {
    ms,
    source: `${retention === "long" ? "1 h" : retention === "short" ? "5 min" : "no cache"} (${source})`,
  };
}
