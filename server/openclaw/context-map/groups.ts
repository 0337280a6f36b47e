// OpenClaw's `/context map` groups and leaf values per version (spec context-report.md §5.4 group table), in
// OpenClaw's order, zero leaves and groups dropped. Source: `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6).

import { arr, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../../shared/json.ts";
import { OPENCLAW_GROUP_COLORS, type Rgb } from "../../../shared/openclaw-colors.ts";
import type { MapFamily, OpenClawMapGroupKey } from "../../../shared/openclaw-picture.ts";
import type { ConversationBuckets } from "./conversation.ts";

export interface OpenClawMapLeafValue {
  name: string;
  value: number;
}

export interface OpenClawMapGroupValue {
  key: OpenClawMapGroupKey;
  name: string;
  color: Rgb;
  /** Σ leaves (after dropping leaves ≤ 0). */
  value: number;
  leaves: OpenClawMapLeafValue[];
}

function positive(leaves: OpenClawMapLeafValue[]): OpenClawMapLeafValue[] {
  return leaves.filter((l) => l.value > 0);
}

function group(
  key: OpenClawMapGroupValue["key"],
  name: string,
  color: Rgb,
  leaves: OpenClawMapLeafValue[],
): OpenClawMapGroupValue {
  const kept = positive(leaves);
  return { key, name, color, value: kept.reduce((s, l) => s + l.value, 0), leaves: kept };
}

function objects(values: JsonValue[] | undefined): JsonObject[] {
  return (values ?? []).filter(isObject);
}

/** Workspace-file leaves: `injectedChars` per file (native_unverified skipped) + `Project context frame`. */
export function workspaceLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  const files = objects(arr(report, "injectedWorkspaceFiles")).filter(
    (f) => str(f, "injectionStatus") !== "native_unverified",
  );
  const leaves = files.map((f) => ({
    name: str(f, "name") ?? str(f, "path") ?? "(unknown)",
    value: num(f, "injectedChars") ?? 0,
  }));
  const injected = leaves.reduce((s, l) => s + l.value, 0);
  const projectContextChars = num(obj(report, "systemPrompt"), "projectContextChars") ?? 0;
  leaves.push({ name: "Project context frame", value: Math.max(0, projectContextChars - injected) });
  return leaves;
}

/** `Base instructions` = max(0, nonProjectContextChars − Σ skill blockChars). */
export function baseInstructionsChars(report: JsonObject): number {
  const nonProject = num(obj(report, "systemPrompt"), "nonProjectContextChars") ?? 0;
  return Math.max(0, nonProject - skillLeaves(report).reduce((s, l) => s + l.value, 0));
}

export function toolLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  return objects(arr(obj(report, "tools"), "entries")).map((t) => ({
    name: str(t, "name") ?? "(unknown)",
    value: num(t, "schemaChars") ?? 0,
  }));
}

export function skillLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  return objects(arr(obj(report, "skills"), "entries")).map((s) => ({
    name: str(s, "name") ?? "(unknown)",
    value: num(s, "blockChars") ?? 0,
  }));
}

/**
 * OpenClaw's map groups in OpenClaw's order, zero groups dropped (spec §5.4).
 * 2026.9.x: `Conversation` first, built from `conversation` (the per-message estimate buckets) and currentTurn.
 * 2026.7.1: `Current turn` (or `Room event`) first, from currentTurn only.
 */
export function openClawMapGroups(
  family: MapFamily,
  report: JsonObject,
  conversation: ConversationBuckets,
): OpenClawMapGroupValue[] {
  const turn = obj(report, "currentTurn");
  const groups: OpenClawMapGroupValue[] = [];
  if (family === "2026.9") {
    groups.push(
      group("conversation", "Conversation", OPENCLAW_GROUP_COLORS.conversation, [
        { name: "User", value: conversation.user },
        { name: "Assistant", value: conversation.assistant },
        { name: "Tool results", value: conversation.toolResults },
        { name: "Summaries", value: conversation.summaries },
        { name: "Other", value: conversation.other },
        { name: "Runtime context", value: num(turn, "runtimeContextChars") ?? 0 },
        { name: "Model-only prompt", value: num(turn, "modelOnlyPromptChars") ?? 0 },
      ]),
    );
  } else {
    groups.push(
      group(
        "currentTurn",
        str(turn, "kind") === "room_event" ? "Room event" : "Current turn",
        OPENCLAW_GROUP_COLORS.currentTurn,
        [
          { name: "Model prompt", value: num(turn, "promptChars") ?? 0 },
          { name: "Runtime context", value: num(turn, "runtimeContextChars") ?? 0 },
        ],
      ),
    );
  }
  groups.push(
    group("workspace", "Workspace files", OPENCLAW_GROUP_COLORS.workspace, workspaceLeaves(report)),
  );
  groups.push(
    group("system", "System prompt", OPENCLAW_GROUP_COLORS.system, [
      { name: "Base instructions", value: baseInstructionsChars(report) },
    ]),
  );
  groups.push(group("tools", "Tool schemas", OPENCLAW_GROUP_COLORS.tools, toolLeaves(report)));
  groups.push(group("skills", "Skills", OPENCLAW_GROUP_COLORS.skills, skillLeaves(report)));
  return groups.filter((g) => g.value > 0);
}
