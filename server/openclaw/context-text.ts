// Byte-identical reproduction of OpenClaw's `/context` replies (help, list, detail, json, map-unavailable)
// for the three rule families 2026.3 (reference 2026.3.2), 2026.7 (2026.7.1) and 2026.9 (2026.9.x).
// Source of the rules: spec context-report.md §3–§6 and bootstrap.md §6 (`commands-context-report.ts`,
// `bootstrap-budget.ts` of each release); verified against the fixture replies in test/golden.
// Pure: SessionEntry (+ transcript counts) in, text out.

import { type JsonObject, type JsonValue, num, str } from "../../shared/json.ts";
import {
  type BootstrapFileRow,
  type SystemPromptReport,
  storedRunReport,
} from "../model/system-prompt-report.ts";
import { analyzeBootstrapRows } from "./bootstrap/analysis.ts";
import { formatCharsAndTokens, formatInt, formatListTop, formatNameList } from "./format.ts";
import { contextHelpText, mapUnavailableText, unknownModeText } from "./texts.ts";
import { tokensFromChars } from "./token-estimate.ts";

export type ContextFamily = "2026.3" | "2026.7" | "2026.9";
export type ContextTextMode = "list" | "detail" | "json" | "help" | "map-unavailable" | "unknown";
export type TranscriptCounts = { messages: number; real: number } | { unavailable: string };

export interface ContextTextInput {
  mode: ContextTextMode;
  family: ContextFamily;
  /** The SessionEntry (sessions.json value / session_nodes.entry_json). */
  entry: JsonObject;
  /** `M` / `R` for `detail` in 2026.7+ (see compactable-count.ts). */
  transcriptCounts?: TranscriptCounts;
  /**
   * Context window resolved when the command runs. OpenClaw resolves it from config/catalog at command time;
   * offline the entry's `contextTokens` is the best value (spec §4) and is the default.
   */
  contextTokens?: number | null;
  /** Config fallbacks used by 2026.7+ when the report lacks its caps (defaults 20000 / 60000). */
  bootstrapDefaults?: { bootstrapMaxChars?: number; bootstrapTotalMaxChars?: number };
  /** Current workspace, printed only when the report has no `workspaceDir`. */
  workspaceDir?: string;
}

const INLINE_SHORTCUT =
  "Inline shortcut: a command token inside normal text (e.g. “hey /status”) that runs immediately (allowlisted senders only) and is stripped before the model sees the remaining message.";

const TIP: Record<ContextFamily, string> = {
  "2026.3":
    "Tip: increase `agents.defaults.bootstrapMaxChars` and/or `agents.defaults.bootstrapTotalMaxChars` if this truncation is not intentional.",
  "2026.7":
    "Tip: increase this agent's `agents.list[].bootstrapMaxChars` / `agents.list[].bootstrapTotalMaxChars` override, or the matching `agents.defaults.*` fallback, if this truncation is not intentional.",
  "2026.9":
    "Tip: increase this agent's `agents.entries.*.bootstrapMaxChars` / `agents.entries.*.bootstrapTotalMaxChars` override, or the matching `agents.defaults.*` fallback, if this truncation is not intentional.",
};

const NATIVE_UNVERIFIED_LINES = [
  "⚠ Native Codex project instructions are unverified: Codex applies one aggregate root-to-CWD byte budget, and app-server does not report exact per-file retained bytes, so later AGENTS.md files can be partial.",
  "Keep earlier/root files concise and read the relevant scoped file directly if guidance appears missing.",
];

/**
 * clawscope's OWN text (not OpenClaw's) for list/detail/json when no `source:"run"` report is stored.
 * OpenClaw then builds a `source:"estimate"` report on the fly from the live workspace, instantiated tools and
 * scanned skills (spec context-report.md §1); that cannot be reproduced offline, so clawscope says so instead.
 */
export const NO_RUN_REPORT_NOTICE = [
  "clawscope: no stored run report for this session.",
  "OpenClaw would answer this /context command with an on-the-fly estimate (source “estimate”) rebuilt from the live workspace, tools and skills; clawscope cannot reproduce that estimate offline.",
  "The next normal message through OpenClaw stores a run report (source “run”).",
].join("\n");

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

function positiveFinite(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** String interpolation of a stored JSON value, as a JS template literal would print it. */
function interpolate(value: JsonValue | undefined, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "object") return Array.isArray(value) ? value.join(",") : "[object Object]";
  return String(value);
}

interface WarningAnalysis {
  truncatedCount: number;
  rawTotal: number;
  injectedTotal: number;
  causeParts: string[];
}

/**
 * 2026.3.2: counts are computed by `/context` itself — truncated = non-missing rows flagged truncated;
 * `n file(s) exceeded max/file` = non-missing rows with raw > max/file (truncated or not);
 * `raw total exceeded max/total` when Σraw > total cap (spec context-report.md §6).
 */
function analyze32(view: SystemPromptReport): WarningAnalysis {
  const nonMissing = view.files.filter((f) => !f.missing);
  const max = typeof view.bootstrapMaxChars === "number" ? view.bootstrapMaxChars : undefined;
  const totalMax = typeof view.bootstrapTotalMaxChars === "number" ? view.bootstrapTotalMaxChars : undefined;
  const rawTotal = nonMissing.reduce((s, f) => s + f.rawChars, 0);
  const perFile = max === undefined ? 0 : nonMissing.filter((f) => f.rawChars > max).length;
  const totalOver = totalMax !== undefined && rawTotal > totalMax;
  return {
    truncatedCount: nonMissing.filter((f) => f.truncated).length,
    rawTotal,
    injectedTotal: nonMissing.reduce((s, f) => s + f.injectedChars, 0),
    causeParts: [
      ...(perFile > 0 ? [`${perFile} file(s) exceeded max/file`] : []),
      ...(totalOver ? ["raw total exceeded max/total"] : []),
    ],
  };
}

/**
 * 2026.7.1 / 2026.9.x: `/context` runs OpenClaw's `analyzeBootstrapBudget` over the report rows (bootstrap.md §6,
 * implemented in bootstrap/analysis.ts) and counts FILES per cause: `n file(s) exceeded max/file`,
 * `m file(s) hit max/total`. Limits are floored and forced ≥ 1 as OpenClaw normalizes them.
 */
function analyzeBudget(
  family: ContextFamily,
  files: BootstrapFileRow[],
  maxChars: number,
  totalMaxChars: number,
): WarningAnalysis {
  const norm = (v: number): number => (Number.isFinite(v) && v > 0 ? Math.floor(v) : 1);
  const analysis = analyzeBootstrapRows(family, files, norm(maxChars), norm(totalMaxChars));
  const perFile = analysis.rows.filter((r) => r.causes.includes("per-file-limit")).length;
  const total = analysis.rows.filter((r) => r.causes.includes("total-limit")).length;
  return {
    truncatedCount: analysis.truncatedFiles,
    rawTotal: analysis.totalRawChars,
    injectedTotal: analysis.totalInjectedChars,
    causeParts: [
      ...(perFile > 0 ? [`${perFile} file(s) exceeded max/file`] : []),
      ...(total > 0 ? [`${total} file(s) hit max/total`] : []),
    ],
  };
}

function fileLine(f: BootstrapFileRow, family: ContextFamily): string {
  const native = family === "2026.9" && f.nativeUnverified === true;
  const status = native ? "NATIVE/UNVERIFIED" : f.missing ? "MISSING" : f.truncated ? "TRUNCATED" : "OK";
  const raw = f.missing ? "0" : formatCharsAndTokens(f.rawChars);
  const injected = native ? "unknown" : f.missing ? "0" : formatCharsAndTokens(f.injectedChars);
  return `- ${f.name}: ${status} | raw${native ? "(local)" : ""} ${raw} | injected ${injected}`;
}

function sessionTokensLine(entry: JsonObject, family: ContextFamily, contextTokens: number | null): string {
  const total = freshTotalTokens(entry, family);
  // 2026.3.2 prints the window raw (`ctx=200000`); 7.1+ groups it (`ctx=100,000`).
  const ctx =
    contextTokens === null ? "?" : family === "2026.3" ? String(contextTokens) : formatInt(contextTokens);
  return total !== undefined
    ? `Session tokens (cached): ${formatInt(total)} total / ctx=${ctx}`
    : `Session tokens (cached): unknown / ctx=${ctx}`;
}

function compactableLines(entry: JsonObject, counts: TranscriptCounts | undefined): string[] {
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

/** `{report, session}` of `/context json` (spec §5.3). */
export function contextJsonText(
  report: JsonObject,
  entry: JsonObject,
  family: ContextFamily,
  contextTokens: number | null,
): string {
  const orNull = (v: JsonValue | undefined): JsonValue => v ?? null;
  let session: JsonObject;
  if (family === "2026.3") {
    session = {
      totalTokens: orNull(entry.totalTokens),
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  } else if (family === "2026.7") {
    session = {
      totalTokens: orNull(entry.totalTokens),
      totalTokensFresh: orNull(entry.totalTokensFresh),
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  } else {
    // 9.x: totalTokensFresh is computed (fresh total known), not copied.
    const fresh = freshTotalTokens(entry, family);
    session = {
      totalTokens: fresh ?? null,
      totalTokensFresh: fresh !== undefined,
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  }
  return JSON.stringify({ report, session }, null, 2);
}

function renderBreakdown(
  view: SystemPromptReport,
  input: ContextTextInput,
  detailed: boolean,
  contextTokens: number | null,
): string {
  const { family, entry } = input;
  const is32 = family === "2026.3";
  const is9 = family === "2026.9";

  let maxLabel: string;
  let totalLabel: string;
  let analysis: WarningAnalysis;
  if (is32) {
    // 2026.3.2 prints `? chars` when the report lacks a cap (E1 reports have no total cap).
    maxLabel =
      typeof view.bootstrapMaxChars === "number" ? `${formatInt(view.bootstrapMaxChars)} chars` : "? chars";
    totalLabel =
      typeof view.bootstrapTotalMaxChars === "number"
        ? `${formatInt(view.bootstrapTotalMaxChars)} chars`
        : "? chars";
    analysis = analyze32(view);
  } else {
    // 7.1+: report value if finite > 0, else the config value / default.
    const max = positiveFinite(view.bootstrapMaxChars) ?? input.bootstrapDefaults?.bootstrapMaxChars ?? 20000;
    const totalMax =
      positiveFinite(view.bootstrapTotalMaxChars) ?? input.bootstrapDefaults?.bootstrapTotalMaxChars ?? 60000;
    maxLabel = `${formatInt(max)} chars`;
    totalLabel = `${formatInt(totalMax)} chars`;
    const files = is9 ? view.files.filter((f) => !f.nativeUnverified) : view.files;
    analysis = analyzeBudget(family, files, max, totalMax);
  }

  const warningLines =
    analysis.truncatedCount > 0
      ? [
          `⚠ Bootstrap context is over configured limits: ${analysis.truncatedCount} file(s) truncated (${formatInt(analysis.rawTotal)} raw chars -> ${formatInt(analysis.injectedTotal)} injected chars).`,
          ...(analysis.causeParts.length > 0 ? [`Causes: ${analysis.causeParts.join("; ")}.`] : []),
          TIP[family],
        ]
      : [];
  const nativeLines = is9 && view.files.some((f) => f.nativeUnverified) ? NATIVE_UNVERIFIED_LINES : [];

  const skillNames = [...new Set(view.skills.map((s) => s.name))];
  const toolNames = view.tools.map((t) => t.name);
  const toolListLine = `Tool list (system prompt text): ${formatCharsAndTokens(view.toolListChars)}`;
  const toolSchemaLine = `Tool schemas (JSON): ${formatCharsAndTokens(view.toolSchemaChars)} (counts toward context; not shown as text)`;
  const toolsNamesLine = toolNames.length > 0 ? `Tools: ${formatNameList(toolNames, 30)}` : "Tools: (none)";

  const lines: string[] = [
    detailed ? "🧠 Context breakdown (detailed)" : "🧠 Context breakdown",
    `Workspace: ${view.workspaceDir ?? input.workspaceDir ?? "(unknown)"}`,
    `Bootstrap max/file: ${maxLabel}`,
    `Bootstrap max/total: ${totalLabel}`,
    `Sandbox: mode=${interpolate(view.sandboxMode, "unknown")} sandboxed=${interpolate(view.sandboxed, "false")}`,
    `System prompt (${view.source}): ${formatCharsAndTokens(view.systemPromptChars)} (Project Context ${formatCharsAndTokens(view.projectContextChars)})`,
    ...(warningLines.length > 0 ? ["", ...warningLines] : []),
    ...(nativeLines.length > 0 ? ["", ...nativeLines] : []),
    "",
    "Injected workspace files:",
    ...view.files.map((f) => fileLine(f, family)),
    "",
    `Skills list (system prompt text): ${formatCharsAndTokens(view.skillsPromptChars)} (${skillNames.length} skills)`,
    skillNames.length > 0 ? `Skills: ${formatNameList(skillNames, 20)}` : "Skills: (none)",
  ];

  if (detailed) {
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
    lines.push(
      ...(perSkill.lines.length > 0 ? ["Top skills (prompt entry size):", ...perSkill.lines] : []),
      ...(perSkill.omitted > 0 ? [`… (+${perSkill.omitted} more skills)`] : []),
      "",
      toolListLine,
      toolSchemaLine,
      toolsNamesLine,
      "Top tools (schema size):",
      ...perToolSchema.lines,
      ...(perToolSchema.omitted > 0 ? [`… (+${perToolSchema.omitted} more tools)`] : []),
      "",
      "Top tools (summary text size):",
      ...perToolSummary.lines,
      ...(perToolSummary.omitted > 0 ? [`… (+${perToolSummary.omitted} more tools)`] : []),
      ...(params.lines.length > 0 ? ["", "Tools (param count):", ...params.lines] : []),
    );
    if (!is32) {
      // 7.1+: systemPrompt.chars already holds files, skills and tool-list text; add tool schemas and the
      // current turn so the tracked estimate stays disjoint (spec §5.2 line 8).
      const turn = view.currentTurn;
      const tracked =
        view.systemPromptChars +
        view.toolSchemaChars +
        (turn ? turn.promptChars + turn.runtimeContextChars : 0);
      const actual = freshTotalTokens(entry, family);
      const overhead = actual === undefined ? undefined : actual - tokensFromChars(tracked);
      lines.push(
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
        ...compactableLines(entry, input.transcriptCounts),
      );
    }
  } else {
    lines.push(toolListLine, toolSchemaLine, toolsNamesLine);
  }

  lines.push("", sessionTokensLine(entry, family, contextTokens), "", INLINE_SHORTCUT);
  // `detail` drops every empty line (`lines.filter(Boolean)`); `list` keeps the blank separators.
  return (detailed ? lines.filter((l) => l !== "") : lines).join("\n");
}

/**
 * Renders one `/context` reply. Without a stored `run` report, list/detail/json return clawscope's
 * NO_RUN_REPORT_NOTICE (OpenClaw would print an unreproducible estimate) and map returns OpenClaw's exact
 * MAP_UNAVAILABLE_TEXT. `map-unavailable` returns that text (2026.3.2 has no map: its unknown-mode reply);
 * `unknown` returns the two-line unknown-mode reply.
 */
export function renderContextText(input: ContextTextInput): string {
  const { mode, family, entry } = input;
  if (mode === "help") return contextHelpText(family);
  if (mode === "unknown") return unknownModeText(family);
  if (mode === "map-unavailable") return mapUnavailableText(family);
  const { report } = storedRunReport(entry);
  if (!report) return NO_RUN_REPORT_NOTICE;
  const contextTokens =
    input.contextTokens !== undefined ? input.contextTokens : (num(entry, "contextTokens") ?? null);
  if (mode === "json") return contextJsonText(report.stored, entry, family, contextTokens);
  return renderBreakdown(report, input, mode === "detail", contextTokens);
}
