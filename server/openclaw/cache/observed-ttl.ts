// The cache lifetime observed in a session (spec cache-and-cost.md §3): when the session's own usage
// contradicts the configured lifetime, the bound the data shows. Heuristic, labelled as observed wherever used.

import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript } from "../../model/session.ts";
import { hitTolerance, lineageKey } from "./lineage.ts";

export interface ObservedTtl {
  maxHitGapMs: number | null;
  minFullMissGapMs: number;
  fullMisses: number;
  hits: number;
  ttlMs: number;
}

/**
 * Infer the provider's effective cache lifetime from the session's own usage. A full miss (cacheRead 0
 * although the previous call of the lineage cached a prefix) cannot come from a message edit or a pruning
 * round — the stable system block has its own breakpoint (§2.2) — so it means the cache was gone.
 * When ≥ 2 full misses exist, every hit gap is shorter than every full-miss gap, and the shortest full-miss
 * gap is shorter than the configured TTL, the configured TTL is contradicted by the data (a proxy, a shorter
 * provider TTL, the fixtures' mock): return the observed bound. Pairs with a reset between them and
 * zero-usage calls are left out. Heuristic, labelled as observed wherever it is used.
 */
export function observeCacheTtl(
  transcript: Transcript,
  calls: readonly ModelCall[],
  configuredTtlMs: (call: ModelCall) => number | null,
): ObservedTtl | null {
  // A compaction keeps the stable system block (its breakpoint still reads, j1 call 10); a reset may not.
  const rewrites: number[] = [];
  for (const e of transcript.entries) if (e.type === "reset") rewrites.push(e.index);
  const last = new Map<string, ModelCall>();
  let maxHit: number | null = null;
  let minMiss = Number.POSITIVE_INFINITY;
  let fullMisses = 0;
  let hits = 0;
  let below = false;
  for (const n of calls) {
    const P = n.promptTokens;
    if (P === 0 && n.usage.output === 0) continue;
    const k = lineageKey(n);
    const m = last.get(k);
    last.set(k, n);
    if (!m || m.atMs === null || n.atMs === null) continue;
    if (rewrites.some((i) => i > m.entryIndex && i < n.entryIndex)) continue;
    const expected = m.promptTokens - m.usage.input;
    if (expected <= 0 || m.usage.cacheWrite + m.usage.cacheRead === 0) continue;
    const gap = n.atMs - m.atMs;
    if (n.usage.cacheRead === 0 && n.usage.cacheWrite > 0) {
      fullMisses++;
      minMiss = Math.min(minMiss, gap);
      const conf = configuredTtlMs(n);
      if (conf !== null && gap <= conf) below = true;
    } else if (n.usage.cacheRead > 0 && expected - n.usage.cacheRead <= hitTolerance(expected)) {
      hits++;
      maxHit = maxHit === null ? gap : Math.max(maxHit, gap);
    }
  }
  if (fullMisses < 2 || !below || !Number.isFinite(minMiss)) return null;
  if (maxHit !== null && maxHit >= minMiss) return null;
  return { maxHitGapMs: maxHit, minFullMissGapMs: minMiss, fullMisses, hits, ttlMs: minMiss - 1 };
}
