// What enters OpenClaw's system prompt between two runs, as far as the session's own files show it
// (docs/openclaw-facts.md §5.2, `buildAgentSystemPrompt` per release family): the injected workspace files
// (the agent editing MEMORY.md changes the next run's prompt), the date (2026.9's DYNAMIC block carries
// `Current date: <YYYY-MM-DD in userTimezone>`; ≤ 2026.7 prints only the time zone), and the skills / tools /
// file sizes the stored run reports record. The prompt is rebuilt once per run (one inbound message), so every
// signal here applies only to the first call of a new run.

import { arr, isObject, type JsonObject, obj, str } from "../../../shared/json.ts";
import { escapeRegExp } from "../../../shared/text-match.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { bootstrapFileNames, type RuleFamily } from "../bootstrap/files-and-limits.ts";

/** The injected file names: the stored report's rows, else the family's bootstrap files (bootstrap.md §1). */
export function injectedFileNames(family: RuleFamily, report: SystemPromptReport | null): string[] {
  const names = (report?.files ?? []).filter((f) => !f.missing).map((f) => f.name);
  return names.length > 0 ? names : [...bootstrapFileNames(family)];
}

/** Whether the local date enters the system prompt (2026.9 `buildTemporalContextSection`; not ≤ 2026.7). */
export function dateEntersPrompt(family: RuleFamily): boolean {
  return family === "2026.9";
}

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * `resolveUserTimezone(configured)` (2026.9 `src/agents/date-time.ts`): the configured IANA zone if valid, else
 * the host's zone, else UTC. clawscope runs on the gateway's host, so its own zone stands for the host's.
 */
export function userTimezone(config: JsonObject | null): { tz: string; source: string } {
  const configured = str(obj(obj(config, "agents"), "defaults"), "userTimezone");
  if (configured && validZone(configured)) return { tz: configured, source: "agents.defaults.userTimezone" };
  const host = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (host && validZone(host)) return { tz: host, source: "this host's time zone (no userTimezone set)" };
  return { tz: "UTC", source: "UTC (no userTimezone, no host zone)" };
}

/** `formatDateStamp`: YYYY-MM-DD of `ms` in `tz`. */
export function localDate(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(ms);
  const part = (t: string) => parts.find((p) => p.type === t)?.value ?? "??";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

const PATH_KEYS = ["path", "file_path", "file", "filePath", "filename"];
/** Shell forms that write a file named on the command line. */
const SHELL_WRITE = /(>|\btee\b|\bsed\s+-i|\bperl\s+-p?i|\bmv\b|\bcp\b|\brm\b|\btruncate\b|\btouch\b)/u;

function baseName(p: string): string {
  return p.split(/[\\/]/u).pop() ?? p;
}

/** One pattern per file name: a cost report asks for every exec call of a session (~5 µs to compile each). */
const MENTION_PATTERNS = new Map<string, RegExp>();

function mentions(text: string, name: string): boolean {
  let pattern = MENTION_PATTERNS.get(name);
  if (pattern === undefined) {
    if (MENTION_PATTERNS.size >= 256) MENTION_PATTERNS.clear(); // names come from stored reports: few, but unbounded
    pattern = new RegExp(`(^|[\\s/'"=])${escapeRegExp(name)}($|[\\s'";|&)])`, "u");
    MENTION_PATTERNS.set(name, pattern);
  }
  return pattern.test(text);
}

/**
 * The injected file a `write` / `edit` / `apply_patch` / `exec` tool call changed, or null. A write or edit names
 * its path; a patch names `*** Update File:` / `*** Add File:` lines; an exec counts when its command both names
 * the file and writes (redirect, tee, sed -i, mv, cp, rm …).
 */
export function touchedInjectedFile(block: JsonObject, names: readonly string[]): string | null {
  if (str(block, "type") !== "toolCall") return null;
  const tool = str(block, "name");
  const args = obj(block, "arguments");
  if (!tool || !args) return null;
  if (tool === "write" || tool === "edit") {
    for (const k of PATH_KEYS) {
      const p = str(args, k);
      if (p) return names.find((n) => baseName(p) === n) ?? null;
    }
    return null;
  }
  if (tool === "apply_patch") {
    const patch = str(args, "input") ?? str(args, "patch") ?? "";
    for (const m of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gmu)) {
      const hit = names.find((n) => baseName((m[1] ?? "").trim()) === n);
      if (hit) return hit;
    }
    return null;
  }
  if (tool === "exec" || tool === "bash") {
    const command = str(args, "command") ?? str(args, "cmd") ?? "";
    if (!SHELL_WRITE.test(command)) return null;
    return names.find((n) => mentions(command, n)) ?? null;
  }
  return null;
}

/** The tool-call blocks of an assistant message. */
export function toolCallBlocks(message: JsonObject | undefined): JsonObject[] {
  return (arr(message, "content") ?? []).filter(isObject).filter((b) => str(b, "type") === "toolCall");
}

/** What a run report says about the system prompt's inputs (context-report.md §1), for comparing two runs. */
export interface PromptShape {
  generatedAt: number;
  sessionKey: string | null;
  files: Map<string, number>;
  skillsChars: number;
  skills: string;
  toolListChars: number;
  toolSchemaChars: number;
  systemPromptChars: number;
}

export function promptShape(report: SystemPromptReport): PromptShape | null {
  if (report.source !== "run" || report.generatedAt === null) return null;
  return {
    generatedAt: report.generatedAt,
    sessionKey: report.sessionKey,
    files: new Map(report.files.filter((f) => !f.missing).map((f) => [f.name, f.rawChars])),
    skillsChars: report.skillsPromptChars,
    skills: report.skills.map((s) => s.name).join(","),
    toolListChars: report.toolListChars,
    toolSchemaChars: report.toolSchemaChars,
    systemPromptChars: report.systemPromptChars,
  };
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** What differs between two runs' prompt inputs (bootstrap files, skills, tools, the prompt text), or []. */
export function promptDifferences(a: PromptShape, b: PromptShape): string[] {
  const out: string[] = [];
  for (const [name, chars] of b.files) {
    const before = a.files.get(name);
    if (before === undefined) out.push(`bootstrap file ${name} added (${fmt(chars)} chars)`);
    else if (before !== chars) out.push(`bootstrap file ${name} ${fmt(before)} → ${fmt(chars)} chars`);
  }
  for (const name of a.files.keys()) if (!b.files.has(name)) out.push(`bootstrap file ${name} removed`);
  if (a.skills !== b.skills || a.skillsChars !== b.skillsChars)
    out.push(`skills ${fmt(a.skillsChars)} → ${fmt(b.skillsChars)} chars`);
  if (a.toolListChars !== b.toolListChars || a.toolSchemaChars !== b.toolSchemaChars)
    out.push(`tools ${fmt(a.toolSchemaChars)} → ${fmt(b.toolSchemaChars)} schema chars`);
  if (out.length === 0 && a.systemPromptChars !== b.systemPromptChars)
    out.push(`system prompt text ${fmt(a.systemPromptChars)} → ${fmt(b.systemPromptChars)} chars`);
  return out;
}
