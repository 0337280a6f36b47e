// The session's cached token numbers as `/context` trusts and prints them — spec context-report.md §4 (the
// `Session tokens (cached)` line) and §5.2 (the tracked prompt estimate of `detail`). Pure.

import { type JsonObject, num } from "../../../shared/json.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { formatInt } from "../format.ts";
import type { ContextFamily } from "./types.ts";

/**
 * The `totalTokens` `/context` trusts (spec §4):
 * 3.2 — any non-null value; 7.1 — finite ≥ 0 unless `totalTokensFresh === false`;
 * 9.x — finite ≥ 0 and `totalTokensFresh === true` and `totalTokensVersion === 1`.
 */
export function freshTotalTokens(entry: JsonObject, family: ContextFamily): number | undefined {
  const total = num(entry, "totalTokens");
  if (family === "2026.3") return total;
  if (total === undefined || total < 0) return undefined;
  if (family === "2026.7") return entry.totalTokensFresh === false ? undefined : total;
  return entry.totalTokensFresh === true && entry.totalTokensVersion === 1 ? total : undefined;
}

export function sessionTokensLine(
  entry: JsonObject,
  family: ContextFamily,
  contextTokens: number | null,
): string {
  const total = freshTotalTokens(entry, family);
  // 2026.3.2 prints the window raw (`ctx=200000`); 7.1+ groups it (`ctx=100,000`).
  const ctx =
    contextTokens === null ? "?" : family === "2026.3" ? String(contextTokens) : formatInt(contextTokens);
  return total !== undefined
    ? `Session tokens (cached): ${formatInt(total)} total / ctx=${ctx}`
    : `Session tokens (cached): unknown / ctx=${ctx}`;
}

/**
 * OpenClaw's "Tracked prompt estimate" chars (7.1+, spec §5.2 line 8): systemPrompt.chars already holds files,
 * skills and tool-list text; tool schemas and the current turn's prompt and runtime context are added so the parts
 * stay disjoint.
 */
export function trackedPromptChars(view: SystemPromptReport): number {
  const turn = view.currentTurn;
  return (
    view.systemPromptChars + view.toolSchemaChars + (turn ? turn.promptChars + turn.runtimeContextChars : 0)
  );
}
