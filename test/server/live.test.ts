// Live updates (issue 8): a copy of the bundled demo state dir (real captures: j1 JSONL as agent `legacy`,
// s1 SQLite as agent `research`, see server/demo/README.md) is watched while the test appends like OpenClaw
// does — whole JSONL lines (and a half line, then its rest), and transcript rows from a real concurrent
// writer process in WAL mode (test/fixtures/sqlite/live-writer.cjs). Checks: the watcher's event arrives within
// a second, the reloaded transcript came from the incremental path and equals a full parse, a half line
// raises no issue while it waits, the SQLite writer never fails, and SSE through a real HTTP server.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createEventsRoute } from "../../server/http/routes/events.ts";
import { attachLive, type LiveAttachment } from "../../server/live/attach-live.ts";
import { cacheClock, clockReplayAt } from "../../server/live/cache-clock.ts";
import { type BusMessage, createEventBus, type EventBus } from "../../server/live/event-bus.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { parseTranscriptBytes } from "../../server/sources/jsonl/read-transcript.ts";
import {
  extendTranscript,
  HALF_LINE_GRACE_MS,
  loadJsonlIncremental,
} from "../../server/sources/jsonl/tail.ts";
import { loadSqliteSession } from "../../server/sources/sqlite/sqlite-source.ts";
import { openStateReader, transcriptLoadInfo } from "../../server/sources/state-reader.ts";
import { isObject, num, obj } from "../../shared/json.ts";
import type { LiveEvent } from "../../shared/live.ts";
import { writableCopy } from "../helpers/state-dirs.ts";

const DEMO = path.resolve(__dirname, "../../server/demo/state");
const J1_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const S1_ID = "c50b7fb8-120b-44a9-a477-545eec87c0a7";
const J1_REL = `agents/legacy/sessions/${J1_ID}.jsonl`;
const S1_DB_REL = "agents/research/agent/openclaw-agent.sqlite";
const haveDemo = fs.existsSync(path.join(DEMO, J1_REL)) && fs.existsSync(path.join(DEMO, S1_DB_REL));
if (!haveDemo) console.warn(`[live tests] bundled demo state dir not found at ${DEMO}; skipping`);

const tmpDirs: string[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});
afterAll(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A writable copy of the demo state dir (the bundled files are read-only). */
function copyDemo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-live-"));
  tmpDirs.push(dir);
  return writableCopy(DEMO, dir);
}

function tmpFile(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-tail-"));
  tmpDirs.push(dir);
  return path.join(dir, name);
}

/** Collects bus messages; `next(pred)` resolves with the first matching message after `from`. */
function recorder(bus: EventBus) {
  const seen: (BusMessage & { at: number })[] = [];
  const waiters: {
    pred: (e: LiveEvent) => boolean;
    after: number;
    resolve: (m: BusMessage & { at: number }) => void;
  }[] = [];
  const unsubscribe = bus.subscribe((m) => {
    const rec = { ...m, at: Date.now() };
    seen.push(rec);
    for (const w of waiters.splice(0)) {
      if (rec.id > w.after && w.pred(rec.event)) w.resolve(rec);
      else waiters.push(w);
    }
  });
  cleanups.push(unsubscribe);
  const next = (pred: (e: LiveEvent) => boolean, timeoutMs = 3000): Promise<BusMessage & { at: number }> => {
    const after = bus.lastId();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching live event within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.push({
        pred,
        after,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  };
  return { seen, next };
}

const isSession = (agentId: string, sessionId: string) => (e: LiveEvent) =>
  e.type === "session-changed" && e.agentId === agentId && e.sessionId === sessionId;

function messageLine(id: string, parentId: string | null, text: string): string {
  const ts = Date.parse("2026-11-30T00:00:00.000Z");
  return JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: new Date(ts).toISOString(),
    message: { role: "user", content: [{ type: "text", text }], timestamp: ts },
  });
}

describe("JSONL tail reads equal a full parse", () => {
  const j1 = path.join(DEMO, J1_REL);
  it.skipIf(!haveDemo)("j1 split at line boundaries and inside lines: tail result = full parse", () => {
    const bytes = fs.readFileSync(j1);
    const full = parseTranscriptBytes(bytes, "x.jsonl");
    expect(full.entries.length).toBeGreaterThan(50);
    const newlines: number[] = [];
    for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) newlines.push(i + 1);
    const cuts = [
      0,
      1,
      newlines[0] ?? 0,
      newlines[10] ?? 0,
      (newlines[20] ?? 0) + 37,
      (newlines[40] ?? 0) - 5,
    ];
    for (const cut of cuts) {
      const file = tmpFile("x.jsonl");
      fs.writeFileSync(file, bytes.subarray(0, cut));
      const first = loadJsonlIncremental(file, "x.jsonl", null);
      expect(first.loadedBy).toBe("full");
      fs.appendFileSync(file, bytes.subarray(cut));
      const second = loadJsonlIncremental(file, "x.jsonl", first.state);
      expect(second.loadedBy).toBe("tail");
      expect(second.transcript).toEqual(full);
      expect(second.appendedEntries).toBe(full.entries.length - first.state.entries.length);
    }
  });

  it("tree rules over appended lines: bad line, side append, leaf move, extra header, missing parent", () => {
    const lines = [
      JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00Z" }),
      messageLine("a", null, "one"),
      messageLine("b", "a", "two"),
    ];
    const appended = [
      "{not json",
      JSON.stringify({ type: "custom", id: "side", parentId: "b", appendMode: "side" }),
      messageLine("c", "b", "three"),
      JSON.stringify({ type: "leaf", id: "l1", targetId: "b" }),
      JSON.stringify({ type: "session", version: 3, id: "s2" }),
      messageLine("d", "ghost", "orphan"),
      JSON.stringify({ type: "leaf", id: "l2", targetId: "c" }),
      "[1,2]",
      JSON.stringify({ id: "typeless", parentId: "c" }),
    ];
    const head = Buffer.from(`${lines.join("\n")}\n`);
    const tail = Buffer.from(`${appended.join("\n")}\n`);
    const prev = extendTranscript({
      prev: null,
      complete: head,
      pending: Buffer.alloc(0),
      reportPending: true,
      source: "t.jsonl",
    });
    const ext = extendTranscript({
      prev,
      complete: tail,
      pending: Buffer.alloc(0),
      reportPending: true,
      source: "t.jsonl",
    });
    const full = parseTranscriptBytes(Buffer.concat([head, tail]), "t.jsonl");
    expect(ext.transcript).toEqual(full);
    expect(full.issues.map((i) => i.code).sort()).toEqual(
      ["extra-header", "invalid-json", "missing-parent", "missing-type", "not-an-object"].sort(),
    );
    // the leaf row moved the branch to `c` and the typeless entry then became the leaf
    expect(full.entries[full.leafIndex ?? -1]?.id).toBe("typeless");
  });

  it("a half-written last line waits (no issue) until its newline, or until the file stops growing", () => {
    const file = tmpFile("h.jsonl");
    const header = `${JSON.stringify({ type: "session", version: 3, id: "h" })}\n${messageLine("a", null, "x")}\n`;
    fs.writeFileSync(file, header);
    const first = loadJsonlIncremental(file, "h.jsonl", null);
    const line = messageLine("b", "a", "half and half");
    fs.appendFileSync(file, line.slice(0, 40));
    const now = fs.statSync(file).mtimeMs;
    const waiting = loadJsonlIncremental(file, "h.jsonl", first.state, { now });
    expect(waiting.loadedBy).toBe("tail");
    expect(waiting.pendingWaiting).toBe(true);
    expect(waiting.transcript.issues).toEqual([]);
    expect(waiting.transcript.entries).toHaveLength(2);
    // the writer stalled: after the grace period the line is reported like a full parse does
    const stalled = loadJsonlIncremental(file, "h.jsonl", waiting.state, { now: now + 5000 });
    expect(stalled.transcript.issues.map((i) => [i.code, i.line])).toEqual([["truncated-line", 3]]);
    expect(stalled.transcript).toEqual(parseTranscriptBytes(fs.readFileSync(file), "h.jsonl"));
    fs.appendFileSync(file, `${line.slice(40)}\n`);
    const done = loadJsonlIncremental(file, "h.jsonl", waiting.state, { now });
    expect(done.loadedBy).toBe("tail");
    expect(done.transcript.issues).toEqual([]);
    expect(done.transcript.entries.map((e) => e.id)).toEqual(["h", "a", "b"]);
    expect(done.transcript.entries[done.transcript.leafIndex ?? -1]?.id).toBe("b");
  });

  it("a rewritten or shrunk file is parsed again in full", () => {
    const file = tmpFile("r.jsonl");
    fs.writeFileSync(
      file,
      `${JSON.stringify({ type: "session", version: 3, id: "r" })}\n${messageLine("a", null, "x")}\n`,
    );
    const first = loadJsonlIncremental(file, "r.jsonl", null);
    fs.writeFileSync(
      file,
      `${JSON.stringify({ type: "session", version: 3, id: "R" })}\n${messageLine("z", null, "yy")}\n${messageLine("y", "z", "w")}\n`,
    );
    const again = loadJsonlIncremental(file, "r.jsonl", first.state);
    expect(again.loadedBy).toBe("full");
    expect(again.transcript.entries.map((e) => e.id)).toEqual(["R", "z", "y"]);
    fs.truncateSync(file, 10);
    expect(loadJsonlIncremental(file, "r.jsonl", again.state).loadedBy).toBe("full");
  });
});

describe.skipIf(!haveDemo)("live watcher on a copy of the demo state dir", () => {
  it("JSONL: appended lines → session-changed within 1 s, reloaded via the tail path; a half line waits", async () => {
    const stateDir = copyDemo();
    const file = path.join(stateDir, J1_REL);
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service, bus, stateDir });
    cleanups.push(() => live.close());
    expect(live.watcher.watched().every((w) => w.how === "fs-watch")).toBe(true);

    const before = service.load("legacy", J1_ID);
    if ("error" in before) throw new Error(before.error.message);
    const t0 = before.value.transcript;
    expect(transcriptLoadInfo(t0)?.loadedBy).toBe("full");
    const leafId = t0.entries[t0.leafIndex ?? -1]?.id ?? null;
    const reportBefore = service.runReport("legacy", J1_ID);
    if ("error" in reportBefore) throw new Error(reportBefore.error.message);

    // 1. two complete lines
    const wait1 = rec.next(isSession("legacy", J1_ID));
    const appendedAt = Date.now();
    fs.appendFileSync(
      file,
      `${messageLine("live-1", leafId, "first live line")}\n${messageLine("live-2", "live-1", "second")}\n`,
    );
    const ev1 = await wait1;
    expect(ev1.at - appendedAt).toBeLessThan(1000);
    const after1 = service.load("legacy", J1_ID);
    if ("error" in after1) throw new Error(after1.error.message);
    const t1 = after1.value.transcript;
    expect(t1).not.toBe(t0);
    expect(transcriptLoadInfo(t1)).toEqual({ loadedBy: "tail", appendedEntries: 2 });
    expect(t1.entries).toHaveLength(t0.entries.length + 2);
    expect(t1.entries[t1.leafIndex ?? -1]?.id).toBe("live-2");
    expect(t1.activeBranch.slice(0, -2)).toEqual(t0.activeBranch);
    expect(t1).toEqual(parseTranscriptBytes(fs.readFileSync(file), J1_REL));
    const report1 = service.runReport("legacy", J1_ID);
    if ("error" in report1) throw new Error(report1.error.message);
    expect(report1.value.session.entryCount).toBe((reportBefore.value.session.entryCount ?? 0) + 2);
    // unchanged file → the very same Transcript object (memoised reports are reused)
    const again = service.load("legacy", J1_ID);
    expect("value" in again && again.value.transcript).toBe(t1);

    // 2. half a line: an event, but no new entry and no issue while it waits
    const line3 = messageLine("live-3", "live-2", "a line written in two parts");
    const wait2 = rec.next(isSession("legacy", J1_ID));
    fs.appendFileSync(file, line3.slice(0, 50));
    await wait2;
    const half = service.load("legacy", J1_ID);
    if ("error" in half) throw new Error(half.error.message);
    expect(transcriptLoadInfo(half.value.transcript)?.loadedBy).toBe("tail");
    expect(half.value.transcript.entries).toHaveLength(t1.entries.length);
    expect(half.value.issues.filter((i) => i.code === "truncated-line")).toEqual([]);
    expect(half.value.transcript.issues).toEqual(t1.issues);

    // 3. the rest of the line
    const wait3 = rec.next(isSession("legacy", J1_ID));
    fs.appendFileSync(file, `${line3.slice(50)}\n`);
    await wait3;
    const done = service.load("legacy", J1_ID);
    if ("error" in done) throw new Error(done.error.message);
    const t3 = done.value.transcript;
    expect(transcriptLoadInfo(t3)).toEqual({ loadedBy: "tail", appendedEntries: 1 });
    expect(t3.entries[t3.leafIndex ?? -1]?.id).toBe("live-3");
    expect(t3.issues).toEqual(t1.issues);
    expect(t3).toEqual(parseTranscriptBytes(fs.readFileSync(file), J1_REL));

    // 4. a new session file → the list changes
    const wait4 = rec.next((e) => e.type === "sessions-changed");
    fs.writeFileSync(
      path.join(stateDir, "agents/legacy/sessions/new-session.jsonl"),
      `${JSON.stringify({ type: "session", version: 3, id: "new-session", timestamp: "2026-11-30T00:00:00Z" })}\n`,
    );
    await wait4;
    expect(service.listSessions().sessions.some((s) => s.sessionId === "new-session")).toBe(true);
    // nothing was created in the state dir by the watcher or the reader
    expect(fs.readdirSync(path.join(stateDir, "agents/legacy/sessions")).sort()).toEqual(
      [`${J1_ID}.jsonl`, "new-session.jsonl", "sessions.json", "skills-prompts"].sort(),
    );
  });

  it("SQLite: a real concurrent WAL writer → session-changed events, incremental reads equal a full load, writer never fails", async () => {
    const stateDir = copyDemo();
    const dbPath = path.join(stateDir, S1_DB_REL);
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service, bus, stateDir });
    cleanups.push(() => live.close());

    const first = service.load("research", S1_ID);
    if ("error" in first) throw new Error(first.error.message);
    expect(first.value.transcript.entries).toHaveLength(76);
    expect(transcriptLoadInfo(first.value.transcript)?.loadedBy).toBe("sqlite-full");
    const same = service.load("research", S1_ID);
    expect("value" in same && same.value.transcript).toBe(first.value.transcript);

    const ROWS = 120;
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [
        path.resolve(__dirname, "../fixtures/sqlite/live-writer.cjs"),
        require.resolve("better-sqlite3"),
        dbPath,
        S1_ID,
        String(ROWS),
        "5",
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    cleanups.push(() => child.kill());
    const firstEvent = rec.next(isSession("research", S1_ID), 5000);
    await firstEvent;

    const modes = new Set<string>();
    let last = 76;
    const deadline = Date.now() + 20_000;
    while (!stdout.includes("done") && !stdout.includes("error") && Date.now() < deadline) {
      await rec.next(isSession("research", S1_ID), 5000).catch(() => null);
      const r = service.load("research", S1_ID);
      if ("error" in r) throw new Error(r.error.message);
      const t = r.value.transcript;
      expect(t.entries.length).toBeGreaterThanOrEqual(last);
      last = t.entries.length;
      const info = transcriptLoadInfo(t);
      if (info) modes.add(info.loadedBy);
      expect(r.value.issues).toEqual([]);
      expect(t.issues).toEqual([]);
    }
    expect(stdout).toContain(`done ${ROWS}`);
    // the last rows may land after the last loop read: wait for the event of the final commit
    const final = service.load("research", S1_ID);
    if ("error" in final) throw new Error(final.error.message);
    expect(final.value.transcript.entries).toHaveLength(76 + ROWS);
    expect(modes.has("sqlite-incremental")).toBe(true);
    expect(modes.has("sqlite-full")).toBe(false);
    // incremental = full: a fresh load of the same database
    const fresh = loadSqliteSession(stateDir, "research", S1_DB_REL, S1_ID);
    if ("error" in fresh) throw new Error(fresh.error.message);
    expect(final.value.transcript).toEqual(fresh.transcript);
    expect(final.value.entry).toEqual(fresh.entry);
    expect(final.value.entry?.writerCount).toBe(ROWS);

    // quiet once the writer stopped: our own read-only probes cause no events
    await new Promise((r) => setTimeout(r, 600));
    const quietFrom = bus.lastId();
    await new Promise((r) => setTimeout(r, 1200));
    expect(bus.lastId()).toBe(quietFrom);

    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
    expect(stdout.split("\n").filter((l) => l.startsWith("error"))).toEqual([]);
    expect(rec.seen.length).toBeGreaterThan(0);
  }, 40_000);

  it("SSE through the app's real wiring on a real HTTP server: event, then GET …/report shows the new entry count", async () => {
    const stateDir = copyDemo();
    const file = path.join(stateDir, J1_REL);
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    service.startWatching();
    cleanups.push(() => service.close());
    const app = createApp({ service, boundHost: "127.0.0.1", port: null });
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const addr = server.address();
    if (addr === null || typeof addr === "string") throw new Error("no TCP address");
    const base = `http://127.0.0.1:${addr.port}`;
    cleanups.push(() => server.close());
    const entryCount = async (): Promise<number | undefined> => {
      const body: unknown = await (await fetch(`${base}/api/sessions/legacy/${J1_ID}/report`)).json();
      return isObject(body) ? num(obj(body, "session"), "entryCount") : undefined;
    };
    const count0 = await entryCount();
    if (count0 === undefined) throw new Error("report without session.entryCount");

    const decoder = new TextDecoder();
    const open = async (headers: Record<string, string>) => {
      const abort = new AbortController();
      cleanups.push(() => abort.abort());
      const res = await fetch(`${base}/api/events`, { signal: abort.signal, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const reader = res.body?.getReader();
      if (!reader) throw new Error("no body");
      const stream = { text: "", abort: () => abort.abort() };
      const until = async (pred: (t: string) => boolean, timeoutMs: number): Promise<void> => {
        const end = Date.now() + timeoutMs;
        while (!pred(stream.text)) {
          const left = end - Date.now();
          if (left <= 0) throw new Error(`SSE: timed out; got ${JSON.stringify(stream.text)}`);
          const chunk = await Promise.race([
            reader.read(),
            new Promise<null>((r) => setTimeout(() => r(null), left)),
          ]);
          if (chunk === null) continue;
          if (chunk.done) throw new Error("SSE stream ended");
          stream.text += decoder.decode(chunk.value, { stream: true });
        }
      };
      return { stream, until };
    };

    const a = await open({});
    await a.until((t) => t.includes(": connected"), 2000);
    expect(a.stream.text).toMatch(/^retry: \d+\n/);
    const leaf = service.load("legacy", J1_ID);
    if ("error" in leaf) throw new Error(leaf.error.message);
    const leafId = leaf.value.transcript.entries[leaf.value.transcript.leafIndex ?? -1]?.id ?? null;
    const appendedAt = Date.now();
    fs.appendFileSync(file, `${messageLine("sse-1", leafId, "over the wire")}\n`);
    const want = `data: ${JSON.stringify({ type: "session-changed", agentId: "legacy", sessionId: J1_ID })}`;
    await a.until((t) => t.includes(want), 2000);
    expect(Date.now() - appendedAt).toBeLessThan(1000);
    expect(a.stream.text).toMatch(/\nid: \d+\n/);
    expect(await entryCount()).toBe(count0 + 1);

    // the clock route answers for the open session
    const clock: unknown = await (await fetch(`${base}/api/sessions/legacy/${J1_ID}/clock`)).json();
    expect(isObject(clock) && typeof clock.warm === "boolean" && num(clock, "rewriteTokens")).toBeGreaterThan(
      0,
    );

    // a dropped connection: reconnecting with Last-Event-ID replays what was missed
    a.stream.abort();
    const missedFrom = service.bus.lastId();
    fs.appendFileSync(file, `${messageLine("sse-2", "sse-1", "while disconnected")}\n`);
    const start = Date.now();
    while (service.bus.lastId() === missedFrom && Date.now() - start < 2000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(service.bus.lastId()).toBeGreaterThan(missedFrom);
    const b = await open({ "Last-Event-ID": String(missedFrom) });
    await b.until((t) => t.includes(want) && t.includes(`id: ${service.bus.lastId()}`), 2000);
    expect(await entryCount()).toBe(count0 + 2);
  });

  it("SSE heartbeat comments keep an idle stream open", async () => {
    const bus = createEventBus();
    const res = await createEventsRoute(bus, { heartbeatMs: 100 }).request("/");
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    let text = "";
    const end = Date.now() + 2000;
    while (!text.includes(": ping") && Date.now() < end) {
      const c = await reader.read();
      if (c.done) break;
      text += new TextDecoder().decode(c.value);
    }
    expect(text).toContain(": ping\n\n");
    expect(bus.listenerCount()).toBe(1);
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 50));
    expect(bus.listenerCount()).toBe(0);
  });
});

describe.skipIf(!haveDemo)("SQLite: a new session appears", () => {
  it("a session written into a WAL store (node, window, header row) → sessions-changed and it is listed", async () => {
    const stateDir = copyDemo();
    const dbPath = path.join(stateDir, S1_DB_REL);
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service, bus, stateDir });
    cleanups.push(() => live.close());
    expect(service.listSessions().sessions.some((s) => s.sessionId === "fresh-1")).toBe(false);
    const listed = rec.next((e) => e.type === "sessions-changed");
    const created = rec.next(isSession("research", "fresh-1"));
    // OpenClaw's side: a writable connection on the COPY (never on the bundled demo)
    const db = new Database(dbPath);
    cleanups.push(() => db.close());
    db.pragma("journal_mode = WAL");
    const now = Date.now();
    db.transaction(() => {
      db.prepare(
        "INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?, ?, ?, ?)",
      ).run("agent:research:fresh", "fresh-1", JSON.stringify({ sessionId: "fresh-1", updatedAt: now }), now);
      db.prepare(
        "INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES (?, ?, ?, ?)",
      ).run("fresh-1", "agent:research:fresh", now, now);
      db.prepare(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, 0, ?, ?)",
      ).run(
        "fresh-1",
        JSON.stringify({
          type: "session",
          version: 4,
          id: "fresh-1",
          timestamp: new Date(now).toISOString(),
        }),
        now,
      );
    })();
    await listed;
    await created;
    expect(
      service.listSessions().sessions.some((s) => s.agentId === "research" && s.sessionId === "fresh-1"),
    ).toBe(true);
  });
});

describe.skipIf(!haveDemo)("a writer that stops mid-line", () => {
  it("the half line waits silently, then is reported once the file stopped growing (event re-sent)", async () => {
    const stateDir = copyDemo();
    const file = path.join(stateDir, J1_REL);
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service, bus, stateDir });
    cleanups.push(() => live.close());
    const before = service.load("legacy", J1_ID);
    if ("error" in before) throw new Error(before.error.message);
    const lines = before.value.transcript.entries.at(-1)?.line ?? 0;

    const first = rec.next(isSession("legacy", J1_ID));
    fs.appendFileSync(file, '{"type":"message","id":"cut-off","parentId":null,"mess');
    await first;
    const waiting = service.load("legacy", J1_ID);
    if ("error" in waiting) throw new Error(waiting.error.message);
    expect(waiting.value.issues.filter((i) => i.code === "truncated-line")).toEqual([]);

    const second = await rec.next(isSession("legacy", J1_ID), 4000);
    const mtime = fs.statSync(file).mtimeMs;
    expect(second.at - mtime).toBeGreaterThanOrEqual(HALF_LINE_GRACE_MS);
    const reported = service.load("legacy", J1_ID);
    if ("error" in reported) throw new Error(reported.error.message);
    expect(reported.value.transcript).not.toBe(waiting.value.transcript);
    expect(
      reported.value.issues.filter((i) => i.code === "truncated-line").map((i) => [i.severity, i.line]),
    ).toEqual([["warning", lines + 1]]);
    expect(reported.value.transcript).toEqual(parseTranscriptBytes(fs.readFileSync(file), J1_REL));
  }, 10_000);
});

describe("watcher fallback without fs.watch", () => {
  it.skipIf(!haveDemo)("stat-polling finds appends too", async () => {
    const stateDir = copyDemo();
    const bus = createEventBus();
    const rec = recorder(bus);
    const reader = openStateReader(stateDir);
    let invalidations = 0;
    const live: LiveAttachment = attachLive({
      service: { invalidate: () => invalidations++ },
      bus,
      stateDir,
      watch: { forcePoll: true, pollMs: 100 },
    });
    cleanups.push(() => live.close());
    expect(live.watcher.watched().every((w) => w.how === "poll")).toBe(true);
    const wait = rec.next(isSession("legacy", J1_ID));
    fs.appendFileSync(path.join(stateDir, J1_REL), `${messageLine("poll-1", null, "polled")}\n`);
    await wait;
    expect(invalidations).toBeGreaterThan(0);
    const r = reader.loadSession({ agentId: "legacy", sessionId: J1_ID });
    expect("transcript" in r && r.transcript.entries.at(-1)?.id).toBe("poll-1");
  });
});

describe.skipIf(!haveDemo)("cache clock (TTL countdown data)", () => {
  const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });

  it("s1: counts down from OpenClaw's cache touch; the re-write is the last call's prompt (= SessionEntry.totalTokens)", () => {
    const replay = service.prune("research", S1_ID, {});
    const cost = service.cost("research", S1_ID);
    const loaded = service.load("research", S1_ID);
    if ("error" in replay || "error" in cost || "error" in loaded) throw new Error("load failed");
    const touch = replay.value.next.lastCacheTouchAt;
    const ttl = cost.value.retention.cacheTtlMs;
    if (touch === null || ttl === null) throw new Error("s1 has a cache clock");
    const at = clockReplayAt(replay.value);
    expect(at).toBe(touch + replay.value.settings.ttlMs + 1);
    const after = service.prune("research", S1_ID, { at: [String(at)] });
    if ("error" in after) throw new Error(after.error.message);

    const warm = cacheClock({ replay: after.value, cost: cost.value, now: touch + 1000 });
    expect(warm.warm).toBe(true);
    expect(warm.msLeft).toBe(ttl - 1000);
    expect(warm.lastCallAt).toBe(touch);
    expect(warm.rewriteTokens).toBe(loaded.value.entry?.totalTokens);
    // claude-mock-1 is not in the pricing table: no invented price
    expect(warm.rewriteUsd).toBeNull();

    const cold = cacheClock({ replay: after.value, cost: cost.value, now: touch + ttl + 5000 });
    expect(cold.warm).toBe(false);
    expect(cold.msLeft).toBe(-5000);
    expect(cold.pruneMsLeft).toBe(touch + replay.value.settings.ttlMs - (touch + ttl + 5000));
    // s1's context is below the soft-trim ratio: the first call after the TTL trims nothing
    expect(after.value.next.gate).toBe("below-soft-trim-ratio");
    expect(cold.pruneCount).toBe(0);
    // a replay evaluated before the pruning TTL cannot predict the round
    const early = service.prune("research", S1_ID, { at: [String(touch + 1)] });
    if ("error" in early) throw new Error(early.error.message);
    expect(early.value.next.ttlExpired).toBe(false);
    expect(cacheClock({ replay: early.value, cost: cost.value, now: touch }).pruneCount).toBeNull();

    const priced = cacheClock({
      replay: after.value,
      cost: cost.value,
      now: touch,
      pricing: { "claude-mock-1": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    });
    const tokens = loaded.value.entry?.totalTokens;
    if (typeof tokens !== "number") throw new Error("s1 entry has totalTokens");
    expect(priced.rewriteUsd).toBeCloseTo((tokens * 3.75) / 1e6, 12);
    expect(priced.rewritePremiumUsd).toBeCloseTo((tokens * (3.75 - 0.3)) / 1e6, 12);
  });

  it("s4 with a low soft-trim ratio: pruneCount = the tool results the next round changes", () => {
    const q = { softTrimRatio: ["0.05"] };
    const replay = service.prune("main", "bc255ab3-b341-464a-a811-4d1115e16ed8", q);
    const cost = service.cost("main", "bc255ab3-b341-464a-a811-4d1115e16ed8");
    if ("error" in replay || "error" in cost) throw new Error("load failed");
    const at = clockReplayAt(replay.value);
    if (at === null) throw new Error("s4 has a pruning clock");
    const after = service.prune("main", "bc255ab3-b341-464a-a811-4d1115e16ed8", { ...q, at: [String(at)] });
    if ("error" in after) throw new Error(after.error.message);
    expect(after.value.next.wouldPrune).toBe(true);
    const clock = cacheClock({ replay: after.value, cost: cost.value, now: at });
    const last = after.value.calls.at(-1);
    const changed = Object.entries(after.value.next.toolResults).filter(
      ([id, state]) => state !== (last?.toolResults[id] ?? "full"),
    );
    expect(clock.pruneCount).toBe(changed.length);
    expect(clock.pruneCount).toBeGreaterThan(0);
    expect(clock.pruneMsLeft).toBe(-1);
  });

  it.skipIf(!haveDemo)("a config edit → sessions-changed and a config invalidation", async () => {
    const stateDir = copyDemo();
    const bus = createEventBus();
    const rec = recorder(bus);
    const calls: ({ config: boolean } | undefined)[] = [];
    const live = attachLive({ service: { invalidate: (o) => calls.push(o) }, bus, stateDir });
    cleanups.push(() => live.close());
    const wait = rec.next((e) => e.type === "sessions-changed");
    const cfg = path.join(stateDir, "openclaw.json");
    fs.writeFileSync(cfg, fs.readFileSync(cfg, "utf8").replace(/\s*$/, "\n\n"));
    await wait;
    expect(calls).toContainEqual({ config: true });
  });

  it("agent and session dirs created after the start are watched too", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-live-empty-"));
    tmpDirs.push(stateDir);
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service: { invalidate: () => undefined }, bus, stateDir });
    cleanups.push(() => live.close());
    expect(live.watcher.watched().map((w) => w.dir)).toEqual([stateDir]);
    const listed = rec.next((e) => e.type === "sessions-changed");
    const sessions = path.join(stateDir, "agents", "late", "sessions");
    fs.mkdirSync(sessions, { recursive: true });
    const file = path.join(sessions, "s-1.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: "s-1" })}\n`);
    await listed;
    // the chain of new dirs may take a couple of re-syncs to settle
    const deadline = Date.now() + 2000;
    while (!live.watcher.watched().some((w) => w.dir === sessions) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(live.watcher.watched().map((w) => w.dir)).toContain(sessions);
    const changed = rec.next(isSession("late", "s-1"));
    fs.appendFileSync(file, `${messageLine("m1", null, "hello")}\n`);
    await changed;
  });
});

describe("watcher: replaced transcripts, start-up that cannot fail", () => {
  it("a transcript replaced by rename (atomic write) → session-changed; renamed to an archive → sessions-changed", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-live-replace-"));
    tmpDirs.push(stateDir);
    const sessions = path.join(stateDir, "agents", "main", "sessions");
    fs.mkdirSync(sessions, { recursive: true });
    const file = path.join(sessions, "s-1.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: "s-1" })}\n`);
    const bus = createEventBus();
    const rec = recorder(bus);
    const live = attachLive({ service: { invalidate: () => undefined }, bus, stateDir });
    cleanups.push(() => live.close());
    const changed = rec.next(isSession("main", "s-1"));
    const tmp = `${file}.tmp`;
    fs.writeFileSync(
      tmp,
      `${JSON.stringify({ type: "session", version: 3, id: "s-1" })}\n${messageLine("r1", null, "x")}\n`,
    );
    fs.renameSync(tmp, file);
    await changed;
    const listed = rec.next((e) => e.type === "sessions-changed");
    fs.renameSync(file, `${file}.reset.2026-03-14T19-52-43.739Z`);
    await listed;
  });

  it("never throws at start-up: missing state dir, a file instead of a dir, a broken sessions.json", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-live-start-"));
    tmpDirs.push(root);
    const asFile = path.join(root, "file");
    fs.writeFileSync(asFile, "x");
    const broken = path.join(root, "state", "agents", "main", "sessions");
    fs.mkdirSync(broken, { recursive: true });
    fs.writeFileSync(path.join(broken, "sessions.json"), "{ not json");
    fs.writeFileSync(
      path.join(root, "state", "agents", "main", "agent"),
      "a file where the store dir should be",
    );
    for (const stateDir of [path.join(root, "missing"), asFile, path.join(root, "state")]) {
      const live = attachLive({ service: { invalidate: () => undefined }, bus: createEventBus(), stateDir });
      live.close();
    }
  });
});
