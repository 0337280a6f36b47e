// The bootstrap-truncation report: the per-file table, the budget waterfall and the what-if recomputation for a
// session's systemPromptReport (shared/truncation.ts has every field). Composes the bootstrap rules of
// openclaw/bootstrap/ over the decoded report. Pure: the caller reads the workspace files
// (server/sources/workspace-files.ts) and passes their content in.

import { fmtInt } from "../../../shared/format.ts";
import type {
  TruncationFileDTO,
  TruncationMode,
  TruncationReportDTO,
  WorkspaceChangeDTO,
} from "../../../shared/truncation.ts";
import { readSystemPromptReport, type SystemPromptReport } from "../../model/system-prompt-report.ts";
import { analyzeBootstrapRows, type BootstrapAnalysis } from "../../openclaw/bootstrap/analysis.ts";
import {
  type BootstrapFileInput,
  type InjectionRun,
  type MissingMarkerMode,
  simulateBootstrapInjection,
} from "../../openclaw/bootstrap/budget-loop.ts";
import { totalCapNote } from "../../openclaw/bootstrap/release-defaults.ts";
import { promptWarningSignature } from "../../openclaw/bootstrap/warning-signature.ts";
import { reportOwner } from "../report-owner.ts";
import { fileDTO, simulationDTO, totalsDTO, waterfallSteps } from "./dto.ts";
import {
  type Caps,
  type CapsInEffect,
  capsInEffect,
  fileRows,
  markerModeOf,
  type ReportRow,
  type TruncationReportInput,
} from "./inputs.ts";
import { type RowNumbers, rowNumbers } from "./row-numbers.ts";
import { changesWarning, newOptionalFileWarnings, workspaceChanges } from "./workspace-changes.ts";

export type { TruncationReportInput } from "./inputs.ts";

const FROM_NUMBERS_NOTE =
  "Workspace files are not readable: injected sizes are derived from the report's rawChars. They are exact for " +
  "every file except where the AGENTS.md policy digest matters (its size depends on the file's lines); the " +
  "dropped text and the injected text cannot be shown.";
const UNREADABLE_NOTE =
  "Workspace not readable: current sizes, changes since the report and the dropped text cannot be shown.";
const TOOLS_RETIRED_NOTE =
  "2026.9.x retired TOOLS.md and HEARTBEAT.md as bootstrap files: they are not injected even when present " +
  '(openclaw doctor migrates TOOLS.md into an AGENTS.md "## Tools" section).';

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** Everything the report is built from: the decoded report, the file rows, the caps and the numbers shown. */
interface Plan {
  input: TruncationReportInput;
  /** False: the session has no stored report (`report` is then an empty decode). */
  stored: boolean;
  report: SystemPromptReport;
  recordedRows: ReportRow[];
  caps: CapsInEffect;
  rows: ReportRow[];
  markerModes: MissingMarkerMode[];
  readable: boolean;
  mode: TruncationMode;
  /** The caps and family of the numbers shown (the report's in "recorded" mode). */
  shown: Caps;
  numbers: RowNumbers[];
  /** Simulation on the current files with the caps shown, null when the workspace is not readable. */
  diffRun: InjectionRun | null;
  contentOf: (r: ReportRow) => string | null | undefined;
  warnings: string[];
  notes: string[];
}

function plan(input: TruncationReportInput): Plan {
  const { workspace } = input;
  const stored = input.report !== null;
  const report = readSystemPromptReport(input.report ?? {});
  const recordedRows: ReportRow[] = report.files.map((f) => ({
    ...f,
    recordedInjectedChars: f.injectedChars,
  }));
  const caps = capsInEffect(report, input);
  const { recorded, target } = caps;
  const readable = workspace.dir !== null;
  // A second file with the same name (9.x: the AGENTS.md of a session run from another folder) is keyed by its
  // recorded path; every other file by its name.
  const contentOf = (r: ReportRow): string | null | undefined =>
    workspace.files.has(r.path) ? workspace.files.get(r.path) : workspace.files.get(r.name);
  // Without a report and without a workspace there is no file to show: listing the family's files would call
  // each one MISSING without having looked.
  const list =
    stored || readable
      ? fileRows(
          recordedRows,
          target.family,
          recorded.family,
          report.workspaceDir ?? workspace.dir,
          workspace.files,
          input.session,
        )
      : { rows: [], note: null };
  const rows = list.rows;
  const markerModes = rows.map((r) => markerModeOf(r, target.family));
  const simulate = (c: Caps): InjectionRun | null =>
    readable
      ? simulateBootstrapInjection({ ...c, files: simulationFiles(rows, markerModes, contentOf) })
      : null;
  const run = simulate(target);
  let mode: TruncationMode = "recorded";
  if (!stored) mode = run ? "recomputed" : "recorded";
  else if (caps.whatIf) mode = run ? "recomputed" : "from-numbers";
  const notes = list.note ? [list.note] : [];
  if (!stored) notes.push(noReportNote(input, target));
  if (mode === "from-numbers") notes.push(FROM_NUMBERS_NOTE);
  return {
    input,
    stored,
    report,
    recordedRows,
    caps,
    rows,
    markerModes,
    readable,
    mode,
    shown: mode === "recorded" ? recorded : target,
    numbers: rowNumbers(mode, rows, markerModes, target, run),
    diffRun: mode === "recorded" ? simulate(recorded) : run,
    contentOf,
    warnings: [...caps.warnings],
    notes,
  };
}

/** Warnings and notes about the current workspace: changes since the report, new memory files, unreadable dir. */
function noteWorkspace(p: Plan): WorkspaceChangeDTO[] {
  const { recorded, target } = p.caps;
  const files = p.input.workspace.files;
  const changes = p.readable ? workspaceChanges(p.recordedRows, p.contentOf) : [];
  if (p.readable) {
    const changed = changesWarning(changes);
    if (changed) p.warnings.push(changed);
    if (target.family === recorded.family && p.recordedRows.length > 0) {
      const listed = new Set(p.recordedRows.map((r) => r.name));
      p.warnings.push(...newOptionalFileWarnings(target.family, listed, files, p.input.session));
    }
  } else if (p.stored && p.mode !== "from-numbers") p.notes.push(UNREADABLE_NOTE);
  if (
    target.family === "2026.9" &&
    (recorded.family !== "2026.9" || typeof files.get("TOOLS.md") === "string")
  ) {
    p.notes.push(TOOLS_RETIRED_NOTE);
  }
  return changes;
}

function fileDTOs(p: Plan, analysis: BootstrapAnalysis): TruncationFileDTO[] {
  const { workspace } = p.input;
  return p.rows.map((r, i) => {
    const rec = p.recordedRows.includes(r) ? r : p.recordedRows.find((x) => x.name === r.name);
    const simFile = p.diffRun?.files[i];
    const readPath =
      workspace.readPaths?.get(r.name) ?? (workspace.dir ? joinPath(workspace.dir, r.name) : null);
    const parts = {
      row: r,
      numbers: p.numbers[i] ?? UNKNOWN_ROW,
      analysis: analysis.rows[i],
      recordedRow: rec,
      content: p.contentOf(r),
      readPath: p.readable ? readPath : null,
      readable: p.readable,
      simulation: simFile ? simulationDTO(simFile, rec, !p.caps.whatIf) : null,
    };
    return fileDTO(parts, p.shown, p.mode === "recorded");
  });
}

/** Build the truncation report — see shared/truncation.ts for every field. */
export function buildTruncationReport(input: TruncationReportInput): TruncationReportDTO {
  const p = plan(input);
  const { shown, caps, report } = p;
  const analysisRows = p.rows.map((r, i) => analysisRow(r, p.numbers[i], p.mode === "recorded"));
  const analysis = analyzeBootstrapRows(shown.family, analysisRows, shown.maxPerFile, shown.maxTotal);
  const changes = noteWorkspace(p);
  const waterfall = waterfallSteps(p.rows, p.numbers, p.markerModes, shown, p.mode === "recomputed");
  const files = fileDTOs(p, analysis);
  const totals = totalsDTO(files, analysis, waterfall, shown);
  const causes = analysis.rows.map((x) => x.causes);
  // Unknown lengths (from-numbers) leave the signature unknown too.
  const signature =
    totals.injectedChars === null
      ? null
      : (promptWarningSignature(analysisRows, causes, shown.maxPerFile, shown.maxTotal) ?? null);
  const bt = report.bootstrapTruncation;
  return {
    maxPerFile: shown.maxPerFile,
    maxTotal: shown.maxTotal,
    files,
    totals,
    mode: p.mode,
    family: shown.family,
    recorded: {
      family: caps.recorded.family,
      maxPerFile: caps.recordedMaxPerFile,
      maxTotal: caps.recordedMaxTotal,
      maxPerFileUsed: caps.recorded.maxPerFile,
      maxTotalUsed: caps.recorded.maxTotal,
      generatedAt: report.generatedAt,
      workspaceDir: report.workspaceDir,
      truncatedFiles: bt?.truncatedFiles ?? null,
      nearLimitFiles: bt?.nearLimitFiles ?? null,
      totalNearLimit: bt?.totalNearLimit ?? null,
      promptWarningSignature: bt?.promptWarningSignature ?? null,
    },
    whatIf: caps.whatIf,
    storedReport: {
      available: p.stored,
      sessionId: report.sessionId,
      owner: input.session ? reportOwner(p.stored ? report : null, input.session) : null,
    },
    workspace: {
      dir: input.workspace.dir,
      readable: p.readable,
      rebasedPaths: input.workspace.rebasedPaths ?? [],
      source: input.workspace.source ?? null,
    },
    waterfall,
    changes,
    signature,
    warnings: p.warnings,
    notes: p.notes,
  };
}

/** What the table of a session without a stored report shows, and from where (issue 13). */
function noReportNote(input: TruncationReportInput, caps: Caps): string {
  const head = "No run report is stored for this session: OpenClaw recorded nothing for it.";
  const ws = input.workspace;
  if (ws.dir === null) {
    const tried = ws.tried?.length ? ` (looked in: ${ws.tried.join(", ")})` : "";
    return `${head} No workspace was found to show what OpenClaw would inject${tried}.${decidedNote(input, caps)}`;
  }
  const src = input.configuredLimits?.sources;
  const from = (key: "maxPerFile" | "maxTotal") => (src ? ` (${src[key]})` : "");
  const release = input.release && caps.family === input.family ? input.release : null;
  const who = release ? release.defaults.release : caps.family;
  return (
    `${head} The rows are the workspace files as they are now, read from ${ws.dir}${ws.source ? ` (${ws.source})` : ""}, ` +
    `and what OpenClaw ${who} would inject from them with bootstrapMaxChars ${fmtInt(caps.maxPerFile)}${from("maxPerFile")} ` +
    `and bootstrapTotalMaxChars ${fmtInt(caps.maxTotal)}${from("maxTotal")}.${decidedNote(input, caps)}`
  );
}

/**
 * Which signal decided the session's release (issue 13: the session's own, the config's meta.lastTouchedVersion,
 * the agent's other sessions, the state dir's): the release's note when the release is known, else the family's.
 * Nothing when `--family` chose the rules.
 */
function decidedNote(input: TruncationReportInput, caps: Caps): string {
  if (caps.family !== input.family) return "";
  if (input.release) return ` ${releaseNote(input.release, caps.maxTotal)}`;
  const v = input.version;
  return v ? ` Rules of the ${caps.family} family (decided by ${v.decidedBy}: ${v.reason}).` : "";
}

/** Which release's rules the table applies, which signal named it, and whether its defaults were checked. */
function releaseNote(release: NonNullable<TruncationReportInput["release"]>, usedTotal: number): string {
  const d = release.defaults;
  const cut =
    d.defaults.split === "70/20"
      ? "70/20 head/tail cut"
      : `75/25 head/tail cut${d.defaults.agentsDigest ? ", AGENTS.md policy digest" : ", no AGENTS.md policy digest"}`;
  const warn = d.defaults.warningDefault
    ? `truncation warning "${d.defaults.warningDefault}" by default`
    : "no truncation-warning option";
  const total = totalCapNote(d.defaults, usedTotal);
  return (
    `Release ${d.release} (decided by ${release.decidedBy}: ${release.reason}); ${d.note}: ${cut}, ${warn}.` +
    (d.verified ? "" : " Unverified for this exact release.") +
    (total ? ` ${total}` : "")
  );
}

const UNKNOWN_ROW: RowNumbers = {
  missing: false,
  rawChars: 0,
  injectedChars: null,
  upperBound: null,
  exact: false,
  note: null,
  budgetUsed: 0,
  budgetBefore: null,
};

function simulationFiles(
  rows: readonly ReportRow[],
  markerModes: readonly MissingMarkerMode[],
  contentOf: (r: ReportRow) => string | null | undefined,
): BootstrapFileInput[] {
  return rows.map((r, i) => ({
    name: r.name,
    path: r.path,
    content: contentOf(r) ?? null,
    missingMarker: markerModes[i],
  }));
}

/** The analysis input of a row: its numbers as shown (an unknown length counts its budget use). */
function analysisRow(r: ReportRow, n: RowNumbers | undefined, recordedMode: boolean) {
  const missing = n?.missing ?? r.missing;
  const rawChars = n?.rawChars ?? 0;
  const injectedChars = n?.injectedChars ?? n?.budgetUsed ?? 0;
  return {
    name: r.name,
    path: r.path,
    missing,
    rawChars,
    injectedChars,
    truncated: recordedMode ? r.truncated : !missing && injectedChars < rawChars,
    nativeUnverified: r.nativeUnverified === true,
  };
}
