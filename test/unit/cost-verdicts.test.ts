// Cost report + cache verdicts on hand-built transcripts (spec cache-and-cost.md §4–§7, transcript.md §8).
import { describe, expect, it } from "vitest";
import type { LoadedSession } from "../../server/model/session.ts";
import { cacheTtlForRetention } from "../../server/openclaw/cache/ttl.ts";
import { resolveCacheRetention } from "../../server/openclaw/config/agent-settings.ts";
import { durationFromJson } from "../../server/openclaw/duration.ts";
import { buildCostReport, buildCostTotals } from "../../server/reports/cost/cost-report.ts";
import { readHitRate, writeAwareHitRate } from "../../server/reports/cost/hit-rates.ts";
import type { JsonObject } from "../../shared/json.ts";
import { type Family, TranscriptBuilder } from "../helpers/transcript.ts";

const T0 = Date.UTC(2026, 10, 30, 0, 0, 0);

interface U {
  input: number;
  output?: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h?: number;
  cost?: number;
  totalOrigin?: string;
}

/** The cost tests' vocabulary over the shared builder: times are offsets from T0; ids are r0, r1, … */
class TB {
  readonly b = new TranscriptBuilder({ start: T0, idPrefix: "r" });
  add(row: JsonObject, parent?: string | null): string {
    return this.b.add(row, parent);
  }
  user(text: string, at: number, extra: JsonObject = {}, parent?: string | null): string {
    this.b.t = T0 + at;
    return this.b.user(text, extra, parent);
  }
  call(
    at: number,
    u: U,
    opts: { provider?: string; model?: string; api?: string; text?: string } = {},
    parent?: string | null,
  ): string {
    this.b.t = T0 + at;
    // The reply is appended half a second after the request started.
    const envelope = { timestamp: new Date(T0 + at + 500).toISOString() };
    return this.b.assistant({ ...opts, usage: u, envelope }, parent);
  }
  injected(at: number, model = "gateway-injected", provider = "openclaw", extra: JsonObject = {}): string {
    this.b.t = T0 + at;
    return this.b.injected("reply", { provider, model, ...extra });
  }
  custom(type: string, fields: JsonObject, at: number): string {
    this.b.t = T0 + at;
    return this.b.add({ type, ...fields });
  }
  session(opts: { family?: Family; sessionKey?: string; archived?: "reset" | null } = {}): LoadedSession {
    return this.b.session({
      family: opts.family ?? "2026.9",
      sessionKey: opts.sessionKey ?? "agent:main:main",
      archived: opts.archived ?? null,
      storage: "jsonl",
      sessionId: "s",
      location: "t.jsonl",
    });
  }
}

const MIN = 60_000;

describe("cache verdicts (cache-and-cost.md §6)", () => {
  it("cold start, hit, TTL expiry with a 5-minute default cache", () => {
    const t = new TB();
    t.user("hi", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    t.user("more", 60_000);
    t.call(60_100, { input: 10, cacheRead: 20_000, cacheWrite: 300 });
    t.user("later", 60_100 + 6 * MIN);
    t.call(60_200 + 6 * MIN, { input: 10, cacheRead: 0, cacheWrite: 20_400 });
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls.map((c) => c.verdict)).toEqual(["cold-start", "hit", "ttl-expired"]);
    const hit = r.calls[1];
    expect(hit?.evidence.expectedRead).toBe(20_000);
    expect(hit?.evidence.missDeficit).toBe(0);
    const exp = r.calls[2];
    expect(exp?.evidence.lineageGapMs).toBe(6 * MIN + 100);
    expect(exp?.evidence.cacheTtlMs).toBe(5 * MIN);
    expect(exp?.evidence.cacheTtlSource).toContain("unset → short");
    expect(exp?.gapMs).toBe(6 * MIN + 100);
    expect(exp?.evidence.summary).toMatch(/gap 6m 00s > cache TTL 5m 00s/);
    // Expired gap: the prefix (20,300 tokens) was re-written instead of read: premium = (3.75 − 0.30) per 1M.
    expect(r.gapCosts).toHaveLength(1);
    expect(r.gapCosts[0]?.rewrittenTokens).toBe(20_300);
    expect(r.gapCosts[0]?.premiumUsd).toBeCloseTo((20_300 * (3.75 - 0.3)) / 1e6, 12);
    expect(exp?.missCostUsd).toBeCloseTo((20_300 * (3.75 - 0.3)) / 1e6, 12);
    expect(hit?.missCostUsd).toBe(0);
  });

  it("long retention (config) keeps a 10-minute gap warm; cacheWrite1h of the previous call does too", () => {
    const mk = (w1h?: number): TB => {
      const t = new TB();
      t.user("hi", 0);
      t.call(100, {
        input: 10,
        cacheRead: 0,
        cacheWrite: 20_000,
        ...(w1h !== undefined ? { cacheWrite1h: w1h } : {}),
      });
      t.user("later", 10 * MIN);
      t.call(10 * MIN + 100, { input: 10, cacheRead: 0, cacheWrite: 20_100 });
      return t;
    };
    const long: JsonObject = { agents: { defaults: { params: { cacheRetention: "long" } } } };
    const a = buildCostReport({ session: mk().session(), config: long });
    // Within 1 h and no transcript signal: the whole prefix re-written → "something early changed".
    expect(a.calls[1]?.verdict).toBe("prefix-changed");
    expect(a.calls[1]?.evidence.cause).toBe("unknown");
    expect(a.calls[1]?.evidence.cacheTtlMs).toBe(60 * MIN);
    const b = buildCostReport({ session: mk(20_000).session(), config: null });
    expect(b.calls[1]?.evidence.cacheTtlSource).toBe("usage cacheWrite1h");
    expect(b.calls[1]?.verdict).toBe("prefix-changed");
    const c = buildCostReport({ session: mk().session(), config: null });
    expect(c.calls[1]?.verdict).toBe("ttl-expired");
  });

  it("cache TTL override (fixtures: mock TTL = scenario pruning ttl)", () => {
    const t = new TB();
    t.user("hi", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    t.user("more", 30_000);
    t.call(30_100, { input: 10, cacheRead: 0, cacheWrite: 20_100 });
    const r = buildCostReport({ session: t.session(), config: null, cacheTtlMs: 20_000 });
    expect(r.calls[1]?.verdict).toBe("ttl-expired");
    expect(r.calls[1]?.evidence.cacheTtlSource).toBe("override");
    expect(r.retention.cacheTtlMs).toBe(20_000);
  });

  it("observed TTL: full misses after longer gaps than every hit override a contradicted configured TTL", () => {
    const build = (lateHitGap: number | null): TB => {
      const t = new TB();
      t.user("a", 0);
      t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
      t.user("b", 5_000);
      t.call(5_100, { input: 10, cacheRead: 20_000, cacheWrite: 100 }); // hit after 5 s
      t.user("c", 35_000);
      t.call(35_100, { input: 10, cacheRead: 0, cacheWrite: 20_200 }); // full miss after 30 s
      t.user("d", 75_000);
      t.call(75_100, { input: 10, cacheRead: 0, cacheWrite: 20_300 }); // full miss after 40 s
      if (lateHitGap !== null) {
        t.user("e", 75_000 + lateHitGap);
        t.call(75_100 + lateHitGap, { input: 10, cacheRead: 20_300, cacheWrite: 100 });
      }
      return t;
    };
    const r = buildCostReport({ session: build(null).session(), config: null });
    expect(r.retention.observedTtl).toEqual({
      maxHitGapMs: 5_000,
      minFullMissGapMs: 30_000,
      fullMisses: 2,
      hits: 1,
      ttlMs: 29_999,
    });
    expect(r.calls.map((c) => c.verdict)).toEqual(["cold-start", "hit", "ttl-expired", "ttl-expired"]);
    expect(r.calls[2]?.evidence.cacheTtlSource).toMatch(/^observed in this session/);
    expect(r.notes.some((n) => n.startsWith("cache TTL observed"))).toBe(true);
    // A hit after a 50 s gap contradicts it: no observed TTL, the 5-minute default stays.
    const r2 = buildCostReport({ session: build(50_000).session(), config: null });
    expect(r2.retention.observedTtl).toBeNull();
    expect(r2.calls[2]?.verdict).toBe("prefix-changed");
    expect(r2.calls[2]?.evidence.summary).toContain("not even the stable system prefix");
    // An explicit override always wins.
    expect(
      buildCostReport({ session: build(null).session(), config: null, cacheTtlMs: 60_000 }).retention
        .observedTtl,
    ).toBeNull();
  });

  it("prefix-changed: compaction, projection snapshot (pruning round), thinking change, unknown", () => {
    const t = new TB();
    t.user("hi", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 30_000 });
    const comp = t.custom("compaction", { summary: "s", firstKeptEntryId: "r0", tokensBefore: 30_000 }, 1000);
    t.user("next", 2000);
    t.call(2100, { input: 10, cacheRead: 5_000, cacheWrite: 12_000 });
    // E5 projection snapshot that newly prunes a result → a pruning round before the next call.
    t.custom(
      "custom",
      {
        customType: "openclaw.cache-ttl",
        data: { prunedToolResults: [], ambiguousToolResultBaseKeys: [], frozenToolResults: [] },
      },
      2200,
    );
    t.user("again", 3000);
    t.call(3100, { input: 10, cacheRead: 17_010, cacheWrite: 100 });
    const snap = t.custom(
      "custom",
      {
        customType: "openclaw.cache-ttl",
        data: {
          prunedToolResults: [{ key: "tool:a:1", mode: "soft" }],
          ambiguousToolResultBaseKeys: [],
          frozenToolResults: [],
        },
      },
      4000,
    );
    t.call(4100, { input: 10, cacheRead: 5_000, cacheWrite: 9_000 });
    const think = t.custom("thinking_level_change", { thinkingLevel: "high" }, 5000);
    t.user("think", 5000);
    t.call(5100, { input: 10, cacheRead: 5_000, cacheWrite: 9_100 });
    t.user("edit", 6000);
    t.call(6100, { input: 10, cacheRead: 3_000, cacheWrite: 11_200 });
    const r = buildCostReport({ session: t.session(), config: null });
    const v = r.calls.map((c) => [c.verdict, c.evidence.cause]);
    expect(v).toEqual([
      ["cold-start", null],
      ["prefix-changed", "compaction"],
      ["hit", null],
      ["prefix-changed", "pruning-round"],
      ["prefix-changed", "thinking-level-change"],
      ["prefix-changed", "unknown"],
    ]);
    expect(r.calls[1]?.evidence.signalEntryIds).toEqual([comp]);
    expect(r.calls[3]?.evidence.signalEntryIds).toEqual([snap]);
    expect(r.calls[4]?.evidence.signalEntryIds).toEqual([think]);
    // Write-much-larger-than-suffix evidence: expected 14,100 = P(prev) − input(prev); suffix = P − expected.
    expect(r.calls[5]?.evidence.expectedRead).toBe(14_100);
    expect(r.calls[5]?.evidence.newSuffix).toBe(14_210 - 14_100);
    // The snapshot round shows up in the pruning-round cost table (no chars known → origin snapshot).
    expect(r.pruningRounds.map((p) => [p.callEntryId, p.origin])).toEqual([
      [r.calls[3]?.entryId, "snapshot"],
    ]);
  });

  it("merged user messages: a context-kept command + prompt re-sent as history (s1 call 19 pattern)", () => {
    const t = new TB();
    t.user("first", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    const cmd = t.user("/context list", 5000);
    t.injected(5010);
    const prompt = t.user("summarize", 8000);
    t.call(8100, { input: 10, cacheRead: 20_000, cacheWrite: 200 });
    t.user("follow-up", 12_000);
    t.call(12_100, { input: 10, cacheRead: 14_000, cacheWrite: 6_300 });
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls.map((c) => c.verdict)).toEqual(["cold-start", "hit", "prefix-changed"]);
    expect(r.calls[2]?.evidence.cause).toBe("merged-user-messages");
    expect(r.calls[2]?.evidence.signalEntryIds).toEqual([cmd, prompt]);
    expect(r.calls[2]?.evidence.missDeficit).toBe(20_200 - 14_000);
  });

  it("pruning rounds from the replay input: rewrite vs chars saved; ≤ 7.1 next call sent unpruned", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 40_000 });
    t.user("b", 1000);
    const round = t.call(1100, { input: 10, cacheRead: 10_000, cacheWrite: 5_000 });
    t.user("c", 2000);
    const next = t.call(2100, { input: 10, cacheRead: 6_000, cacheWrite: 9_100 });
    const r = buildCostReport({
      session: t.session({ family: "2026.7" }),
      config: { agents: { defaults: { contextPruning: { mode: "cache-ttl", ttl: "5m" } } } },
      pruningRounds: [{ entryId: round, charsRemoved: 100_000 }],
    });
    expect(r.calls[1]?.verdict).toBe("prefix-changed");
    expect(r.calls[1]?.evidence.cause).toBe("pruning-round");
    expect(r.calls[2]?.entryId).toBe(next);
    expect(r.calls[2]?.evidence.cause).toBe("unpruned-after-round");
    const pr = r.pruningRounds[0];
    expect(pr?.origin).toBe("input");
    expect(pr?.charsRemoved).toBe(100_000);
    expect(pr?.rewriteTokens).toBe(5_000); // min(deficit 30,000, write 5,000)
    expect(pr?.rewriteCostUsd).toBeCloseTo((5_000 * (3.75 - 0.3)) / 1e6, 12);
    expect(pr?.estTokensSavedPerCall).toBe(25_000);
    expect(pr?.laterCalls).toBe(1); // ≤ 7.1: the round applies to its own call only
    expect(r.counterfactuals.map((c) => c.id)).toContain("pruning-off");
  });

  it("model switch, reset → cold start, below minimum, unexplained", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    t.user("b", 1000);
    t.call(1100, { input: 10, cacheRead: 0, cacheWrite: 20_100 }, { model: "claude-opus-4-5" });
    t.user("c", 2000);
    t.call(2100, { input: 10, cacheRead: 2_000, cacheWrite: 150 }, { model: "claude-opus-4-5" });
    t.custom("reset", {}, 3000);
    t.user("d", 4000);
    t.call(4100, { input: 10, cacheRead: 0, cacheWrite: 9_000 }, { model: "claude-opus-4-5" });
    t.user("e", 5000);
    t.call(5100, { input: 10, cacheRead: 0, cacheWrite: 3_000 }, { model: "claude-haiku-4-5" });
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls.map((c) => c.verdict)).toEqual([
      "cold-start",
      "model-switch",
      "unexplained",
      "cold-start",
      "model-switch",
    ]);
    // Below minimum: sonnet-4-5 needs 1,024 tokens; sonnet-4-6 1,024 … 2,048 (the documented value changed on
    // 2026-05-15, shared/cache-facts.ts): the cause fires under the lower value only; nothing read or written.
    const t2 = new TB();
    t2.user("tiny", 0);
    t2.call(100, { input: 900, cacheRead: 0, cacheWrite: 0 });
    t2.user("tiny2", 1000);
    t2.call(1100, { input: 950, cacheRead: 0, cacheWrite: 0 }, { model: "claude-sonnet-4-6" });
    const r2 = buildCostReport({ session: t2.session(), config: null });
    expect(r2.calls.map((c) => c.verdict)).toEqual(["below-minimum", "below-minimum"]);
    expect(r2.calls[1]?.evidence.minCacheableTokens).toBe(1024);
    expect(r.calls[2]?.evidence.summary).toContain("no transcript signal");
  });

  it("all-zero usage (error/aborted) → no-usage, outside the lineage; never-cached provider → not-cached", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    t.user("b", 1000);
    t.call(1100, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    t.call(1200, { input: 10, cacheRead: 20_000, cacheWrite: 50 });
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls.map((c) => c.verdict)).toEqual(["cold-start", "no-usage", "hit"]);
    // The hit is judged against the first call (the zero-usage one cached nothing).
    expect(r.calls[2]?.evidence.previousCallEntryId).toBe(r.calls[0]?.entryId);

    const o = new TB();
    const local = { provider: "ollama", model: "qwen3:8b", api: "openai-completions" };
    o.user("a", 0);
    o.call(100, { input: 5_000, cacheRead: 0, cacheWrite: 0 }, local);
    o.user("b", 1000);
    o.call(1100, { input: 5_200, cacheRead: 0, cacheWrite: 0 }, local);
    const r2 = buildCostReport({ session: o.session(), config: null });
    expect(r2.calls.map((c) => c.verdict)).toEqual(["cold-start", "not-cached"]);
    expect(r2.calls[1]?.evidence.writeCounterMissing).toBe(true);
  });
});

describe("hit rates (cache-and-cost.md §5)", () => {
  it("per call and aggregate: buckets summed first, never averaged", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 100, cacheRead: 0, cacheWrite: 900 });
    t.user("b", 1000);
    t.call(1100, { input: 100, cacheRead: 8_900, cacheWrite: 1_000 });
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls[0]?.hitRate).toBe(0);
    expect(r.calls[1]?.hitRate).toBeCloseTo(8_900 / 10_000, 12);
    // Aggregate = 8,900 / 11,000, not the mean of 0 and 0.89.
    expect(r.totals.hitRate).toBeCloseTo(8_900 / 11_000, 12);
    expect(r.totals.hitRate).not.toBeCloseTo((0 + 0.89) / 2, 3);
    // Write-aware: r = (input + 0.1·read + 1.25·w5m + 2·w1h) / P, rate = (1 − r) / 0.9.
    const rr = (200 + 0.1 * 8_900 + 1.25 * 1_900) / 11_000;
    expect(r.totals.writeAwareHitRate).toBeCloseTo((1 - rr) / 0.9, 12);
    expect(r.calls[0]?.writeAwareHitRate).toBeCloseTo((1 - (100 + 1.25 * 900) / 1000) / 0.9, 12);
    expect(readHitRate({ input: 0, cacheRead: 0, cacheWrite: 0 })).toBeNull();
    // Everything read → 1; no caching → 0; 1 h writes only → negative.
    expect(writeAwareHitRate({ input: 0, cacheRead: 10, cacheWrite: 0, cacheWrite1h: 0 })).toBeCloseTo(1, 12);
    expect(writeAwareHitRate({ input: 10, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 })).toBeCloseTo(0, 12);
    expect(writeAwareHitRate({ input: 0, cacheRead: 0, cacheWrite: 10, cacheWrite1h: 10 })).toBeCloseTo(
      -1 / 0.9,
      12,
    );
  });
});

describe("pricing and cost sources (cache-and-cost.md §4)", () => {
  it("1-hour write tier from usage (cacheWrite1h) and from config (cacheRetention long)", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 1_000, output: 500, cacheRead: 0, cacheWrite: 10_000, cacheWrite1h: 4_000 });
    const r = buildCostReport({ session: t.session(), config: null });
    const c = r.calls[0];
    expect(c?.writeTier).toEqual({ tier: "mixed", cacheWrite1h: 4_000, source: "usage" });
    expect(c?.costSource).toBe("pricing-table");
    // sonnet-4-5: 3 / 15 / 0.30 / 3.75; 1 h writes at 2 × input.
    const expected = (1_000 * 3 + 500 * 15 + 6_000 * 3.75 + 4_000 * 6) / 1e6;
    expect(c?.costUsd).toBeCloseTo(expected, 12);
    expect(c?.priceSource).toContain("claude-sonnet-4-5");

    const t2 = new TB();
    t2.user("a", 0);
    t2.call(100, { input: 1_000, output: 500, cacheRead: 0, cacheWrite: 10_000 });
    const long: JsonObject = {
      agents: {
        defaults: { models: { "anthropic/claude-sonnet-4-5": { params: { cacheRetention: "long" } } } },
      },
    };
    const r2 = buildCostReport({ session: t2.session(), config: long });
    expect(r2.calls[0]?.writeTier).toEqual({ tier: "1h", cacheWrite1h: 10_000, source: "config" });
    expect(r2.calls[0]?.costUsd).toBeCloseTo((1_000 * 3 + 500 * 15 + 10_000 * 6) / 1e6, 12);
    expect(r2.totals.cacheWrite1h).toBe(10_000);
  });

  it("≤ 2026.7 data with cacheRetention long: 1-hour write correction on recorded costs, not on provider-billed ones", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 10_000, cost: 0.04 });
    const long: JsonObject = { agents: { defaults: { params: { cacheRetention: "long" } } } };
    const r = buildCostReport({ session: t.session({ family: "2026.3" }), config: long });
    expect(r.calls[0]?.costUsd).toBe(0.04);
    expect(r.calls[0]?.oneHourWriteCorrectionUsd).toBeCloseTo((10_000 * (2 * 3 - 3.75)) / 1e6, 12);
    // @openclaw/ai 2026.7.1 / 7.35 calculateCost has no 1-hour term either
    const r7 = buildCostReport({ session: t.session({ family: "2026.7" }), config: long });
    expect(r7.calls[0]?.oneHourWriteCorrectionUsd).toBeCloseTo((10_000 * (2 * 3 - 3.75)) / 1e6, 12);
    const r9 = buildCostReport({ session: t.session({ family: "2026.9" }), config: long });
    expect(r9.calls[0]?.oneHourWriteCorrectionUsd).toBeNull();
    const billed = new TB();
    billed.user("a", 0);
    billed.call(100, {
      input: 10,
      cacheRead: 0,
      cacheWrite: 10_000,
      cost: 0.04,
      totalOrigin: "provider-billed",
    });
    const rb = buildCostReport({ session: billed.session({ family: "2026.7" }), config: long });
    expect(rb.calls[0]?.oneHourWriteCorrectionUsd).toBeNull();
  });

  it("recorded cost wins when non-zero; provider-billed; zero recorded → table; unknown model → unpriced", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 2_000, cost: 0.0123 });
    t.user("b", 1000);
    t.call(1100, { input: 10, cacheRead: 2_000, cacheWrite: 10, cost: 0.5, totalOrigin: "provider-billed" });
    t.user("c", 2000);
    t.call(2100, { input: 10, cacheRead: 2_010, cacheWrite: 10 });
    t.user("d", 3000);
    t.call(
      3100,
      { input: 10, cacheRead: 0, cacheWrite: 0 },
      { provider: "ollama", model: "qwen3:8b", api: "openai-completions" },
    );
    const r = buildCostReport({ session: t.session(), config: null });
    expect(r.calls.map((c) => c.costSource)).toEqual([
      "recorded",
      "provider-billed",
      "pricing-table",
      "unpriced",
    ]);
    expect(r.calls[0]?.costUsd).toBe(0.0123);
    expect(r.calls[3]?.costUsd).toBeNull();
    expect(r.totals.unpricedCalls).toBe(1);
    const third = (10 * 3 + 10 * 15 + 2_010 * 0.3 + 10 * 3.75) / 1e6;
    expect(r.totals.costUsd).toBeCloseTo(0.0123 + 0.5 + third, 12);
    // Config price for the unknown model → priced from config, with its source shown.
    const cfg: JsonObject = {
      models: {
        providers: {
          ollama: {
            models: [{ id: "qwen3:8b", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }],
          },
        },
      },
    };
    const r2 = buildCostReport({ session: t.session(), config: cfg });
    expect(r2.calls[3]?.costUsd).toBeCloseTo((10 * 1 + 10 * 2) / 1e6, 12);
    expect(r2.calls[3]?.priceSource).toBe("config models.providers.ollama.models[qwen3:8b].cost");
  });
});

describe("usage totals (transcript.md §8, cache-and-cost.md §4 rules)", () => {
  it("excludes transcript-only assistants and sums every branch; active-branch totals separately", () => {
    const t = new TB();
    t.user("a", 0);
    const first = t.call(100, { input: 10, cacheRead: 0, cacheWrite: 5_000, output: 7 });
    // Aborted sibling: a second assistant with the same parent (branch point), billed but not active.
    t.call(200, { input: 20, cacheRead: 0, cacheWrite: 6_000, output: 3 }, {}, first);
    t.user("b", 1000, {}, first);
    t.call(1100, { input: 30, cacheRead: 5_000, cacheWrite: 100, output: 5 });
    t.injected(1200);
    t.injected(1300, "delivery-mirror");
    t.injected(1400, "delivery-mirror", "clawdbot");
    t.injected(1500, "glm-5", "custom", { openclawDeliveryMirror: { kind: "channel-final" } });
    t.injected(1600, "glm-5", "custom", { openclawMessageToolMirror: { tool: "message" } });
    const s = t.session();
    const r = buildCostReport({ session: s, config: null });
    expect(r.totals.calls).toBe(3);
    expect(r.totals.transcriptOnlyExcluded).toBe(5);
    expect([r.totals.input, r.totals.output, r.totals.cacheRead, r.totals.cacheWrite]).toEqual([
      60, 15, 5_000, 11_100,
    ]);
    expect(r.activeBranchTotals.calls).toBe(2);
    expect([r.activeBranchTotals.input, r.activeBranchTotals.cacheWrite]).toEqual([40, 5_100]);
    expect(r.calls.filter((c) => !c.onActiveBranch).map((c) => c.input)).toEqual([20]);

    const all = buildCostTotals([s, new TB().session({ archived: "reset" })]);
    expect(all.sessions).toHaveLength(2);
    expect(all.sessions[1]?.archived).toBe("reset");
    expect(all.totals.cacheWrite).toBe(11_100);
    expect(all.totals.hitRate).toBeCloseTo(5_000 / (60 + 5_000 + 11_100), 12);
  });
});

describe("heartbeats and TTL alignment (cache-and-cost.md §7)", () => {
  it("flags the API-key default cost trap and a pruning/cache TTL mismatch", () => {
    const cfg: JsonObject = {
      agents: {
        defaults: {
          heartbeat: { every: "30m" },
          contextPruning: { mode: "cache-ttl", ttl: "1h" },
          params: { cacheRetention: "short" },
        },
      },
    };
    const t = new TB();
    t.user("Read HEARTBEAT.md if it exists. If nothing needs attention, reply HEARTBEAT_OK.", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 }, { text: "HEARTBEAT_OK" });
    const r = buildCostReport({ session: t.session({ sessionKey: "agent:main:cron:job-1" }), config: cfg });
    expect(r.heartbeat.cronSession).toBe(true);
    expect(r.heartbeat.heartbeatCalls).toBe(1);
    expect(r.calls[0]?.heartbeatSignals).toHaveLength(2);
    expect(r.heartbeat.heartbeatEveryMs).toBe(30 * MIN);
    expect(r.heartbeat.flags.map((f) => f.kind)).toEqual([
      "cost-trap-rewrite-every-heartbeat",
      "pruning-ttl-mismatch",
    ]);
    expect(r.heartbeat.heartbeatRewrites).toBe(0);

    // The trap as it happened: a second heartbeat 30 min later re-writes the whole prompt.
    const h = new TB();
    h.user("Read HEARTBEAT.md if it exists. Reply HEARTBEAT_OK.", 0);
    h.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 }, { text: "HEARTBEAT_OK" });
    h.user("Read HEARTBEAT.md if it exists. Reply HEARTBEAT_OK.", 30 * MIN);
    h.call(30 * MIN + 100, { input: 10, cacheRead: 0, cacheWrite: 20_050 }, { text: "HEARTBEAT_OK" });
    const rh = buildCostReport({ session: h.session(), config: cfg });
    expect(rh.calls.map((c) => c.verdict)).toEqual(["cold-start", "ttl-expired"]);
    expect(rh.heartbeat.heartbeatRewrites).toBe(1);
    expect(rh.heartbeat.heartbeatRewritePremiumUsd).toBeCloseTo((20_000 * (3.75 - 0.3)) / 1e6, 12);

    const warm: JsonObject = {
      agents: { defaults: { heartbeat: { every: "4m" }, contextPruning: { mode: "cache-ttl", ttl: "5m" } } },
    };
    const r2 = buildCostReport({ session: t.session(), config: warm });
    expect(r2.heartbeat.flags.map((f) => f.kind)).toEqual(["heartbeat-keeps-cache-warm"]);
    const off = buildCostReport({
      session: t.session(),
      config: { agents: { defaults: { heartbeat: { every: "0m" } } } },
    });
    expect(off.heartbeat.flags.map((f) => f.kind)).toEqual(["heartbeat-off"]);
    const unset = buildCostReport({ session: t.session({ sessionKey: "agent:main:main" }), config: null });
    expect(unset.heartbeat.flags.map((f) => f.kind)).toEqual(["heartbeat-unknown"]);
    expect(unset.heartbeat.flags[0]?.message).toContain("cost trap");
    expect(unset.heartbeat.cronSession).toBe(false);
  });
});

describe("counterfactuals", () => {
  it("no caching, 1 h retention, bootstrap trimmed: each recomputed from the buckets", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, output: 100, cacheRead: 0, cacheWrite: 20_000 });
    t.user("b", 10 * MIN);
    t.call(10 * MIN + 100, { input: 10, output: 100, cacheRead: 0, cacheWrite: 20_300 });
    const r = buildCostReport({ session: t.session(), config: null, bootstrapTrimChars: 4_000 });
    const by = new Map(r.counterfactuals.map((c) => [c.id, c]));
    const asRun = ((10 + 10) * 3 + 200 * 15 + 40_300 * 3.75) / 1e6;
    expect(by.get("as-run")?.costUsd).toBeCloseTo(asRun, 12);
    expect(by.get("no-caching")?.costUsd).toBeCloseTo(((20_010 + 20_310) * 3 + 200 * 15) / 1e6, 12);
    // 1 h: the expired call reads the 20,000-token prefix and writes 300; all writes at 6 $/M.
    expect(by.get("retention-1h")?.costUsd).toBeCloseTo(
      (20 * 3 + 200 * 15 + 20_300 * 6 + 20_000 * 0.3) / 1e6,
      12,
    );
    // Bootstrap −1,000 tokens from the front of each prompt (writes here, nothing was read).
    expect(by.get("bootstrap-trimmed")?.costUsd).toBeCloseTo((20 * 3 + 200 * 15 + 38_300 * 3.75) / 1e6, 12);
    for (const c of r.counterfactuals) expect(c.assumptions.length).toBeGreaterThan(0);
  });
});

describe("pruning counterfactuals (rounds from the replay)", () => {
  // sonnet-4-5 prices 3 / 15 / 0.30 / 3.75 per 1M; every call outputs 10 tokens.
  const usd = (b: { input: number; cacheRead: number; cacheWrite: number }): number =>
    (b.input * 3 + 10 * 15 + b.cacheRead * 0.3 + b.cacheWrite * 3.75) / 1e6;

  it("pruning on as run (2026.9): off = the round's call reads the old prefix, later calls re-send the removed tokens", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 40_000 });
    t.user("b", 1000);
    // The round removed 40,000 chars ≈ 10,000 tokens: read stops at the first pruned result.
    const round = t.call(1100, { input: 10, cacheRead: 10_000, cacheWrite: 20_100 });
    t.user("c", 2000);
    t.call(2100, { input: 10, cacheRead: 30_100, cacheWrite: 100 });
    const r = buildCostReport({
      session: t.session({ family: "2026.9" }),
      config: { agents: { defaults: { contextPruning: { mode: "cache-ttl", ttl: "5m" } } } },
      pruningRounds: [{ entryId: round, charsRemoved: 40_000 }],
    });
    expect(r.calls.map((c) => c.verdict)).toEqual(["cold-start", "prefix-changed", "hit"]);
    const pr = r.pruningRounds[0];
    expect(pr?.rewriteTokens).toBe(20_100);
    expect(pr?.laterCalls).toBe(2);
    // Saved: 10,000 tokens written on the round's call, then read on the hit.
    expect(pr?.estSavedUsd).toBeCloseTo((10_000 * 3.75 + 10_000 * 0.3) / 1e6, 12);
    const off = r.counterfactuals.find((c) => c.id === "pruning-off");
    const expected =
      usd({ input: 10, cacheRead: 0, cacheWrite: 40_000 }) +
      usd({ input: 10, cacheRead: 40_000, cacheWrite: 100 }) +
      usd({ input: 10, cacheRead: 40_100, cacheWrite: 100 });
    expect(off?.costUsd).toBeCloseTo(expected, 12);
    expect(r.counterfactuals.some((c) => c.id === "pruning-on")).toBe(false);
  });

  it("pruning off as run: on = predicted rounds re-write what was read (upper bound) and drop the removed tokens", () => {
    const t = new TB();
    t.user("a", 0);
    t.call(100, { input: 10, cacheRead: 0, cacheWrite: 40_000 });
    t.user("b", 1000);
    const round = t.call(1100, { input: 10, cacheRead: 40_000, cacheWrite: 100 });
    t.user("c", 2000);
    t.call(2100, { input: 10, cacheRead: 40_100, cacheWrite: 100 });
    const r = buildCostReport({
      session: t.session({ family: "2026.9" }),
      config: { agents: { defaults: { contextPruning: { mode: "off" } } } },
      pruningRounds: [{ entryId: round, charsRemoved: 40_000 }],
    });
    expect(r.counterfactuals.some((c) => c.id === "pruning-off")).toBe(false);
    const on = r.counterfactuals.find((c) => c.id === "pruning-on");
    const expected =
      usd({ input: 10, cacheRead: 0, cacheWrite: 40_000 }) +
      usd({ input: 10, cacheRead: 0, cacheWrite: 30_100 }) +
      usd({ input: 10, cacheRead: 30_100, cacheWrite: 100 });
    expect(on?.costUsd).toBeCloseTo(expected, 12);
    expect(on?.assumptions.join(" ")).toContain("upper bound");
  });
});

describe("config helpers", () => {
  it("cacheRetention merge order and legacy cacheControlTtl; durations", () => {
    const cfg: JsonObject = {
      agents: {
        defaults: {
          params: { cacheRetention: "none" },
          models: { "anthropic/m": { params: { cacheControlTtl: "1h" } } },
        },
        list: [{ id: "main", params: { cacheRetention: "short" } }, { id: "other" }],
      },
    };
    expect(
      resolveCacheRetention(cfg, "main", "anthropic", "m", { family: "2026.7", appVersion: null }),
    ).toEqual({
      value: "short",
      source: "config agents.list[0].params.cacheRetention",
    });
    expect(
      resolveCacheRetention(cfg, "other", "anthropic", "m", { family: "2026.7", appVersion: null }),
    ).toEqual({
      value: "long",
      source: 'config agents.defaults.models["anthropic/m"].params.cacheControlTtl',
    });
    expect(
      resolveCacheRetention(cfg, "other", "anthropic", "z", { family: "2026.7", appVersion: null }).value,
    ).toBe("none");
    expect(
      resolveCacheRetention(null, "main", "amazon-bedrock", "x", { family: "2026.9", appVersion: null })
        .value,
    ).toBeNull();
    expect(cacheTtlForRetention("long", "x").ms).toBe(3_600_000);
    expect(cacheTtlForRetention(null, "unset (assumed 5 min)")).toEqual({
      ms: 300_000,
      source: "unset (assumed 5 min)",
    });
    expect(durationFromJson("20s")).toBe(20_000);
    expect(durationFromJson("1h")).toBe(3_600_000);
    expect(durationFromJson("0m")).toBe(0);
    expect(durationFromJson("30")).toBe(30 * 60_000);
    expect(durationFromJson(5)).toBe(5 * 60_000);
    expect(durationFromJson("soon")).toBeNull();
  });
});
