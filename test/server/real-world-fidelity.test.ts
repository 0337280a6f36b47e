// Issue 13, the reader side: every session OpenClaw wrote is listed, loaded and addressable, on small synthetic
// state dirs in test/fixtures/real-world/ (its README says which OpenClaw behaviour each reproduces).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LoadedSession, SessionSummary, VersionInfo } from "../../server/model/session.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { classifyTranscriptFileName } from "../../server/sources/jsonl/file-names.ts";
import { type LoadError, openStateReader } from "../../server/sources/state-reader.ts";
import { installVersion } from "../../server/sources/version-fallback.ts";
import { rebaseConfiguredWorkspace } from "../../server/sources/workspace-files.ts";

const FIX = path.resolve(__dirname, "../fixtures/real-world");
const state = (name: string) => path.join(FIX, name, "state");

function loaded(v: LoadedSession | LoadError): LoadedSession {
  if ("error" in v) throw new Error(`load failed: ${v.error.code} ${v.error.message}`);
  return v;
}

function byId(sessions: SessionSummary[]): Map<string, SessionSummary> {
  return new Map(sessions.map((s) => [s.sessionId, s]));
}

/** Every key and every agent/id the list prints resolves to that very row. */
function expectAllAddressable(stateDir: string): void {
  const reader = openStateReader(stateDir);
  for (const s of reader.listSessions().sessions) {
    const ref = { agentId: s.agentId, sessionId: s.sessionId };
    expect(reader.resolveRef(`${s.agentId}/${s.sessionId}`), `${s.agentId}/${s.sessionId}`).toEqual(ref);
    if (s.sessionKey !== null) expect(reader.resolveRef(s.sessionKey), s.sessionKey).toEqual(ref);
  }
}

describe("archive names OpenClaw and real installs write", () => {
  it("reads epoch, offset, collision and copy suffixes (times in UTC ms)", () => {
    const kind = (name: string) => classifyTranscriptFileName(name);
    expect(kind("x.jsonl.deleted.1782530279")).toMatchObject({ kind: "deleted", archivedAt: 1782530279000 });
    expect(kind("x.jsonl.deleted.1782530279123")).toMatchObject({
      kind: "deleted",
      archivedAt: 1782530279123,
    });
    expect(kind("x.jsonl.reset.2026-03-14T19-52-43.739+08-00")).toMatchObject({
      kind: "reset",
      id: "x.reset.2026-03-14T19-52-43.739_08-00",
      archivedAt: Date.parse("2026-03-14T11:52:43.739Z"),
    });
    expect(kind("x.jsonl.reset.2026-04-05T04-22-28Z")).toMatchObject({ kind: "reset", timestampNote: null });
    expect(kind("x.jsonl.deleted.2026-06-01T00-00-00.000Z.1")).toMatchObject({
      kind: "deleted",
      archivedAt: Date.parse("2026-06-01T00:00:00.000Z"),
    });
    expect(kind("x.jsonl.bak-12345-1775000000000")).toMatchObject({
      kind: "backup",
      baseName: "x.jsonl",
      archivedAt: 1775000000000,
    });
    expect(kind("x.jsonl.bak.2026-04-05T04-22-28.629Z")).toMatchObject({
      kind: "backup",
      baseName: "x.jsonl",
    });
    expect(kind("x.jsonl.pre-doctor-branch-repair-2026-06-27T10-11-12-345Z.bak")).toMatchObject({
      kind: "backup",
      archivedAt: Date.parse("2026-06-27T10:11:12.345Z"),
    });
    expect(kind("x.checkpoint.0b7e9c1e-4d2a-4c3b-9a1f-2e3d4c5b6a7f.jsonl")).toMatchObject({
      kind: "checkpoint",
      baseName: "x.jsonl",
    });
    expect(kind("x-topic-12345.jsonl")).toEqual({ kind: "live", id: "x-topic-12345" });
    expect(kind("x.jsonl.lock").kind).toBe("skip");
  });

  it("epoch-suffixed deleted archives: listed as deleted; a key whose only transcript is one resolves to it", () => {
    const reader = openStateReader(state("epoch-archives"));
    const { sessions, issues } = reader.listSessions();
    const rows = byId(sessions);
    const main = rows.get("aaaa1111-0000-4000-8000-000000000001.deleted.1782530279");
    expect(main).toMatchObject({ sessionKey: "agent:main:main", archived: "deleted", entryCount: 5 });
    expect(main?.missing).toBeUndefined();
    expect(rows.get("bbbb2222-0000-4000-8000-000000000002.deleted.1782530279123")).toMatchObject({
      archived: "deleted",
      sessionKey: null,
    });
    expect(issues.map((i) => i.code)).not.toContain("transcript-missing");
    const notes = issues.filter((i) => i.code === "archive-name-format").map((i) => i.message);
    expect(notes.sort()).toEqual([
      "archive time in the file name read as epoch milliseconds",
      "archive time in the file name read as epoch seconds (10 digits read as seconds; the writer is unknown)",
    ]);
    expect(reader.resolveRef("agent:main:main")).toEqual({ agentId: "main", sessionId: main?.sessionId });
    const s = loaded(reader.loadSession({ agentId: "main", sessionId: main?.sessionId ?? "" }));
    expect(s.transcript.entries).toHaveLength(5);
    expectAllAddressable(state("epoch-archives"));
  });

  it("cost --all counts the deleted archives", () => {
    const service = createSessionService({ stateDir: state("epoch-archives"), demo: false, reason: "test" });
    const all = service.costAll(true);
    expect(all.sessions.map((s) => s.sessionId).sort()).toEqual([
      "aaaa1111-0000-4000-8000-000000000001.deleted.1782530279",
      "bbbb2222-0000-4000-8000-000000000002.deleted.1782530279123",
    ]);
  });

  it("offset-suffixed reset archives: listed whether or not a (Windows) sessionFile names them", () => {
    const { sessions } = openStateReader(state("offset-archives")).listSessions();
    const rows = byId(sessions);
    expect(
      rows.get("cccc3333-0000-4000-8000-000000000003.reset.2026-03-14T19-52-43.739_08-00"),
    ).toMatchObject({
      sessionKey: "agent:main:telegram:direct:42",
      archived: "reset",
      updatedAt: 1780000000000,
    });
    expect(
      rows.get("dddd4444-0000-4000-8000-000000000004.reset.2026-03-15T08-00-00.000-05-00"),
    ).toMatchObject({
      archived: "reset",
      sessionKey: null,
    });
    expect(sessions).toHaveLength(2);
    expectAllAddressable(state("offset-archives"));
  });

  it("backup and checkpoint copies: listed (archived, hidden by default), named as copies, never counted twice", () => {
    const dir = state("copies");
    const rows = byId(openStateReader(dir).listSessions().sessions);
    const id = "eeee5555-0000-4000-8000-000000000005";
    expect(rows.get(id)).toMatchObject({ archived: null });
    expect(rows.get(`${id}.bak-4242-1775000000000`)).toMatchObject({
      archived: "backup",
      copyOf: `${id}.jsonl`,
    });
    expect(rows.get(`${id}.bak.2026-05-01T09-00-00.000Z`)).toMatchObject({ archived: "backup" });
    expect(rows.get(`${id}.checkpoint.0b7e9c1e-4d2a-4c3b-9a1f-2e3d4c5b6a7f`)).toMatchObject({
      archived: "checkpoint",
      copyOf: `${id}.jsonl`,
    });
    const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
    const all = service.costAll(true);
    expect(all.sessions.map((s) => s.sessionId)).toEqual([id]);
    expectAllAddressable(dir);
  });
});

describe("an openclaw-agent.sqlite without transcript tables (agent schema 1)", () => {
  it("warns once and reads the agent's JSONL sessions exactly as if the file were absent", () => {
    const dir = state("auth-only-sqlite");
    const reader = openStateReader(dir);
    const { sessions, issues } = reader.listSessions();
    expect(sessions.map((s) => [s.sessionId, s.sessionKey, s.archived]).sort()).toEqual([
      ["ffff6666-0000-4000-8000-000000000006", "agent:main:main", null],
      ["ffff7777-0000-4000-8000-000000000007", "agent:main:cron:nightly", null],
    ]);
    expect(issues.map((i) => [i.code, i.severity, i.source])).toEqual([
      ["no-session-tables", "warning", "agents/main/agent/openclaw-agent.sqlite"],
    ]);
    expect(issues[0]?.message).toContain("agent schema 1");
    expect(reader.resolveRef("agent:main:cron:nightly")).toEqual({
      agentId: "main",
      sessionId: "ffff7777-0000-4000-8000-000000000007",
    });
    const s = loaded(
      reader.loadSession({ agentId: "main", sessionId: "ffff6666-0000-4000-8000-000000000006" }),
    );
    expect(s.summary.storage).toBe("jsonl");
    expectAllAddressable(dir);
  });
});

describe("Windows-recorded paths and missing transcripts", () => {
  it("rebases C:\\…\\.OpenClaw and D:\\.openclaw recordings onto the state dir (both separators, any case)", () => {
    const dir = state("windows-paths");
    const reader = openStateReader(dir);
    const a = loaded(
      reader.loadSession({ agentId: "main", sessionId: "1111aaaa-0000-4000-8000-000000000011" }),
    );
    expect(a.rebasedPaths).toContainEqual({
      recorded: "C:\\Users\\me\\.openclaw\\workspace",
      actual: path.join(dir, "workspace"),
    });
    const b = loaded(
      reader.loadSession({ agentId: "main", sessionId: "2222bbbb-0000-4000-8000-000000000022" }),
    );
    expect(b.rebasedPaths).toContainEqual({
      recorded: "D:\\.openclaw\\workspace",
      actual: path.join(dir, "workspace"),
    });
    expectAllAddressable(dir);
  });

  it("truncation reads a Windows-recorded file path rebased, and names it as recorded", () => {
    const dir = state("windows-paths");
    const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
    const r = service.truncation("main", "1111aaaa-0000-4000-8000-000000000011", {});
    service.close();
    if (!r.ok) throw new Error(r.error.message);
    const actual = path.join(dir, "workspace", "AGENTS.md");
    expect(r.value.workspace.rebasedPaths).toEqual([
      { recorded: "C:\\Users\\me\\.openclaw\\workspace", actual: path.join(dir, "workspace") },
      { recorded: "C:\\Users\\me\\.openclaw\\workspace\\AGENTS.md", actual },
    ]);
    expect(r.value.files[0]).toMatchObject({
      name: "AGENTS.md",
      current: { readPath: actual, rawChars: 17 },
    });
  });

  it("flags a session whose transcript is missing, with the path it was looked for at", () => {
    const rows = byId(openStateReader(state("windows-paths")).listSessions().sessions);
    expect(rows.get("3333cccc-0000-4000-8000-000000000033")).toMatchObject({
      missing: true,
      entryCount: null,
      location: "agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl",
    });
  });

  it("finds the workspace of a session without a stored report: configured (a Windows path rebased), else <state>/workspace, else workspace-<id>", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-windows-config-"));
    const workspaceOf = (sessionId: string) => {
      const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
      const r = service.truncation("main", sessionId, {});
      service.close();
      if (!r.ok) throw new Error(r.error.message);
      return { ...r.value.workspace, notes: r.value.notes.join("\n") };
    };
    const CRON = "3333cccc-0000-4000-8000-000000000033";
    try {
      fs.cpSync(state("windows-paths"), dir, { recursive: true });
      expect(workspaceOf(CRON)).toMatchObject({
        dir: path.join(dir, "workspace"),
        source: "<stateDir>/workspace",
      });
      // openclaw.json copied from the Windows install: a custom workspace below D:\.OpenClaw
      fs.renameSync(path.join(dir, "workspace"), path.join(dir, "ws-custom"));
      fs.writeFileSync(
        path.join(dir, "openclaw.json"),
        JSON.stringify({ agents: { defaults: { workspace: "D:\\.OpenClaw\\ws-custom" } } }),
      );
      expect(workspaceOf(CRON)).toMatchObject({
        dir: path.join(dir, "ws-custom"),
        source: "agents.defaults.workspace, rebased",
      });
      fs.renameSync(path.join(dir, "ws-custom"), path.join(dir, "workspace-main"));
      const none = workspaceOf(CRON);
      expect(none).toMatchObject({
        dir: path.join(dir, "workspace-main"),
        source: "<stateDir>/workspace-main",
      });
      fs.rmSync(path.join(dir, "workspace-main"), { recursive: true });
      expect(workspaceOf(CRON).notes).toContain(
        `looked in: D:\\.OpenClaw\\ws-custom, ${path.join(dir, "ws-custom")}, ${path.join(dir, "workspace")}, ${path.join(dir, "workspace-main")}`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rebases a configured absolute path of either OS below its .openclaw segment (any case), else before workspace", () => {
    expect(rebaseConfiguredWorkspace("C:\\Users\\me\\.OpenClaw-work\\my ws", "/s")).toBe(
      path.join("/s", "my ws"),
    );
    expect(rebaseConfiguredWorkspace("/home/u/.openclaw/a/b", "/s")).toBe(path.join("/s", "a", "b"));
    expect(rebaseConfiguredWorkspace("E:\\data\\workspace-ops", "/s")).toBe(path.join("/s", "workspace-ops"));
    expect(rebaseConfiguredWorkspace("E:\\data\\mine", "/s")).toBeNull();
    expect(rebaseConfiguredWorkspace("relative\\.openclaw\\workspace", "/s")).toBeNull();
    expect(rebaseConfiguredWorkspace(os.tmpdir(), "/s")).toBeNull();
  });
});

describe("archived transcripts are finished files", () => {
  it("a garbage fragment at the end of an archive is a located parse error; on a live file it is a write in progress", () => {
    const reader = openStateReader(state("archive-fragment"));
    const archived = loaded(
      reader.loadSession({
        agentId: "main",
        sessionId: "4444dddd-0000-4000-8000-000000000044.reset.2026-04-05T04-22-28.629Z",
      }),
    );
    expect(archived.transcript.issues.map((i) => [i.code, i.severity, i.line])).toEqual([
      ["invalid-json", "error", 4],
    ]);
    expect(archived.summary.parseErrorCount).toBe(1);
    const live = loaded(
      reader.loadSession({ agentId: "main", sessionId: "5555eeee-0000-4000-8000-000000000055" }),
    );
    expect(live.transcript.issues.map((i) => [i.code, i.severity, i.line])).toEqual([
      ["truncated-line", "warning", 4],
    ]);
  });
});

describe("release family of sessions without a version signal of their own", () => {
  it("takes the config's meta.lastTouchedVersion and says so", () => {
    const reader = openStateReader(state("install-family"));
    const s = loaded(
      reader.loadSession({ agentId: "main", sessionId: "6666ffff-0000-4000-8000-000000000066" }),
    );
    expect(s.version).toMatchObject({ appVersion: "2026.7.1", family: "2026.7", decidedBy: "config" });
    expect(s.version.reason).toContain("meta.lastTouchedVersion 2026.7.1");
    const own = loaded(
      reader.loadSession({ agentId: "ops", sessionId: "7777aaaa-0000-4000-8000-000000000077" }),
    );
    expect(own.version).toMatchObject({ family: "2026.7", decidedBy: "session" });
  });

  it("re-reads the install's signals when the config changes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-install-family-"));
    try {
      fs.cpSync(state("install-family"), dir, { recursive: true });
      const reader = openStateReader(dir);
      const ref = { agentId: "main", sessionId: "6666ffff-0000-4000-8000-000000000066" };
      expect(loaded(reader.loadSession(ref)).version.family).toBe("2026.7");
      fs.writeFileSync(
        path.join(dir, "openclaw.json"),
        JSON.stringify({ meta: { lastTouchedVersion: "2026.9.6" } }),
      );
      expect(loaded(reader.loadSession(ref)).version).toMatchObject({
        family: "2026.9",
        appVersion: "2026.9.6",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("else the newest family of the agent's other sessions, else of the state dir — never an older default", () => {
    const none: VersionInfo = { appVersion: null, family: "2026.3", reason: "nothing", decidedBy: "default" };
    const families = new Map<string, VersionInfo["family"][]>([
      ["ops", ["2026.3", "2026.7"]],
      ["main", []],
      ["other", ["2026.9"]],
    ]);
    expect(installVersion(none, "ops", { configVersion: null, agentFamilies: families })).toMatchObject({
      family: "2026.7",
      decidedBy: "agent-sessions",
    });
    expect(installVersion(none, "main", { configVersion: null, agentFamilies: families })).toMatchObject({
      family: "2026.9",
      decidedBy: "state-dir",
    });
    expect(installVersion(none, "main", { configVersion: null, agentFamilies: new Map() })).toBe(none);
    const own: VersionInfo = { ...none, decidedBy: "session" };
    expect(installVersion(own, "ops", { configVersion: "2026.9.6", agentFamilies: families })).toBe(own);
  });
});

describe("the truncation report of a session without a stored report says which signal decided its release", () => {
  const notes = (dir: string, agentId: string, sessionId: string) => {
    const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
    const r = service.truncation(agentId, sessionId, {});
    service.close();
    if (!r.ok) throw new Error(r.error.message);
    return r.value.notes.join("\n");
  };
  const MAIN = "6666ffff-0000-4000-8000-000000000066";

  it("the config's meta.lastTouchedVersion, also when no workspace was found", () => {
    const n = notes(state("install-family"), "main", MAIN);
    expect(n).toContain("No workspace was found");
    expect(n).toContain("decided by config");
    expect(n).toContain("meta.lastTouchedVersion 2026.7.1");
  });

  it("without a config: the agent's other sessions, else the state dir's — with or without a workspace", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-install-signal-"));
    try {
      fs.cpSync(state("install-family"), dir, { recursive: true });
      fs.rmSync(path.join(dir, "openclaw.json"));
      const ops = notes(dir, "ops", "8888bbbb-0000-4000-8000-000000000088");
      expect(ops).toContain("Rules of the 2026.7 family (decided by agent-sessions:");
      expect(notes(dir, "main", MAIN)).toContain("Rules of the 2026.7 family (decided by state-dir:");
      fs.mkdirSync(path.join(dir, "workspace"));
      fs.writeFileSync(path.join(dir, "workspace", "AGENTS.md"), "a".repeat(100));
      const withWorkspace = notes(dir, "main", MAIN);
      expect(withWorkspace).toContain("would inject from them");
      expect(withWorkspace).toContain("decided by state-dir: ");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
