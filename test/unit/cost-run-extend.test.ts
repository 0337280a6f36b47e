// The cost report continued over appended lines (server/reports/cost/cost-run.ts, issue 18 "Live") equals a
// cold build of the final file, line by line: a copy of the bundled demo's real j1 transcript (2026.7.1) and a
// generated session (compactions, TTL gaps, pruning rounds), grown one line at a time through the service as
// the live watcher does (append, invalidate, ask again). Lines that change session-wide inputs — a model
// switch (observed TTL / lineage), a branch switch, a duplicate id — are appended too: the run then starts
// again, and the report must still equal the cold one. The spy on CostRun.extend proves the continued path
// actually ran (a test where every append fell back would prove nothing).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { CostRun } from "../../server/reports/cost/cost-run.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import type { Result } from "../../shared/result.ts";
import { writableCopy } from "../helpers/state-dirs.ts";

const DEMO = path.resolve(__dirname, "../../server/demo/state");
const J1_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-cost-run-"));
  tmpDirs.push(dir);
  return dir;
}

/** A writable copy of the demo state dir (the bundled files may be read-only). */
function copyDemo(): string {
  return writableCopy(DEMO, tmpDir());
}

function value(r: Result<CostReportDTO>): CostReportDTO {
  if ("error" in r) throw new Error(JSON.stringify(r.error));
  return r.value;
}

interface Grow {
  stateDir: string;
  agentId: string;
  sessionId: string;
  file: string;
  /** Lines already in the file when the service first reads it. */
  head: string[];
  /** Lines appended one at a time after that. */
  appended: string[];
}

/** Append line by line; after each, the live service's report must deep-equal a fresh service's. */
function growAndCompare(g: Grow): boolean[] {
  fs.writeFileSync(g.file, g.head.map((l) => `${l}\n`).join(""));
  const service = createSessionService({ stateDir: g.stateDir, demo: false, reason: "test" });
  value(service.cost(g.agentId, g.sessionId));
  const extend = vi.spyOn(CostRun.prototype, "extend");
  const results: boolean[] = [];
  for (const line of g.appended) {
    fs.appendFileSync(g.file, `${line}\n`);
    service.invalidate();
    extend.mockClear();
    const got = value(service.cost(g.agentId, g.sessionId));
    results.push(...extend.mock.results.map((r) => r.value === true));
    const cold = createSessionService({ stateDir: g.stateDir, demo: false, reason: "test" });
    const want = value(cold.cost(g.agentId, g.sessionId));
    expect(got).toEqual(want);
  }
  return results;
}

function assistant(
  id: string,
  parentId: string,
  atMs: number,
  model: string,
  usage: object,
  text = `reply ${id}`,
): string {
  return JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: new Date(atMs).toISOString(),
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      api: "anthropic-messages",
      provider: "anthropic",
      model,
      usage: { input: 3, output: 20, totalTokens: 0, ...usage },
      stopReason: "stop",
      timestamp: atMs,
    },
  });
}

function user(id: string, parentId: string, atMs: number, text = `prompt ${id}`): string {
  return JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: new Date(atMs).toISOString(),
    message: { role: "user", content: [{ type: "text", text }], timestamp: atMs },
  });
}

const idOf = (line: string): string => {
  const v: unknown = JSON.parse(line);
  return typeof v === "object" && v !== null && "id" in v && typeof v.id === "string" ? v.id : "";
};

describe("cost report continued over appended lines = cold build", () => {
  it("the demo's real j1 transcript, from its 20th line on, one line at a time", () => {
    const stateDir = copyDemo();
    const file = path.join(stateDir, "agents/legacy/sessions", `${J1_ID}.jsonl`);
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(40);
    const results = growAndCompare({
      stateDir,
      agentId: "legacy",
      sessionId: J1_ID,
      file,
      head: lines.slice(0, 20),
      appended: lines.slice(20),
    });
    // most appends continue the run; the one where the observed cache TTL (the fixture mock's 20 s lifetime)
    // first contradicts the config changes every earlier verdict's TTL: that one starts again
    expect(results.filter((r) => r).length).toBeGreaterThan(10);
    expect(results.some((r) => !r)).toBe(true);
    const final = value(
      createSessionService({ stateDir, demo: false, reason: "test" }).cost("legacy", J1_ID),
    );
    expect(final.retention.observedTtl).not.toBeNull();
  });

  it("a generated session with compactions and TTL gaps, plus a model switch, a branch and a duplicate id", () => {
    const dir = tmpDir();
    const s = writeJsonlStateDir(path.join(dir, "state"), { targetBytes: 1_200_000, seed: 5 });
    const lines = fs.readFileSync(s.file, "utf8").trimEnd().split("\n");
    // from 25 lines before the last compaction to the end
    const compaction = lines.findLastIndex((l) => l.includes('"type":"compaction"'));
    expect(compaction).toBeGreaterThan(100);
    const cut = compaction - 25;
    const tail = lines.slice(cut);
    const last = idOf(tail.at(-1) ?? "");
    const t0 = Date.UTC(2026, 9, 1);
    const extra = [
      // a second model: its own lineage (a model-switch verdict), and mostUsedModel over more calls
      user("x-u1", last, t0),
      assistant("x-a1", "x-u1", t0 + 1000, "claude-other-2", { cacheRead: 0, cacheWrite: 900 }),
      // back to the main model after a gap longer than any TTL: the observed TTL may change (fallback)
      user("x-u2", "x-a1", t0 + 7_200_000),
      assistant("x-a2", "x-u2", t0 + 7_201_000, "claude-mock-1", { cacheRead: 10, cacheWrite: 5000 }),
      // a side branch from an older entry: the active branch no longer continues (fallback)
      user("x-u3", "x-u1", t0 + 7_300_000),
      assistant("x-a3", "x-u3", t0 + 7_301_000, "claude-mock-1", { cacheRead: 4000, cacheWrite: 100 }),
      // a duplicate id (the later entry wins for every parent link: fallback)
      user("x-u3", "x-a3", t0 + 7_302_000),
      assistant("x-a4", "x-u3", t0 + 7_303_000, "claude-mock-1", { cacheRead: 4100, cacheWrite: 50 }),
      // and plain appends again, which continue: a heartbeat exchange (prompt and acknowledgement)
      user(
        "x-u5",
        "x-a4",
        t0 + 7_304_000,
        "Read HEARTBEAT.md if it exists. If nothing needs attention, reply HEARTBEAT_OK.",
      ),
      assistant(
        "x-a5",
        "x-u5",
        t0 + 7_305_000,
        "claude-mock-1",
        { cacheRead: 4150, cacheWrite: 40 },
        "HEARTBEAT_OK",
      ),
      user("x-u6", "x-a5", t0 + 7_306_000),
      assistant("x-a6", "x-u6", t0 + 7_307_000, "claude-mock-1", { cacheRead: 4190, cacheWrite: 30 }),
    ];
    const results = growAndCompare({
      stateDir: s.stateDir,
      agentId: s.agentId,
      sessionId: s.sessionId,
      file: s.file,
      head: lines.slice(0, cut),
      appended: [...tail, ...extra],
    });
    expect(results.filter((r) => r).length).toBeGreaterThan(20);
    expect(results.some((r) => !r)).toBe(true);
  });
});
