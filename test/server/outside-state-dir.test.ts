// Files outside the state dir are never read (issue 20): a recorded per-file path (`/etc/passwd`), a recorded
// workspaceDir elsewhere that the config does not name, a workspace file that is a symlink leaving the workspace,
// an agent database or sessions dir that is a symlink to outside. Each is reported, located, and the rest of
// the state dir still reads.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import type { JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEMO_DB = path.join(REPO, "server/demo/state/agents/main/agent/openclaw-agent.sqlite");
const SESSION = "0a1b2c3d-0000-4000-8000-0000000000ee";
const CANARY = "CANARY-OUTSIDE-THE-STATE-DIR";
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A root with `outside/` (secret files) and `state/` (one JSONL session whose report names `files`). */
function build(opts: {
  workspaceDir?: (state: string, outside: string) => string;
  files?: (outside: string) => { name: string; path: string }[];
  config?: (outside: string) => JsonObject;
}) {
  const root = mkdtempSync(path.join(os.tmpdir(), "clawscope-outside-"));
  roots.push(root);
  const outside = path.join(root, "outside");
  const state = path.join(root, "state");
  mkdirSync(path.join(outside, "ws"), { recursive: true });
  mkdirSync(path.join(state, "workspace"), { recursive: true });
  writeFileSync(path.join(outside, "secret.txt"), `${CANARY}\n`.repeat(40));
  writeFileSync(path.join(outside, "ws", "AGENTS.md"), `# outside agents ${CANARY}\n`);
  writeFileSync(path.join(state, "workspace", "AGENTS.md"), "# agents\n");
  writeFileSync(path.join(state, "workspace", "USER.md"), "# user\n");
  if (opts.config) writeFileSync(path.join(state, "openclaw.json"), JSON.stringify(opts.config(outside)));
  const workspaceDir = opts.workspaceDir?.(state, outside) ?? path.join(state, "workspace");
  const files = opts.files?.(outside) ?? [
    { name: "AGENTS.md", path: path.join(workspaceDir, "AGENTS.md") },
    { name: "USER.md", path: path.join(workspaceDir, "USER.md") },
  ];
  const report = {
    source: "run",
    generatedAt: Date.parse("2026-11-30T10:00:00.000Z"),
    sessionId: SESSION,
    provider: "anthropic",
    model: "claude-mock-1",
    workspaceDir,
    bootstrapMaxChars: 20000,
    bootstrapTotalMaxChars: 60000,
    systemPrompt: { chars: 9000, projectContextChars: 600, nonProjectContextChars: 8400 },
    injectedWorkspaceFiles: files.map((f) => ({
      ...f,
      missing: false,
      rawChars: 8,
      injectedChars: 8,
      truncated: false,
    })),
    skills: { promptChars: 0, entries: [] },
    tools: { listChars: 0, schemaChars: 0, entries: [] },
  };
  const b = new TranscriptBuilder();
  b.user("hi");
  b.assistant({ text: "hello" });
  b.writeJsonlStateDir(state, { sessionId: SESSION, entry: { systemPromptReport: report } });
  return { root, state, outside };
}

/** What was read now for `name` (current.rawChars; null = not read). */
function readChars(dto: { files: { name: string; current: { rawChars: number | null } }[] }, name: string) {
  return dto.files.find((f) => f.name === name)?.current.rawChars ?? null;
}

function truncation(state: string) {
  const service = createSessionService({ stateDir: state, demo: false, reason: "test" });
  const r = service.truncation("main", SESSION, {});
  service.close();
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe("files outside the state dir (issue 20)", () => {
  it("a recorded per-file path outside (`/etc/passwd`-style) is not opened; <workspace>/<name> is read", () => {
    const { state } = build({
      files: (outside) => [
        { name: "AGENTS.md", path: path.join(outside, "secret.txt") },
        { name: "USER.md", path: "/etc/passwd" },
      ],
    });
    const dto = truncation(state);
    expect(JSON.stringify(dto)).not.toContain(CANARY);
    expect(readChars(dto, "AGENTS.md")).toBe("# agents".length);
    expect(readChars(dto, "USER.md")).toBe("# user".length);
  });

  it("a workspace file that is a symlink leaving the workspace is not followed", () => {
    const { state, outside } = build({});
    rmSync(path.join(state, "workspace", "USER.md"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(state, "workspace", "USER.md"));
    const dto = truncation(state);
    expect(JSON.stringify(dto)).not.toContain(CANARY);
    expect(readChars(dto, "USER.md")).toBeNull();
    expect(readChars(dto, "AGENTS.md")).toBe("# agents".length);
  });

  it("a recorded workspaceDir outside the state dir is not read unless the config names it", () => {
    const workspaceDir = (_state: string, outside: string) => path.join(outside, "ws");
    const refused = truncation(build({ workspaceDir }).state);
    expect(JSON.stringify(refused)).not.toContain(CANARY);
    expect(readChars(refused, "AGENTS.md")).toBeNull();
    // The config's own agents.defaults.workspace: the user put the workspace there, so it is read.
    const configured = build({
      workspaceDir,
      config: (outside) => ({ agents: { defaults: { workspace: path.join(outside, "ws") } } }),
    });
    const allowed = truncation(configured.state);
    expect(readChars(allowed, "AGENTS.md")).toBe(`# outside agents ${CANARY}`.length);
    // …but a symlink in it must stay inside it.
    symlinkSync(path.join(configured.outside, "secret.txt"), path.join(configured.outside, "ws", "USER.md"));
    const linked = truncation(configured.state);
    expect(readChars(linked, "USER.md")).toBeNull();
    expect(readChars(linked, "AGENTS.md")).toBe(`# outside agents ${CANARY}`.length);
  });

  it("an agent database or a sessions dir that is a symlink to outside is not opened, and says so", () => {
    const { root, state, outside } = build({});
    copyFileSync(DEMO_DB, path.join(outside, "copied.sqlite"));
    mkdirSync(path.join(state, "agents", "ops", "agent"), { recursive: true });
    symlinkSync(
      path.join(outside, "copied.sqlite"),
      path.join(state, "agents", "ops", "agent", "openclaw-agent.sqlite"),
    );
    // A sessions dir elsewhere holding a transcript and a store.
    const elsewhere = path.join(root, "elsewhere-state");
    new TranscriptBuilder().writeJsonlStateDir(elsewhere, {
      agentId: "spy",
      sessionId: "0a1b2c3d-0000-4000-8000-0000000000ff",
    });
    mkdirSync(path.join(state, "agents", "spy"), { recursive: true });
    symlinkSync(
      path.join(elsewhere, "agents", "spy", "sessions"),
      path.join(state, "agents", "spy", "sessions"),
    );
    const listing = openStateReader(state).listSessions();
    expect(listing.sessions.map((s) => `${s.agentId}/${s.sessionId}`)).toEqual([`main/${SESSION}`]);
    const codes = listing.issues.map((i) => `${i.source} ${i.code}`);
    expect(codes).toContain("agents/ops/agent/openclaw-agent.sqlite outside-state-dir");
    expect(codes).toContain("agents/spy/sessions outside-state-dir");
  });
});
