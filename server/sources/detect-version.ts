// Era / rule-family detection (spec README.md "How to tell which era a state dir is in").
// The family decides which OpenClaw algorithms clawscope reproduces (report format, bootstrap
// defaults, pruning). Pure.

import { arr, isObject, type JsonObject, num, obj, str } from "../../shared/json.ts";
import { parseRelease } from "../../shared/release-order.ts";
import type { Transcript, VersionInfo } from "../model/session.ts";

/**
 * Family of an OpenClaw release string (`schema_meta.app_version`, e.g. `2026.9.6`, `2026.7.2-beta.1`):
 * - ≤ 2026.6.x → "2026.3" (E1/E2; 2026.4–2026.6 are the E2→E3 transition, UNVERIFIED, treated as E2)
 * - 2026.7.x → "2026.7" (E3, up to 2026.7.35, and the 2026.7.2 SQLite betas)
 * - ≥ 2026.8 (and later years) → "2026.9" (2026.8.1 brought in the 2026.9.6 rules; sources/sqlite/schema.ts)
 * Unparseable strings → "2026.9": the issue asks for the newest format when the version is unknown.
 */
export function familyFromAppVersion(v: string): VersionInfo["family"] {
  const release = parseRelease(v);
  if (!release) return "2026.9";
  const [year, month] = release;
  if (year < 2026) return "2026.3";
  if (year > 2026) return "2026.9";
  if (month <= 6) return "2026.3";
  if (month <= 7) return "2026.7";
  return "2026.9";
}

/** E3 markers in a stored systemPromptReport (README.md era table: 2026.7.x adds hashes and currentTurn). */
function reportE3Signals(report: JsonObject | undefined): string[] {
  if (!report) return [];
  const signals: string[] = [];
  if (report.currentTurn !== undefined) signals.push("report.currentTurn");
  if (str(obj(report, "systemPrompt"), "hash") !== undefined) signals.push("report.systemPrompt.hash");
  if (str(obj(report, "skills"), "hash") !== undefined) signals.push("report.skills.hash");
  if (num(obj(report, "tools"), "listChars") === 0) signals.push("report.tools.listChars = 0");
  return signals;
}

/** Which version markers a transcript's rows hold (the scans of every entry, kept to extend over an append). */
export interface TranscriptSignals {
  /** Entries scanned (a continued transcript scans from here). */
  scanned: number;
  reset: boolean;
  snapshots: boolean;
  leaf: boolean;
  side: boolean;
}

/** Scan `transcript`'s entries from `from.scanned` on (all of them without `from`): the signals of all of them. */
export function transcriptSignals(transcript: Transcript, from?: TranscriptSignals): TranscriptSignals {
  const s: TranscriptSignals = from
    ? { ...from }
    : { scanned: 0, reset: false, snapshots: false, leaf: false, side: false };
  const entries = transcript.entries;
  for (let i = s.scanned; i < entries.length; i++) {
    const e = entries[i];
    if (!e) continue;
    if (e.type === "reset") s.reset = true;
    else if (e.type === "leaf") s.leaf = true;
    else if (!s.snapshots && e.type === "custom" && str(e.raw, "customType") === "openclaw.cache-ttl") {
      if (arr(obj(e.raw, "data"), "prunedToolResults") !== undefined) s.snapshots = true;
    }
    if (str(e.raw, "appendMode") === "side") s.side = true;
  }
  s.scanned = entries.length;
  return s;
}

/** E5 markers inside transcript rows (README.md step 3/4). */
function transcriptE5Signals(transcript: Transcript | null, s: TranscriptSignals | null): string[] {
  if (!transcript || !s) return [];
  const signals: string[] = [];
  if (transcript.version !== null && transcript.version >= 4)
    signals.push(`header version ${transcript.version}`);
  if (s.reset) signals.push("`reset` entries");
  if (s.snapshots) signals.push("projection snapshots in openclaw.cache-ttl markers");
  return signals;
}

function transcriptE3Signals(s: TranscriptSignals | null): string[] {
  if (!s) return [];
  const signals: string[] = [];
  if (s.leaf) signals.push("`leaf` rows");
  if (s.side) signals.push("side appends");
  return signals;
}

/** E1 vs E2 explanation (no family change: both are "2026.3"). */
function e1e2Note(report: JsonObject | undefined): string {
  if (!report) return "no stored systemPromptReport";
  const total = num(report, "bootstrapTotalMaxChars");
  const trunc = obj(report, "bootstrapTruncation");
  const parts: string[] = [];
  if (total === undefined) parts.push("no bootstrapTotalMaxChars in the report (E1, ≤2026.2.x)");
  else if (total === 150000) parts.push("bootstrapTotalMaxChars = 150000 (E2 default)");
  else parts.push(`bootstrapTotalMaxChars = ${total} (user-set)`);
  if (str(trunc, "warningMode") === "once")
    parts.push('bootstrapTruncation.warningMode "once" (2026.3–2026.4)');
  return parts.join("; ");
}

/**
 * Version of a JSONL-era session from its SessionEntry and transcript. JSONL data carries no app
 * version, so the family is inferred: E5 transcript signals → "2026.9"; E3 signals (report hashes,
 * `currentTurn`, `tools.listChars === 0`, `leaf` rows, side appends) → "2026.7"; otherwise "2026.3".
 * JSONL without E3 signals is E1/E2 data by construction (2026.7.1 always writes the E3 report
 * fields), so the "newest when unknown" rule of the issue is NOT applied here.
 */
export function detectJsonlVersion(
  entry: JsonObject | null,
  transcript: Transcript | null,
  /** The transcript's row signals when the caller keeps them (transcriptSignals). */
  rowSignals: TranscriptSignals | null = transcript ? transcriptSignals(transcript) : null,
): VersionInfo {
  const reportValue = entry?.systemPromptReport;
  const report = isObject(reportValue) ? reportValue : undefined;
  const e5 = transcriptE5Signals(transcript, rowSignals);
  if (e5.length > 0) {
    return {
      appVersion: null,
      family: "2026.9",
      reason: `JSONL transcript with 2026.9.x signals: ${e5.join(", ")}`,
      decidedBy: "session",
    };
  }
  const e3 = [...reportE3Signals(report), ...transcriptE3Signals(rowSignals)];
  if (e3.length > 0) {
    return {
      appVersion: null,
      family: "2026.7",
      reason: `JSONL store with 2026.7.x (E3) signals: ${e3.join(", ")}`,
      decidedBy: "session",
    };
  }
  const headerNote =
    transcript?.version != null ? `header version ${transcript.version}` : "no transcript header";
  const note = e1e2Note(report);
  return {
    appVersion: null,
    family: "2026.3",
    reason: `JSONL store without 2026.7.x signals (${headerNote}; ${note}) → 2026.3.x rules`,
    // a stored report is the session's own E1/E2 evidence; without one nothing of the session says anything
    decidedBy: report ? "session" : "default",
  };
}
