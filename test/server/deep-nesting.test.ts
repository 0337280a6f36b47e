// Deeply nested stored values (issue 20): V8 parses any depth, but JSON.stringify and recursive walks overflow
// the stack around 10,000 levels — `context`/`export` exited with a stack, the API answered unlocated 500s, and
// a deep sessions.json entry made `serve` exit at start-up (the watcher's entry signatures). Values nested deeper
// than MAX_JSON_DEPTH are refused where they enter, as a located per-entry issue; the rest reads.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { tryParseJson } from "../../shared/json.ts";
import { MAX_JSON_DEPTH, textNestsDeeperThan, valueNestsDeeperThan } from "../../shared/json-depth.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../server/demo/state");
const DEPTH = 10_000;
const SESSION = "0a1b2c3d-0000-4000-8000-0000000000dd";
const OTHER = "0a1b2c3d-0000-4000-8000-0000000000de";
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** `[[[…{"x":1}…]]]`, `depth` levels deep (as JSON text: a parsed one is built by JSON.parse, which copes). */
function deepJson(depth: number): string {
  return `${"[".repeat(depth)}{"x":1}${"]".repeat(depth)}`;
}

function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "clawscope-deep-"));
  roots.push(d);
  return d;
}

describe("depth bounds (unit)", () => {
  it("textNestsDeeperThan counts brackets outside strings only", () => {
    expect(textNestsDeeperThan(deepJson(300), 256)).toBe(true);
    expect(textNestsDeeperThan(deepJson(200), 256)).toBe(false);
    const inString = JSON.stringify({ text: `${"[".repeat(5000)} \\" \\\\" ${"{".repeat(5000)}` });
    expect(textNestsDeeperThan(inString, 256)).toBe(false);
    expect(textNestsDeeperThan(`"${"[".repeat(600)}`, 256)).toBe(false); // unterminated string: JSON.parse decides
    expect(valueNestsDeeperThan(JSON.parse(deepJson(DEPTH)), MAX_JSON_DEPTH)).toBe(true);
    expect(valueNestsDeeperThan({ a: [{ b: [1, 2, { c: null }] }] }, 5)).toBe(false);
    expect(tryParseJson(deepJson(DEPTH))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nested deeper than 256/),
    });
    expect(tryParseJson(deepJson(100))).toMatchObject({ ok: true });
  });
});

describe("a 10,000-deep value in a message (JSONL)", () => {
  it("is a located issue on its line; report, context, map and export answer", async () => {
    const state = tmp();
    const b = new TranscriptBuilder();
    b.user("call it");
    b.assistant({
      content: [{ type: "toolCall", id: "call_1", name: "exec", arguments: { deep: "PLACEHOLDER" } }],
      stopReason: "toolUse",
    });
    b.toolResult("call_1", "exec", "ok");
    b.assistant({ text: "done" });
    const file = b.writeJsonlStateDir(state, { sessionId: SESSION });
    writeFileSync(file, readFileSync(file, "utf8").replace('"PLACEHOLDER"', deepJson(DEPTH)));
    const service = createSessionService({ stateDir: state, demo: false, reason: "test" });
    const app = createApp({ service, boundHost: "127.0.0.1", port: null });
    const base = `/api/sessions/main/${SESSION}`;
    for (const part of ["report", "map", "truncation", "prune", "cost", "export", "issue.md"])
      expect((await app.request(`${base}/${part}`)).status, part).toBe(200);
    const ctx = service.contextText("main", SESSION, "detail");
    expect(ctx.ok).toBe(true);
    const loaded = service.load("main", SESSION);
    if (!loaded.ok) throw new Error(loaded.error.message);
    // The refused line is located; the entry after it starts a branch (its parent is the skipped line).
    expect(loaded.value.transcript.issues).toContainEqual(
      expect.objectContaining({ line: 3, message: expect.stringMatching(/nested deeper than 256 levels/) }),
    );
    service.close();
  });
});

describe("a 10,000-deep value in a sessions.json entry", () => {
  it("skips that entry with a located issue; the other sessions list; watching starts", () => {
    const state = tmp();
    const b = new TranscriptBuilder();
    b.user("hi");
    b.assistant({ text: "hello" });
    b.writeJsonlStateDir(state, { sessionId: OTHER });
    const store = path.join(state, "agents/main/sessions/sessions.json");
    const entries = JSON.parse(readFileSync(store, "utf8"));
    writeFileSync(
      store,
      JSON.stringify(entries).replace(
        /}$/,
        `,"agent:main:deep":{"sessionId":"${SESSION}","origin":${deepJson(DEPTH)}}}`,
      ),
    );
    const service = createSessionService({ stateDir: state, demo: false, reason: "test" });
    expect(() => service.startWatching()).not.toThrow();
    const { sessions, issues } = service.listSessions();
    expect(sessions.map((s) => s.sessionId)).toEqual([OTHER]);
    expect(issues).toEqual([
      expect.objectContaining({
        source: "agents/main/sessions/sessions.json",
        code: "too-deep",
        message: expect.stringMatching(/entry agent:main:deep is nested deeper than 256 levels/),
      }),
    ]);
    service.close();
  });
});

describe("a 10,000-deep value in SQLite", () => {
  it("an event is a located issue on its seq; a deep entry_json is located on its key; the session loads", () => {
    const state = tmp();
    const b = new TranscriptBuilder();
    b.user("hi");
    b.assistant({ text: "hello" });
    b.user("again");
    b.assistant({ text: "hello again" });
    const dbPath = b.writeSqliteStateDir(state, DEMO);
    const db = new Database(dbPath);
    const row: unknown = db
      .prepare("SELECT current_session_id AS id, session_key AS key FROM session_nodes LIMIT 1")
      .get();
    const { id, key } = row as { id: string; key: string };
    const deepEvent = `{"type":"custom","id":"deep1","parentId":null,"data":${deepJson(DEPTH)}}`;
    db.prepare("UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = 3").run(
      deepEvent,
      id,
    );
    db.close();
    const reader = openStateReader(state);
    const loaded = reader.loadSession({ agentId: "main", sessionId: id });
    if ("error" in loaded) throw new Error(loaded.error.message);
    expect(loaded.transcript.issues).toContainEqual(
      expect.objectContaining({ seq: 3, message: expect.stringMatching(/nested deeper than 256 levels/) }),
    );
    const w = new Database(dbPath);
    w.prepare("UPDATE session_nodes SET entry_json = ? WHERE session_key = ?").run(
      `{"sessionId":"${id}","x":${deepJson(DEPTH)}}`,
      key,
    );
    w.close();
    const listing = openStateReader(state).listSessions();
    expect(listing.issues).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(new RegExp(`entry_json of session key ${key}.*nested deeper`)),
      }),
    );
  });
});
