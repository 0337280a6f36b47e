// `overview --json` (issue 14 §1) against what each session's own cost report says: on the demo, every fixture
// state dir and every corpus dir (read in place), the totals, the by-day / by-agent / by-model / per-session rows
// are sums of the per-session `cost --json` reports (SessionService.cost, the CLI's `cost --session REF`).

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService, type SessionService } from "../../server/service/session-service.ts";
import type { OverviewDTO, OverviewResponseDTO } from "../../shared/overview.ts";
import { runCli } from "../helpers/cli.ts";

const REPO = path.resolve(__dirname, "../..");
const DEMO = path.join(REPO, "server", "demo", "state");
const SHARED = path.resolve(REPO, "..", "shared");
const FIXTURES = path.join(SHARED, "fixtures");
const CORPUS = path.join(SHARED, "corpus");

const service = (stateDir: string): SessionService =>
  createSessionService({ stateDir, demo: false, reason: "test" });

function overviewOf(s: SessionService, query = {}): OverviewDTO {
  const r = s.overview(query);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The overview's every figure against the per-session cost reports of its sessions. */
function expectSumsOfSessionReports(stateDir: string): OverviewDTO {
  const s = service(stateDir);
  const o = overviewOf(s);
  // Backups / checkpoints repeat another transcript's calls: counted once (summary.copyOf), as `cost --all`.
  const listed = s.listSessions().sessions.filter((x) => x.copyOf === undefined);
  let cost = 0;
  let calls = 0;
  let unpriced = 0;
  let miss = 0;
  const byCause = new Map<string, number>();
  for (const row of o.sessions) {
    const r = s.cost(row.agentId, row.sessionId);
    // A session without transcript is a row without calls (cost says "transcript not found").
    if (!r.ok && row.calls === 0) continue;
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value.totals;
    const rowMiss = r.value.calls.reduce((a, c) => a + (c.missCostUsd ?? 0), 0);
    expect(row.costUsd).toBeCloseTo(t.costUsd, 9);
    expect(row.calls).toBe(t.calls);
    expect(row.unpricedCalls).toBe(t.unpricedCalls);
    expect(row.missCostUsd).toBeCloseTo(rowMiss, 9);
    cost += t.costUsd;
    calls += t.calls;
    unpriced += t.unpricedCalls;
    miss += rowMiss;
    for (const b of r.value.breakdown) byCause.set(b.cause, (byCause.get(b.cause) ?? 0) + b.costUsd);
  }
  expect(o.totals.sessions).toBe(o.sessions.length);
  expect(o.sessions.length).toBe(listed.length);
  expect(o.totals.costUsd).toBeCloseTo(cost, 6);
  expect(o.totals.calls).toBe(calls);
  expect(o.totals.unpricedCalls).toBe(unpriced);
  expect(o.totals.missCostUsd).toBeCloseTo(miss, 6);
  // Every cut sums to the totals.
  // the overview's causes are the sessions' breakdown rows summed
  expect(new Set(o.byCause.map((c) => c.cause))).toEqual(new Set(byCause.keys()));
  for (const c of o.byCause) expect(c.costUsd, c.cause).toBeCloseTo(byCause.get(c.cause) ?? Number.NaN, 6);
  for (const cut of [o.byDay, o.byAgent, o.byModel, o.byCause] as const) {
    expect(cut.reduce((a, r) => a + r.calls, 0)).toBe(o.totals.calls);
    expect(cut.reduce((a, r) => a + r.costUsd, 0)).toBeCloseTo(o.totals.costUsd, 6);
    expect(cut.reduce((a, r) => a + r.unpricedCalls, 0)).toBe(o.totals.unpricedCalls);
  }
  expect(o.byAgent.reduce((a, r) => a + r.sessions, 0)).toBe(o.totals.sessions);
  const kinds = Object.values(o.totals.byKind).reduce((a, v) => a + v, 0);
  expect(kinds).toBeCloseTo(o.totals.costUsd, 6);
  for (const d of o.byDay) {
    expect(Object.values(d.byKind).reduce((a, v) => a + v, 0)).toBeCloseTo(d.costUsd, 6);
  }
  return o;
}

describe("overview totals = Σ per-session cost reports", () => {
  it("demo: a non-zero priced total, one day, three agents", () => {
    const o = expectSumsOfSessionReports(DEMO);
    expect(o.totals.costUsd).toBeGreaterThan(0);
    expect(o.totals.unpricedCalls).toBe(0);
    expect(o.totals.missCostUsd).toBeGreaterThan(0);
    expect(o.byAgent.map((a) => a.agentId).sort()).toEqual(["legacy", "main", "research"]);
    expect(o.byDay.map((d) => d.day)).toEqual(["2026-11-30"]);
    expect(o.totals.byKind.cacheWriteAfterMiss).toBeGreaterThan(0);
    expect(o.totals.byKind.unsplit).toBe(0);
  });

  const scenarios = existsSync(FIXTURES)
    ? readdirSync(FIXTURES).filter((d) => existsSync(path.join(FIXTURES, d, "state")))
    : [];
  if (scenarios.length === 0) console.warn(`[skip] fixtures not found at ${FIXTURES}`);
  it.each(scenarios)("fixture %s", (d) => {
    const o = expectSumsOfSessionReports(path.join(FIXTURES, d, "state"));
    expect(o.totals.calls).toBeGreaterThan(0);
  });

  const corpus = existsSync(CORPUS) ? readdirSync(CORPUS).filter((d) => d.startsWith("state-")) : [];
  if (corpus.length === 0)
    console.warn(`[skip] corpus not found at ${CORPUS}: corpus overview tests skipped`);
  it.each(corpus)("corpus %s", { timeout: 120_000 }, (d) => {
    const o = expectSumsOfSessionReports(path.join(CORPUS, d));
    expect(o.totals.calls).toBeGreaterThan(0);
  });
});

describe("overview advice (issue 14 §4)", () => {
  it("demo: a retention card per agent with $ saved and the numbers behind it; the agent filter keeps its own", () => {
    const s = service(DEMO);
    const o = overviewOf(s);
    const retention = o.advice.filter((a) => a.kind === "cache-retention");
    expect(retention.map((a) => a.agentId)).toEqual(["legacy", "main", "research"]);
    for (const a of retention) {
      expect(a.savingsUsd).toBeGreaterThan(0);
      expect(a.recommended).toMatch(/\{ agents: \{ defaults: /);
      expect(a.evidence.join("\n")).toMatch(/idle gaps/);
    }
    // main: 20 of 59 gaps expired; 1-hour retention is the session's own counterfactual.
    const main = retention.find((a) => a.agentId === "main");
    const cost = s.cost("main", "bc255ab3-b341-464a-a811-4d1115e16ed8");
    if (!cost.ok) throw new Error(cost.error.message);
    const long = cost.value.counterfactuals.find((c) => c.id === "retention-1h");
    expect(main?.recommended).toContain('cacheRetention: "long"');
    expect(main?.savingsUsd).toBeCloseTo(-(long?.deltaUsd ?? 0), 9);
    // The demo's main/research pruning ttl lies inside the observed bracket: no pruning card for them.
    expect(o.advice.filter((a) => a.kind === "pruning-ttl").map((a) => a.agentId)).not.toContain("main");
    expect(overviewOf(s, { agent: "research" }).advice.every((a) => a.agentId === "research")).toBe(true);
  });
});

describe("overview filters", () => {
  const s = service(DEMO);
  const all = overviewOf(s);

  it("--agent keeps one agent's sessions; the choices still list every agent", () => {
    const o = overviewOf(s, { agent: "research" });
    expect(o.sessions.map((r) => r.agentId)).toEqual(["research"]);
    expect(o.totals.costUsd).toBeCloseTo(all.byAgent.find((a) => a.agentId === "research")?.costUsd ?? -1, 9);
    expect(o.agents).toEqual(all.agents);
  });

  it("--since/--until: a range without calls is empty, the calls' day is all of it", () => {
    const none = overviewOf(s, { since: "2026-12-01" });
    expect(none.totals).toMatchObject({ calls: 0, sessions: 0, costUsd: 0 });
    expect(none.byDay).toEqual([]);
    const day = overviewOf(s, { since: "2026-11-30", until: "2026-11-30" });
    expect(day.totals.calls).toBe(all.totals.calls);
  });

  it("--tz moves calls across midnight", () => {
    // The demo's calls are at 00:29–00:37 UTC on 2026-11-30: in Los Angeles that is the evening before.
    const la = overviewOf(s, { tz: "America/Los_Angeles" });
    expect(la.filter.timeZone).toBe("America/Los_Angeles");
    expect(la.byDay.map((d) => d.day)).toEqual(["2026-11-29"]);
    expect(la.totals.calls).toBe(all.totals.calls);
    expect(overviewOf(s, { tz: "America/Los_Angeles", since: "2026-11-30" }).totals.calls).toBe(0);
  });

  it("--model by provider/model or bare id", () => {
    const [m] = all.models;
    expect(m).toBeDefined();
    expect(overviewOf(s, { model: m }).totals.calls).toBe(all.totals.calls);
    expect(overviewOf(s, { model: "claude-mock-1" }).totals.calls).toBe(all.totals.calls);
    expect(overviewOf(s, { model: "nope/none" }).totals.calls).toBe(0);
  });

  it("bad values are located errors", () => {
    for (const q of [{ since: "2026-13-01" }, { until: "yesterday" }, { tz: "Mars/Olympus" }]) {
      const r = s.overview(q);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.status).toBe(400);
    }
    const r = s.overview({ since: "2026-12-02", until: "2026-12-01" });
    expect(r.ok).toBe(false);
  });
});

describe("overview CLI and route", () => {
  const cli = (args: string[]) => runCli(args);

  it("`overview --json` prints exactly the issue's fields, stdout the result only", () => {
    const run = cli(["overview", "--demo", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const o = JSON.parse(run.stdout) as OverviewDTO;
    const keys = (x: object | undefined) => Object.keys(x ?? {});
    expect(keys(o).slice(0, 6)).toEqual(["totals", "byDay", "byAgent", "byModel", "sessions", "advice"]);
    expect(keys(o.totals).slice(0, 5)).toEqual([
      "costUsd",
      "calls",
      "sessions",
      "unpricedCalls",
      "missCostUsd",
    ]);
    expect(keys(o.byDay[0]).slice(0, 3)).toEqual(["day", "costUsd", "calls"]);
    expect(keys(o.byAgent[0]).slice(0, 4)).toEqual(["agentId", "costUsd", "calls", "sessions"]);
    expect(keys(o.byModel[0]).slice(0, 4)).toEqual(["provider", "model", "costUsd", "calls"]);
    expect(keys(o.sessions[0]).slice(0, 7)).toEqual([
      "agentId",
      "sessionId",
      "sessionKey",
      "archived",
      "costUsd",
      "missCostUsd",
      "calls",
    ]);
    expect(o.totals.costUsd).toBeCloseTo(overviewOf(service(DEMO)).totals.costUsd, 9);
  });

  it("a bad flag value exits 2 with the value named", () => {
    const r = cli(["overview", "--demo", "--json", "--since", "Nov 30"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('"Nov 30"');
  });

  it("text output says unpriced usage as unpriced (N calls)", () => {
    // s5-local-cli runs a local model nobody prices.
    const dir = path.join(FIXTURES, "s5-local-cli", "state");
    if (!existsSync(dir)) return;
    const o = overviewOf(service(dir));
    if (o.totals.unpricedCalls === 0) return;
    const r = cli(["overview", "--state-dir", dir]);
    expect(r.stdout).toContain(`unpriced (${o.totals.unpricedCalls} calls)`);
    expect(r.stdout).not.toContain("$0.0000");
  });

  it("GET /api/overview answers at once with the scan's progress, then the whole overview", async () => {
    const s = service(DEMO);
    const app = createApp({ service: s, boundHost: "127.0.0.1", port: null });
    const get = async (q = "") => {
      const res = await app.request(`http://127.0.0.1/api/overview${q}`, { headers: { host: "127.0.0.1" } });
      return { status: res.status, body: (await res.json()) as OverviewResponseDTO };
    };
    const first = await get();
    expect(first.status).toBe(200);
    expect(["running", "ready"]).toContain(first.body.progress.state);
    await expect.poll(async () => (await get()).body.progress.state, { timeout: 30_000 }).toBe("ready");
    const done = await get("?agent=main");
    expect(done.body.overview.sessions.map((r) => r.agentId)).toEqual(["main"]);
    expect((await get("?tz=Nowhere/Else")).status).toBe(400);
    s.close();
  });
});
