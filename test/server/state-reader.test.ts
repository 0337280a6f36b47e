// State reader on the real 2026.7.1 capture (j1, spec fixtures.md §3) and on a hand-built hostile
// state dir (archives, orphans, broken store, symlink escape, bad refs).

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LoadedSession } from "../../server/model/session.ts";
import { discoverState } from "../../server/sources/discover.ts";
import { listJsonlSessions } from "../../server/sources/jsonl/sessions-store.ts";
import { type LoadError, openStateReader } from "../../server/sources/state-reader.ts";
import { isObject, type JsonObject, obj, str } from "../../shared/json.ts";
import { countLazyTexts, resolveLazyTexts } from "../helpers/resolve-lazy.ts";

const J1 = path.resolve(__dirname, "../../../shared/fixtures/j1-jsonl-cache-ttl-default");
const J1_STATE = path.join(J1, "state");
const J1_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const haveJ1 = existsSync(J1_STATE);
if (!haveJ1) console.warn(`[skip] j1 fixture not found at ${J1_STATE}`);

function loaded(v: LoadedSession | LoadError): LoadedSession {
  if ("error" in v) throw new Error(`load failed: ${v.error.code} ${v.error.message}`);
  return v;
}

function errorOf(v: LoadedSession | LoadError): LoadError["error"] | null {
  return "error" in v ? v.error : null;
}

describe.skipIf(!haveJ1)("state reader on j1 (2026.7.1 JSONL capture)", () => {
  const reader = openStateReader(J1_STATE);

  it("discovers one agent `main` with a JSONL store and no SQLite", () => {
    const d = discoverState(J1_STATE);
    expect(d.issues).toEqual([]);
    expect(d.agents).toEqual([
      { agentId: "main", sessionsDir: path.join(J1_STATE, "agents/main/sessions"), sqlitePath: null },
    ]);
  });

  it("lists exactly one live JSONL session with the entry's metadata", () => {
    const { sessions, issues } = reader.listSessions();
    expect(issues).toEqual([]);
    expect(sessions).toEqual([
      {
        agentId: "main",
        sessionId: J1_ID,
        sessionKey: "agent:main:main",
        storage: "jsonl",
        archived: null,
        updatedAt: 1795999974656,
        model: "claude-mock-1",
        provider: "anthropic",
        entryCount: 73,
        parseErrorCount: 0,
        location: `agents/main/sessions/${J1_ID}.jsonl`,
        sizeBytes: 234200,
      },
    ]);
  });

  it("loads the transcript although sessionFile names /home/user/… (rebased, storage.md §7)", () => {
    const s = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    const recorded = `/home/user/.openclaw/agents/main/sessions/${J1_ID}.jsonl`;
    expect(str(s.entry, "sessionFile")).toBe(recorded);
    expect(s.rebasedPaths[0]).toEqual({
      recorded,
      actual: path.join(J1_STATE, "agents/main/sessions", `${J1_ID}.jsonl`),
    });
    if (!existsSync("/home/user/.openclaw/workspace")) {
      expect(s.rebasedPaths[1]).toEqual({
        recorded: "/home/user/.openclaw/workspace",
        actual: path.join(J1_STATE, "workspace"),
      });
    }
    expect(s.issues).toEqual([]);
    expect(s.transcript.issues).toEqual([]);
  });

  it("parses the counts of spec fixtures.md §3 and equals state-export line by line", () => {
    const s = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    const t = s.transcript;
    const roles = (role: string) =>
      t.entries.filter((e) => e.type === "message" && str(obj(e.raw, "message"), "role") === role).length;
    expect(t.entries.filter((e) => e.type === "session")).toHaveLength(1);
    expect(t.version).toBe(3);
    expect(roles("user")).toBe(20);
    expect(roles("assistant")).toBe(27);
    expect(roles("toolResult")).toBe(8);
    expect(
      t.entries.filter((e) => e.type === "custom" && str(e.raw, "customType") === "openclaw.cache-ttl"),
    ).toHaveLength(12);
    expect(t.entries.filter((e) => e.type === "compaction")).toHaveLength(2);

    const exported = readFileSync(path.join(J1, "state-export/main/transcripts", `${J1_ID}.jsonl`), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l): unknown => JSON.parse(l));
    // Long tool-result texts are not kept in memory (model/lazy-text.ts): read back, they equal the export.
    expect(countLazyTexts(t.entries.map((e) => e.raw))).toBeGreaterThan(0);
    expect(t.entries.map((e) => e.raw)).not.toEqual(exported);
    expect(t.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(exported);
    expect(t.entries.map((e) => e.line)).toEqual(exported.map((_, i) => i + 1));
    // 7.1 writes a linear file here (no leaf rows): the active branch is every entry but the header.
    expect(t.activeBranch).toEqual(t.entries.slice(1).map((e) => e.index));
    expect(s.summary.entryCount).toBe(73);
  });

  it("detects the 2026.7 family from the E3 report signals", () => {
    const s = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    expect(s.version.family).toBe("2026.7");
    expect(s.version.appVersion).toBeNull();
    expect(s.version.reason).toContain("currentTurn");
  });

  it("the SessionEntry equals state-export sessions.json", () => {
    const s = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    const exported: unknown = JSON.parse(
      readFileSync(path.join(J1, "state-export/main/sessions.json"), "utf8"),
    );
    expect(isObject(exported) ? exported["agent:main:main"] : null).toEqual(s.entry);
  });

  it("resolves refs by key, id, AGENT/ID and unique prefix", () => {
    const ref = { agentId: "main", sessionId: J1_ID };
    expect(reader.resolveRef("agent:main:main")).toEqual(ref);
    expect(reader.resolveRef(J1_ID)).toEqual(ref);
    expect(reader.resolveRef(`main/${J1_ID}`)).toEqual(ref);
    expect(reader.resolveRef("4b707e2a")).toEqual(ref);
    expect(reader.resolveRef("4b70")).toBeNull(); // too short for a prefix
    expect(reader.resolveRef("agent:main:other")).toBeNull();
    expect(reader.resolveRef(`other/${J1_ID}`)).toBeNull();
    expect(reader.resolveRef(`../${J1_ID}`)).toBeNull();
  });

  it("caches parsed sessions (same object while the file is unchanged)", () => {
    const a = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    const b = loaded(reader.loadSession({ agentId: "main", sessionId: J1_ID }));
    expect(b.transcript).toBe(a.transcript);
    const fresh = loaded(openStateReader(J1_STATE).loadSession({ agentId: "main", sessionId: J1_ID }));
    expect(fresh.transcript).not.toBe(a.transcript);
    expect(fresh.transcript.entries.length).toBe(a.transcript.entries.length);
  });

  it("refuses bad refs with 422 and unknown ones with 404", () => {
    expect(errorOf(reader.loadSession({ agentId: "../main", sessionId: J1_ID }))).toMatchObject({
      status: 422,
    });
    expect(errorOf(reader.loadSession({ agentId: "main", sessionId: "../../etc/passwd" }))).toMatchObject({
      status: 422,
      code: "invalid-ref",
    });
    expect(errorOf(reader.loadSession({ agentId: "main", sessionId: "a/b" }))).toMatchObject({ status: 422 });
    expect(errorOf(reader.loadSession({ agentId: "main", sessionId: "..hidden" }))).toMatchObject({
      status: 422,
    });
    expect(errorOf(reader.loadSession({ agentId: "ghost", sessionId: J1_ID }))).toMatchObject({
      status: 404,
      code: "agent-not-found",
    });
    expect(errorOf(reader.loadSession({ agentId: "main", sessionId: "nope" }))).toMatchObject({
      status: 404,
      code: "session-not-found",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-built state dir: every listing rule of storage.md §3 on a small scale.

const HEADER = (id: string) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/w" });
const USER = JSON.stringify({
  type: "message",
  id: "aaaa0001",
  parentId: null,
  timestamp: "2026-03-01T00:00:01.000Z",
  message: { role: "user", content: "hi", timestamp: 1 },
});
const ASSISTANT = (provider: string, model: string, id = "aaaa0002") =>
  JSON.stringify({
    type: "message",
    id,
    parentId: "aaaa0001",
    timestamp: "2026-03-01T00:00:02.000Z",
    message: { role: "assistant", content: [], provider, model, usage: {} },
  });

describe("state reader on a hand-built state dir", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "clawscope-state-"));
  const state = path.join(root, "state");
  const sessions = path.join(state, "agents/main/sessions");
  const outside = path.join(root, "outside.jsonl");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  mkdirSync(sessions, { recursive: true });
  mkdirSync(path.join(state, "agents/empty/sessions"), { recursive: true });
  writeFileSync(path.join(state, "agents/empty/sessions/sessions.json"), "{}");
  mkdirSync(path.join(state, "agents/idle/agent"), { recursive: true });
  const store: Record<string, JsonObject> = {
    "agent:main:main": {
      sessionId: "live-1",
      updatedAt: 1772323200000,
      sessionFile: "/elsewhere/.openclaw/agents/main/sessions/live-1.jsonl",
      model: "m-entry",
      modelProvider: "p-entry",
    },
    "agent:main:cron:job1": { sessionId: "live-2", updatedAt: 100 },
    "agent:main:cron:job1:run:live-2": { sessionId: "live-2", updatedAt: 200 },
    "agent:main:telegram:group:1": { sessionId: "gone-1", updatedAt: 5 },
    "agent:main:telegram:topic": {
      sessionId: "tp",
      updatedAt: 6,
      sessionFile: "/elsewhere/.openclaw/agents/main/sessions/tp-topic-42.jsonl",
    },
  };
  writeFileSync(path.join(sessions, "sessions.json"), JSON.stringify(store));
  writeFileSync(
    path.join(sessions, "live-1.jsonl"),
    `${[HEADER("live-1"), USER, ASSISTANT("anthropic", "claude")].join("\n")}\n`,
  );
  writeFileSync(
    path.join(sessions, "live-2.jsonl"),
    `${[HEADER("live-2"), USER, ASSISTANT("openai", "gpt"), "garbage line", ASSISTANT("openclaw", "delivery-mirror", "aaaa0003")].join("\n")}\n`,
  );
  writeFileSync(path.join(sessions, "tp-topic-42.jsonl"), `${[HEADER("tp"), USER].join("\n")}\n`);
  writeFileSync(
    path.join(sessions, "orphan-1.jsonl"),
    `${[HEADER("orphan-1"), USER].join("\n")}\n{"type":"mess`,
  );
  writeFileSync(path.join(sessions, "old-1.jsonl.reset.2026-04-05T04-22-28.629Z"), `${HEADER("old-1")}\n`);
  writeFileSync(path.join(sessions, "old-2.jsonl.deleted.2026-04-06T00-00-00.000Z"), `${HEADER("old-2")}\n`);
  writeFileSync(path.join(sessions, "live-1.jsonl.lock"), "");
  writeFileSync(path.join(sessions, "live-1.trajectory.jsonl"), "{}\n");
  writeFileSync(path.join(sessions, "live-1.checkpoint.0f1e2d3c.jsonl"), `${HEADER("live-1")}\n`);
  writeFileSync(path.join(sessions, "live-1.jsonl.bak"), `${HEADER("live-1")}\n`);
  writeFileSync(outside, `${HEADER("evil")}\n`);
  symlinkSync(outside, path.join(sessions, "evil.jsonl"));

  it("classifies live, shared-key, missing, topic, orphan and archived transcripts", () => {
    const listing = listJsonlSessions(state, "main", sessions);
    const byId = new Map(listing.rows.map((r) => [r.summary.sessionId, r]));
    expect([...byId.keys()].sort()).toEqual(
      [
        "gone-1",
        "live-1",
        "live-1.bak",
        "live-1.checkpoint.0f1e2d3c",
        "live-2",
        "old-1.reset.2026-04-05T04-22-28.629Z",
        "old-2.deleted.2026-04-06T00-00-00.000Z",
        "orphan-1",
        "tp-topic-42",
      ].sort(),
    );
    expect(listing.entryKeyCount).toBe(5);
    // Two keys share live-2: one row, the most recently updated key first.
    expect(byId.get("live-2")?.sessionKeys).toEqual([
      "agent:main:cron:job1:run:live-2",
      "agent:main:cron:job1",
    ]);
    expect(byId.get("live-2")?.summary).toMatchObject({ model: "gpt", provider: "openai", entryCount: 5 });
    expect(byId.get("live-1")?.summary).toMatchObject({
      model: "m-entry",
      provider: "p-entry",
      entryCount: 3,
      archived: null,
    });
    expect(byId.get("live-1")?.rebased).toEqual({
      recorded: "/elsewhere/.openclaw/agents/main/sessions/live-1.jsonl",
      actual: path.join(sessions, "live-1.jsonl"),
    });
    expect(byId.get("tp-topic-42")?.sessionKeys).toEqual(["agent:main:telegram:topic"]);
    expect(byId.get("gone-1")?.summary).toMatchObject({
      entryCount: null,
      sizeBytes: null,
      archived: null,
      missing: true,
    });
    // Copies of live-1 are listed (hidden behind "show archived"), named as copies so totals leave them out.
    expect(byId.get("live-1.bak")?.summary).toMatchObject({ archived: "backup", copyOf: "live-1.jsonl" });
    expect(byId.get("live-1.checkpoint.0f1e2d3c")?.summary).toMatchObject({
      archived: "checkpoint",
      copyOf: "live-1.jsonl",
    });
    expect(byId.get("gone-1")?.issues.map((i) => i.code)).toEqual(["transcript-missing"]);
    expect(byId.get("orphan-1")?.summary).toMatchObject({
      archived: "orphan",
      sessionKey: null,
      entryCount: 3,
    });
    expect(byId.get("old-1.reset.2026-04-05T04-22-28.629Z")?.summary.archived).toBe("reset");
    expect(byId.get("old-2.deleted.2026-04-06T00-00-00.000Z")?.summary).toMatchObject({
      archived: "deleted",
      updatedAt: Date.parse("2026-03-01T00:00:00.000Z"),
    });
    expect(listing.skippedFiles.map((s) => [s.name, s.reason]).sort()).toEqual(
      [
        ["evil.jsonl", "symlink leaving the state dir"],
        ["live-1.jsonl.lock", "writer lock"],
        ["live-1.trajectory.jsonl", "trajectory (run trace)"],
      ].sort(),
    );
  });

  it("lists agents including empty stores and agents that never ran", () => {
    const d = discoverState(state);
    expect(d.agents.map((a) => [a.agentId, a.sessionsDir !== null, a.sqlitePath])).toEqual([
      ["empty", true, null],
      ["idle", false, null],
      ["main", true, null],
    ]);
  });

  it("loads each row; parse errors and truncation are located; entry without file loads empty", () => {
    const reader = openStateReader(state);
    const live2 = loaded(reader.loadSession({ agentId: "main", sessionId: "live-2" }));
    expect(live2.summary.parseErrorCount).toBe(1);
    // loaded before any listing: model from the last model assistant (the delivery mirror is skipped)
    expect(live2.summary).toMatchObject({ model: "gpt", provider: "openai", updatedAt: 200 });
    expect(live2.summary.entryCount).toBe(4);
    expect(live2.issues.map((i) => [i.code, i.line, i.source])).toEqual([
      ["invalid-json", 4, "agents/main/sessions/live-2.jsonl"],
    ]);
    // after a load the list shows the real error count
    const listed = reader.listSessions().sessions.find((s) => s.sessionId === "live-2");
    expect(listed?.parseErrorCount).toBe(1);

    const orphan = loaded(reader.loadSession({ agentId: "main", sessionId: "orphan-1" }));
    expect(orphan.issues.map((i) => [i.code, i.severity, i.line])).toEqual([
      ["truncated-line", "warning", 3],
    ]);
    expect(orphan.summary.parseErrorCount).toBe(0);

    const gone = loaded(reader.loadSession({ agentId: "main", sessionId: "gone-1" }));
    expect(gone.transcript.entries).toEqual([]);
    expect(gone.entry).toMatchObject({ sessionId: "gone-1" });
    expect(gone.issues.map((i) => i.code)).toEqual(["transcript-missing"]);

    const reset = loaded(
      reader.loadSession({
        agentId: "main",
        sessionId: "x",
        archivedFile: "old-1.jsonl.reset.2026-04-05T04-22-28.629Z",
      }),
    );
    expect(reset.summary.archived).toBe("reset");
    expect(reset.transcript.header?.id).toBe("old-1");
    expect(loaded(reader.loadSession({ agentId: "main", sessionId: "tp" })).summary.sessionId).toBe(
      "tp-topic-42",
    );
  });

  it("never follows a symlink out of the state dir", () => {
    const reader = openStateReader(state);
    expect(reader.listSessions().sessions.some((s) => s.sessionId === "evil")).toBe(false);
    expect(errorOf(reader.loadSession({ agentId: "main", sessionId: "evil" }))).toMatchObject({
      status: 404,
    });
    expect(
      errorOf(reader.loadSession({ agentId: "main", sessionId: "x", archivedFile: "evil.jsonl" })),
    ).toMatchObject({
      status: 404,
    });
  });

  it("resolves keys shared by several entries and entry ids of topic files", () => {
    const reader = openStateReader(state);
    expect(reader.resolveRef("agent:main:cron:job1")).toEqual({ agentId: "main", sessionId: "live-2" });
    expect(reader.resolveRef("agent:main:cron:job1:run:live-2")).toEqual({
      agentId: "main",
      sessionId: "live-2",
    });
    expect(reader.resolveRef("tp")).toEqual({ agentId: "main", sessionId: "tp-topic-42" });
    expect(reader.resolveRef("old-1.reset")).toEqual({
      agentId: "main",
      sessionId: "old-1.reset.2026-04-05T04-22-28.629Z",
    });
  });

  it("a broken sessions.json is a located issue and the files are still listed", () => {
    const broken = path.join(root, "broken");
    const dir = path.join(broken, "agents/main/sessions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "sessions.json"),
      '{\n  "agent:main:main": {\n    "sessionId": "s1",\n  oops\n}',
    );
    writeFileSync(path.join(dir, "s1.jsonl"), `${HEADER("s1")}\n`);
    const { sessions: rows, issues } = openStateReader(broken).listSessions();
    expect(rows.map((r) => [r.sessionId, r.archived])).toEqual([["s1", "orphan"]]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      code: "invalid-json",
      source: "agents/main/sessions/sessions.json",
      line: 4,
    });
  });

  it("a missing state dir is an issue, not a crash", () => {
    const r = openStateReader(path.join(root, "does-not-exist"));
    expect(r.listSessions()).toEqual({
      sessions: [],
      issues: [expect.objectContaining({ code: "state-dir-missing", severity: "error" })],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// SQLite agents go through server/sources/sqlite/sqlite-source.ts (helper module); the reader only routes.

const S1_STATE = path.resolve(__dirname, "../../../shared/fixtures/s1-cache-ttl-default/state");
const haveS1 = existsSync(S1_STATE);
if (!haveS1) console.warn(`[skip] s1 fixture not found at ${S1_STATE}`);

describe.skipIf(!haveS1)("state reader routes SQLite agents (s1, 2026.9.6)", () => {
  it("lists and loads the SQLite session through the same API", () => {
    const d = discoverState(S1_STATE);
    expect(d.agents).toEqual([
      {
        agentId: "main",
        sessionsDir: null,
        sqlitePath: path.join(S1_STATE, "agents/main/agent/openclaw-agent.sqlite"),
      },
    ]);
    const reader = openStateReader(S1_STATE);
    const { sessions, issues } = reader.listSessions();
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      agentId: "main",
      sessionKey: "agent:main:main",
      storage: "sqlite",
      archived: null,
    });
    const ref = reader.resolveRef("agent:main:main");
    expect(ref).toEqual({ agentId: "main", sessionId: sessions[0]?.sessionId });
    if (!ref) return;
    const s = loaded(reader.loadSession(ref));
    // spec fixtures.md §2: s1 has 76 events
    expect(s.transcript.entries).toHaveLength(76);
    expect(s.version).toMatchObject({ appVersion: "2026.9.6", family: "2026.9" });
  });

  it("a mixed-era agent shows both stores: SQLite sessions live, JSONL ones marked legacy and loadable", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "clawscope-mixed-"));
    try {
      const agentDir = path.join(root, "agents/main");
      mkdirSync(path.join(agentDir, "agent"), { recursive: true });
      mkdirSync(path.join(agentDir, "sessions"), { recursive: true });
      writeFileSync(
        path.join(agentDir, "agent/openclaw-agent.sqlite"),
        readFileSync(path.join(S1_STATE, "agents/main/agent/openclaw-agent.sqlite")),
      );
      writeFileSync(
        path.join(agentDir, "sessions/sessions.json"),
        JSON.stringify({
          "agent:main:main": { sessionId: "old" },
          "agent:main:cron:gone": { sessionId: "cron1" },
        }),
      );
      writeFileSync(path.join(agentDir, "sessions/old.jsonl"), `${HEADER("old")}\n`);
      writeFileSync(path.join(agentDir, "sessions/cron1.jsonl"), `${HEADER("cron1")}\n`);
      const reader = openStateReader(root);
      const { sessions } = reader.listSessions();
      expect(sessions.map((s) => [s.storage, s.archived, s.sessionId.startsWith("legacy:")])).toEqual([
        ["sqlite", null, false],
        ["jsonl", "legacy", true],
        ["jsonl", "legacy", true],
      ]);
      // A key only the legacy store has still resolves (every printed key does, issue 13).
      expect(reader.resolveRef("agent:main:cron:gone")).toEqual({
        agentId: "main",
        sessionId: "legacy:cron1",
      });
      // The key still routes to the live SQLite session; the legacy transcript is addressed by its own id.
      expect(reader.resolveRef("agent:main:main")?.sessionId).toBe(sessions[0]?.sessionId);
      const legacy = loaded(reader.loadSession({ agentId: "main", sessionId: "legacy:old" }));
      expect(legacy.summary).toMatchObject({ storage: "jsonl", archived: "legacy", sessionId: "legacy:old" });
      expect(legacy.transcript.entries).toHaveLength(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
