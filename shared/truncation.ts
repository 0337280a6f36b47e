// Bootstrap-truncation report DTO: what OpenClaw's bootstrapMaxChars / bootstrapTotalMaxChars caps
// cut from the workspace files of a session's last run, and what other caps would cut.
// Built by server/reports/truncation.ts; shown by the web view and `clawscope truncation --json`.
// All char counts are UTF-16 code units (JavaScript string length), like OpenClaw's.

import type { ReportOwnerDTO } from "./run-report.ts";

/** OpenClaw rule family whose truncation rules apply (2026.3.2 / 2026.7.1 / 2026.9.x). */
export type TruncationFamily = "2026.3" | "2026.7" | "2026.9";

/** OpenClaw's own cause vocabulary (systemPromptReport.bootstrapTruncation signature). */
export type TruncationCause = "per-file-limit" | "total-limit";

/**
 * Cause as shown to the user: like TruncationCause, but a 2026.9.x USER.md cut by its fixed
 * 4,000-char cap (lower than bootstrapMaxChars) reads "user-md-fixed-cap" instead of "per-file-limit".
 */
export type DisplayCause = TruncationCause | "user-md-fixed-cap";

export type FileStatus = "OK" | "TRUNCATED" | "MISSING";

/**
 * Where the numbers of `files` come from:
 * - "recorded": the stored systemPromptReport, verbatim (no overrides given);
 * - "recomputed": OpenClaw's algorithm re-run on the current workspace files with the caps in effect;
 * - "from-numbers": overrides given but the workspace is not readable — lengths derived from the
 *   report's rawChars (exact for every file whose text does not matter; see `files[].exact`).
 */
export type TruncationMode = "recorded" | "recomputed" | "from-numbers";

/** One part of a file's injected text, in order; concatenating all `text`s gives the injected text. */
export interface TruncationSegmentDTO {
  /**
   * kept-head / kept-tail: verbatim copy of the file (kept-head covers the whole file when nothing
   * was cut); marker: text OpenClaw adds (truncation notices, "[Policy digest from AGENTS.md]",
   * "[...N more policy lines omitted...]"); digest: AGENTS.md policy-digest lines (normalised copies
   * of lines from the dropped middle); separator: a "\n" joining parts; clamp-ellipsis: the "…" the
   * total-budget clamp appends; missing-marker: "[MISSING] Expected at: <path>".
   */
  kind: "kept-head" | "kept-tail" | "marker" | "digest" | "separator" | "clamp-ellipsis" | "missing-marker";
  text: string;
  /** kept-head / kept-tail: [sourceFrom, sourceTo) in the file's trimEnd()ed text. */
  sourceFrom?: number;
  sourceTo?: number;
}

/** A range of the file's trimEnd()ed text that does not appear verbatim in the injected text. */
export interface DroppedRangeDTO {
  from: number;
  to: number;
  text: string;
}

/** Result of re-running OpenClaw's algorithm on the file's current content (diff view). */
export interface FileSimulationDTO {
  /** Caps and family used for this simulation (the report's, or the what-if overrides). */
  rawChars: number;
  injectedChars: number;
  truncated: boolean;
  /** Chars removed by trimEnd() before anything else (never counted by OpenClaw). */
  trailingWhitespaceChars: number;
  /** Cap the file was trimmed to: max(1, min(file limit, budget left)); null when not reached. */
  trimCap: number | null;
  /** Head/tail sizes printed in OpenClaw's marker (0 when not truncated). */
  headChars: number;
  tailChars: number;
  /** AGENTS.md policy digest (2026.7.1+), null for other files or when not truncated. */
  digest: {
    chars: number;
    candidates: number;
    selected: number;
    omittedLines: number;
    budget: number;
  } | null;
  /** The total-budget clamp cut the text (and appended "…" when more than 3 chars were left). */
  clampedByTotal: boolean;
  /** Why the file got nothing, if so (budget exhausted, <64 chars left, missing file …). */
  skipReason: string | null;
  segments: TruncationSegmentDTO[];
  dropped: DroppedRangeDTO[];
  /** With the report's own caps and family: do the recomputed numbers equal the report's? */
  matchesReport: boolean | null;
}

export interface TruncationFileDTO {
  // --- CLI contract fields (names fixed) ---
  name: string;
  /** Path as recorded by OpenClaw (never rebased here; see `readPath`). */
  path: string;
  missing: boolean;
  /** Length of content.trimEnd() (0 when missing). */
  rawChars: number;
  /** Chars injected into the prompt incl. markers; null only in "from-numbers" mode when unknown. */
  injectedChars: number | null;
  /** !missing && injectedChars < rawChars; null when injectedChars is unknown. */
  truncated: boolean | null;
  /** OpenClaw's causes for a truncated file (spec bootstrap.md §6 rules of the family). */
  causes: TruncationCause[];
  /** rawChars ≥ ceil(fileLimit × 0.85) (non-missing files). */
  nearLimit: boolean;

  // --- table columns ---
  status: FileStatus;
  /** rawChars − injectedChars (≥ 0; 0 for missing files), null when unknown. */
  removedChars: number | null;
  /** removedChars / rawChars × 100, one decimal; null when rawChars is 0 or unknown. */
  removedPct: number | null;
  /** clawscope estimate, ceil(chars / 4) like /context — not a tokenizer count. */
  estimatedTokens: { raw: number; injected: number | null };
  /** Effective per-file limit: bootstrapMaxChars, or min(bootstrapMaxChars, 4000) for 9.x USER.md. */
  fileLimit: number;
  /** 9.x USER.md whose limit is the fixed 4,000 cap (lower than bootstrapMaxChars). */
  fixedUserCap: boolean;
  /** ceil(fileLimit × 0.85): rawChars at or above this is near the limit. */
  nearLimitAt: number;
  displayCauses: DisplayCause[];
  /** 9.x Codex-native file (excluded from totals). */
  nativeUnverified: boolean;
  /** False when a number was derived without the file's text and may differ (AGENTS.md digest). */
  exact: boolean;
  /** Explanation when `exact` is false or the number is unknown. */
  note: string | null;

  /** The report's own row (for comparison in what-if modes); null when the report has no row. */
  recorded: { missing: boolean; rawChars: number; injectedChars: number; truncated: boolean } | null;
  /** Current file on disk. */
  current: {
    /** Actual path read (rebased onto the state dir when the recorded one did not exist), or null. */
    readPath: string | null;
    readable: boolean;
    /** Current content.trimEnd() length, null when unreadable/missing. */
    rawChars: number | null;
    /** Current size differs from the report's rawChars (or presence changed); null when unknown. */
    changedSinceReport: boolean | null;
  };
  /** Diff view from the current content; null when the file is not readable. */
  simulation: FileSimulationDTO | null;
}

/** One bar of the budget waterfall, in injection order. */
export interface WaterfallStepDTO {
  name: string;
  /** Total budget left before this file (bootstrapTotalMaxChars at the first file). */
  before: number;
  /** Chars this file took from the total budget. */
  used: number;
  after: number;
  /**
   * True for a missing file whose "[MISSING] Expected at: …" marker used budget without appearing
   * in the prompt or the report (2026.9.x; spec bootstrap.md §5).
   */
  hiddenMarker: boolean;
  /** The total budget limited this file: before < its file limit and its raw size > before. */
  totalCapBit: boolean;
  /** share of bootstrapTotalMaxChars used by this file, 0..1. */
  shareOfTotal: number;
}

export interface TruncationTotalsDTO {
  // --- CLI contract fields ---
  /** Σ rawChars over non-missing, non-native files. */
  rawChars: number;
  /**
   * Σ injectedChars of the rows (native files excepted): what the prompt holds, the `[MISSING]` markers OpenClaw
   * injected for missing files included (bootstrap.md §5). null when some value is unknown.
   * maxTotal − injectedChars − hiddenMarkerChars = budgetRemaining.
   */
  injectedChars: number | null;
  /** Budget taken by missing files' markers that were not injected (2026.7/2026.9, `hiddenMarker` steps). */
  hiddenMarkerChars: number;
  // --- extra ---
  maxPerFile: number;
  maxTotal: number;
  /** injectedChars / maxTotal, 0..1 (null when unknown). */
  shareOfTotal: number | null;
  /** ceil(maxTotal × 0.85). */
  totalNearLimitAt: number;
  /** OpenClaw's near-limit flag: Σ injected over non-missing files ≥ totalNearLimitAt (bootstrap.md §6). */
  totalNearLimit: boolean | null;
  truncatedFiles: number;
  nearLimitFiles: number;
  /** Files whose rawChars exceed their own file limit. */
  overPerFileLimit: number;
  /** Budget left after the last file (total-budget loop), null when unknown. */
  budgetRemaining: number | null;
}

export interface WorkspaceChangeDTO {
  name: string;
  /** "size": rawChars differ; "appeared": missing in the report, present now; "disappeared": the reverse. */
  kind: "size" | "appeared" | "disappeared";
  recordedRawChars: number;
  currentRawChars: number | null;
}

export interface TruncationReportDTO {
  // --- CLI contract fields ---
  /** bootstrapMaxChars in effect for `files` (what-if override, else the report's). */
  maxPerFile: number;
  /** bootstrapTotalMaxChars in effect for `files`. */
  maxTotal: number;
  /** One row per bootstrap file, in injection order. */
  files: TruncationFileDTO[];
  totals: TruncationTotalsDTO;

  // --- extra ---
  mode: TruncationMode;
  /** Rule family applied to `files` (override, else the session's). */
  family: TruncationFamily;
  /** What the stored report says. */
  recorded: {
    family: TruncationFamily;
    /** null when the report lacks it (E1 reports have no total cap). */
    maxPerFile: number | null;
    maxTotal: number | null;
    /** Values the table used when the report lacks a cap: the family default. */
    maxPerFileUsed: number;
    maxTotalUsed: number;
    generatedAt: number | null;
    workspaceDir: string | null;
    /** systemPromptReport.bootstrapTruncation counters, when present. */
    truncatedFiles: number | null;
    nearLimitFiles: number | null;
    totalNearLimit: boolean | null;
    promptWarningSignature: string | null;
  };
  /** True when maxPerFile / maxTotal / family differ from the report's. */
  whatIf: boolean;
  /** The stored run report the rows compare with. */
  storedReport: {
    /**
     * False: the session has no stored run report (cron runs, orphans, archives) — nothing was recorded; the rows
     * are the current workspace files and what the configured caps would inject ("recomputed").
     */
    available: boolean;
    /** `systemPromptReport.sessionId`, null when absent. */
    sessionId: string | null;
    /** Set when the report belongs to another session id than the session shown. */
    owner: ReportOwnerDTO | null;
  };
  workspace: {
    /** Directory read (rebased or --workspace), null when unavailable. */
    dir: string | null;
    readable: boolean;
    rebasedPaths: { recorded: string; actual: string }[];
    /** How `dir` was chosen when the report names none (e.g. "agents.defaults.workspace", "<stateDir>/workspace"). */
    source: string | null;
  };
  waterfall: WaterfallStepDTO[];
  changes: WorkspaceChangeDTO[];
  /** promptWarningSignature recomputed from `files` (spec bootstrap.md §7.1); null when nothing truncated. */
  signature: string | null;
  /** Human-readable warnings (files changed since the report, unknown numbers, …). */
  warnings: string[];
  /** What cannot be computed and why. */
  notes: string[];
}
