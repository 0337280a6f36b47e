// The overview's pure parts: days in a time zone, the cost-kind split of a call, and the sums with filters.

import { describe, expect, it } from "vitest";
import { DayKeys, isIsoDay } from "../../server/reports/overview/day-key.ts";
import { costByKind, type OverviewCall } from "../../server/reports/overview/overview-call.ts";
import { parseOverviewQuery } from "../../server/reports/overview/overview-filter.ts";
import { buildOverview, DEFAULT_FILTER } from "../../server/reports/overview/overview-report.ts";

const at = (iso: string) => Date.parse(iso);

describe("DayKeys", () => {
  it("UTC days, and a zone's midnight with DST and a :30 offset", () => {
    expect(new DayKeys("UTC").dayOf(at("2026-03-28T23:59:59.999Z"))).toBe("2026-03-28");
    const berlin = new DayKeys("Europe/Berlin");
    expect(berlin.dayOf(at("2026-03-28T22:59:00Z"))).toBe("2026-03-28"); // 23:59 CET
    expect(berlin.dayOf(at("2026-03-28T23:00:00Z"))).toBe("2026-03-29"); // 00:00 CET
    expect(berlin.dayOf(at("2026-10-24T21:59:00Z"))).toBe("2026-10-24"); // 23:59 CEST
    expect(berlin.dayOf(at("2026-10-24T22:00:00Z"))).toBe("2026-10-25");
    const kolkata = new DayKeys("Asia/Kolkata");
    expect(kolkata.dayOf(at("2026-05-01T18:29:00Z"))).toBe("2026-05-01");
    expect(kolkata.dayOf(at("2026-05-01T18:30:00Z"))).toBe("2026-05-02");
  });

  it("isIsoDay accepts only real days", () => {
    expect(isIsoDay("2026-02-28")).toBe(true);
    expect(isIsoDay("2026-02-29")).toBe(false);
    expect(isIsoDay("2026-2-1")).toBe(false);
  });
});

describe("costByKind", () => {
  it("splits a computed cost by its price's buckets, the write by the verdict", () => {
    const split = { input: 0.003, output: 0.015, cacheRead: 0.03, cacheWrite: 0.0375 };
    const total = 0.003 + 0.015 + 0.03 + 0.0375;
    expect(costByKind(total, "hit", split)).toEqual({
      freshInput: 0.003,
      output: 0.015,
      cacheRead: 0.03,
      cacheWriteAfterHit: 0.0375,
    });
    const miss = costByKind(total, "ttl-expired", split);
    expect(miss?.cacheWriteAfterMiss).toBeCloseTo(0.0375, 12);
    expect(miss?.cacheWriteAfterHit).toBeUndefined();
  });

  it("a recorded cost keeps its total, split by the price's shares; no price: unsplit; unpriced: null", () => {
    const k = costByKind(1, "hit", { input: 1, output: 1, cacheRead: 0, cacheWrite: 2 });
    expect(k).toEqual({ freshInput: 0.25, output: 0.25, cacheWriteAfterHit: 0.5 });
    expect(costByKind(0.42, "cold-start", null)).toEqual({ unsplit: 0.42 });
    expect(costByKind(null, "cold-start", null)).toBeNull();
  });
});

function call(iso: string | null, costUsd: number | null, o: Partial<OverviewCall> = {}): OverviewCall {
  return {
    atMs: iso === null ? null : at(iso),
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    input: 10,
    output: 5,
    cacheRead: 100,
    cacheWrite: 20,
    writeTier: { cacheWrite1h: 0 },
    costUsd,
    missCostUsd: null,
    byKind: costUsd === null ? null : { unsplit: costUsd },
    cause: "hit",
    ...o,
  };
}

describe("buildOverview", () => {
  const sessions = [
    {
      agentId: "a",
      sessionId: "s1",
      sessionKey: "agent:a:main",
      archived: null,
      calls: [
        call("2026-11-01T10:00:00Z", 1, { missCostUsd: 0.5, cause: "ttl-expired" }),
        call("2026-11-02T10:00:00Z", null),
        call(null, 2),
      ],
    },
    {
      agentId: "b",
      sessionId: "s2",
      sessionKey: null,
      archived: "reset",
      calls: [call("2026-11-02T23:30:00Z", 4, { provider: "openai", model: "gpt-5" })],
    },
    { agentId: "b", sessionId: "empty", sessionKey: null, archived: null, calls: [] },
  ];

  it("sums priced calls, counts unpriced ones apart, keeps undated calls last", () => {
    const o = buildOverview(sessions, DEFAULT_FILTER);
    expect(o.totals).toMatchObject({ costUsd: 7, calls: 4, sessions: 3, unpricedCalls: 1, missCostUsd: 0.5 });
    expect(o.byDay.map((d) => [d.day, d.calls, d.costUsd, d.unpricedCalls])).toEqual([
      ["2026-11-01", 1, 1, 0],
      ["2026-11-02", 2, 4, 1],
      [null, 1, 2, 0],
    ]);
    expect(o.byAgent.map((a) => [a.agentId, a.sessions, a.costUsd])).toEqual([
      ["b", 2, 4],
      ["a", 1, 3],
    ]);
    expect(o.byModel.map((m) => [m.provider, m.model, m.calls])).toEqual([
      ["openai", "gpt-5", 1],
      ["anthropic", "claude-sonnet-4-5", 3],
    ]);
    expect(o.sessions.map((s) => s.sessionId)).toEqual(["s2", "s1", "empty"]);
    expect(o.totals.byKind.unsplit).toBe(7);
    // by cause: every call once, costliest first, unpriced calls counted apart
    expect(o.byCause.map((c) => [c.cause, c.calls, c.costUsd, c.unpricedCalls, c.missCostUsd])).toEqual([
      ["hit", 3, 6, 1, 0],
      ["ttl-expired", 1, 1, 0, 0.5],
    ]);
    expect(o.byCause.reduce((a, c) => a + c.costUsd, 0)).toBe(o.totals.costUsd);
  });

  it("a date filter keeps the sessions with a call in range; undated calls are outside every range", () => {
    const q = parseOverviewQuery({ since: "2026-11-02", tz: "America/New_York" });
    if (!q.ok) throw new Error(q.error.message);
    const o = buildOverview(sessions, q.value);
    // 2026-11-01T10:00Z is Nov 1 in New York; 2026-11-02T23:30Z is still Nov 2 there.
    expect(o.totals).toMatchObject({ calls: 2, sessions: 2, costUsd: 4, unpricedCalls: 1 });
    expect(o.byDay.map((d) => d.day)).toEqual(["2026-11-02"]);
  });

  it("archived sessions behind the switch; agent and model filters", () => {
    expect(buildOverview(sessions, { ...DEFAULT_FILTER, includeArchived: false }).totals.costUsd).toBe(3);
    expect(buildOverview(sessions, { ...DEFAULT_FILTER, agentId: "b" }).totals.sessions).toBe(2);
    const gpt = buildOverview(sessions, { ...DEFAULT_FILTER, model: "openai/gpt-5" });
    expect(gpt.sessions.map((s) => s.sessionId)).toEqual(["s2"]);
    expect(gpt.models).toEqual(["anthropic/claude-sonnet-4-5", "openai/gpt-5"]);
  });
});
