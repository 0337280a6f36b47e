// The bootstrap caps and the truncation warning block of `/context list|detail` — spec context-report.md §5–§6:
// the `Bootstrap max/file|total` labels, `⚠ Bootstrap context is over configured limits: …`, its causes and tip
// (per family), and the 2026.9.x native-Codex notice. Pure.

import type { JsonValue } from "../../../shared/json.ts";
import type { BootstrapFileRow, SystemPromptReport } from "../../model/system-prompt-report.ts";
import { analyzeBootstrapRows } from "../bootstrap/analysis.ts";
import { formatInt } from "../format.ts";
import type { ContextFamily, ContextTextInput } from "./types.ts";

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

function positiveFinite(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
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

export interface BootstrapBlock {
  maxLabel: string;
  totalLabel: string;
  /** The warning, its causes and the tip; empty when nothing is truncated. */
  warningLines: string[];
  nativeLines: string[];
}

/** The caps as printed and the warning block for this report. */
export function bootstrapBlock(view: SystemPromptReport, input: ContextTextInput): BootstrapBlock {
  const { family } = input;
  let maxLabel: string;
  let totalLabel: string;
  let analysis: WarningAnalysis;
  if (family === "2026.3") {
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
    const files = family === "2026.9" ? view.files.filter((f) => !f.nativeUnverified) : view.files;
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
  const native = family === "2026.9" && view.files.some((f) => f.nativeUnverified);
  return { maxLabel, totalLabel, warningLines, nativeLines: native ? NATIVE_UNVERIFIED_LINES : [] };
}
