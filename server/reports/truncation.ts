// Bootstrap-truncation report: the per-file table, budget waterfall and what-if recomputation
// for a session's systemPromptReport. Pure: the caller reads the workspace files
// (server/sources/workspace-files.ts) and passes their content in.

import { fmtInt } from "../../shared/format.ts";
import type { JsonObject, JsonValue } from "../../shared/json.ts";
import type {
  DisplayCause,
  FileSimulationDTO,
  TruncationCause,
  TruncationFamily,
  TruncationFileDTO,
  TruncationMode,
  TruncationReportDTO,
  WaterfallStepDTO,
  WorkspaceChangeDTO,
} from "../../shared/truncation.ts";
import {
  type BootstrapFileRow,
  readSystemPromptReport,
  type SystemPromptReport,
} from "../model/system-prompt-report.ts";
import { analyzeBootstrapRows } from "../openclaw/bootstrap/analysis.ts";
import {
  type BootstrapFileInput,
  defaultMissingMarkerMode,
  type FileInjection,
  type InjectionRun,
  type MissingMarkerMode,
  simulateBootstrapInjection,
} from "../openclaw/bootstrap/budget-loop.ts";
import {
  bootstrapFileNames,
  DEFAULT_LIMITS,
  effectiveFileLimit,
  isFixedUserCap,
  isOptionalBootstrapFile,
  MIN_FILE_BUDGET,
  NEAR_LIMIT_RATIO,
} from "../openclaw/bootstrap/files-and-limits.ts";
import { trimBootstrapContent } from "../openclaw/bootstrap/trim.ts";
import { promptWarningSignature } from "../openclaw/bootstrap/warning-signature.ts";
import { tokensFromChars } from "../openclaw/token-estimate.ts";

export interface TruncationReportInput {
  /** SessionEntry.systemPromptReport (stored object). */
  report: JsonObject;
  /** Rule family of the session (VersionInfo.family). */
  family: TruncationFamily;
  workspace: {
    /** Workspace directory the files were read from; null = unavailable (nothing readable). */
    dir: string | null;
    /** Content by file name as read by the caller; null = missing or unreadable. */
    files: Map<string, string | null>;
    /** Actual path read per file name (optional; shown in the table). */
    readPaths?: Map<string, string>;
    /** Recorded → actual path rebasings done to read the files (storage.md §7). */
    rebasedPaths?: { recorded: string; actual: string }[];
  };
  overrides?: { maxPerFile?: number; maxTotal?: number; family?: TruncationFamily };
}

/** A report row of injectedWorkspaceFiles, with the injectedChars OpenClaw recorded. */
interface ReportRow extends BootstrapFileRow {
  recordedInjectedChars: number;
}

/** OpenClaw counts a limit only if it is a finite number > 0, floored — spec bootstrap.md §2. */
function positiveInt(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) && v > 0 ? Math.floor(v) : null;
}

function numberOrUndefined(v: JsonValue | undefined): number | undefined {
  return typeof v === "number" ? v : undefined;
}

function parseRows(report: SystemPromptReport): ReportRow[] {
  return report.files.map((f) => ({ ...f, recordedInjectedChars: f.injectedChars }));
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

const MISSING_PREFIX = "[MISSING] Expected at: ";

// --- lengths from the report's numbers only (workspace not readable) ------------------------------

interface LengthResult {
  injected: number;
  used: number;
  before: number | null;
}

/**
 * Mirror of the total-budget loop on lengths only. Every trim except the AGENTS.md policy digest
 * (2026.7/2026.9) depends only on the length, so a placeholder text of `rawChars` chars gives the
 * exact length (barring a surrogate pair at a 9.x cut point). For AGENTS.md the digest's size is
 * unknown: `agents` picks the lower bound (empty digest) or the upper bound (the whole cap).
 */
function lengthLoop(
  family: TruncationFamily,
  rows: readonly ReportRow[],
  modes: readonly MissingMarkerMode[],
  maxPerFile: number,
  maxTotal: number,
  agents: "low" | "high",
): LengthResult[] {
  let remaining = Math.max(1, Math.floor(maxTotal));
  let stopped = false;
  return rows.map((r, i) => {
    if (stopped || remaining <= 0) {
      stopped = true;
      return { injected: 0, used: 0, before: null };
    }
    const before = remaining;
    if (r.missing) {
      const mode = modes[i] ?? defaultMissingMarkerMode(family);
      if (mode === "none") return { injected: 0, used: 0, before };
      const used = Math.min(MISSING_PREFIX.length + r.path.length, remaining);
      remaining -= used;
      return { injected: mode === "inject" ? used : 0, used, before };
    }
    if (remaining < MIN_FILE_BUDGET) {
      stopped = true;
      return { injected: 0, used: 0, before };
    }
    const cap = Math.max(1, Math.min(effectiveFileLimit(family, r.name, maxPerFile), remaining));
    let len = trimBootstrapContent(family, r.name, "x".repeat(r.rawChars), cap).text.length;
    if (agents === "high" && needsDigest(family, r.name, r.rawChars, cap)) len = cap;
    const injected = Math.min(len, remaining);
    remaining -= injected;
    return { injected, used: injected, before };
  });
}

function needsDigest(family: TruncationFamily, name: string, rawChars: number, cap: number): boolean {
  return family !== "2026.3" && name.toLowerCase() === "agents.md" && rawChars > cap;
}

// --- DTO pieces ---------------------------------------------------------------------------------

function simulationDTO(
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

function displayCauses(
  family: TruncationFamily,
  name: string,
  maxPerFile: number,
  causes: readonly TruncationCause[],
): DisplayCause[] {
  const fixed = isFixedUserCap(family, name, maxPerFile);
  return causes.map((c) => (c === "per-file-limit" && fixed ? "user-md-fixed-cap" : c));
}

/** Build the truncation report — see shared/truncation.ts for every field. */
export function buildTruncationReport(input: TruncationReportInput): TruncationReportDTO {
  const { workspace } = input;
  const report = readSystemPromptReport(input.report);
  const recordedFamily = input.family;
  const recordedRows = parseRows(report);
  const recMax = positiveInt(numberOrUndefined(report.bootstrapMaxChars));
  const recTotal = positiveInt(numberOrUndefined(report.bootstrapTotalMaxChars));
  const recMaxUsed = recMax ?? DEFAULT_LIMITS[recordedFamily].maxPerFile;
  const recTotalUsed = recTotal ?? DEFAULT_LIMITS[recordedFamily].maxTotal;

  const family = input.overrides?.family ?? recordedFamily;
  const maxPerFile = positiveInt(input.overrides?.maxPerFile) ?? recMaxUsed;
  const maxTotal = positiveInt(input.overrides?.maxTotal) ?? recTotalUsed;
  const whatIf = family !== recordedFamily || maxPerFile !== recMaxUsed || maxTotal !== recTotalUsed;
  const readable = workspace.dir !== null;
  const warnings: string[] = [];
  for (const [key, v] of [
    ["max-per-file", input.overrides?.maxPerFile],
    ["max-total", input.overrides?.maxTotal],
  ] as const) {
    if (v !== undefined && positiveInt(v) === null) {
      warnings.push(
        `Ignored --${key} ${v}: OpenClaw only accepts a finite number > 0 (the report's value is used).`,
      );
    }
  }
  const notes: string[] = [];
  const workspaceDir = report.workspaceDir;
  // A second file with the same name (9.x: the AGENTS.md of a session run from another folder) is
  // keyed by its recorded path; every other file by its name.
  const contentOf = (r: { name: string; path: string }): string | null | undefined =>
    workspace.files.has(r.path) ? workspace.files.get(r.path) : workspace.files.get(r.name);

  // The file list: the report's rows (what OpenClaw considered), or the target family's list when
  // the family changes or the report lists nothing — spec bootstrap.md §1.
  let rows: ReportRow[] = recordedRows;
  if (family !== recordedFamily || recordedRows.length === 0) {
    const base = workspaceDir ?? workspace.dir ?? "";
    rows = [];
    for (const name of bootstrapFileNames(family)) {
      const content = workspace.files.get(name);
      const present = typeof content === "string";
      if (isOptionalBootstrapFile(name) && !present) continue;
      const rec = recordedRows.find((r) => r.name === name);
      rows.push(
        rec ?? {
          name,
          path: base ? joinPath(base, name) : name,
          missing: !present,
          rawChars: 0,
          injectedChars: 0,
          recordedInjectedChars: 0,
          truncated: false,
          nativeUnverified: false,
        },
      );
    }
    if (recordedRows.length > 0)
      notes.push(`File list of OpenClaw ${family} used instead of the report's rows.`);
  }
  // First row per name (a later same-name row is matched by identity below).
  const rowByName = new Map<string, ReportRow>();
  for (const r of recordedRows) if (!rowByName.has(r.name)) rowByName.set(r.name, r);
  // A missing file whose marker the report counted (injectedChars > 0, 2026.3-era data) keeps
  // "inject"; otherwise the family default (spec bootstrap.md §5).
  const modes: MissingMarkerMode[] = rows.map((r) =>
    r.missing && r.recordedInjectedChars > 0 ? "inject" : defaultMissingMarkerMode(family),
  );

  // Simulations on current content.
  let simulate = (_mf: number, _mt: number, _fam: TruncationFamily): InjectionRun | null => null;
  if (readable) {
    simulate = (mf, mt, fam) =>
      simulateBootstrapInjection({
        family: fam,
        maxPerFile: mf,
        maxTotal: mt,
        files: rows.map(
          (r, i): BootstrapFileInput => ({
            name: r.name,
            path: r.path,
            content: contentOf(r) ?? null,
            missingMarker: modes[i] ?? defaultMissingMarkerMode(fam),
          }),
        ),
      });
  }
  const sim = simulate(maxPerFile, maxTotal, family);

  let mode: TruncationMode = "recorded";
  if (whatIf) mode = sim ? "recomputed" : "from-numbers";

  // Numbers per row for the chosen mode.
  const injected: (number | null)[] = [];
  const raw: number[] = [];
  const missing: boolean[] = [];
  const exact: boolean[] = [];
  const rowNotes: (string | null)[] = [];
  const budgetUsed: number[] = [];
  const budgetBefore: (number | null)[] = [];
  /** Upper bound of an unknown injectedChars (from-numbers mode). */
  const upperBound: (number | null)[] = [];
  if (mode === "recomputed" && sim) {
    for (const f of sim.files) {
      injected.push(f.injectedChars);
      raw.push(f.rawChars);
      missing.push(f.missing);
      exact.push(true);
      rowNotes.push(null);
      budgetUsed.push(f.budgetUsed);
      budgetBefore.push(f.budgetBefore);
    }
  } else {
    const fam = mode === "recorded" ? recordedFamily : family;
    const mf = mode === "recorded" ? recMaxUsed : maxPerFile;
    const mt = mode === "recorded" ? recTotalUsed : maxTotal;
    const low = lengthLoop(fam, rows, modes, mf, mt, "low");
    const high = lengthLoop(fam, rows, modes, mf, mt, "high");
    rows.forEach((r, i) => {
      const lo = low[i];
      const hi = high[i];
      raw.push(r.rawChars);
      missing.push(r.missing);
      if (mode === "recorded") {
        injected.push(r.injectedChars);
        exact.push(true);
        rowNotes.push(null);
        budgetUsed.push(r.injectedChars);
      } else {
        const same = lo !== undefined && hi !== undefined && lo.injected === hi.injected;
        injected.push(same ? (lo?.injected ?? 0) : null);
        upperBound.push(same ? null : Math.max(lo?.injected ?? 0, hi?.injected ?? 0));
        exact.push(same);
        budgetUsed.push(same ? (lo?.used ?? 0) : (hi?.used ?? 0));
        rowNotes.push(
          same
            ? null
            : `between ${fmtInt(Math.min(lo?.injected ?? 0, hi?.injected ?? 0))} and ${fmtInt(Math.max(lo?.injected ?? 0, hi?.injected ?? 0))} chars: ` +
                (needsDigest(
                  family,
                  r.name,
                  r.rawChars,
                  Math.min(effectiveFileLimit(family, r.name, maxPerFile), lo?.before ?? maxTotal),
                )
                  ? "the AGENTS.md policy digest depends on the file's lines"
                  : "depends on how much budget AGENTS.md's policy digest leaves"),
        );
      }
      budgetBefore.push(mode === "recorded" ? null : (lo?.before ?? null));
    });
    if (mode === "from-numbers") {
      notes.push(
        "Workspace files are not readable: injected sizes are derived from the report's rawChars. They are exact for " +
          "every file except where the AGENTS.md policy digest matters (its size depends on the file's lines); the " +
          "dropped text and the injected text cannot be shown.",
      );
    }
  }

  // Analysis (causes, near-limit) with the family and caps of the numbers shown.
  const aFamily = mode === "recorded" ? recordedFamily : family;
  const aMax = mode === "recorded" ? recMaxUsed : maxPerFile;
  const aTotal = mode === "recorded" ? recTotalUsed : maxTotal;
  const analysisRows: BootstrapFileRow[] = rows.map((r, i) => {
    const inj = injected[i] ?? budgetUsed[i] ?? 0;
    const m = missing[i] ?? r.missing;
    const rw = raw[i] ?? 0;
    return {
      name: r.name,
      path: r.path,
      missing: m,
      rawChars: rw,
      injectedChars: inj,
      truncated: mode === "recorded" ? r.truncated : !m && inj < rw,
      nativeUnverified: r.nativeUnverified === true,
    };
  });
  const analysis = analyzeBootstrapRows(aFamily, analysisRows, aMax, aTotal);

  // Diff view: simulation with the caps of the numbers shown (the report's in "recorded" mode).
  const diffRun = mode === "recorded" ? simulate(recMaxUsed, recTotalUsed, recordedFamily) : sim;

  // Workspace changes since the report (sizes only: the report stores no per-file hashes).
  const changes: WorkspaceChangeDTO[] = [];
  if (readable) {
    for (const r of recordedRows) {
      const content = contentOf(r);
      const cur = typeof content === "string" ? content.trimEnd().length : null;
      if (r.missing && cur !== null) {
        changes.push({ name: r.name, kind: "appeared", recordedRawChars: 0, currentRawChars: cur });
      } else if (!r.missing && cur === null) {
        changes.push({
          name: r.name,
          kind: "disappeared",
          recordedRawChars: r.rawChars,
          currentRawChars: null,
        });
      } else if (!r.missing && cur !== null && cur !== r.rawChars) {
        changes.push({ name: r.name, kind: "size", recordedRawChars: r.rawChars, currentRawChars: cur });
      }
    }
    if (changes.length > 0) {
      warnings.push(
        `Workspace files changed since the report was generated: ${changes
          .map((c) =>
            c.kind === "size"
              ? `${c.name} ${fmtInt(c.recordedRawChars)} → ${fmtInt(c.currentRawChars ?? 0)} chars`
              : `${c.name} ${c.kind}`,
          )
          .join(
            ", ",
          )}. Compared by size (rawChars = trimEnd() length) only — the report stores no per-file hashes, ` +
          "so an edit that keeps the size is not detected.",
      );
    }
    if (family === recordedFamily && recordedRows.length > 0) {
      for (const name of bootstrapFileNames(family)) {
        if (
          isOptionalBootstrapFile(name) &&
          typeof workspace.files.get(name) === "string" &&
          !rowByName.has(name)
        ) {
          warnings.push(
            `${name} exists now but is not in the report; OpenClaw would inject it on the next run.`,
          );
        }
      }
    }
  } else if (mode !== "from-numbers") {
    notes.push(
      "Workspace not readable: current sizes, changes since the report and the dropped text cannot be shown.",
    );
  }
  if (
    family === "2026.9" &&
    (recordedFamily !== "2026.9" || typeof workspace.files.get("TOOLS.md") === "string")
  ) {
    notes.push(
      "2026.9.x retired TOOLS.md and HEARTBEAT.md as bootstrap files: they are not injected even when present " +
        '(openclaw doctor migrates TOOLS.md into an AGENTS.md "## Tools" section).',
    );
  }

  // Waterfall: the total-budget loop in injection order. In "recomputed" mode the simulation's own
  // budget use; otherwise the numbers shown plus, for missing files, the marker that 2026.7/2026.9
  // charge to the budget without injecting it (spec bootstrap.md §5).
  const waterfall: WaterfallStepDTO[] = [];
  let avail = Math.max(1, Math.floor(aTotal));
  rows.forEach((r, i) => {
    const m = missing[i] ?? r.missing;
    const inj = injected[i] ?? budgetUsed[i] ?? 0;
    let before = avail;
    let used = inj;
    if (mode === "recomputed") {
      before = budgetBefore[i] ?? avail;
      used = budgetUsed[i] ?? 0;
    } else if (m) {
      const markerMode = modes[i] ?? defaultMissingMarkerMode(aFamily);
      used = markerMode === "budget-only" ? Math.min(MISSING_PREFIX.length + r.path.length, avail) : inj;
    }
    const fileLimit = effectiveFileLimit(aFamily, r.name, aMax);
    waterfall.push({
      name: r.name,
      before,
      used,
      after: Math.max(0, before - used),
      hiddenMarker: m && used > 0 && (injected[i] ?? 0) === 0,
      totalCapBit: !m && before < fileLimit && (raw[i] ?? 0) > before,
      shareOfTotal: aTotal > 0 ? used / aTotal : 0,
    });
    avail = Math.max(0, before - used);
  });

  const files: TruncationFileDTO[] = rows.map((r, i) => {
    const a = analysis.rows[i];
    const m = missing[i] ?? r.missing;
    const rw = raw[i] ?? 0;
    const inj = injected[i] ?? null;
    const fileLimit = effectiveFileLimit(aFamily, r.name, aMax);
    const bound = upperBound[i] ?? null;
    let truncated: boolean | null = !m && inj !== null && inj < rw;
    if (mode === "recorded") truncated = r.truncated;
    else if (inj === null) truncated = bound !== null && bound < rw ? true : null;
    const causes = a?.causes ?? [];
    const removed = inj === null ? null : m ? 0 : Math.max(0, rw - inj);
    const content = contentOf(r);
    const curRaw = readable && typeof content === "string" ? content.trimEnd().length : null;
    const rec = recordedRows.includes(r) ? r : rowByName.get(r.name);
    const simFile = diffRun?.files[i];
    return {
      name: r.name,
      path: r.path,
      missing: m,
      rawChars: rw,
      injectedChars: inj,
      truncated,
      causes,
      nearLimit: a?.nearLimit ?? false,
      status: m ? "MISSING" : truncated ? "TRUNCATED" : "OK",
      removedChars: removed,
      removedPct: removed === null || rw === 0 ? null : Math.round((removed / rw) * 1000) / 10,
      estimatedTokens: { raw: tokensFromChars(rw), injected: inj === null ? null : tokensFromChars(inj) },
      fileLimit,
      fixedUserCap: isFixedUserCap(aFamily, r.name, aMax),
      nearLimitAt: Math.ceil(fileLimit * NEAR_LIMIT_RATIO),
      displayCauses: displayCauses(aFamily, r.name, aMax, causes),
      nativeUnverified: r.nativeUnverified === true,
      exact: exact[i] ?? true,
      note: rowNotes[i] ?? null,
      recorded: rec
        ? {
            missing: rec.missing,
            rawChars: rec.rawChars,
            injectedChars: rec.recordedInjectedChars,
            truncated: rec.truncated,
          }
        : null,
      current: {
        readPath: readable
          ? (workspace.readPaths?.get(r.name) ?? (workspace.dir ? joinPath(workspace.dir, r.name) : null))
          : null,
        readable: readable && typeof content === "string",
        rawChars: curRaw,
        changedSinceReport:
          !readable || !rec ? null : rec.missing ? curRaw !== null : curRaw !== rec.rawChars,
      },
      simulation: simFile ? simulationDTO(simFile, rec, !whatIf) : null,
    };
  });

  const unknown = files.some((f) => !f.missing && !f.nativeUnverified && f.injectedChars === null);
  const totalInjected = unknown ? null : analysis.totalInjectedChars;
  const lastStep = waterfall[waterfall.length - 1];
  const signature = unknown
    ? null
    : (promptWarningSignature(
        analysisRows,
        analysis.rows.map((x) => x.causes),
        aMax,
        aTotal,
      ) ?? null);
  const bt = report.bootstrapTruncation;

  return {
    maxPerFile: aMax,
    maxTotal: aTotal,
    files,
    totals: {
      rawChars: analysis.totalRawChars,
      injectedChars: totalInjected,
      maxPerFile: aMax,
      maxTotal: aTotal,
      shareOfTotal: totalInjected === null ? null : totalInjected / aTotal,
      totalNearLimitAt: Math.ceil(aTotal * NEAR_LIMIT_RATIO),
      totalNearLimit: totalInjected === null ? null : analysis.totalNearLimit,
      truncatedFiles: files.filter((f) => f.truncated === true).length,
      nearLimitFiles: analysis.nearLimitFiles,
      overPerFileLimit: files.filter((f) => !f.missing && f.rawChars > f.fileLimit).length,
      budgetRemaining: unknown ? null : lastStep ? lastStep.after : Math.max(1, Math.floor(aTotal)),
    },
    mode,
    family: aFamily,
    recorded: {
      family: recordedFamily,
      maxPerFile: recMax,
      maxTotal: recTotal,
      maxPerFileUsed: recMaxUsed,
      maxTotalUsed: recTotalUsed,
      generatedAt: report.generatedAt,
      workspaceDir,
      truncatedFiles: bt?.truncatedFiles ?? null,
      nearLimitFiles: bt?.nearLimitFiles ?? null,
      totalNearLimit: bt?.totalNearLimit ?? null,
      promptWarningSignature: bt?.promptWarningSignature ?? null,
    },
    whatIf,
    workspace: { dir: workspace.dir, readable, rebasedPaths: workspace.rebasedPaths ?? [] },
    waterfall,
    changes,
    signature,
    warnings,
    notes,
  };
}
