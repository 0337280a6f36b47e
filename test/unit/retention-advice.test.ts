// The retention / heartbeat advisor (issue 14 §4) on synthetic gaps: the histogram against the 5 min / 1 h
// lifetimes, keep-warm heartbeats priced over every gap, the recommendation and its snippet.

import { describe, expect, it } from "vitest";
import {
  gapHistogram,
  keepWarmCost,
  keepWarmEveryMs,
  retentionAdvice,
} from "../../server/reports/advice/retention-advice.ts";
import type { GapFact, SessionAdviceFacts } from "../../server/reports/advice/session-facts.ts";

const MIN = 60_000;
const gap = (min: number, expired: boolean, premiumUsd = 0.1, keepWarmCallUsd = 0.01): GapFact => ({
  gapMs: min * MIN,
  expired,
  premiumUsd: expired ? premiumUsd : 0,
  keepWarmCallUsd,
});

function facts(
  agentId: string,
  gaps: GapFact[],
  asRunUsd: number,
  retention1hUsd: number,
): SessionAdviceFacts {
  return {
    agentId,
    retention: { value: "short", source: "default", cacheTtlMs: 5 * MIN },
    asRunUsd,
    retention1hUsd,
    gaps,
    firstMs: 0,
    lastMs: 3 * 60 * MIN,
    flags: [],
    pruning: { mode: "cache-ttl", ttlMs: 5 * MIN },
    heartbeatEveryMs: 0,
    bootstrap: { files: [], rewrites: 0, writeUsdPerToken: null, unpricedRewrites: 0 },
    switches: { calls: 0, missUsd: 0, unpriced: 0 },
  };
}

describe("retention advisor", () => {
  it("keeps a cache warm a minute under its lifetime; 80 % of a short one", () => {
    expect(keepWarmEveryMs(5 * MIN)).toBe(4 * MIN);
    expect(keepWarmEveryMs(60 * MIN)).toBe(59 * MIN);
    expect(keepWarmEveryMs(11_000)).toBe(8_000);
  });

  it("histogram of gaps against 5 min and 1 h, with the expired ones", () => {
    expect(gapHistogram([gap(1, false), gap(7, true), gap(30, true), gap(90, true)])).toEqual([
      { label: "< 5 min", gaps: 1, expired: 0 },
      { label: "5 min – 1 h", gaps: 2, expired: 2 },
      { label: "≥ 1 h", gaps: 1, expired: 1 },
    ]);
  });

  it("keep-warm: heartbeats on every gap, each expired gap's premium saved", () => {
    // 7 min: 1 heartbeat (4 min), saves 0.10; 90 min: 22 heartbeats = 0.22 > 0.10 premium.
    const kw = keepWarmCost([gap(1, false), gap(7, true), gap(90, true)], 4 * MIN);
    expect(kw.heartbeats).toBe(0 + 1 + 22);
    expect(kw.heartbeatUsd).toBeCloseTo(0.23, 12);
    expect(kw.savedPremiumUsd).toBeCloseTo(0.2, 12);
    expect(kw.savingsUsd).toBeCloseTo(-0.03, 12);
    expect(kw.paysFor).toBe(1);
  });

  it("recommends the cheaper option with its snippet; nothing worth it → keep today's setting", () => {
    // Short gaps just past 5 min: keep-warm costs 1 heartbeat per gap (0.01) and saves 0.10 each.
    const warm = retentionAdvice([facts("a", [gap(6, true), gap(6, true), gap(6, true)], 1, 0.95)]);
    expect(warm[0]).toMatchObject({ kind: "cache-retention", agentId: "a" });
    expect(warm[0]?.recommended).toContain('heartbeat: { every: "4m" }');
    expect(warm[0]?.savingsUsd).toBeCloseTo(0.27, 12);
    expect(warm[0]?.evidence.join("\n")).toContain("3 5 min – 1 h (3 expired)");

    const long = retentionAdvice([facts("b", [gap(50, true), gap(50, true)], 1, 0.5)]);
    expect(long[0]?.recommended).toContain('cacheRetention: "long"');
    expect(long[0]?.savingsUsd).toBeCloseTo(0.5, 12);

    const none = retentionAdvice([facts("c", [gap(1, false)], 1, 1)]);
    expect(none[0]?.recommended).toMatch(/^keep today's setting/);
    expect(none[0]?.savingsUsd).toBe(0);
  });

  it("a pruning ttl flagged outside the observed bracket is its own card", () => {
    const f = facts("d", [gap(1, false)], 1, 1);
    f.flags = [{ kind: "pruning-ttl-mismatch", message: "pruning ttl 1h ≠ cache TTL 5m" }];
    const cards = retentionAdvice([f]);
    expect(cards.map((c) => c.kind)).toEqual(["cache-retention", "pruning-ttl"]);
    expect(cards[1]?.recommended).toContain('contextPruning: { ttl: "5m" }');
  });
});
