// The header's TTL countdown words (web/views/cache-clock-text.ts) on real clock data: the server's clock for
// the demo s1 session (OpenClaw 2026.9.6 capture, agent `research`) evaluated at chosen instants, then ticked
// locally by the browser's elapsed time.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cacheClock, clockReplayAt } from "../../../server/live/cache-clock.ts";
import { createSessionService } from "../../../server/service/session-service.ts";
import type { CacheClockDTO } from "../../../shared/live.ts";
import { clockText, fmtCountdown } from "../../../web/views/cache-clock-text.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "../../../server/demo/state");
const S1 = "c50b7fb8-120b-44a9-a477-545eec87c0a7";

describe("fmtCountdown", () => {
  it("formats whole seconds, rounded up", () => {
    expect(fmtCountdown(192_000)).toBe("3m12s");
    expect(fmtCountdown(191_001)).toBe("3m12s");
    expect(fmtCountdown(45_000)).toBe("45s");
    expect(fmtCountdown(3_725_000)).toBe("1h02m05s");
    expect(fmtCountdown(0)).toBe("0s");
    expect(fmtCountdown(-5)).toBe("0s");
  });
});

describe("clockText on the demo s1 clock", () => {
  const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
  afterAll(() => service.close?.());

  function clockAt(now: (touch: number, ttl: number) => number): CacheClockDTO {
    const replay = service.prune("research", S1, {});
    const cost = service.cost("research", S1);
    if ("error" in replay || "error" in cost) throw new Error("load failed");
    const at = clockReplayAt(replay.value);
    const touch = replay.value.next.lastCacheTouchAt;
    const ttl = cost.value.retention.cacheTtlMs;
    if (at === null || touch === null || ttl === null) throw new Error("s1 has a clock");
    const after = service.prune("research", S1, { at: [String(at)] });
    if ("error" in after) throw new Error(after.error.message);
    return cacheClock({ replay: after.value, cost: cost.value, now: now(touch, ttl) });
  }

  it("warm: 'cache warm for …' ticking down with the elapsed time", () => {
    const c = clockAt((touch) => touch + 1000);
    if (c.msLeft === null) throw new Error("s1 has a cache lifetime");
    const t0 = clockText(c, 0);
    expect(t0.state).toBe("warm");
    expect(t0.text).toBe(`cache warm for ${fmtCountdown(c.msLeft)}`);
    const t1 = clockText(c, 2000);
    expect(t1.text).toBe(`cache warm for ${fmtCountdown(c.msLeft - 2000)}`);
    // Past the lifetime the same DTO reads expired, without asking the server.
    const late = clockText(c, c.msLeft + 1);
    expect(late.state).toBe("expired");
  });

  it("expired: re-write tokens, no price for the unpriced mock model, prune count", () => {
    const c = clockAt((touch, ttl) => touch + ttl + 5000);
    const t = clockText(c, 0);
    expect(t.state).toBe("expired");
    expect(c.rewriteTokens).not.toBeNull();
    expect(c.rewriteUsd).toBeNull();
    const n = new Intl.NumberFormat("en-US").format(c.rewriteTokens ?? 0);
    expect(t.text).toMatch(
      new RegExp(`^expired: the next call will re-write ~${n} tokens \\(no price known\\) and pruning will`),
    );
    // s1 trims nothing after its TTL (below the soft-trim ratio): K = 0, said as such.
    expect(c.pruneCount).toBe(0);
    if (c.pruneMsLeft !== null && c.pruneMsLeft <= 0)
      expect(t.text).toMatch(/pruning will trim 0 tool results$/);
  });

  it("priced and pruning off", () => {
    const base = clockAt((touch, ttl) => touch + ttl + 5000);
    const t = clockText({ ...base, rewriteTokens: 44209, rewriteUsd: 0.1658, pruneMsLeft: null }, 0);
    expect(t.text).toBe("expired: the next call will re-write ~44,209 tokens (≈ $0.17) and pruning is off");
    const k = clockText(
      { ...base, rewriteTokens: 1000, rewriteUsd: 0.004, pruneMsLeft: -1, pruneCount: 3 },
      0,
    );
    expect(k.text).toBe(
      "expired: the next call will re-write ~1,000 tokens (≈ $0.0040) and pruning will trim 3 tool results",
    );
  });

  it("a long-idle session says how long, on the wall clock; an archive gets no next-call line (issue 15)", () => {
    const base = clockAt((touch, ttl) => touch + ttl + 5000);
    const touch = base.lastCallAt ?? 0;
    const idle = {
      ...base,
      now: touch + 36 * 3_600_000,
      rewriteTokens: 1000,
      rewriteUsd: null,
      pruneMsLeft: null,
    };
    expect(clockText(idle, 0).text).toBe(
      "idle for 1d 12h — the cache is cold: the next call will re-write ~1,000 tokens (no price known) and pruning is off",
    );
    // The browser's elapsed time since the fetch counts: the clock is the wall clock.
    expect(clockText(idle, 3_600_000).text).toContain("idle for 1d 13h");
    expect(clockText(idle, 0, true).text).toBe(
      "expired (idle for 1d 12h): an archived transcript gets no next call",
    );
    expect(clockText(base, 0, true).text).not.toContain("next call will");
  });
});
