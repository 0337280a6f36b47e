// `/context list` and `/context detail` — spec context-report.md §5.1–§5.2, line by line per family: header and
// caps, the bootstrap warning, the injected files, skills, tools and (detail, 7.1+) the tracked estimate and the
// compactable transcript counts. Pure.

import { type JsonObject, type JsonValue, str } from "../../../shared/json.ts";
import type { BootstrapFileRow, SystemPromptReport } from "../../model/system-prompt-report.ts";
import { formatCharsAndTokens, formatInt, formatListTop, formatNameList } from "../format.ts";
import { releaseAtMost } from "../release.ts";
import { tokensFromChars } from "../token-estimate.ts";
import { bootstrapBlock } from "./bootstrap-warning.ts";
import { freshTotalTokens, sessionTokensLine, trackedPromptChars } from "./session-tokens.ts";
import type { ContextFamily, ContextTextInput, TranscriptCounts } from "./types.ts";

const INLINE_SHORTCUT =
  "Inline shortcut: a command token inside normal text (e.g. “hey /status”) that runs immediately (allowlisted senders only) and is stripped before the model sees the remaining message.";

/** String interpolation of a stored JSON value, as a JS template literal would print it. */
function interpolate(value: JsonValue | undefined, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "object") return Array.isArray(value) ? value.join(",") : "[object Object]";
  return String(value);
}

function fileLine(f: BootstrapFileRow, family: ContextFamily): string {
  const native = family === "2026.9" && f.nativeUnverified === true;
  const status = native ? "NATIVE/UNVERIFIED" : f.missing ? "MISSING" : f.truncated ? "TRUNCATED" : "OK";
  const raw = f.missing ? "0" : formatCharsAndTokens(f.rawChars);
  const injected = native ? "unknown" : f.missing ? "0" : formatCharsAndTokens(f.injectedChars);
  return `- ${f.name}: ${status} | raw${native ? "(local)" : ""} ${raw} | injected ${injected}`;
}

/**
 * The last release without `Compactable transcript` in `/context detail`: grep of dist/ finds the string in
 * 2026.6.6, 6.8, 6.11, 6.35, 7.1, 9.6 and in none of 2026.1.29, 2.26, 3.2, 4.15, 5.7, 5.28, 6.1, 6.5
 * (docs/openclaw-facts.md §1.6). Such a release omits the line; it does not print "unavailable".
 */
const LAST_RELEASE_WITHOUT_COMPACTABLE = "2026.6.5";

function compactableLines(
  entry: JsonObject,
  counts: TranscriptCounts | undefined,
  appVersion: string | null | undefined,
): string[] {
  if (appVersion && releaseAtMost(appVersion, LAST_RELEASE_WITHOUT_COMPACTABLE)) return [];
  const sessionId = str(entry, "sessionId")?.trim();
  if (!sessionId) return ["Compactable transcript: unavailable (no active transcript session)"];
  // clawscope wording when the caller did not load the transcript (OpenClaw always reads it).
  if (counts === undefined)
    return ["Compactable transcript: unavailable (transcript not loaded by clawscope)"];
  if ("unavailable" in counts) return [`Compactable transcript: unavailable (${counts.unavailable})`];
  if (counts.messages === 0) return ["Compactable transcript: unavailable (no transcript messages found)"];
  return [
    `Compactable transcript: ${formatInt(counts.real)} real conversation message(s) / ${formatInt(counts.messages)} transcript message(s)`,
    ...(counts.real === 0
      ? [
          "Compaction note: prompt/cache usage may be high even when there are no compactable conversation messages.",
        ]
      : []),
  ];
}

function toolLines(view: SystemPromptReport): { list: string; schema: string; names: string } {
  const names = view.tools.map((t) => t.name);
  return {
    list: `Tool list (system prompt text): ${formatCharsAndTokens(view.toolListChars)}`,
    schema: `Tool schemas (JSON): ${formatCharsAndTokens(view.toolSchemaChars)} (counts toward context; not shown as text)`,
    names: names.length > 0 ? `Tools: ${formatNameList(names, 30)}` : "Tools: (none)",
  };
}

/** Header, caps, warning block, files and skills: the part list and detail share. */
function headLines(view: SystemPromptReport, input: ContextTextInput, detailed: boolean): string[] {
  const block = bootstrapBlock(view, input);
  const skillNames = [...new Set(view.skills.map((s) => s.name))];
  return [
    detailed ? "🧠 Context breakdown (detailed)" : "🧠 Context breakdown",
    `Workspace: ${view.workspaceDir ?? input.workspaceDir ?? "(unknown)"}`,
    `Bootstrap max/file: ${block.maxLabel}`,
    `Bootstrap max/total: ${block.totalLabel}`,
    `Sandbox: mode=${interpolate(view.sandboxMode, "unknown")} sandboxed=${interpolate(view.sandboxed, "false")}`,
    `System prompt (${view.source}): ${formatCharsAndTokens(view.systemPromptChars)} (Project Context ${formatCharsAndTokens(view.projectContextChars)})`,
    ...(block.warningLines.length > 0 ? ["", ...block.warningLines] : []),
    ...(block.nativeLines.length > 0 ? ["", ...block.nativeLines] : []),
    "",
    "Injected workspace files:",
    ...view.files.map((f) => fileLine(f, input.family)),
    "",
    `Skills list (system prompt text): ${formatCharsAndTokens(view.skillsPromptChars)} (${skillNames.length} skills)`,
    skillNames.length > 0 ? `Skills: ${formatNameList(skillNames, 20)}` : "Skills: (none)",
  ];
}

/** `detail`'s top lists: skills, tool schemas, tool summaries, param counts (top 30, stable). */
function topLists(view: SystemPromptReport): string[] {
  const perSkill = formatListTop(view.skills.map((s) => ({ name: s.name, value: s.blockChars })));
  const perToolSchema = formatListTop(view.tools.map((t) => ({ name: t.name, value: t.schemaChars })));
  const perToolSummary = formatListTop(view.tools.map((t) => ({ name: t.name, value: t.summaryChars })));
  const params = formatListTop(
    view.tools.flatMap((t) =>
      t.propertiesCount === null ? [] : [{ name: t.name, value: t.propertiesCount }],
    ),
    30,
    (n) => `${n} params`,
  );
  const tools = toolLines(view);
  return [
    ...(perSkill.lines.length > 0 ? ["Top skills (prompt entry size):", ...perSkill.lines] : []),
    ...(perSkill.omitted > 0 ? [`… (+${perSkill.omitted} more skills)`] : []),
    "",
    tools.list,
    tools.schema,
    tools.names,
    "Top tools (schema size):",
    ...perToolSchema.lines,
    ...(perToolSchema.omitted > 0 ? [`… (+${perToolSchema.omitted} more tools)`] : []),
    "",
    "Top tools (summary text size):",
    ...perToolSummary.lines,
    ...(perToolSummary.omitted > 0 ? [`… (+${perToolSummary.omitted} more tools)`] : []),
    ...(params.lines.length > 0 ? ["", "Tools (param count):", ...params.lines] : []),
  ];
}

/** `detail` 7.1+: tracked estimate vs cached usage, then the compactable transcript counts. */
function trackedLines(view: SystemPromptReport, input: ContextTextInput): string[] {
  const tracked = trackedPromptChars(view);
  const actual = freshTotalTokens(input.entry, input.family);
  const overhead = actual === undefined ? undefined : actual - tokensFromChars(tracked);
  return [
    "",
    `Tracked prompt estimate: ${formatCharsAndTokens(tracked)}`,
    actual !== undefined
      ? `Actual context usage (cached): ${formatInt(actual)} tok`
      : "Actual context usage (cached): unavailable",
    ...(overhead === undefined
      ? []
      : [
          overhead > 0
            ? `Untracked provider/runtime overhead: ~${formatInt(overhead)} tok`
            : "Untracked provider/runtime overhead: not observed in cached usage",
        ]),
    ...compactableLines(input.entry, input.transcriptCounts, input.appVersion),
  ];
}

/** `/context list` (`detailed` false) or `/context detail` for a stored run report. */
export function renderBreakdown(
  view: SystemPromptReport,
  input: ContextTextInput,
  detailed: boolean,
  contextTokens: number | null,
): string {
  const { family, entry } = input;
  const lines = headLines(view, input, detailed);
  if (detailed) {
    lines.push(...topLists(view));
    if (family !== "2026.3") lines.push(...trackedLines(view, input));
  } else {
    const tools = toolLines(view);
    lines.push(tools.list, tools.schema, tools.names);
  }
  lines.push("", sessionTokensLine(entry, family, contextTokens), "", INLINE_SHORTCUT);
  // `detail` drops every empty line (`lines.filter(Boolean)`); `list` keeps the blank separators.
  return (detailed ? lines.filter((l) => l !== "") : lines).join("\n");
}
