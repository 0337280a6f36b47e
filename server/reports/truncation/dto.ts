// The DTO pieces of the truncation report (shared/truncation.ts): one file row, the budget waterfall, the totals.
// Pure.

import type {
  DisplayCause,
  FileSimulationDTO,
  TruncationCause,
  TruncationFileDTO,
  TruncationTotalsDTO,
  WaterfallStepDTO,
} from "../../../shared/truncation.ts";
import type { BootstrapAnalysis, RowAnalysis } from "../../openclaw/bootstrap/analysis.ts";
import type { FileInjection, MissingMarkerMode } from "../../openclaw/bootstrap/budget-loop.ts";
import {
  effectiveFileLimit,
  isFixedUserCap,
  NEAR_LIMIT_RATIO,
} from "../../openclaw/bootstrap/files-and-limits.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import type { Caps, ReportRow } from "./inputs.ts";
import { hiddenMarkerChars, type RowNumbers } from "./row-numbers.ts";

/** The diff view of one file from its simulation; `matchesReport` only with the report's own caps. */
export function simulationDTO(
  f: FileInjection,
  row: ReportRow | undefined,
  sameAsReport: boolean,
): FileSimulationDTO {
  return {
    rawChars: f.rawChars,
    injectedChars: f.injectedChars,
    truncated: f.truncated,
    trailingWhitespaceChars: f.trailingWhitespaceChars,
    trimCap: f.trimCap,
    headChars: f.headChars,
    tailChars: f.tailChars,
    digest:
      f.digest === null
        ? null
        : {
            chars: f.digest.text.length,
            candidates: f.digest.candidates,
            selected: f.digest.selected,
            omittedLines: f.digest.omittedLines,
            budget: f.digest.budget,
          },
    clampedByTotal: f.clampedByTotal,
    skipReason: f.skipReason,
    segments: f.segments.map((s) => ({ ...s })),
    dropped: f.dropped.map((d) => ({ ...d })),
    matchesReport:
      sameAsReport && row !== undefined
        ? row.rawChars === f.rawChars &&
          row.recordedInjectedChars === f.injectedChars &&
          row.missing === f.missing
        : null,
  };
}

/** A 2026.9.x USER.md cut by its fixed 4,000 cap reads "user-md-fixed-cap" instead of "per-file-limit". */
function displayCauses(caps: Caps, name: string, causes: readonly TruncationCause[]): DisplayCause[] {
  const fixed = isFixedUserCap(caps.family, name, caps.maxPerFile);
  return causes.map((c) => (c === "per-file-limit" && fixed ? "user-md-fixed-cap" : c));
}

/**
 * The budget waterfall: the total-budget loop in injection order. In "recomputed" mode the simulation's own
 * budget use; otherwise the numbers shown plus, for missing files, the marker that 2026.7/2026.9 charge to the
 * budget without injecting it (spec bootstrap.md §5).
 */
export function waterfallSteps(
  rows: readonly ReportRow[],
  numbers: readonly RowNumbers[],
  markerModes: readonly MissingMarkerMode[],
  caps: Caps,
  recomputed: boolean,
): WaterfallStepDTO[] {
  let avail = Math.max(1, Math.floor(caps.maxTotal));
  return rows.map((r, i) => {
    const n = numbers[i];
    const m = n?.missing ?? r.missing;
    const inj = n?.injectedChars ?? n?.budgetUsed ?? 0;
    let before = avail;
    let used = inj;
    if (recomputed) {
      before = n?.budgetBefore ?? avail;
      used = n?.budgetUsed ?? 0;
    } else if (m && markerModes[i] === "budget-only") {
      used = hiddenMarkerChars(r.path, avail);
    }
    const fileLimit = effectiveFileLimit(caps.family, r.name, caps.maxPerFile);
    avail = Math.max(0, before - used);
    return {
      name: r.name,
      before,
      used,
      after: avail,
      hiddenMarker: m && used > 0 && (n?.injectedChars ?? 0) === 0,
      totalCapBit: !m && before < fileLimit && (n?.rawChars ?? 0) > before,
      shareOfTotal: caps.maxTotal > 0 ? used / caps.maxTotal : 0,
    };
  });
}

/** Whether a row is truncated: the report's flag, else from its numbers (unknown when its length is). */
function truncatedOf(row: ReportRow, n: RowNumbers, recorded: boolean): boolean | null {
  if (recorded) return row.truncated;
  if (n.injectedChars === null) return n.upperBound !== null && n.upperBound < n.rawChars ? true : null;
  return !n.missing && n.injectedChars < n.rawChars;
}

export interface FileRowParts {
  row: ReportRow;
  numbers: RowNumbers;
  analysis: RowAnalysis | undefined;
  /** The report's own row for this file, if any. */
  recordedRow: ReportRow | undefined;
  /** Current content (undefined: not read). */
  content: string | null | undefined;
  readPath: string | null;
  readable: boolean;
  simulation: FileSimulationDTO | null;
}

export function fileDTO(p: FileRowParts, caps: Caps, recordedMode: boolean): TruncationFileDTO {
  const { row: r, numbers: n, recordedRow: rec } = p;
  const inj = n.injectedChars;
  const truncated = truncatedOf(r, n, recordedMode);
  const causes = p.analysis?.causes ?? [];
  const removed = inj === null ? null : n.missing ? 0 : Math.max(0, n.rawChars - inj);
  const fileLimit = effectiveFileLimit(caps.family, r.name, caps.maxPerFile);
  const curRaw = p.readable && typeof p.content === "string" ? p.content.trimEnd().length : null;
  return {
    name: r.name,
    path: r.path,
    missing: n.missing,
    rawChars: n.rawChars,
    injectedChars: inj,
    truncated,
    causes,
    nearLimit: p.analysis?.nearLimit ?? false,
    status: n.missing ? "MISSING" : truncated ? "TRUNCATED" : "OK",
    removedChars: removed,
    removedPct: removed === null || n.rawChars === 0 ? null : Math.round((removed / n.rawChars) * 1000) / 10,
    estimatedTokens: {
      raw: tokensFromChars(n.rawChars),
      injected: inj === null ? null : tokensFromChars(inj),
    },
    fileLimit,
    fixedUserCap: isFixedUserCap(caps.family, r.name, caps.maxPerFile),
    nearLimitAt: Math.ceil(fileLimit * NEAR_LIMIT_RATIO),
    displayCauses: displayCauses(caps, r.name, causes),
    nativeUnverified: r.nativeUnverified === true,
    exact: n.exact,
    note: n.note,
    recorded: rec
      ? {
          missing: rec.missing,
          rawChars: rec.rawChars,
          injectedChars: rec.recordedInjectedChars,
          truncated: rec.truncated,
        }
      : null,
    current: {
      readPath: p.readPath,
      readable: p.readable && typeof p.content === "string",
      rawChars: curRaw,
      changedSinceReport:
        !p.readable || !rec ? null : rec.missing ? curRaw !== null : curRaw !== rec.rawChars,
    },
    simulation: p.simulation,
  };
}

export function totalsDTO(
  files: readonly TruncationFileDTO[],
  analysis: BootstrapAnalysis,
  waterfall: readonly WaterfallStepDTO[],
  caps: Caps,
): TruncationTotalsDTO {
  const counted = files.filter((f) => !f.nativeUnverified);
  const unknown = counted.some((f) => !f.missing && f.injectedChars === null);
  // Σ rows: a missing file's injected [MISSING] marker counts (bootstrap.md §5), so the total is what the prompt
  // holds and maxTotal − injectedChars − hiddenMarkerChars = budgetRemaining.
  const injected = unknown ? null : counted.reduce((s, f) => s + (f.injectedChars ?? 0), 0);
  const hidden = waterfall.reduce((s, w) => s + (w.hiddenMarker ? w.used : 0), 0);
  const last = waterfall[waterfall.length - 1];
  return {
    rawChars: analysis.totalRawChars,
    injectedChars: injected,
    hiddenMarkerChars: hidden,
    maxPerFile: caps.maxPerFile,
    maxTotal: caps.maxTotal,
    shareOfTotal: injected === null ? null : injected / caps.maxTotal,
    totalNearLimitAt: Math.ceil(caps.maxTotal * NEAR_LIMIT_RATIO),
    totalNearLimit: unknown ? null : analysis.totalNearLimit,
    truncatedFiles: files.filter((f) => f.truncated === true).length,
    nearLimitFiles: analysis.nearLimitFiles,
    overPerFileLimit: files.filter((f) => !f.missing && f.rawChars > f.fileLimit).length,
    budgetRemaining: unknown ? null : last ? last.after : Math.max(1, Math.floor(caps.maxTotal)),
  };
}
