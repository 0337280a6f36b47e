// OpenClaw's `/context map` groups and leaf values per version (spec context-report.md §5.4 group table), in
// OpenClaw's order, zero leaves and groups dropped. Source: `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6).

import { OPENCLAW_GROUP_COLORS, type Rgb } from "../../../shared/openclaw-colors.ts";
import type { MapFamily, OpenClawMapGroupKey } from "../../../shared/openclaw-picture.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
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

/** A name as OpenClaw's map labels it; an entry without one reads `(unknown)`. */
function named(name: string): string {
  return name === "" ? "(unknown)" : name;
}

/**
 * Workspace-file leaves: `injectedChars` per file (native_unverified skipped) + `Project context frame`. A row
 * with only a path is named by its basename, as /context and clawscope's map name it (OpenClaw 2026.9.6 labels
 * it with the absent `file.name`).
 */
export function workspaceLeaves(report: SystemPromptReport): OpenClawMapLeafValue[] {
  const leaves = report.files
    .filter((f) => f.nativeUnverified !== true)
    .map((f) => ({ name: f.name, value: f.injectedChars }));
  const injected = leaves.reduce((s, l) => s + l.value, 0);
  leaves.push({ name: "Project context frame", value: Math.max(0, report.projectContextChars - injected) });
  return leaves;
}

/** `Base instructions` = max(0, nonProjectContextChars − Σ skill blockChars). */
export function baseInstructionsChars(report: SystemPromptReport): number {
  return Math.max(0, report.nonProjectContextChars - skillLeaves(report).reduce((s, l) => s + l.value, 0));
}

export function toolLeaves(report: SystemPromptReport): OpenClawMapLeafValue[] {
  return report.tools.map((t) => ({ name: named(t.name), value: t.schemaChars }));
}

export function skillLeaves(report: SystemPromptReport): OpenClawMapLeafValue[] {
  return report.skills.map((s) => ({ name: named(s.name), value: s.blockChars }));
}

/**
 * OpenClaw's map groups in OpenClaw's order, zero groups dropped (spec §5.4).
 * 2026.9.x: `Conversation` first, built from `conversation` (the per-message estimate buckets) and currentTurn.
 * 2026.7.1: `Current turn` (or `Room event`) first, from currentTurn only.
 */
export function openClawMapGroups(
  family: MapFamily,
  report: SystemPromptReport,
  conversation: ConversationBuckets,
): OpenClawMapGroupValue[] {
  const turn = report.currentTurn;
  const groups: OpenClawMapGroupValue[] = [];
  if (family === "2026.9") {
    groups.push(
      group("conversation", "Conversation", OPENCLAW_GROUP_COLORS.conversation, [
        { name: "User", value: conversation.user },
        { name: "Assistant", value: conversation.assistant },
        { name: "Tool results", value: conversation.toolResults },
        { name: "Summaries", value: conversation.summaries },
        { name: "Other", value: conversation.other },
        { name: "Runtime context", value: turn?.runtimeContextChars ?? 0 },
        { name: "Model-only prompt", value: turn?.modelOnlyPromptChars ?? 0 },
      ]),
    );
  } else {
    groups.push(
      group(
        "currentTurn",
        turn?.kind === "room_event" ? "Room event" : "Current turn",
        OPENCLAW_GROUP_COLORS.currentTurn,
        [
          { name: "Model prompt", value: turn?.promptChars ?? 0 },
          { name: "Runtime context", value: turn?.runtimeContextChars ?? 0 },
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
