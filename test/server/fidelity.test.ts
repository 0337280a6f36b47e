// Issue 13, the report side: what clawscope says about sessions real installs leave behind — a transcript that is
// missing, copies left out of the totals — on the synthetic state dirs of test/fixtures/real-world/ (README there).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatCostAll, formatOverview, formatPrune } from "../../server/cli/text-output.ts";
import { createApp } from "../../server/http/app.ts";
import { writeAwareHitRate } from "../../server/reports/cost/hit-rates.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { clockBackLabel, writeAwareText } from "../../shared/clock-labels.ts";
import { runCli } from "../helpers/cli.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const FIX = path.resolve(__dirname, "../fixtures/real-world");
const state = (name: string) => path.join(FIX, name, "state");

function cli(stateDir: string, ...args: string[]) {
  return runCli([...args, "--state-dir", stateDir]);
}

const SID = "0c0c0c0c-0000-4000-8000-000000000001";
const GONE = "agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl";

describe("cost and prune of a session whose transcript is missing", () => {
  it("the CLI says transcript not found: <path> and exits 1, never $0 and 0 calls", () => {
    for (const command of ["cost", "prune"]) {
      const r = cli(state("windows-paths"), command, "--session", "agent:main:cron:gone", "--json");
      expect(r.status, command).toBe(1);
      expect(r.stdout, command).toBe("");
      expect(r.stderr, command).toContain(`transcript not found: ${GONE}`);
    }
  });

  it("the API answers 404 transcript-not-found with the path (the UI's empty state), for every pruning route", async () => {
    const service = createSessionService({ stateDir: state("windows-paths"), demo: false, reason: "test" });
    const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
    const base = "/api/sessions/main/3333cccc-0000-4000-8000-000000000033";
    for (const route of ["cost", "prune", "prune/call?call=0", "prune/preview?call=0&toolCallId=x"]) {
      const res = await app.request(`${base}/${route}`, { headers: { host: "127.0.0.1:4470" } });
      expect(res.status, route).toBe(404);
      expect(await res.json(), route).toEqual({
        error: { code: "transcript-not-found", message: `transcript not found: ${GONE}` },
      });
    }
    // the sessions of that state dir that have a transcript still answer
    const ok = await app.request("/api/sessions/main/1111aaaa-0000-4000-8000-000000000011/cost", {
      headers: { host: "127.0.0.1:4470" },
    });
    expect(ok.status).toBe(200);
    service.close();
  });
});

describe("cost --all: a session whose transcript is missing", () => {
  it("is listed with missing: true, the path looked for, and no numbers; the totals skip it", () => {
    const service = createSessionService({ stateDir: state("windows-paths"), demo: false, reason: "test" });
    const all = service.costAll(true);
    service.close();
    const row = all.sessions.find((s) => s.sessionId === "3333cccc-0000-4000-8000-000000000033");
    expect(row).toEqual({
      agentId: "main",
      sessionId: "3333cccc-0000-4000-8000-000000000033",
      sessionKey: "agent:main:cron:gone",
      archived: null,
      cronSession: true,
      missing: true,
      location: "agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl",
    });
    expect(all.totals.calls).toBe(2);
    const text = formatCostAll(all);
    expect(text).toContain(
      "transcript not found: agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl",
    );
    expect(text).toContain("1 session(s) without transcript: no numbers, not counted");
    expect(text).not.toMatch(/3333cccc\S*\s+-\s+0\s/);
  });
});

describe("cost --all: backup and checkpoint copies", () => {
  it("are left out of rows and totals and listed with why", () => {
    const service = createSessionService({ stateDir: state("copies"), demo: false, reason: "test" });
    const all = service.costAll(true);
    const hidden = service.costAll(false);
    service.close();
    const id = "eeee5555-0000-4000-8000-000000000005";
    expect(all.leftOut.map((c) => [c.kind, c.sessionId, c.copyOf])).toEqual([
      ["checkpoint", `${id}.checkpoint.0b7e9c1e-4d2a-4c3b-9a1f-2e3d4c5b6a7f`, `${id}.jsonl`],
      ["backup", `${id}.bak-4242-1775000000000`, `${id}.jsonl`],
      ["backup", `${id}.bak.2026-05-01T09-00-00.000Z`, `${id}.jsonl`],
    ]);
    expect(all.leftOut[1]?.reason).toBe(
      `a backup copy of ${id}.jsonl: its calls are that transcript's, counted once there`,
    );
    expect(all.totals).toEqual(hidden.totals);
    // with archived sessions hidden the copies are not listed at all, so nothing was left out
    expect(hidden.leftOut).toEqual([]);
    expect(formatCostAll(all)).toContain(
      `left out: agents/main/sessions/${id}.jsonl.bak-4242-1775000000000 (a backup copy of ${id}.jsonl`,
    );
  });

  it("the overview says which copies were left out and why (JSON and text), none with archived hidden", () => {
    const service = createSessionService({ stateDir: state("copies"), demo: false, reason: "test" });
    const o = service.overview({});
    const hidden = service.overview({ archived: "false" });
    const all = service.costAll(true);
    service.close();
    if (!o.ok || !hidden.ok) throw new Error("overview failed");
    expect(o.value.leftOut).toEqual(all.leftOut);
    expect(o.value.sessions.map((s) => s.sessionId)).toEqual(["eeee5555-0000-4000-8000-000000000005"]);
    expect(hidden.value.leftOut).toEqual([]);
    expect(formatOverview(o.value)).toContain(
      `left out: ${all.leftOut[1]?.location} (${all.leftOut[1]?.reason})`,
    );
  });
});

describe("time that runs backwards (a reset on another machine)", () => {
  const DAY = 24 * 3600_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-clock-"));
  const b = new TranscriptBuilder();
  b.user("first");
  b.assistant({ usage: { input: 10, cacheWrite: 5000 } });
  b.cacheTouch();
  b.tick(-11 * DAY).tick(-3600_000);
  b.user("second, written on a machine whose clock is 11 days behind");
  b.assistant({ usage: { input: 10, cacheRead: 5000 } });
  b.writeJsonlStateDir(dir, { sessionId: SID, entry: { contextPruning: { mode: "cache-ttl" } } });
  const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
  afterAll(() => {
    service.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("cost flags the call 'clock went back 11 d' (gapMs stays the raw number); the views print the flag", () => {
    const r = service.cost("main", SID);
    if (!r.ok) throw new Error(r.error.message);
    const [first, second] = r.value.calls;
    expect(first?.clockBack).toBeUndefined();
    expect(second?.gapMs).toBe(-(11 * DAY + 3600_000));
    expect(second?.clockBack).toBe("clock went back 11 d");
  });

  it("pruning flags it too, instead of a negative idle time; the CLI prints the flag", () => {
    const r = service.prune("main", SID, {});
    if (!r.ok) throw new Error(r.error.message);
    const back = r.value.calls.filter((c) => c.idleMs !== null && c.idleMs < 0);
    expect(back.length).toBeGreaterThan(0);
    for (const c of back) expect(c.clockBack).toBe("clock went back 11 d");
    // The CLI's text table is printed from the linear replay (prune --json's shape).
    const linear = service.pruneLinear("main", SID, {});
    if (!linear.ok) throw new Error(linear.error.message);
    expect(formatPrune(linear.value)).toContain("clock went back 11 d");
    expect(formatPrune(linear.value)).not.toMatch(/\s-\d[\d.]*s\s/);
  });

  it("labels: days, hours, minutes; a write-aware hit rate below 0 is 'write-only call', never a negative percentage", () => {
    expect(clockBackLabel(-90_000)).toBe("clock went back 2 min");
    expect(clockBackLabel(-5 * 3600_000)).toBe("clock went back 5 h");
    expect(clockBackLabel(0)).toBeNull();
    expect(clockBackLabel(null)).toBeNull();
    // one call that only wrote the cache: r = 1.25 → (1 − 1.25) / 0.9 < 0
    const rate = writeAwareHitRate({ input: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 0 });
    expect(rate).toBeLessThan(0);
    expect(writeAwareText(rate, "call")).toBe("write-only call");
    expect(writeAwareText(rate, "total")).toBe("writes > savings");
    expect(writeAwareText(0.5, "call")).toBe("50.0%");
  });
});

describe("a `~` workspace in the config (session without a stored report)", () => {
  it("is expanded against OpenClaw's home dir, as resolveUserPath does", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-home-"));
    const stateDir = path.join(home, ".openclaw");
    new TranscriptBuilder().writeJsonlStateDir(stateDir, { sessionId: SID });
    fs.writeFileSync(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({ agents: { defaults: { workspace: "~/my-workspace" } } }),
    );
    fs.mkdirSync(path.join(home, "my-workspace"));
    fs.writeFileSync(path.join(home, "my-workspace", "AGENTS.md"), "a".repeat(321));
    const environment = { env: { HOME: home }, homedir: "/nonexistent" };
    const service = createSessionService({ stateDir, demo: false, reason: "test", environment });
    const r = service.truncation("main", SID, {});
    service.close();
    fs.rmSync(home, { recursive: true, force: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.workspace).toMatchObject({
      dir: path.join(home, "my-workspace"),
      source: "agents.defaults.workspace",
    });
    expect(r.value.files.find((f) => f.name === "AGENTS.md")?.rawChars).toBe(321);
  });
});

describe("the map of a session whose stored report is another session's", () => {
  it("says whose report its system-prompt tiles come from, as /context and truncation do", () => {
    const service = createSessionService({
      stateDir: path.resolve(__dirname, "../fixtures/no-run-report"),
      demo: false,
      reason: "test",
    });
    const main = "0c7f1a55-2222-4b2b-9d2d-000000000002";
    const map = service.contextMap("main", main);
    const report = service.runReport("main", main);
    const cron = service.contextMap("main", "0c7f1a55-1111-4a1a-8c1c-000000000001");
    service.close();
    if (!map.ok || !report.ok || !cron.ok) throw new Error("load failed");
    expect(map.value.reportOwner).toEqual(report.value.reportOwner);
    expect(map.value.reportOwner?.reportSessionId).toBe("56c4e0d1-3333-4c3c-ae3e-000000000003");
    expect(cron.value.reportOwner).toBeUndefined();
  });
});
