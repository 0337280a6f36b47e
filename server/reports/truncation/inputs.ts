// What the truncation report works on: the caps in effect (the report's, or the what-if overrides), the list of
// files (the report's rows, or the target family's bootstrap list) and how each missing file's marker is treated.
// Pure.

import type { JsonObject, JsonValue } from "../../../shared/json.ts";
import type { TruncationFamily } from "../../../shared/truncation.ts";
import type { BootstrapFileRow, SystemPromptReport } from "../../model/system-prompt-report.ts";
import { defaultMissingMarkerMode, type MissingMarkerMode } from "../../openclaw/bootstrap/budget-loop.ts";
import {
  type BootstrapLimits,
  bootstrapFileNames,
  DEFAULT_LIMITS,
  isOptionalBootstrapFile,
} from "../../openclaw/bootstrap/files-and-limits.ts";
import { type ReleaseDefaultsLookup, releaseLimits } from "../../openclaw/bootstrap/release-defaults.ts";
import { sessionBootstrapFiles } from "../../openclaw/bootstrap/session-files.ts";
import type { TrimRule } from "../../openclaw/bootstrap/trim.ts";

export interface TruncationReportInput {
  /** SessionEntry.systemPromptReport (stored object); null = the session has none (nothing was recorded). */
  report: JsonObject | null;
  /**
   * The session shown and its SessionEntry's `sessionId` (says when the report is another session's); its key and
   * SessionEntry `chatType` (which bootstrap files a session of its kind gets: bootstrap/session-files.ts).
   */
  session?: {
    sessionId: string;
    entrySessionId: string | null;
    sessionKey?: string | null;
    chatType?: string | null;
  };
  /** Rule family of the session (VersionInfo.family). */
  family: TruncationFamily;
  /**
   * The session's OpenClaw release when known (VersionInfo.appVersion) with the signal that decided it: its own
   * defaults (caps, cut) apply where the report records none (release-defaults.ts).
   */
  release?: { defaults: ReleaseDefaultsLookup; decidedBy: string; reason: string } | null;
  /** Which signal decided `family` (VersionInfo.decidedBy / reason), printed when no report is stored (issue 13). */
  version?: { decidedBy: string; reason: string } | null;
  workspace: {
    /** Workspace directory the files were read from; null = unavailable (nothing readable). */
    dir: string | null;
    /** Content by file name as read by the caller; null = missing or unreadable. */
    files: Map<string, string | null>;
    /** Actual path read per file name (optional; shown in the table). */
    readPaths?: Map<string, string>;
    /** Recorded → actual path rebasings done to read the files (storage.md §7). */
    rebasedPaths?: { recorded: string; actual: string }[];
    /** How `dir` was chosen (no report: the configured or conventional workspace), shown to the user. */
    source?: string | null;
    /** Directories looked in without success (no report, nothing found). */
    tried?: string[];
  };
  /** The caps OpenClaw would apply now (openclaw.json), used where the report records none (or there is none). */
  configuredLimits?: BootstrapLimits & { sources?: { maxPerFile: string; maxTotal: string } };
  overrides?: { maxPerFile?: number; maxTotal?: number; family?: TruncationFamily };
}

/** A family and its two caps. */
export interface Caps {
  family: TruncationFamily;
  maxPerFile: number;
  maxTotal: number;
  /** The session release's cut, when it differs from what the family name says (absent = the family's). */
  trim?: TrimRule;
}

/** The report's caps (as stored, and as used with the family defaults) and the caps of the numbers to show. */
export interface CapsInEffect {
  /** The report's values, null when absent or not a positive number. */
  recordedMaxPerFile: number | null;
  recordedMaxTotal: number | null;
  /** The report's caps with the session family's defaults filled in. */
  recorded: Caps;
  /** The what-if overrides over `recorded`. */
  target: Caps;
  whatIf: boolean;
  /** Overrides OpenClaw would not accept. */
  warnings: string[];
}

/** OpenClaw counts a limit only if it is a finite number > 0, floored — spec bootstrap.md §2. */
function positiveInt(v: JsonValue | undefined): number | null {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : null;
}

export function capsInEffect(report: SystemPromptReport, input: TruncationReportInput): CapsInEffect {
  const o = input.overrides;
  const recordedMaxPerFile = positiveInt(report.bootstrapMaxChars);
  const recordedMaxTotal = positiveInt(report.bootstrapTotalMaxChars);
  const release = input.release?.defaults.defaults;
  const familyDefaults = DEFAULT_LIMITS[input.family];
  const fallback =
    input.configuredLimits ?? (release ? releaseLimits(release, familyDefaults.maxTotal) : familyDefaults);
  const recorded: Caps = {
    family: input.family,
    maxPerFile: recordedMaxPerFile ?? fallback.maxPerFile,
    maxTotal: recordedMaxTotal ?? fallback.maxTotal,
    ...(release
      ? { trim: { split: release.split, agentsDigest: release.agentsDigest, digest: release.digest } }
      : {}),
  };
  const targetFamily = o?.family ?? recorded.family;
  const target: Caps = {
    family: targetFamily,
    maxPerFile: positiveInt(o?.maxPerFile) ?? recorded.maxPerFile,
    maxTotal: positiveInt(o?.maxTotal) ?? recorded.maxTotal,
    // a what-if family applies that family's own cut
    ...(recorded.trim && targetFamily === recorded.family ? { trim: recorded.trim } : {}),
  };
  const warnings: string[] = [];
  for (const [key, v] of [
    ["max-per-file", o?.maxPerFile],
    ["max-total", o?.maxTotal],
  ] as const) {
    if (v !== undefined && positiveInt(v) === null) {
      warnings.push(
        `Ignored --${key} ${v}: OpenClaw only accepts a finite number > 0 (the report's value is used).`,
      );
    }
  }
  const whatIf =
    target.family !== recorded.family ||
    target.maxPerFile !== recorded.maxPerFile ||
    target.maxTotal !== recorded.maxTotal;
  return { recordedMaxPerFile, recordedMaxTotal, recorded, target, whatIf, warnings };
}

/** One file of the report: a stored row (or a row of the family's list), with the injectedChars OpenClaw recorded. */
export interface ReportRow extends BootstrapFileRow {
  recordedInjectedChars: number;
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/**
 * The file list: the report's rows (what OpenClaw considered), or the target family's list when the family
 * changes or the report lists nothing — spec bootstrap.md §1.
 */
export function fileRows(
  recordedRows: readonly ReportRow[],
  family: TruncationFamily,
  recordedFamily: TruncationFamily,
  workspaceDir: string | null,
  files: ReadonlyMap<string, string | null>,
  session: TruncationReportInput["session"] = undefined,
): { rows: ReportRow[]; note: string | null } {
  if (family === recordedFamily && recordedRows.length > 0) return { rows: [...recordedRows], note: null };
  const base = workspaceDir ?? "";
  const rows: ReportRow[] = [];
  const names = sessionBootstrapFiles(
    family,
    bootstrapFileNames(family),
    session?.sessionKey ?? null,
    session?.chatType ?? null,
  );
  for (const name of names) {
    const present = typeof files.get(name) === "string";
    if (isOptionalBootstrapFile(name, family) && !present) continue;
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
  const notes: string[] = [];
  if (recordedRows.length > 0)
    notes.push(`File list of OpenClaw ${family} used instead of the report's rows.`);
  const all = bootstrapFileNames(family);
  if (names.length < all.length && session?.sessionKey) {
    const dropped = all.filter((n) => !names.includes(n));
    notes.push(
      `${session.sessionKey} gets only ${names.join(", ")} (OpenClaw ${family} filterBootstrapFilesForSession: not ${dropped.join(", ")}).`,
    );
  }
  return { rows, note: notes.length > 0 ? notes.join(" ") : null };
}

/**
 * A missing file whose marker the report counted (injectedChars > 0, 2026.3-era data) keeps "inject"; otherwise
 * the family default (spec bootstrap.md §5).
 */
export function markerModeOf(row: ReportRow, family: TruncationFamily): MissingMarkerMode {
  return row.missing && row.recordedInjectedChars > 0 ? "inject" : defaultMissingMarkerMode(family);
}
