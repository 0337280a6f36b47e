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
  return new CacheTtlObserver(configuredTtlMs).extendTo(transcript, calls);
}

/**
 * observeCacheTtl as state that takes calls in append order: a session that grows (append → report) adds only
 * its new calls. Every pair it judges is (previous call of the lineage, new call), and a reset counts only
 * between them, so nothing appended changes a pair already judged.
 */
export class CacheTtlObserver {
  private entriesSeen = 0;
  private callsSeen = 0;
  /** A compaction keeps the stable system block (its breakpoint still reads, j1 call 10); a reset may not. */
  private readonly rewrites: number[] = [];
  private readonly last = new Map<string, ModelCall>();
  private maxHit: number | null = null;
  private minMiss = Number.POSITIVE_INFINITY;
  private fullMisses = 0;
  private hits = 0;
  private below = false;

  constructor(private readonly configuredTtlMs: (call: ModelCall) => number | null) {}

  /** Take the entries and calls after those seen (`transcript` and `calls` continue the earlier ones). */
  extendTo(transcript: Transcript, calls: readonly ModelCall[]): ObservedTtl | null {
    const entries = transcript.entries;
    for (; this.entriesSeen < entries.length; this.entriesSeen++) {
      const e = entries[this.entriesSeen];
      if (e?.type === "reset") this.rewrites.push(e.index);
    }
    for (; this.callsSeen < calls.length; this.callsSeen++) {
      const n = calls[this.callsSeen];
      if (n) this.add(n);
    }
    return this.result();
  }

  private add(n: ModelCall): void {
    const P = n.promptTokens;
    if (P === 0 && n.usage.output === 0) return;
    const k = lineageKey(n);
    const m = this.last.get(k);
    this.last.set(k, n);
    if (!m || m.atMs === null || n.atMs === null) return;
    if (this.rewrites.some((i) => i > m.entryIndex && i < n.entryIndex)) return;
    const expected = m.promptTokens - m.usage.input;
    if (expected <= 0 || m.usage.cacheWrite + m.usage.cacheRead === 0) return;
    const gap = n.atMs - m.atMs;
    if (n.usage.cacheRead === 0 && n.usage.cacheWrite > 0) {
      this.fullMisses++;
      this.minMiss = Math.min(this.minMiss, gap);
      const conf = this.configuredTtlMs(n);
      if (conf !== null && gap <= conf) this.below = true;
    } else if (n.usage.cacheRead > 0 && expected - n.usage.cacheRead <= hitTolerance(expected)) {
      this.hits++;
      this.maxHit = this.maxHit === null ? gap : Math.max(this.maxHit, gap);
    }
  }

  private result(): ObservedTtl | null {
    const { fullMisses, below, minMiss, maxHit, hits } = this;
    if (fullMisses < 2 || !below || !Number.isFinite(minMiss)) return null;
    if (maxHit !== null && maxHit >= minMiss) return null;
    return { maxHitGapMs: maxHit, minFullMissGapMs: minMiss, fullMisses, hits, ttlMs: minMiss - 1 };
  }
}
