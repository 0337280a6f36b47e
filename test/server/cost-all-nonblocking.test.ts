// GET /api/cost on a big store (issue 20, "one request freezes the server"): 2,000 one-turn JSONL sessions built
// in a temp dir. Each session load used to re-list the whole agent (quadratic: 177 s for 2,000), in one synchronous
// call that held every other request and the SSE stream. Now: listed once, loaded by the listed row, computed in
// slices with progress, and per-session rows kept by file identity.

import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../server/http/app.ts";
import type { LoadedSession } from "../../server/model/session.ts";
import { buildCostTotals } from "../../server/reports/cost/cost-report.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { readOpenClawConfig } from "../../server/sources/openclaw-config.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { isObject } from "../../shared/json.ts";

const N = 2000;
const H = { headers: { host: "127.0.0.1" } };
const T0 = 1_790_000_000_000;

function sessionId(i: number): string {
  return `c057a11-${String(i).padStart(4, "0")}-4000-8000-000000000000`;
}

function assistant(id: string, parentId: string, at: number, usage: Record<string, number>): object {
  return {
    type: "message",
    id,
    parentId,
    timestamp: new Date(at).toISOString(),
    message: {
      role: "assistant",
      content: [{ type: "text", text: "hello" }],
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic-messages",
      usage: { ...usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } },
      stopReason: "stop",
      timestamp: at,
    },
  };
}

function oneTurn(id: string, i: number): string {
  const at = T0 + i * 60_000;
  const ts = new Date(at).toISOString();
  const lines = [
    { type: "session", version: 3, id, timestamp: ts, cwd: "/tmp" },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: ts,
      message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: at },
    },
    assistant("a1", "u1", at + 1000, {
      input: 10,
      output: 5,
      cacheRead: 100,
      cacheWrite: 50,
      totalTokens: 165,
    }),
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

let stateDir = "";
let sessionsDir = "";

beforeAll(() => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), "clawscope-cost-all-"));
  sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  const store: Record<string, unknown> = {};
  for (let i = 0; i < N; i++) {
    const id = sessionId(i);
    writeFileSync(path.join(sessionsDir, `${id}.jsonl`), oneTurn(id, i));
    store[`agent:main:explicit:${id}`] = { sessionId: id, updatedAt: T0 + i * 60_000 };
  }
  writeFileSync(path.join(sessionsDir, "sessions.json"), JSON.stringify(store));
  // Writing 2,000 files: seconds on a loaded shared machine (the default 10 s hook limit timed out at load 25).
}, 120_000);

afterAll(() => {
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe(`GET /api/cost over ${N} one-turn sessions (issue 20)`, () => {
  it("lists the agent once and loads every session by its listed row (no per-load re-listing)", () => {
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const listed = vi.spyOn(service.reader, "listLoadable");
    const byRef = vi.spyOn(service.reader, "loadSession");
    const all = service.costAll(true);
    expect(all.sessions).toHaveLength(N);
    expect(all.totals.calls).toBe(N);
    expect(listed).toHaveBeenCalledTimes(1);
    expect(byRef).not.toHaveBeenCalled();
    service.close();
  });

  it("answers other requests while it computes (progress between 0 and all), then the full totals", async () => {
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const app = createApp({ service, boundHost: "127.0.0.1", port: null });
    let finished = false;
    const cost = Promise.resolve(app.request("/api/cost", H)).then(async (res) => {
      finished = true;
      return { status: res.status, body: await res.json() };
    });
    const seen: { state: string; done: number; total: number }[] = [];
    while (!finished) {
      const res = await app.request("/api/cost/progress", H);
      expect(res.status).toBe(200);
      seen.push(await res.json());
      await new Promise((r) => setTimeout(r, 5));
    }
    const { status, body } = await cost;
    expect(status).toBe(200);
    expect(body.sessions).toHaveLength(N);
    expect(body.totals).toMatchObject({ calls: N, input: 10 * N, cacheRead: 100 * N, cacheWrite: 50 * N });
    // Requests were answered in the middle of the computation, not only before or after it.
    expect(seen.some((p) => p.state === "running" && p.done > 0 && p.done < p.total && p.total === N)).toBe(
      true,
    );
    const after = await (await app.request("/api/cost/progress", H)).json();
    expect(after).toMatchObject({ state: "ready", done: N, total: N });
    service.close();
  });

  it("concurrent requests share one computation; a change recomputes only the changed session", async () => {
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const app = createApp({ service, boundHost: "127.0.0.1", port: null });
    const real = service.reader.listLoadable.bind(service.reader);
    const listed = vi.spyOn(service.reader, "listLoadable");
    const [a, b] = await Promise.all([app.request("/api/cost", H), app.request("/api/cost", H)]);
    expect(listed).toHaveBeenCalledTimes(1);
    const first = await a.json();
    expect(await b.json()).toEqual(first);

    // Unchanged store, no invalidation: the finished result is served as is.
    await app.request("/api/cost", H);
    expect(listed).toHaveBeenCalledTimes(1);

    // One transcript grows by a call; the watcher's invalidate() makes the next request recompute.
    const id = sessionId(7);
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
    const grown = assistant("a2", "a1", T0 + 7 * 60_000 + 5000, usage);
    appendFileSync(path.join(sessionsDir, `${id}.jsonl`), `${JSON.stringify(grown)}\n`);
    service.invalidate();
    const loads: string[] = [];
    listed.mockImplementation(() => {
      const l = real();
      return {
        ...l,
        sessions: l.sessions.map((s) => ({
          ...s,
          load: () => {
            loads.push(s.summary.sessionId);
            return s.load();
          },
        })),
      };
    });
    const second = await (await app.request("/api/cost", H)).json();
    expect(loads).toEqual([id]);
    expect(second.totals.calls).toBe(N + 1);
    const row = second.sessions.find((r: unknown) => isObject(r) && r.sessionId === id);
    expect(row).toMatchObject({ calls: 2, input: 11 });
    service.close();
  });
});

const REAL_WORLD = path.resolve(__dirname, "../fixtures/real-world");
const DIRS = [
  path.resolve(__dirname, "../../server/demo/state"),
  ...readdirSync(REAL_WORLD, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(REAL_WORLD, d.name, "state")),
];

describe("the sliced aggregate equals buildCostTotals over the scanned list (rows, order, totals)", () => {
  for (const dir of DIRS) {
    it(path.relative(path.resolve(__dirname, "../.."), dir), async () => {
      const reader = openStateReader(dir);
      const config = readOpenClawConfig(dir).config;
      for (const includeArchived of [true, false]) {
        const loaded: LoadedSession[] = [];
        for (const s of reader.listSessions().sessions) {
          if (!includeArchived && s.archived !== null) continue;
          const l = reader.loadSession(s);
          if (!("error" in l)) loaded.push(l);
        }
        const expected = buildCostTotals(loaded, { config });
        const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
        expect(service.costAll(includeArchived)).toEqual(expected);
        expect(await service.costAllAsync(includeArchived)).toEqual(expected);
        service.close();
      }
    });
  }
});
