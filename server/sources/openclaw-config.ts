// OpenClaw config (`openclaw.json`, JSON5) reader. File location per spec storage.md §1. Reading never throws:
// problems become ParseIssue rows. What the config means for an agent (its block, pruning, heartbeat, cache
// retention, configured models) is read by server/openclaw/config/agent-settings.ts.

import { existsSync } from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";
import { MAX_JSON_DEPTH, tooDeepMessage, valueNestsDeeperThan } from "../../shared/json-depth.ts";
import type { ParseIssue } from "../model/session.ts";
import { readRegularFileSync } from "./regular-file.ts";
import { resolveHome } from "./user-path.ts";

/** Config file names probed in the state dir, newest first (2026.3.2 also knew moldbot/moltbot). */
export const CONFIG_FILE_NAMES = ["openclaw.json", "clawdbot.json", "moldbot.json", "moltbot.json"] as const;

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
  if (valueNestsDeeperThan(value, MAX_JSON_DEPTH)) {
    const message = `config is ${tooDeepMessage()}; not used`;
    return { config: null, issues: [{ source, code: "invalid-config", message, severity: "error" }] };
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
 * (OpenClaw runs on built-in defaults then). `env` and `homedir` come from the process's one environment read
 * (server/shell/config.ts); without them no `$OPENCLAW_CONFIG_PATH` applies.
 */
export function readOpenClawConfig(
  stateDir: string,
  env: Readonly<Record<string, string | undefined>> = {},
  homedir = "",
): OpenClawConfigRead {
  const override = env.OPENCLAW_CONFIG_PATH?.trim();
  let file: string | null = null;
  if (override) {
    const home = resolveHome(env, homedir);
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
    text = readRegularFileSync(file, "utf8");
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
