// The settings and model facts the wire reconstruction reads (wire-format.md §2, §3.1, §5, §6), each as OpenClaw
// resolves it (openclaw@2026.9.6; the same keys in 2026.7.1). Config blocks are looked up through
// config/agent-settings.ts. Pure.

import { arr, type JsonObject, obj, str } from "../../../shared/json.ts";
import { configuredModel } from "../config/agent-settings.ts";
import { isValidTimeZone } from "./user-timestamps.ts";

/** date-time.ts resolveUserTimezone: a valid `agents.defaults.userTimezone`, else the Gateway host's zone. */
export function userTimeZone(
  config: JsonObject | null,
  hostZone: string,
): { zone: string; source: "userTimezone" | "host" } {
  const configured = str(obj(obj(config, "agents"), "defaults"), "userTimezone")?.trim();
  if (configured && isValidTimeZone(configured)) return { zone: configured, source: "userTimezone" };
  return { zone: isValidTimeZone(hostZone) ? hostZone : "UTC", source: "host" };
}

const ANTHROPIC_FAMILY = new Set(["anthropic", "amazon-bedrock", "anthropic-vertex"]);

/**
 * Whether the model takes image input: a configured model's `input` list (OpenClaw defaults it to text only);
 * an unconfigured Claude model of the Anthropic family is image-capable in OpenClaw's catalog (UNVERIFIED for
 * ids the catalog does not list).
 */
export function modelTakesImages(
  config: JsonObject | null,
  provider: string | null,
  modelId: string | null,
): boolean {
  const m = configuredModel(config, provider, modelId);
  if (m) return (arr(m, "input") ?? ["text"]).includes("image");
  return (
    ANTHROPIC_FAMILY.has((provider ?? "").toLowerCase()) &&
    (modelId ?? "").toLowerCase().startsWith("claude-")
  );
}

/** requiresClaudeMandatoryAdaptiveThinking: Opus 5.5, Fable 5, Mythos 5 / preview always replay thinking. */
export function requiresAdaptiveThinking(modelId: string | null): boolean {
  return /(?:^|-)claude-(?:opus-5-5|fable-5|mythos-(?:5|preview))(?=$|[^a-z0-9])/.test(
    (modelId ?? "").toLowerCase(),
  );
}

/**
 * bindsClaudeThinkingPrefix: append-only runtime context (consecutive user turns are NOT merged) for Claude
 * Opus 5.5 and Fable 5.1 on the anthropic-messages API.
 */
export function appendOnlyRuntimeContext(modelId: string | null, api: string | null): boolean {
  if (api !== "anthropic-messages") return false;
  const id = (modelId ?? "").toLowerCase();
  return (
    /(?:^|-)claude-opus-5-5(?=$|[^a-z0-9])/.test(id) || /(?:^|-)claude-fable-5-1(?=$|[^a-z0-9])/.test(id)
  );
}

/** The agent's main session key (`session.mainKey`, default `main`): the one that gets session-created notices. */
export function mainSessionKey(config: JsonObject | null, agentId: string): string {
  return `agent:${agentId}:${str(obj(config, "session"), "mainKey") ?? "main"}`;
}

/** `session.notifyOnCreate` (default on). */
export function notifiesOnCreate(config: JsonObject | null): boolean {
  return obj(config, "session")?.notifyOnCreate !== false;
}

/** `tools.deny`, lower-cased. */
export function deniedTools(config: JsonObject | null): Set<string> {
  const out = new Set<string>();
  for (const t of arr(obj(config, "tools"), "deny") ?? [])
    if (typeof t === "string") out.add(t.toLowerCase());
  return out;
}
