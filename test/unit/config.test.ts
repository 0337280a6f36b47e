// State-dir resolution (spec storage.md §1) and config reading / per-agent settings.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveHome, resolveStateDir } from "../../server/config.ts";
import {
  agentOverride,
  effectiveAgentSettings,
  modelContextWindow,
  parseOpenClawConfigText,
  readOpenClawConfig,
} from "../../server/sources/openclaw-config.ts";
import { isObject } from "../../shared/json.ts";

const HOME = "/home/alice";

function resolveWith(
  existing: string[],
  opts: { stateDir?: string; profile?: string; env?: Record<string, string> } = {},
) {
  const set = new Set(existing);
  const input: Parameters<typeof resolveStateDir>[0] = {
    env: opts.env ?? {},
    homedir: HOME,
    exists: (p) => set.has(p),
  };
  if (opts.stateDir !== undefined) input.stateDir = opts.stateDir;
  if (opts.profile !== undefined) input.profile = opts.profile;
  return resolveStateDir(input);
}

describe("resolveStateDir", () => {
  it("uses ~/.openclaw by default", () => {
    const r = resolveWith(["/home/alice/.openclaw"]);
    expect(r.path).toBe("/home/alice/.openclaw");
    expect(r.source).toBe("default");
    expect(r.candidates).toEqual(["/home/alice/.openclaw"]);
  });

  it("falls back to the legacy dirs in order .clawdbot, .moldbot, .moltbot", () => {
    expect(resolveWith(["/home/alice/.moltbot", "/home/alice/.moldbot"]).path).toBe("/home/alice/.moldbot");
    const r = resolveWith(["/home/alice/.moltbot"]);
    expect(r.path).toBe("/home/alice/.moltbot");
    expect(r.source).toBe("legacy");
    expect(r.candidates).toEqual([
      "/home/alice/.openclaw",
      "/home/alice/.clawdbot",
      "/home/alice/.moldbot",
      "/home/alice/.moltbot",
    ]);
    expect(resolveWith(["/home/alice/.clawdbot", "/home/alice/.openclaw"]).path).toBe(
      "/home/alice/.openclaw",
    );
  });

  it("returns null (demo) when nothing exists, listing every candidate", () => {
    const r = resolveWith([]);
    expect(r.path).toBeNull();
    expect(r.source).toBe("none");
    expect(r.candidates).toHaveLength(4);
    expect(r.reason).toContain("no state dir found");
  });

  it("--state-dir wins over env and defaults; ~ is expanded", () => {
    const r = resolveWith(["/home/alice/custom", "/env/dir", "/home/alice/.openclaw"], {
      stateDir: "~/custom",
      env: { OPENCLAW_STATE_DIR: "/env/dir" },
    });
    expect(r.path).toBe("/home/alice/custom");
    expect(r.source).toBe("flag");
  });

  it("an explicit dir that does not exist is not replaced by the default", () => {
    const r = resolveWith(["/home/alice/.openclaw"], { stateDir: "/nope" });
    expect(r.path).toBeNull();
    expect(r.reason).toContain("/nope");
    expect(r.reason).toContain("does not exist");
  });

  it("OPENCLAW_STATE_DIR beats CLAWDBOT_STATE_DIR beats --profile", () => {
    const existing = ["/a", "/b", "/home/alice/.openclaw-work"];
    expect(
      resolveWith(existing, { env: { OPENCLAW_STATE_DIR: "/a", CLAWDBOT_STATE_DIR: "/b" }, profile: "work" })
        .path,
    ).toBe("/a");
    const legacy = resolveWith(existing, { env: { CLAWDBOT_STATE_DIR: "/b" }, profile: "work" });
    expect(legacy.path).toBe("/b");
    expect(legacy.reason).toContain("CLAWDBOT_STATE_DIR");
    expect(resolveWith(existing, { profile: "work" }).path).toBe("/home/alice/.openclaw-work");
  });

  it("profile `default` is the plain ~/.openclaw; bad profile names are refused", () => {
    expect(resolveWith(["/home/alice/.openclaw"], { profile: "default" }).path).toBe("/home/alice/.openclaw");
    expect(resolveWith(["/home/alice/.openclaw"], { profile: "dev" }).path).toBeNull();
    expect(resolveWith(["/x"], { profile: "../x" }).path).toBeNull();
  });

  it("OPENCLAW_HOME overrides the home dir, with a leading ~ expanded against the OS home", () => {
    expect(resolveHome({ OPENCLAW_HOME: "~/oc-home" }, HOME)).toBe("/home/alice/oc-home");
    expect(resolveHome({ OPENCLAW_HOME: "/srv/oc" }, HOME)).toBe("/srv/oc");
    expect(resolveHome({ HOME: "/home/bob" }, HOME)).toBe("/home/bob");
    expect(resolveHome({ USERPROFILE: "/users/carol" }, HOME)).toBe("/users/carol");
    const r = resolveWith(["/srv/oc/.openclaw"], { env: { OPENCLAW_HOME: "/srv/oc" } });
    expect(r.path).toBe("/srv/oc/.openclaw");
    // ~ in an explicit state dir uses the OpenClaw home too.
    expect(
      resolveWith(["/srv/oc/state"], { env: { OPENCLAW_HOME: "/srv/oc", OPENCLAW_STATE_DIR: "~/state" } })
        .path,
    ).toBe("/srv/oc/state");
  });
});

describe("parseOpenClawConfigText", () => {
  it("accepts JSON5 (comments, unquoted keys, trailing commas)", () => {
    const r = parseOpenClawConfigText(
      "// c\n{ agents: { defaults: { bootstrapMaxChars: 12000, }, }, }",
      "openclaw.json",
    );
    expect(r.issues).toEqual([]);
    expect(r.config).toEqual({ agents: { defaults: { bootstrapMaxChars: 12000 } } });
  });

  it("reports broken JSON5 with its line and never throws", () => {
    const r = parseOpenClawConfigText('{\n  "a": 1,\n  "b": ]\n}', "openclaw.json");
    expect(r.config).toBeNull();
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]?.code).toBe("invalid-config");
    expect(r.issues[0]?.line).toBe(3);
  });

  it("refuses a non-object and warns about $include", () => {
    expect(parseOpenClawConfigText("[1,2]", "x").issues[0]?.code).toBe("invalid-config");
    const inc = parseOpenClawConfigText('{ agents: { $include: "./agents.json5" } }', "x");
    expect(inc.config).not.toBeNull();
    expect(inc.issues.map((i) => i.code)).toEqual(["config-include-ignored"]);
  });
});

const J1_STATE = path.resolve(__dirname, "../../../shared/fixtures/j1-jsonl-cache-ttl-default/state");
const haveJ1 = existsSync(J1_STATE);
if (!haveJ1) console.warn(`[skip] j1 fixture not found at ${J1_STATE}`);

describe.skipIf(!haveJ1)("readOpenClawConfig (j1 fixture)", () => {
  it("reads <stateDir>/openclaw.json and resolves the j1 settings", () => {
    const r = readOpenClawConfig(J1_STATE, {});
    expect(r.path).toBe(path.join(J1_STATE, "openclaw.json"));
    expect(r.issues).toEqual([]);
    const expected: unknown = JSON.parse(readFileSync(path.join(J1_STATE, "openclaw.json"), "utf8"));
    expect(r.config).toEqual(expected);
    const s = effectiveAgentSettings(r.config, "main", { stateDir: J1_STATE });
    expect(s.contextPruning).toEqual({ value: { mode: "cache-ttl", ttl: "20s" }, from: "defaults" });
    expect(s.heartbeatEvery).toEqual({ value: "0m", from: "defaults" });
    expect(s.workspace).toEqual({ value: "/home/user/.openclaw/workspace", from: "defaults" });
    expect(s.bootstrapMaxChars).toEqual({ value: null, from: "unset" });
    expect(s.bootstrapTotalMaxChars).toEqual({ value: null, from: "unset" });
    expect(s.contextTokens).toEqual({ value: null, from: "unset" });
    expect(s.cacheRetention).toEqual({ value: null, from: "unset" });
    expect(modelContextWindow(r.config, "anthropic", "claude-mock-1")).toBe(100000);
    expect(modelContextWindow(r.config, "anthropic", "other")).toBeNull();
  });

  it("honours OPENCLAW_CONFIG_PATH and reports a missing one", () => {
    const viaEnv = readOpenClawConfig("/nonexistent-state", {
      OPENCLAW_CONFIG_PATH: path.join(J1_STATE, "openclaw.json"),
    });
    expect(viaEnv.config).not.toBeNull();
    const viaHome = readOpenClawConfig("/nonexistent-state", {
      HOME: path.dirname(J1_STATE),
      OPENCLAW_CONFIG_PATH: "~/state/openclaw.json",
    });
    expect(viaHome.path).toBe(path.join(J1_STATE, "openclaw.json"));
    const missing = readOpenClawConfig(J1_STATE, { OPENCLAW_CONFIG_PATH: "/nonexistent/openclaw.json" });
    expect(missing.config).toBeNull();
    expect(missing.issues[0]?.code).toBe("config-missing");
  });

  it("a state dir without config gives nulls and no issue", () => {
    const r = readOpenClawConfig(path.join(J1_STATE, "workspace"), {});
    expect(r).toEqual({ path: null, config: null, issues: [] });
  });
});

describe("effectiveAgentSettings", () => {
  const config = {
    agents: {
      defaults: {
        bootstrapMaxChars: 20000.7,
        bootstrapTotalMaxChars: 0,
        contextTokens: 150000,
        heartbeat: { every: "30m" },
        params: { cacheRetention: "short" },
        models: { "anthropic/claude-x": { params: { cacheRetention: "long" } } },
        contextPruning: { mode: "cache-ttl", ttl: "1h" },
        workspace: "/ws",
        bootstrapPromptTruncationWarning: "once",
        compaction: { enabled: false },
      },
      list: [{ id: "ops", bootstrapMaxChars: 8000, workspace: "/ops-ws", contextPruning: { mode: "off" } }],
      entries: {
        coder: {
          bootstrapTotalMaxChars: 30000,
          heartbeat: { every: "0m" },
          params: { cacheRetention: "none" },
        },
      },
    },
  };

  it("applies per-agent overrides from agents.entries (9.x) and agents.list[] (≤7.1)", () => {
    const ops = effectiveAgentSettings(config, "ops", { stateDir: "/state" });
    expect(ops.bootstrapMaxChars).toEqual({ value: 8000, from: "agent" });
    expect(ops.workspace).toEqual({ value: "/ops-ws", from: "agent" });
    // ≤2026.7.1 reads only agents.defaults.contextPruning (pruning.md §1.1).
    expect(ops.contextPruning).toEqual({ value: { mode: "cache-ttl", ttl: "1h" }, from: "defaults" });
    const coder = effectiveAgentSettings(config, "coder", { stateDir: "/state" });
    expect(coder.bootstrapTotalMaxChars).toEqual({ value: 30000, from: "agent" });
    expect(coder.heartbeatEvery).toEqual({ value: "0m", from: "agent" });
    expect(coder.cacheRetention).toEqual({ value: "none", from: "agent" });
    expect(coder.workspace).toEqual({ value: "/ws/coder", from: "derived" });
    expect(coder.bootstrapPromptTruncationWarning).toEqual({ value: "once", from: "defaults" });
    expect(coder.compaction).toEqual({ value: { enabled: false }, from: "defaults" });
    expect(effectiveAgentSettings({}, "coder").compaction).toEqual({ value: null, from: "unset" });
    expect(agentOverride(config, "nobody")).toBeNull();
  });

  it("floors limits, ignores non-positive ones, merges cacheRetention in order", () => {
    const main = effectiveAgentSettings(config, "main", { modelRef: "anthropic/claude-x" });
    expect(main.bootstrapMaxChars).toEqual({ value: 20000, from: "defaults" });
    expect(main.bootstrapTotalMaxChars).toEqual({ value: null, from: "unset" });
    expect(main.contextTokens).toEqual({ value: 150000, from: "defaults" });
    expect(main.cacheRetention).toEqual({ value: "long", from: "defaults" });
    expect(effectiveAgentSettings(config, "main").cacheRetention).toEqual({
      value: "short",
      from: "defaults",
    });
    expect(main.workspace).toEqual({ value: "/ws", from: "defaults" });
  });

  it("derives workspaces from the state dir when nothing is configured (storage.md §1)", () => {
    expect(effectiveAgentSettings({}, "main", { stateDir: "/s" }).workspace).toEqual({
      value: "/s/workspace",
      from: "derived",
    });
    expect(effectiveAgentSettings(null, "ops", { stateDir: "/s" }).workspace).toEqual({
      value: "/s/workspace-ops",
      from: "derived",
    });
    expect(effectiveAgentSettings(null, "ops").workspace).toEqual({ value: null, from: "unset" });
    expect(isObject(effectiveAgentSettings(null, "x").contextPruning.value)).toBe(false);
  });
});
