// The numbers of each file row in the report's mode (shared/truncation.ts TruncationMode): "recorded" — the stored
// report's; "recomputed" — OpenClaw's loop re-run on the current files; "from-numbers" — the loop re-run on the
// report's lengths (workspace not readable), exact except where an AGENTS.md policy digest decides. One object per
// row. Pure.

import { fmtInt } from "../../../shared/format.ts";
import type { TruncationMode } from "../../../shared/truncation.ts";
import {
  bootstrapLengths,
  type InjectionRun,
  type LengthStep,
  type MissingMarkerMode,
  missingMarkerText,
} from "../../openclaw/bootstrap/budget-loop.ts";
import type { Caps, ReportRow } from "./inputs.ts";

export interface RowNumbers {
  missing: boolean;
  rawChars: number;
  /** null: unknown without the file's text (from-numbers). */
  injectedChars: number | null;
  /** The largest injectedChars possible when it is unknown. */
  upperBound: number | null;
  /** False when the number was derived without the file's text and may differ. */
  exact: boolean;
  note: string | null;
  /** Chars taken from the total budget (a missing file's marker too). */
  budgetUsed: number;
  /** Total budget left when the loop reached the file; null once it stopped, or not known (recorded). */
  budgetBefore: number | null;
}

/** The report's own numbers. */
export function recordedNumbers(rows: readonly ReportRow[]): RowNumbers[] {
  return rows.map((r) => ({
    missing: r.missing,
    rawChars: r.rawChars,
    injectedChars: r.injectedChars,
    upperBound: null,
    exact: true,
    note: null,
    budgetUsed: r.injectedChars,
    budgetBefore: null,
  }));
}

/** The simulation's numbers (one file per row, same order). */
export function recomputedNumbers(run: InjectionRun): RowNumbers[] {
  return run.files.map((f) => ({
    missing: f.missing,
    rawChars: f.rawChars,
    injectedChars: f.injectedChars,
    upperBound: null,
    exact: true,
    note: null,
    budgetUsed: f.budgetUsed,
    budgetBefore: f.budgetBefore,
  }));
}

/** The loop on the report's lengths, twice: with an empty and with a full AGENTS.md policy digest. */
export function fromNumbers(
  rows: readonly ReportRow[],
  markerModes: readonly MissingMarkerMode[],
  caps: Caps,
): RowNumbers[] {
  const files = rows.map((r, i) => ({ ...r, missingMarker: markerModes[i] }));
  const run = (digest: "empty" | "full") => bootstrapLengths({ ...caps, files, digest });
  const low = run("empty");
  const high = run("full");
  return rows.map((r, i) => {
    const lo = low[i] ?? ZERO_STEP;
    const hi = high[i] ?? ZERO_STEP;
    const same = lo.injected === hi.injected;
    return {
      missing: r.missing,
      rawChars: r.rawChars,
      injectedChars: same ? lo.injected : null,
      upperBound: same ? null : Math.max(lo.injected, hi.injected),
      exact: same,
      note: same ? null : boundsNote(lo, hi),
      budgetUsed: same ? lo.used : hi.used,
      budgetBefore: lo.before,
    };
  });
}

const ZERO_STEP: LengthStep = { before: null, injected: 0, used: 0, digest: false };

function boundsNote(lo: LengthStep, hi: LengthStep): string {
  const range = `between ${fmtInt(Math.min(lo.injected, hi.injected))} and ${fmtInt(Math.max(lo.injected, hi.injected))} chars: `;
  return (
    range +
    (lo.digest
      ? "the AGENTS.md policy digest depends on the file's lines"
      : "depends on how much budget AGENTS.md's policy digest leaves")
  );
}

/** The numbers of the chosen mode. */
export function rowNumbers(
  mode: TruncationMode,
  rows: readonly ReportRow[],
  markerModes: readonly MissingMarkerMode[],
  caps: Caps,
  run: InjectionRun | null,
): RowNumbers[] {
  if (mode === "recomputed" && run) return recomputedNumbers(run);
  if (mode === "from-numbers") return fromNumbers(rows, markerModes, caps);
  return recordedNumbers(rows);
}

/** Chars a missing file's marker takes from `avail` without being injected ("budget-only", spec §5). */
export function hiddenMarkerChars(path: string, avail: number): number {
  return Math.min(missingMarkerText(path).length, avail);
}
