// The report-derived leaves of clawscope's map, from the decoded systemPromptReport (model/system-prompt-report.ts),
// with the same values as OpenClaw's map (spec context-report.md §5.4): workspace files + project context frame,
// base instructions, tool schemas, skills, and the current turn's unpersisted parts. One change, said on the tile:
// the System prompt group splits OpenClaw's "Base instructions" into the instructions and the skills list's frame
// (skills.promptChars − Σ blockChars), so the skills prompt /context prints is whole on the map (context-numbers.ts).
// The report holds sizes, not texts: the tokenizer mode counts these leaves as chars/4 unless the caller supplies a
// count by id. One function per group.

import { fmtInt } from "../../../shared/format.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { skillsSize } from "../context-numbers.ts";
import { type IdAllocator, idSegment, type LeafSpec } from "./leaf-spec.ts";

const R = "systemPromptReport";

export type ReportGroup = "workspace" | "system" | "tools" | "skills" | "current-turn";

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
function workspaceLeaves(report: SystemPromptReport, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "workspace");
  let injected = 0;
  report.files.forEach((f, i) => {
    if (f.nativeUnverified) return;
    injected += f.injectedChars;
    const flags = [f.truncated ? "truncated" : "", f.missing ? "missing" : ""].filter((s) => s);
    const note = flags.length ? ` (${flags.join(", ")}; raw ${fmtInt(f.rawChars)} chars)` : "";
    g.add(
      `workspace/${idSegment(f.name)}`,
      f.name,
      f.injectedChars,
      `${R}.injectedWorkspaceFiles[${i}].injectedChars${note}`,
    );
  });
  const projectContextChars = report.projectContextChars;
  g.add(
    "workspace/project-context-frame",
    "Project context frame",
    Math.max(0, projectContextChars - injected),
    `max(0, ${R}.systemPrompt.projectContextChars ${fmtInt(projectContextChars)} − Σ injectedChars ${fmtInt(injected)}): the Project Context headings around the files`,
  );
  return g.leaves;
}

/**
 * OpenClaw's Base instructions = max(0, nonProjectContextChars − Σ skill blockChars), drawn as two tiles: the
 * instructions (− skills.promptChars) and the skills list's frame (promptChars − Σ blockChars).
 */
function systemLeaves(report: SystemPromptReport, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "system");
  const skills = skillsSize(report);
  const entries = skills?.entriesChars ?? 0;
  const nonProject = report.nonProjectContextChars;
  const openclawBase = Math.max(0, nonProject - entries);
  const frame = Math.min(openclawBase, skills?.frameChars ?? 0);
  g.add(
    "system/base-instructions",
    "Base instructions",
    openclawBase - frame,
    `max(0, ${R}.systemPrompt.nonProjectContextChars ${fmtInt(nonProject)} − Σ skills.entries[].blockChars ${fmtInt(entries)}) − the skills list frame ${fmtInt(frame)} (OpenClaw's map draws both as Base instructions)`,
  );
  g.add(
    "system/skills-list-frame",
    "Skills list frame",
    frame,
    `${R}.skills.promptChars ${fmtInt(skills?.promptChars ?? 0)} − Σ skills.entries[].blockChars ${fmtInt(entries)}: the skills list's text around its entries (with the Skills group, the skills prompt /context prints)`,
  );
  return g.leaves;
}

function toolLeaves(report: SystemPromptReport, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "tools");
  report.tools.forEach((t, i) => {
    const name = t.name || "(unknown)";
    g.add(
      `tools/${idSegment(name)}`,
      name,
      t.schemaChars,
      `${R}.tools.entries[${i}].schemaChars = JSON.stringify(parameters).length (name and description sent with it are not counted: they fall in Untracked)`,
    );
  });
  return g.leaves;
}

function skillLeaves(report: SystemPromptReport, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "skills");
  report.skills.forEach((s, i) => {
    const name = s.name || "(unknown)";
    g.add(`skills/${idSegment(name)}`, name, s.blockChars, `${R}.skills.entries[${i}].blockChars`);
  });
  return g.leaves;
}

/** Parts sent with the last run but never persisted (currentTurn). */
function currentTurnLeaves(report: SystemPromptReport, ids: IdAllocator): LeafSpec[] {
  const g = new GroupLeaves(ids, "current-turn");
  const turn = report.currentTurn;
  g.add(
    "current-turn/runtime-context",
    "Runtime context",
    turn?.runtimeContextChars ?? 0,
    `${R}.currentTurn.runtimeContextChars: the runtime-context carrier appended at the request tail, never persisted`,
  );
  g.add(
    "current-turn/model-only-prompt",
    "Model-only prompt",
    turn?.modelOnlyPromptChars ?? 0,
    `${R}.currentTurn.modelOnlyPromptChars: hook additions that reach only the model`,
  );
  return g.leaves;
}

/** Report-derived leaves by group (every group present, empty without a report). */
export function reportLeaves(
  report: SystemPromptReport | null,
  ids: IdAllocator,
): Record<ReportGroup, LeafSpec[]> {
  if (!report) return { workspace: [], system: [], tools: [], skills: [], "current-turn": [] };
  return {
    workspace: workspaceLeaves(report, ids),
    system: systemLeaves(report, ids),
    tools: toolLeaves(report, ids),
    skills: skillLeaves(report, ids),
    "current-turn": currentTurnLeaves(report, ids),
  };
}
