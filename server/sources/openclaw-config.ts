// OpenClaw config (`openclaw.json`, JSON5) reader and the per-agent settings clawscope needs.
// File location per spec storage.md §1; override order per storage.md §1, bootstrap.md §2,
// pruning.md §1.1 and cache-and-cost.md §2.1. Reading never throws: problems become ParseIssue rows.

import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import JSON5 from "json5";
import { arr, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../shared/json.ts";
import { resolveHome } from "../config.ts";
import type { ParseIssue } from "../model/session.ts";

/** Config file names probed in the state dir, newest first (2026.3.2 also knew moldbot/moltbot). */
const CONFIG_FILE_NAMES = ["openclaw.json", "clawdbot.json", "moldbot.json", "moltbot.json"] as const;

export interface OpenClawConfigRead {
  /** Absolute path of the config file read (or that was expected), null when none exists. */
  path: string | null;
  config: JsonObject | null;
  issues: ParseIssue[];
}

function sourceLabel(stateDir: string, file: string): string {
  const rel = path.relative(stateDir, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

function errorLocation(e: unknown): { line?: number; message: string } {
  const message = e instanceof Error ? e.message : String(e);
  if (isObjectLike(e) && "lineNumber" in e && typeof e.lineNumber === "number") {
    return { line: e.lineNumber, message };
  }
  return { message };
}

function isObjectLike(v: unknown): v is object {
  return typeof v === "object" && v !== null;
}

/** True when a `$include` key appears anywhere (2026.9.x directive; clawscope does not resolve it). */
function hasInclude(v: JsonValue): boolean {
  if (Array.isArray(v)) return v.some(hasInclude);
  if (isObject(v)) return Object.entries(v).some(([k, child]) => k === "$include" || hasInclude(child));
  return false;
}

/** Parse config text (JSON5). Pure; never throws. */
export function parseOpenClawConfigText(
  text: string,
  source: string,
): { config: JsonObject | null; issues: ParseIssue[] } {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (e) {
    const loc = errorLocation(e);
    const issue: ParseIssue = {
      source,
      code: "invalid-config",
      message: `config is not valid JSON5: ${loc.message}`,
      severity: "error",
    };
    if (loc.line !== undefined) issue.line = loc.line;
    return { config: null, issues: [issue] };
  }
  if (!isObject(value)) {
    return {
      config: null,
      issues: [{ source, code: "invalid-config", message: "config is not a JSON object", severity: "error" }],
    };
  }
  const issues: ParseIssue[] = [];
  if (hasInclude(value)) {
    issues.push({
      source,
      code: "config-include-ignored",
      message:
        "config uses $include directives; clawscope does not resolve them, included values are missing",
      severity: "warning",
    });
  }
  return { config: value, issues };
}

/**
 * Read the config: `$OPENCLAW_CONFIG_PATH` (leading `~` expanded against the OpenClaw home, relative
 * paths against the working directory, as OpenClaw's resolveUserPath does) else the first existing of `openclaw.json`,
 * `clawdbot.json`, `moldbot.json`, `moltbot.json` in the state dir. Missing config → all nulls, no issue
 * (OpenClaw runs on built-in defaults then).
 */
export function readOpenClawConfig(
  stateDir: string,
  env: Record<string, string | undefined> = process.env,
): OpenClawConfigRead {
  const override = env.OPENCLAW_CONFIG_PATH?.trim();
  let file: string | null = null;
  if (override) {
    const home = resolveHome(env, homedir());
    file =
      override === "~" || override.startsWith("~/")
        ? path.join(home, override.slice(1))
        : path.resolve(override);
    if (!existsSync(file)) {
      return {
        path: null,
        config: null,
        issues: [
          {
            source: file,
            code: "config-missing",
            message: `$OPENCLAW_CONFIG_PATH names ${file}, which does not exist`,
            severity: "warning",
          },
        ],
      };
    }
  } else {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = path.join(stateDir, name);
      if (existsSync(candidate)) {
        file = candidate;
        break;
      }
    }
  }
  if (file === null) return { path: null, config: null, issues: [] };
  const source = sourceLabel(stateDir, file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return {
      path: file,
      config: null,
      issues: [
        {
          source,
          code: "read-failed",
          message: `cannot read config: ${e instanceof Error ? e.message : String(e)}`,
          severity: "error",
        },
      ],
    };
  }
  const parsed = parseOpenClawConfigText(text, source);
  return { path: file, config: parsed.config, issues: parsed.issues };
}

/**
 * Where a value came from:
 * - `agent`: the agent's own override (`agents.entries.<id>` in 2026.9.x, `agents.list[]` in ≤2026.7.1)
 * - `defaults`: `agents.defaults`
 * - `derived`: computed by OpenClaw's fallback rule (workspace paths)
 * - `unset`: not configured — OpenClaw's built-in (version-dependent) default applies; `value` is null
 */
export type SettingSource = "agent" | "defaults" | "derived" | "unset";

export interface Setting<T> {
  value: T | null;
  from: SettingSource;
}

export interface EffectiveAgentSettings {
  agentId: string;
  /** Raw `agents.defaults.contextPruning` object — ≤2026.7.1 reads only the defaults block (pruning.md §1.1). */
  contextPruning: Setting<JsonObject>;
  bootstrapMaxChars: Setting<number>;
  bootstrapTotalMaxChars: Setting<number>;
  /** Context-window cap (not usage). */
  contextTokens: Setting<number>;
  /** `heartbeat.every` duration string, e.g. `"30m"`, `"0m"` (off). */
  heartbeatEvery: Setting<string>;
  /** `params.cacheRetention` after the merge order of cache-and-cost.md §2.1 (`none`/`short`/`long`). */
  cacheRetention: Setting<string>;
  /** Workspace dir as configured (not rebased, `~` not expanded), per storage.md §1 table. */
  workspace: Setting<string>;
  /** `off` / `once` / `always` (2026.7.1 only; 9.x fixes it to `always`, 3.2 lacks it — bootstrap.md §2). */
  bootstrapPromptTruncationWarning: Setting<string>;
  /** Raw `compaction` object (`enabled` exists from 2026.9.x; transcript.md §6). */
  compaction: Setting<JsonObject>;
}

/**
 * The agent's own override object: `agents.entries.<id>` (2026.9.x) wins over the legacy roster
 * `agents.list[]` entry with `id === agentId` (≤2026.7.1; doctor migrates it) — storage.md §1.
 */
export function agentOverride(config: JsonObject | null, agentId: string): JsonObject | null {
  const agents = obj(config, "agents");
  const entry = obj(obj(agents, "entries"), agentId);
  if (entry) return entry;
  for (const item of arr(agents, "list") ?? []) {
    if (isObject(item) && str(item, "id") === agentId) return item;
  }
  return null;
}

/** A limit counts only if it is a finite number > 0; it is floored (bootstrap.md §2). */
function positiveInt(o: JsonObject | null | undefined, key: string): number | undefined {
  const v = num(o, key);
  return v !== undefined && v > 0 ? Math.floor(v) : undefined;
}

function pick<T>(agentValue: T | undefined, defaultsValue: T | undefined): Setting<T> {
  if (agentValue !== undefined) return { value: agentValue, from: "agent" };
  if (defaultsValue !== undefined) return { value: defaultsValue, from: "defaults" };
  return { value: null, from: "unset" };
}

function nonEmptyStr(o: JsonObject | null | undefined, key: string): string | undefined {
  const v = str(o, key)?.trim();
  return v ? v : undefined;
}

/**
 * Effective settings of one agent. Pure.
 * `opts.stateDir` lets the workspace fall back to `<stateDir>/workspace[-<id>]`; `opts.modelRef`
 * (`"provider/model"`) adds the per-model `params` to the cacheRetention merge.
 */
export function effectiveAgentSettings(
  config: JsonObject | null,
  agentId: string,
  opts: { stateDir?: string; modelRef?: string; defaultAgentId?: string } = {},
): EffectiveAgentSettings {
  const defaults = obj(obj(config, "agents"), "defaults") ?? null;
  const own = agentOverride(config, agentId);

  const pruning = obj(defaults, "contextPruning");
  const contextPruning: Setting<JsonObject> = pruning
    ? { value: pruning, from: "defaults" }
    : { value: null, from: "unset" };

  const heartbeatEvery = pick(str(obj(own, "heartbeat"), "every"), str(obj(defaults, "heartbeat"), "every"));

  // cacheRetention merge, later wins (cache-and-cost.md §2.1): defaults.params →
  // defaults.models["p/m"].params → per-agent model params → per-agent params.
  let cacheRetention: Setting<string> = { value: null, from: "unset" };
  const layers: { o: JsonObject | null | undefined; from: SettingSource }[] = [
    { o: obj(defaults, "params"), from: "defaults" },
    {
      o: opts.modelRef ? obj(obj(obj(defaults, "models"), opts.modelRef), "params") : undefined,
      from: "defaults",
    },
    { o: opts.modelRef ? obj(obj(obj(own, "models"), opts.modelRef), "params") : undefined, from: "agent" },
    { o: obj(own, "params"), from: "agent" },
  ];
  for (const layer of layers) {
    const v = str(layer.o, "cacheRetention");
    if (v !== undefined) cacheRetention = { value: v, from: layer.from };
  }

  return {
    agentId,
    contextPruning,
    bootstrapMaxChars: pick(
      positiveInt(own, "bootstrapMaxChars"),
      positiveInt(defaults, "bootstrapMaxChars"),
    ),
    bootstrapTotalMaxChars: pick(
      positiveInt(own, "bootstrapTotalMaxChars"),
      positiveInt(defaults, "bootstrapTotalMaxChars"),
    ),
    contextTokens: pick(positiveInt(own, "contextTokens"), positiveInt(defaults, "contextTokens")),
    heartbeatEvery,
    cacheRetention,
    workspace: resolveWorkspace(defaults, own, agentId, opts.stateDir, opts.defaultAgentId ?? "main"),
    bootstrapPromptTruncationWarning: pick(
      nonEmptyStr(own, "bootstrapPromptTruncationWarning"),
      nonEmptyStr(defaults, "bootstrapPromptTruncationWarning"),
    ),
    compaction: pick(obj(own, "compaction"), obj(defaults, "compaction")),
  };
}

/** storage.md §1 workspace table. */
function resolveWorkspace(
  defaults: JsonObject | null,
  own: JsonObject | null,
  agentId: string,
  stateDir: string | undefined,
  defaultAgentId: string,
): Setting<string> {
  const ownWs = nonEmptyStr(own, "workspace");
  if (ownWs) return { value: ownWs, from: "agent" };
  const defWs = nonEmptyStr(defaults, "workspace");
  if (agentId === defaultAgentId) {
    if (defWs) return { value: defWs, from: "defaults" };
    return stateDir
      ? { value: path.join(stateDir, "workspace"), from: "derived" }
      : { value: null, from: "unset" };
  }
  // Other agents: `<defaults.workspace>/<id>` when the default is set [obs 9.6], else `<stateDir>/workspace-<id>`.
  if (defWs) return { value: `${defWs.replace(/[/\\]+$/, "")}/${agentId}`, from: "derived" };
  return stateDir
    ? { value: path.join(stateDir, `workspace-${agentId}`), from: "derived" }
    : { value: null, from: "unset" };
}

/** `models.providers.<provider>.models[id == modelId].contextWindow` (pruning.md §1.3), or null. */
export function modelContextWindow(
  config: JsonObject | null,
  provider: string,
  modelId: string,
): number | null {
  const providers = obj(obj(config, "models"), "providers");
  const p = obj(providers, provider);
  for (const m of arr(p, "models") ?? []) {
    if (isObject(m) && str(m, "id") === modelId) {
      const w = num(m, "contextWindow");
      return w !== undefined && w > 0 ? Math.floor(w) : null;
    }
  }
  return null;
}
