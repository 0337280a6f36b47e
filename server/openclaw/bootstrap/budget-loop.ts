// OpenClaw's total-budget loop over the bootstrap files — spec bootstrap.md §3, with §5's missing-file marker. One
// loop (TotalBudget: the budget left, when it stops, what each file may take), run two ways:
// - simulateBootstrapInjection: on the files' content — the injected text of each file, segment by segment;
// - bootstrapLengths: on their lengths only (the workspace is not readable, the report's rawChars are known). Every
//   trim but the AGENTS.md policy digest depends on the length alone, so the lengths are exact except there.
// Pure.

import { effectiveFileLimit, isAgentsFile, MIN_FILE_BUDGET, type RuleFamily } from "./files-and-limits.ts";
import type { PolicyDigest } from "./policy-digest.ts";
import {
  clampToBudget,
  type DroppedRange,
  droppedRanges,
  type InjectedSegment,
  joinText,
} from "./segments.ts";
import { familyTrimRule, type TrimRule, trimBootstrapContent, trimUsesPolicyDigest } from "./trim.ts";

export interface BootstrapFileInput {
  name: string;
  /** Recorded path (used verbatim in the missing marker); "" = no path → skipped with a warning. */
  path: string;
  /** File content; null = missing. */
  content: string | null;
  /**
   * What happens to a missing file's `[MISSING] Expected at: <path>` marker — spec §5:
   * "inject" (2026.3.2: in the prompt, counted in injectedChars, E1–E3 reports show 66/72);
   * "budget-only" (2026.7/2026.9 default: the marker consumes total budget in the loop but the
   * prompt and the report show nothing — held-back 9.6 capture: 1,444 left after USER.md, MEMORY.md
   * trimmed to 1,378 = 1,444 − 66, the BOOTSTRAP.md marker length; 7.1 UNVERIFIED);
   * "none" (not part of the loop at all).
   */
  missingMarker?: MissingMarkerMode;
}

export type MissingMarkerMode = "inject" | "budget-only" | "none";

export type SkipReason =
  | "budget-exhausted" // remaining total budget was 0 before this file
  | "below-min-budget" // fewer than 64 chars left for a non-missing file
  | "no-path" // hook-provided file without a path
  | "empty-after-clamp" // nothing left after trimming/clamping
  | "missing-not-injected"; // missing file whose marker OpenClaw does not inject

export interface FileInjection {
  name: string;
  path: string;
  missing: boolean;
  /** content.trimEnd().length (0 when missing) — the report's rawChars. */
  rawChars: number;
  /** Chars removed by trimEnd() (trailing whitespace; never counted in rawChars). */
  trailingWhitespaceChars: number;
  /** Chars this file took from the total budget (= injectedChars, or the marker for "budget-only"). */
  budgetUsed: number;
  /** Whether OpenClaw put this file into Project Context at all. */
  injected: boolean;
  injectedText: string;
  /** Length of injectedText (incl. markers) — the report's injectedChars. */
  injectedChars: number;
  /** !missing && injectedChars < rawChars — as the report computes it. */
  truncated: boolean;
  /** Effective per-file limit L (USER.md fixed cap in 9.x). */
  fileLimit: number;
  /** Total budget left when the loop reached this file (null if it stopped earlier). */
  budgetBefore: number | null;
  /** Cap the file was trimmed to: max(1, min(L, budgetBefore)); null when not trimmed. */
  trimCap: number | null;
  /** Trimming cut the file (per-file or budget-limited cap). */
  trimmedByCap: boolean;
  /** The total-budget clamp shortened the trimmed text. */
  clampedByTotal: boolean;
  skipReason: SkipReason | null;
  headChars: number;
  tailChars: number;
  digest: PolicyDigest | null;
  segments: InjectedSegment[];
  dropped: DroppedRange[];
}

export interface InjectionRun {
  family: RuleFamily;
  maxPerFile: number;
  maxTotal: number;
  /** Total budget actually used (max(1, floor(maxTotal))). */
  totalBudget: number;
  files: FileInjection[];
  remainingAfter: number;
  /** OpenClaw's log warnings for this run (skips, budget stop). */
  warnings: string[];
}

/** Default handling of a missing file's marker per family — see BootstrapFileInput.missingMarker. */
export function defaultMissingMarkerMode(family: RuleFamily): MissingMarkerMode {
  return family === "2026.3" ? "inject" : "budget-only";
}

/** The marker OpenClaw puts in place of a missing file — spec §5 (before the total-budget clamp). */
export function missingMarkerText(path: string): string {
  return `[MISSING] Expected at: ${path.trim()}`;
}

/** What the loop lets one file do, before its text is placed. */
type Admission =
  | { kind: "skip"; reason: SkipReason }
  | { kind: "missing"; marker: { segments: InjectedSegment[]; clamped: boolean }; inject: boolean }
  | { kind: "present"; cap: number };

interface LoopFile {
  name: string;
  path: string;
  missing: boolean;
  missingMarker?: MissingMarkerMode;
}

/** The loop's running state — spec §3: the budget left and whether the loop has stopped. */
class TotalBudget {
  remaining: number;
  stopped = false;
  /** OpenClaw's log warnings (skips, budget stop, truncations). */
  readonly warnings: string[] = [];

  constructor(
    readonly family: RuleFamily,
    readonly maxPerFile: number,
    maxTotal: number,
    /** The release's cut (release-defaults.ts); the family's own when not given. */
    readonly trim: TrimRule = familyTrimRule(family),
  ) {
    this.remaining = Math.max(1, Math.floor(maxTotal));
  }

  /** The budget left when the loop reaches the next file; null once it stopped. */
  get before(): number | null {
    return this.stopped || this.remaining <= 0 ? null : this.remaining;
  }

  /** 9.x cuts UTF-16-safe everywhere; 2026.7.1 only for AGENTS.md (spec §3). */
  safeFor(name: string): boolean {
    return this.family === "2026.9" || (this.family === "2026.7" && isAgentsFile(name));
  }

  admit(f: LoopFile): Admission {
    if (this.stopped || this.remaining <= 0) return this.stop("budget-exhausted");
    if (f.path.trim() === "") {
      this.warnings.push(`skipping bootstrap file "${f.name}" — missing or invalid "path" field`);
      return { kind: "skip", reason: "no-path" };
    }
    if (f.missing) {
      const mode = f.missingMarker ?? defaultMissingMarkerMode(this.family);
      if (mode === "none") return { kind: "skip", reason: "missing-not-injected" };
      const marker: InjectedSegment[] = [{ kind: "missing-marker", text: missingMarkerText(f.path) }];
      const clamped = clampToBudget(marker, this.remaining, this.family === "2026.9");
      if (clamped.segments.length === 0) return this.stop("budget-exhausted");
      return { kind: "missing", marker: clamped, inject: mode === "inject" };
    }
    if (this.remaining < MIN_FILE_BUDGET) {
      this.warnings.push(
        `remaining bootstrap budget is ${this.remaining} chars (<${MIN_FILE_BUDGET}); skipping additional bootstrap files`,
      );
      return this.stop("below-min-budget");
    }
    const limit = effectiveFileLimit(this.family, f.name, this.maxPerFile);
    return { kind: "present", cap: Math.max(1, Math.min(limit, this.remaining)) };
  }

  take(chars: number): void {
    this.remaining = Math.max(0, this.remaining - chars);
  }

  private stop(reason: SkipReason): Admission {
    this.stopped = true;
    return { kind: "skip", reason };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// On content.

/** Simulate OpenClaw's injection of `files` (in the given order) — spec bootstrap.md §3–§5. */
export function simulateBootstrapInjection(opts: {
  family: RuleFamily;
  files: readonly BootstrapFileInput[];
  maxPerFile: number;
  maxTotal: number;
  trim?: TrimRule;
}): InjectionRun {
  const { family, maxPerFile, maxTotal } = opts;
  const budget = new TotalBudget(family, maxPerFile, maxTotal, opts.trim);
  const files = opts.files.map((f) => injectFile(budget, f));
  return {
    family,
    maxPerFile,
    maxTotal,
    totalBudget: Math.max(1, Math.floor(maxTotal)),
    files,
    remainingAfter: budget.remaining,
    warnings: budget.warnings,
  };
}

function injectFile(budget: TotalBudget, f: BootstrapFileInput): FileInjection {
  const missing = f.content === null;
  const source = f.content === null ? "" : f.content.trimEnd();
  const row: FileInjection = {
    name: f.name,
    path: f.path,
    missing,
    rawChars: source.length,
    trailingWhitespaceChars: f.content === null ? 0 : f.content.length - source.length,
    budgetUsed: 0,
    injected: false,
    injectedText: "",
    injectedChars: 0,
    truncated: false,
    fileLimit: effectiveFileLimit(budget.family, f.name, budget.maxPerFile),
    budgetBefore: budget.before,
    trimCap: null,
    trimmedByCap: false,
    clampedByTotal: false,
    skipReason: null,
    headChars: 0,
    tailChars: 0,
    digest: null,
    segments: [],
    dropped: [],
  };
  const admission = budget.admit({ ...f, missing });
  if (admission.kind === "skip") row.skipReason = admission.reason;
  else if (admission.kind === "missing") {
    if (admission.inject) {
      row.segments = admission.marker.segments;
      row.clampedByTotal = admission.marker.clamped;
    }
    row.budgetUsed = joinText(admission.marker.segments).length;
  } else placeContent(budget, row, f.content ?? "", admission.cap);
  row.injectedText = joinText(row.segments);
  row.injectedChars = row.injectedText.length;
  row.injected = row.injectedChars > 0;
  row.truncated = !missing && row.injectedChars < row.rawChars;
  row.dropped = missing ? [] : droppedRanges(source, row.segments);
  if (admission.kind === "present") row.budgetUsed = row.injectedChars;
  budget.take(row.budgetUsed);
  return row;
}

/** Trim a present file to `cap` (§4), then clamp it to the budget left (§3). */
function placeContent(budget: TotalBudget, row: FileInjection, content: string, cap: number): void {
  const trim = trimBootstrapContent(budget.family, row.name, content, cap, budget.trim);
  row.trimCap = cap;
  row.trimmedByCap = trim.truncated;
  row.headChars = trim.headChars;
  row.tailChars = trim.tailChars;
  row.digest = trim.digest;
  const clamped = clampToBudget(trim.segments, budget.remaining, budget.safeFor(row.name));
  if (clamped.segments.length === 0) {
    row.skipReason = "empty-after-clamp";
    return;
  }
  row.segments = clamped.segments;
  row.clampedByTotal = clamped.clamped;
  if (trim.truncated || clamped.clamped) {
    budget.warnings.push(
      `workspace bootstrap file ${row.name} is ${trim.rawChars} chars (limit ${cap}); truncating in injected context`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// On lengths only.

export interface LengthFileInput {
  name: string;
  path: string;
  missing: boolean;
  /** The file's `trimEnd()` length (0 when missing). */
  rawChars: number;
  missingMarker?: MissingMarkerMode;
}

export interface LengthStep {
  /** Total budget left when the loop reached this file (null once it stopped). */
  before: number | null;
  /** Chars injected (a missing file's marker only with "inject"). */
  injected: number;
  /** Chars taken from the budget (a "budget-only" marker too). */
  used: number;
  /** An AGENTS.md rendered with its policy digest: `injected` is the bound asked for, not exact. */
  digest: boolean;
}

/**
 * The loop on lengths: a placeholder text of `rawChars` chars gives each trimmed length exactly (barring a
 * surrogate pair at a 9.x cut point). An AGENTS.md policy digest's size depends on the file's lines:
 * `digest: "empty"` takes the lower bound (no digest lines), `"full"` the upper bound (the whole cap).
 */
export function bootstrapLengths(opts: {
  family: RuleFamily;
  files: readonly LengthFileInput[];
  maxPerFile: number;
  maxTotal: number;
  digest: "empty" | "full";
  trim?: TrimRule;
}): LengthStep[] {
  const budget = new TotalBudget(opts.family, opts.maxPerFile, opts.maxTotal, opts.trim);
  return opts.files.map((f) => {
    const before = budget.before;
    const admission = budget.admit(f);
    let step: LengthStep = { before, injected: 0, used: 0, digest: false };
    if (admission.kind === "missing") {
      const used = joinText(admission.marker.segments).length;
      step = { before, injected: admission.inject ? used : 0, used, digest: false };
    } else if (admission.kind === "present") {
      const digest = trimUsesPolicyDigest(opts.family, f.name, f.rawChars, admission.cap, budget.trim);
      const trimmed =
        digest && opts.digest === "full"
          ? admission.cap
          : trimBootstrapContent(opts.family, f.name, "x".repeat(f.rawChars), admission.cap, budget.trim).text
              .length;
      const injected = Math.min(trimmed, budget.remaining);
      step = { before, injected, used: injected, digest };
    }
    budget.take(step.used);
    return step;
  });
}
