// State-dir resolution (spec storage.md §1) and config reading / per-agent settings.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentBlock,
  configuredModel,
  configuredPruning,
  contextPruningBlock,
  heartbeatEvery,
  normalizeAgentId,
  providerBlock,
  resolveCacheRetention,
} from "../../server/openclaw/config/agent-settings.ts";
import { resolveStateDir } from "../../server/shell/config.ts";
import { parseOpenClawConfigText, readOpenClawConfig } from "../../server/sources/openclaw-config.ts";
import { resolveHome } from "../../server/sources/user-path.ts";

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
    const config = r.config;
    expect(contextPruningBlock(config)).toEqual({ mode: "cache-ttl", ttl: "20s" });
    expect(configuredPruning(config)).toEqual({ mode: "cache-ttl", ttlMs: 20_000 });
    expect(heartbeatEvery(config, "main", "2026.7")).toEqual({
      value: "0m",
      ms: 0,
      source: "agents.defaults.heartbeat.every",
    });
    expect(
      resolveCacheRetention(config, "main", "anthropic", "claude-mock-1", {
        family: "2026.7",
        appVersion: null,
      }),
    ).toEqual({
      value: "short",
      source: "unset → short on direct anthropic (OpenClaw default, spec §2.1)",
    });
    expect(configuredModel(config, "anthropic", "claude-mock-1")?.contextWindow).toBe(100000);
    expect(configuredModel(config, "anthropic", "other")).toBeNull();
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

describe("agent settings (openclaw/config/agent-settings.ts)", () => {
  const config = {
    agents: {
      defaults: {
        contextTokens: 150000,
        heartbeat: { every: "30m" },
        params: { cacheRetention: "short" },
        models: { "anthropic/claude-x": { params: { cacheRetention: "long" } } },
        contextPruning: { mode: "cache-ttl", ttl: "1h" },
      },
      list: [{ id: "ops", heartbeat: { every: "10m" }, contextPruning: { mode: "off" } }],
      entries: {
        Coder: {
          heartbeat: { every: "0m" },
          params: { cacheRetention: "none" },
        },
      },
    },
  };

  it("2026.9.x: agents.entries owns the roster when present; the legacy agents.list is not read", () => {
    // OpenClaw 2026.9.6 src/agents/agent-roster.ts readAgentRosterProperty: `entries` first, exclusively.
    expect(agentBlock(config, "coder", "2026.9")?.path).toBe("agents.entries.Coder");
    expect(agentBlock(config, "ops", "2026.9")).toBeNull();
    // Without `entries`, 2026.9.x reads the legacy roster.
    expect(agentBlock({ agents: { list: [{ id: "ops" }] } }, "ops", "2026.9")?.path).toBe("agents.list[0]");
    expect(agentBlock({ agents: { entries: null, list: [{ id: "ops" }] } }, "ops", "2026.9")).toBeNull();
  });

  it("≤ 2026.7.1: only agents.list[] (entries did not exist)", () => {
    expect(agentBlock(config, "ops", "2026.7")?.path).toBe("agents.list[0]");
    expect(agentBlock(config, "coder", "2026.7")).toBeNull();
    expect(agentBlock(config, "ops", "2026.3")?.path).toBe("agents.list[0]");
    expect(agentBlock(config, "nobody", "2026.7")).toBeNull();
    expect(agentBlock(null, "main", "2026.9")).toBeNull();
  });

  it("agent ids compare normalised (OpenClaw normalizeAgentId)", () => {
    expect(normalizeAgentId(" Ops ")).toBe("ops");
    expect(normalizeAgentId("My Agent!")).toBe("my-agent");
    expect(normalizeAgentId("---")).toBe("main");
    expect(agentBlock(config, " OPS", "2026.7")?.path).toBe("agents.list[0]");
  });

  it("heartbeat.every: the agent's own block wins over the defaults", () => {
    expect(heartbeatEvery(config, "coder", "2026.9")).toEqual({
      value: "0m",
      ms: 0,
      source: "agents.entries.Coder.heartbeat.every",
    });
    expect(heartbeatEvery(config, "ops", "2026.7")).toEqual({
      value: "10m",
      ms: 600_000,
      source: "agents.list[0].heartbeat.every",
    });
    expect(heartbeatEvery(config, "ops", "2026.9").source).toBe("agents.defaults.heartbeat.every");
    expect(heartbeatEvery({}, "main", "2026.9")).toEqual({
      value: undefined,
      ms: null,
      source: "agents.defaults.heartbeat.every",
    });
  });

  it("contextPruning: only agents.defaults (pruning.md §1.1); cache-ttl without ttl is 5 minutes", () => {
    expect(contextPruningBlock(config)).toEqual({ mode: "cache-ttl", ttl: "1h" });
    expect(configuredPruning(config)).toEqual({ mode: "cache-ttl", ttlMs: 3_600_000 });
    const bare = { agents: { defaults: { contextPruning: { mode: "cache-ttl" } } } };
    expect(configuredPruning(bare)).toEqual({ mode: "cache-ttl", ttlMs: 300_000 });
    expect(
      configuredPruning({ agents: { defaults: { contextPruning: { mode: "off", ttl: "1h" } } } }),
    ).toEqual({
      mode: "off",
      ttlMs: null,
    });
    expect(configuredPruning(null)).toEqual({ mode: null, ttlMs: null });
  });

  it("the per-agent models[...].params layer is read from 2026.9.3 on (resolveModelExtraParamSources agentModelParams)", () => {
    const cfg = {
      agents: {
        defaults: { params: { cacheRetention: "short" } },
        list: [{ id: "main", models: { "anthropic/x": { params: { cacheRetention: "long" } } } }],
      },
    };
    const at = (appVersion: string | null) =>
      resolveCacheRetention(cfg, "main", "anthropic", "x", { family: "2026.9", appVersion });
    expect(at("2026.9.3")).toEqual({
      value: "long",
      source: 'config agents.list[0].models["anthropic/x"].params.cacheRetention',
    });
    expect(at(null).value).toBe("long");
    expect(at("2026.9.2")).toEqual({
      value: "short",
      source: "config agents.defaults.params.cacheRetention",
    });
    expect(at("2026.8.2").value).toBe("short");
    expect(
      resolveCacheRetention(cfg, "main", "anthropic", "x", { family: "2026.7", appVersion: null }).value,
    ).toBe("short");
  });
  it("cacheRetention merges in order (cache-and-cost.md §2.1), the agent's block per release", () => {
    expect(
      resolveCacheRetention(config, "main", "anthropic", "claude-x", { family: "2026.9", appVersion: null }),
    ).toEqual({
      value: "long",
      source: 'config agents.defaults.models["anthropic/claude-x"].params.cacheRetention',
    });
    expect(
      resolveCacheRetention(config, "main", "anthropic", "other", { family: "2026.9", appVersion: null })
        .value,
    ).toBe("short");
    expect(
      resolveCacheRetention(config, "coder", "anthropic", "claude-x", { family: "2026.9", appVersion: null }),
    ).toEqual({
      value: "none",
      source: "config agents.entries.Coder.params.cacheRetention",
    });
    // 2026.7.1 knows no agents.entries: the defaults apply to "coder".
    expect(
      resolveCacheRetention(config, "coder", "anthropic", "claude-x", { family: "2026.7", appVersion: null })
        .value,
    ).toBe("long");
  });

  it("configured models: provider ids compare lower-cased (OpenClaw normalizeProviderId), model ids exactly", () => {
    const models = {
      models: {
        providers: {
          Anthropic: { api: "anthropic-messages", models: [{ id: "claude-x", contextWindow: 1 }] },
        },
      },
    };
    expect(providerBlock(models, "anthropic")?.api).toBe("anthropic-messages");
    expect(configuredModel(models, "anthropic", "claude-x")?.contextWindow).toBe(1);
    expect(configuredModel(models, "ANTHROPIC", "claude-x")?.contextWindow).toBe(1);
    expect(configuredModel(models, "anthropic", "Claude-X")).toBeNull();
    expect(configuredModel(models, null, "claude-x")).toBeNull();
  });
});
