// The stored `systemPromptReport` of a SessionEntry (spec context-report.md §1–§2), decoded once into a typed,
// read-only record. Every reader of the report — `/context` text, the run report, the truncation report, the
// context map, the workspace reading — takes this record and never digs the raw JSON again. `/context json`
// prints the stored object itself (key order preserved), kept here as `stored`.
// Missing numbers read as 0 (OpenClaw would print NaN for a malformed report); no OpenClaw policy lives here.

import { arr, bool, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../shared/json.ts";

/**
 * One `injectedWorkspaceFiles[]` row. The bootstrap analysis (openclaw/bootstrap/) takes rows of this shape,
 * stored or recomputed by clawscope with the same meaning.
 */
export interface BootstrapFileRow {
  /** The stored `name`; a hook-added row with only a `path` (real corpus data) takes the path's last segment. */
  name: string;
  /** The stored `path`, else the name (OpenClaw's own fallback, context-report.md §2). */
  path: string;
  missing: boolean;
  /** `content.trimEnd().length`; 0 when missing. */
  rawChars: number;
  /** Chars injected for the file; a missing file's injected `[MISSING]` marker counts (bootstrap.md §5). */
  injectedChars: number;
  /** The stored flag, else OpenClaw's rule `!missing && injectedChars < rawChars`. */
  truncated: boolean;
  /**
   * 2026.9.x Codex harness: `injectionStatus: "native_unverified"` (excluded from totals and the map). Always set
   * on a decoded row; a row clawscope computed (a simulation) may leave it out, meaning false.
   */
  nativeUnverified?: boolean;
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

export interface ReportCurrentTurn {
  /** `user_request` / `room_event`; absent in the 2026.9.6 fixtures. */
  kind: string | null;
  promptChars: number;
  runtimeContextChars: number;
  modelOnlyPromptChars: number;
}

/** `bootstrapTruncation` as stored (bootstrap.md §7.1); null fields were absent. */
export interface ReportBootstrapTruncation {
  truncatedFiles: number | null;
  nearLimitFiles: number | null;
  totalNearLimit: boolean | null;
  promptWarningSignature: string | null;
}

export interface SystemPromptReport {
  /** The stored object, unchanged. */
  stored: JsonObject;
  /** `"run"` or `"estimate"` (a non-string value is shown as JavaScript would interpolate it). */
  source: string;
  /** The session the report was built for; a session key's entry may carry the report of an earlier session. */
  sessionId: string | null;
  sessionKey: string | null;
  generatedAt: number | null;
  workspaceDir: string | null;
  /** Raw stored values: absent in E1 reports, and possibly not a positive number. */
  bootstrapMaxChars: JsonValue | undefined;
  bootstrapTotalMaxChars: JsonValue | undefined;
  bootstrapTruncation: ReportBootstrapTruncation | null;
  sandboxMode: JsonValue | undefined;
  sandboxed: JsonValue | undefined;
  systemPromptChars: number;
  projectContextChars: number;
  nonProjectContextChars: number;
  files: BootstrapFileRow[];
  skillsPromptChars: number;
  skills: ReportSkillEntry[];
  toolListChars: number;
  toolSchemaChars: number;
  tools: ReportToolEntry[];
  currentTurn: ReportCurrentTurn | null;
}

function objects(values: JsonValue[] | undefined): JsonObject[] {
  return (values ?? []).filter(isObject);
}

function fileRow(f: JsonObject): BootstrapFileRow | null {
  const recordedPath = str(f, "path");
  const name = str(f, "name") ?? recordedPath?.split(/[\\/]/u).pop();
  if (!name) return null;
  const missing = bool(f, "missing") === true;
  const rawChars = num(f, "rawChars") ?? 0;
  const injectedChars = num(f, "injectedChars") ?? 0;
  return {
    name,
    path: recordedPath || name,
    missing,
    rawChars,
    injectedChars,
    truncated: bool(f, "truncated") ?? (!missing && injectedChars < rawChars),
    nativeUnverified: str(f, "injectionStatus") === "native_unverified",
  };
}

function bootstrapTruncation(report: JsonObject): ReportBootstrapTruncation | null {
  const bt = obj(report, "bootstrapTruncation");
  if (!bt) return null;
  return {
    truncatedFiles: num(bt, "truncatedFiles") ?? null,
    nearLimitFiles: num(bt, "nearLimitFiles") ?? null,
    totalNearLimit: bool(bt, "totalNearLimit") ?? null,
    promptWarningSignature: str(bt, "promptWarningSignature") ?? null,
  };
}

/** Decodes a stored report. Rows with neither a name nor a path are left out (nothing could name them). */
export function readSystemPromptReport(stored: JsonObject): SystemPromptReport {
  const systemPrompt = obj(stored, "systemPrompt");
  const skills = obj(stored, "skills");
  const tools = obj(stored, "tools");
  const sandbox = obj(stored, "sandbox");
  const turn = obj(stored, "currentTurn");
  return {
    stored,
    source: str(stored, "source") ?? String(stored.source),
    sessionId: str(stored, "sessionId") ?? null,
    sessionKey: str(stored, "sessionKey") ?? null,
    generatedAt: num(stored, "generatedAt") ?? null,
    workspaceDir: str(stored, "workspaceDir") ?? null,
    bootstrapMaxChars: stored.bootstrapMaxChars,
    bootstrapTotalMaxChars: stored.bootstrapTotalMaxChars,
    bootstrapTruncation: bootstrapTruncation(stored),
    sandboxMode: sandbox?.mode,
    sandboxed: sandbox?.sandboxed,
    systemPromptChars: num(systemPrompt, "chars") ?? 0,
    projectContextChars: num(systemPrompt, "projectContextChars") ?? 0,
    nonProjectContextChars: num(systemPrompt, "nonProjectContextChars") ?? 0,
    files: objects(arr(stored, "injectedWorkspaceFiles")).flatMap((f) => fileRow(f) ?? []),
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
    currentTurn: turn
      ? {
          kind: str(turn, "kind") ?? null,
          promptChars: num(turn, "promptChars") ?? 0,
          runtimeContextChars: num(turn, "runtimeContextChars") ?? 0,
          modelOnlyPromptChars: num(turn, "modelOnlyPromptChars") ?? 0,
        }
      : null,
  };
}

export type StoredRunReport =
  | { report: SystemPromptReport; reason: null }
  /** `stored`: the stored object when there is one that is not a `source:"run"` report (shown, not used). */
  | { report: null; stored: JsonObject | null; reason: string };

/**
 * The stored report `/context` uses: only a `source:"run"` report counts (context-report.md §1); otherwise why
 * there is none (`/context list|detail|json` would then build an on-the-fly estimate).
 */
export function storedRunReport(entry: JsonObject | null | undefined): StoredRunReport {
  if (!entry) return { report: null, stored: null, reason: "no SessionEntry for this session" };
  const stored = obj(entry, "systemPromptReport");
  if (!stored)
    return {
      report: null,
      stored: null,
      reason: "the SessionEntry has no systemPromptReport (no embedded run yet)",
    };
  const source = str(stored, "source");
  if (source !== "run") {
    return {
      report: null,
      stored,
      reason: `systemPromptReport.source is ${JSON.stringify(source ?? null)}, not "run"`,
    };
  }
  return { report: readSystemPromptReport(stored), reason: null };
}
