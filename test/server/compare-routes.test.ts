// Compare (issue 16) through app.request and the CLI on the bundled demo state dir: two sessions side by side
// carry each one's own cost, cache writes, pruning rounds and map composition (the numbers GET …/cost,
// …/prune and …/map give), the diff is b − a; a what-if side takes the cost report's counterfactual that IS the
// what-if, or says it is not modelled; `compare --json` prints what GET /api/compare returns.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { CompareDTO } from "../../shared/compare.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { isObject } from "../../shared/json.ts";
import { runCli } from "../helpers/cli.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, "..", "..");
const DEMO = path.join(REPO, "server", "demo", "state");
const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test", hostTimeZone: "UTC" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
const H = { host: "127.0.0.1:4470" };

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await app.request(url, { headers: H });
  return { status: res.status, body: await res.json() };
}

function isCompare(v: unknown): v is CompareDTO {
  return isObject(v) && isObject(v.a) && isObject(v.b) && isObject(v.diff) && Array.isArray(v.diff.groups);
}

async function compare(query: string): Promise<CompareDTO> {
  const { status, body } = await get(`/api/compare?${query}`);
  expect(status).toBe(200);
  if (!isCompare(body)) throw new Error("not a compare body");
  return body;
}

function isCost(v: unknown): v is CostReportDTO {
  return isObject(v) && isObject(v.totals) && Array.isArray(v.calls) && Array.isArray(v.counterfactuals);
}

async function cost(ref: string): Promise<CostReportDTO> {
  const { body } = await get(`/api/sessions/${ref}/cost`);
  if (!isCost(body)) throw new Error("no cost");
  return body;
}

const sessions = service.listSessions().sessions.filter((s) => s.archived === null);
const ref = (s: { agentId: string; sessionId: string }) => `${s.agentId}/${encodeURIComponent(s.sessionId)}`;
const main = sessions.find((s) => s.sessionKey === "agent:main:main");
const other = sessions.find((s) => s.agentId !== "main" && (s.entryCount ?? 0) > 2);
if (!main || !other) throw new Error("the demo has agent:main:main and a session of another agent");
const A = ref(main);
const B = ref(other);

describe("GET /api/compare: two sessions", () => {
  it("gives each side its own cost, writes, rounds and composition, and the diff b − a", async () => {
    const dto = await compare(`a=${A}&b=${B}`);
    const [ca, cb] = [await cost(A), await cost(B)];
    expect(dto.a.sessionId).toBe(main.sessionId);
    expect(dto.b.sessionId).toBe(other.sessionId);
    expect(dto.a.costUsd).toBeCloseTo(ca.totals.costUsd, 9);
    expect(dto.b.costUsd).toBeCloseTo(cb.totals.costUsd, 9);
    expect(dto.diff.costUsd).toBeCloseTo(cb.totals.costUsd - ca.totals.costUsd, 9);
    expect(dto.a.tokensWritten).toBe(ca.totals.cacheWrite);
    expect(dto.diff.tokensWritten).toBe(cb.totals.cacheWrite - ca.totals.cacheWrite);
    const prune = await get(`/api/sessions/${A}/prune?calls=summary`);
    if (!isObject(prune.body) || typeof prune.body.rounds !== "number") throw new Error("no prune rounds");
    expect(dto.a.pruningRounds).toBe(prune.body.rounds);
    expect(dto.a.calls).toBe(ca.calls.length);
    const sum = (k: "aChars" | "bChars") => dto.diff.groups.reduce((s, g) => s + g[k], 0);
    expect(sum("aChars")).toBe(dto.a.trackedChars);
    expect(sum("bChars")).toBe(dto.b.trackedChars);
    expect(new Set(dto.diff.groups.map((g) => g.path)).size).toBe(dto.diff.groups.length);
    // spend per cause adds up to each side's cost
    const causeSum = (k: "aUsd" | "bUsd") => dto.diff.causes.reduce((s, c) => s + (c[k] ?? 0), 0);
    expect(causeSum("aUsd")).toBeCloseTo(ca.totals.costUsd, 9);
    expect(causeSum("bUsd")).toBeCloseTo(cb.totals.costUsd, 9);
    // …and is the cost report's own "where the money went" breakdown, row for row
    for (const [side, c] of [
      [dto.a, ca],
      [dto.b, cb],
    ] as const)
      expect(side.causes).toEqual(
        c.breakdown.map((r) => ({
          cause: r.cause,
          calls: r.calls,
          tokens: r.tokens,
          costUsd: r.costUsd,
          unpricedCalls: r.unpricedCalls,
        })),
      );
  });

  it("takes AGENT/SESSION, a session key or a session id; an unknown one is a located 404", async () => {
    const byKey = await compare(
      `a=${encodeURIComponent("agent:main:main")}&b=${encodeURIComponent(other.sessionId)}`,
    );
    expect(byKey.a.sessionId).toBe(main.sessionId);
    expect(byKey.b.sessionId).toBe(other.sessionId);
    const missing = await get(`/api/compare?a=${A}&b=nope/nope`);
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain("nope/nope");
    expect((await get("/api/compare")).status).toBe(404);
  });
});

describe("GET /api/compare: one session under a what-if", () => {
  it("pruning off: no rounds on b, its cost the pruning-off counterfactual, tool results as sent in full", async () => {
    const dto = await compare(`a=${A}&mode=off`);
    const ca = await cost(A);
    expect(dto.b.sessionId).toBe(main.sessionId);
    expect(dto.whatIf?.prune).toEqual({ mode: "off" });
    expect(dto.b.label).toBe("what-if: mode=off");
    expect(dto.b.pruningRounds).toBe(0);
    const cf = ca.counterfactuals.find((c) => c.id === "pruning-off");
    expect(dto.b.costUsd).toBe(cf?.costUsd ?? null);
    expect(dto.b.causes).toBeNull();
    for (const g of dto.diff.groups) {
      if (g.path.startsWith("conversation/tool-results")) expect(g.bChars).toBeGreaterThanOrEqual(g.aChars);
      else expect(g.bChars).toBe(g.aChars);
    }
  });

  it("retention none: nothing written or read, the no-caching counterfactual", async () => {
    const dto = await compare(`a=${A}&retention=none`);
    const cf = (await cost(A)).counterfactuals.find((c) => c.id === "no-caching");
    expect(dto.b.tokensWritten).toBe(0);
    expect(dto.b.costUsd).toBe(cf?.costUsd ?? null);
    expect(dto.diff.tokensWritten).toBe(-(dto.a.tokensWritten ?? 0));
  });

  it("a bootstrap cap: the workspace files as the truncation what-if injects them; cost not modelled", async () => {
    const dto = await compare(`a=${A}&maxPerFile=500`);
    const t = await get(`/api/sessions/${A}/truncation?maxPerFile=500`);
    if (!isObject(t.body) || !Array.isArray(t.body.files)) throw new Error("no truncation");
    for (const f of t.body.files) {
      if (!isObject(f) || typeof f.injectedChars !== "number") continue;
      const g = dto.diff.groups.find((x) => x.path === `workspace/${f.name}`);
      if (g) expect(g.bChars).toBe(f.injectedChars);
    }
    expect(dto.diff.groups.some((g) => g.path.startsWith("workspace/") && g.bChars < g.aChars)).toBe(true);
    expect(dto.b.costUsd).toBeNull();
    expect(dto.b.costBasis).toContain("not modelled");
  });
});

describe("clawscope compare", () => {
  const cli = (...args: string[]) => runCli(["compare", ...args, "--state-dir", DEMO]);

  it("--json prints what GET /api/compare returns; the what-if flags are the prune command's", async () => {
    const run = cli("--a", "agent:main:main", "--b", `${other.agentId}/${other.sessionId}`, "--json");
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(await compare(`a=${A}&b=${B}`));
    const whatIf = cli("--a", "agent:main:main", "--pruning", "off", "--ttl", "10m", "--json");
    expect(whatIf.status, whatIf.stderr).toBe(0);
    expect(JSON.parse(whatIf.stdout)).toEqual(await compare(`a=${A}&mode=off&ttl=10m`));
  });

  it("text: both sides, the totals and the composition; a missing --a is a usage error", () => {
    const run = cli("--a", "agent:main:main", "--retention", "none");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("what-if: cacheRetention=none");
    expect(run.stdout).toContain("tokens written");
    expect(cli().status).toBe(2);
  });
});
