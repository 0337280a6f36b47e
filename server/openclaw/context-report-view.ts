// A typed, read-only view of a stored `systemPromptReport` (spec context-report.md §2), built with the
// shared/json.ts guards. The `/context` renderer reads numbers through this view; `/context json` prints the
// stored object itself (key order preserved), never this view.

import { arr, bool, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../shared/json.ts";

export interface ReportFileRow {
  name: string;
  path: string;
  missing: boolean;
  rawChars: number;
  injectedChars: number;
  truncated: boolean;
  /** 2026.9.x Codex harness: `"native_unverified"`. */
  injectionStatus: string | undefined;
}

export interface ReportSkillEntry {
  name: string;
  blockChars: number;
}

export interface ReportToolEntry {
  name: string;
  summaryChars: number;
  schemaChars: number;
  /** `null` (or absent) when the tool has no `parameters.properties` object. */
  propertiesCount: number | null;
}

export interface ReportView {
  source: string;
  workspaceDir: string | undefined;
  /** Raw stored values (may be absent in E1 reports, or non-positive). */
  bootstrapMaxChars: JsonValue | undefined;
  bootstrapTotalMaxChars: JsonValue | undefined;
  sandboxMode: JsonValue | undefined;
  sandboxed: JsonValue | undefined;
  systemPromptChars: number;
  projectContextChars: number;
  nonProjectContextChars: number;
  files: ReportFileRow[];
  skillsPromptChars: number;
  skills: ReportSkillEntry[];
  toolListChars: number;
  toolSchemaChars: number;
  tools: ReportToolEntry[];
  currentTurn: { promptChars: number; runtimeContextChars: number; modelOnlyPromptChars: number } | null;
}

function objects(values: JsonValue[] | undefined): JsonObject[] {
  return (values ?? []).filter(isObject);
}

/** Builds the view; missing numbers read as 0 (OpenClaw would print NaN for a malformed report). */
export function readReportView(report: JsonObject): ReportView {
  const systemPrompt = obj(report, "systemPrompt");
  const skills = obj(report, "skills");
  const tools = obj(report, "tools");
  const sandbox = obj(report, "sandbox");
  const currentTurn = obj(report, "currentTurn");
  return {
    source: str(report, "source") ?? String(report.source),
    workspaceDir: str(report, "workspaceDir"),
    bootstrapMaxChars: report.bootstrapMaxChars,
    bootstrapTotalMaxChars: report.bootstrapTotalMaxChars,
    sandboxMode: sandbox?.mode,
    sandboxed: sandbox?.sandboxed,
    systemPromptChars: num(systemPrompt, "chars") ?? 0,
    projectContextChars: num(systemPrompt, "projectContextChars") ?? 0,
    nonProjectContextChars: num(systemPrompt, "nonProjectContextChars") ?? 0,
    files: objects(arr(report, "injectedWorkspaceFiles")).map((f) => ({
      name: str(f, "name") ?? "",
      path: str(f, "path") ?? "",
      missing: bool(f, "missing") === true,
      rawChars: num(f, "rawChars") ?? 0,
      injectedChars: num(f, "injectedChars") ?? 0,
      truncated: bool(f, "truncated") === true,
      injectionStatus: str(f, "injectionStatus"),
    })),
    skillsPromptChars: num(skills, "promptChars") ?? 0,
    skills: objects(arr(skills, "entries")).map((s) => ({
      name: str(s, "name") ?? "",
      blockChars: num(s, "blockChars") ?? 0,
    })),
    toolListChars: num(tools, "listChars") ?? 0,
    toolSchemaChars: num(tools, "schemaChars") ?? 0,
    tools: objects(arr(tools, "entries")).map((t) => ({
      name: str(t, "name") ?? "",
      summaryChars: num(t, "summaryChars") ?? 0,
      schemaChars: num(t, "schemaChars") ?? 0,
      propertiesCount: num(t, "propertiesCount") ?? null,
    })),
    currentTurn: currentTurn
      ? {
          promptChars: num(currentTurn, "promptChars") ?? 0,
          runtimeContextChars: num(currentTurn, "runtimeContextChars") ?? 0,
          modelOnlyPromptChars: num(currentTurn, "modelOnlyPromptChars") ?? 0,
        }
      : null,
  };
}

/** The stored `run` report of an entry, or null with the reason (`/context` then shows an estimate). */
export function runReportOf(
  entry: JsonObject | null | undefined,
): { report: JsonObject; reason: null } | { report: null; reason: string } {
  if (!entry) return { report: null, reason: "no SessionEntry for this session" };
  const report = obj(entry, "systemPromptReport");
  if (!report)
    return { report: null, reason: "SessionEntry has no systemPromptReport (no embedded run yet)" };
  const source = str(report, "source");
  if (source !== "run") {
    return {
      report: null,
      reason: `systemPromptReport.source is ${JSON.stringify(source ?? null)}, not "run"`,
    };
  }
  return { report, reason: null };
}
