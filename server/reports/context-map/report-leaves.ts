// The report-derived leaves of clawscope's map, with the same values as OpenClaw's map (spec context-report.md
// §5.4): workspace files + project context frame, base instructions, tool schemas, skills, and the current
// turn's unpersisted parts. The report holds sizes, not texts: the tokenizer mode counts these leaves as chars/4
// unless the caller supplies a count by id. One function per group.

import { fmtInt } from "../../../shared/format.ts";
import { arr, isObject, type JsonObject, num, obj, str } from "../../../shared/json.ts";
import { type IdAllocator, idSegment, type LeafSpec } from "./leaf-spec.ts";

const R = "systemPromptReport";

export type ReportGroup = "workspace" | "system" | "tools" | "skills" | "current-turn";

function reportObjects(holder: JsonObject | undefined, key: string): JsonObject[] {
  return (arr(holder, key) ?? []).filter(isObject);
}

/** Collects the leaves of one group; a leaf of 0 chars is left out (and takes no id). */
class GroupLeaves {
  readonly leaves: LeafSpec[] = [];
  constructor(
    private readonly ids: IdAllocator,
    private readonly group: ReportGroup,
  ) {}
  add(id: string, name: string, chars: number, source: string): void {
    if (chars > 0)
      this.leaves.push({ id: this.ids.take(id), name, group: this.group, chars, source, nonTextChars: 0 });
  }
}

/** `injectedChars` per file (native_unverified rows excluded, as 9.6 does) + the Project Context frame. */
function workspaceLeaves(report: JsonObject, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "workspace");
  let injected = 0;
  reportObjects(report, "injectedWorkspaceFiles").forEach((f, i) => {
    if (str(f, "injectionStatus") === "native_unverified") return;
    const name = str(f, "name") ?? str(f, "path") ?? "(unknown)";
    const chars = num(f, "injectedChars") ?? 0;
    injected += chars;
    const flags = [f.truncated === true ? "truncated" : "", f.missing === true ? "missing" : ""].filter(
      (s) => s,
    );
    const note = flags.length ? ` (${flags.join(", ")}; raw ${fmtInt(num(f, "rawChars") ?? 0)} chars)` : "";
    g.add(
      `workspace/${idSegment(name)}`,
      name,
      chars,
      `${R}.injectedWorkspaceFiles[${i}].injectedChars${note}`,
    );
  });
  const projectContextChars = num(obj(report, "systemPrompt"), "projectContextChars") ?? 0;
  g.add(
    "workspace/project-context-frame",
    "Project context frame",
    Math.max(0, projectContextChars - injected),
    `max(0, ${R}.systemPrompt.projectContextChars ${fmtInt(projectContextChars)} − Σ injectedChars ${fmtInt(injected)}): the Project Context headings around the files`,
  );
  return g.leaves;
}

/** Base instructions = max(0, nonProjectContextChars − Σ skill blockChars). */
function systemLeaves(report: JsonObject, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "system");
  const skillSum = reportObjects(obj(report, "skills"), "entries").reduce(
    (s, e) => s + (num(e, "blockChars") ?? 0),
    0,
  );
  const nonProject = num(obj(report, "systemPrompt"), "nonProjectContextChars") ?? 0;
  g.add(
    "system/base-instructions",
    "Base instructions",
    Math.max(0, nonProject - skillSum),
    `max(0, ${R}.systemPrompt.nonProjectContextChars ${fmtInt(nonProject)} − Σ skills.entries[].blockChars ${fmtInt(skillSum)})`,
  );
  return g.leaves;
}

function toolLeaves(report: JsonObject, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "tools");
  reportObjects(obj(report, "tools"), "entries").forEach((t, i) => {
    const name = str(t, "name") ?? "(unknown)";
    g.add(
      `tools/${idSegment(name)}`,
      name,
      num(t, "schemaChars") ?? 0,
      `${R}.tools.entries[${i}].schemaChars = JSON.stringify(parameters).length (name and description sent with it are not counted: they fall in Untracked)`,
    );
  });
  return g.leaves;
}

function skillLeaves(report: JsonObject, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "skills");
  reportObjects(obj(report, "skills"), "entries").forEach((s, i) => {
    const name = str(s, "name") ?? "(unknown)";
    g.add(
      `skills/${idSegment(name)}`,
      name,
      num(s, "blockChars") ?? 0,
      `${R}.skills.entries[${i}].blockChars`,
    );
  });
  return g.leaves;
}

/** Parts sent with the last run but never persisted (currentTurn). */
function currentTurnLeaves(report: JsonObject, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "current-turn");
  const turn = obj(report, "currentTurn");
  g.add(
    "current-turn/runtime-context",
    "Runtime context",
    num(turn, "runtimeContextChars") ?? 0,
    `${R}.currentTurn.runtimeContextChars: the runtime-context carrier appended at the request tail, never persisted`,
  );
  g.add(
    "current-turn/model-only-prompt",
    "Model-only prompt",
    num(turn, "modelOnlyPromptChars") ?? 0,
    `${R}.currentTurn.modelOnlyPromptChars: hook additions that reach only the model`,
  );
  return g.leaves;
}

/** Report-derived leaves by group (every group present, empty without a report). */
export function reportLeaves(report: JsonObject | null, ids: IdAllocator): Record<ReportGroup, LeafSpec[]> {
  if (!report) return { workspace: [], system: [], tools: [], skills: [], "current-turn": [] };
  return {
    workspace: workspaceLeaves(report, ids),
    system: systemLeaves(report, ids),
    tools: toolLeaves(report, ids),
    skills: skillLeaves(report, ids),
    "current-turn": currentTurnLeaves(report, ids),
  };
}
