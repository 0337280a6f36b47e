// Near-limit analysis and truncation causes of the bootstrap files — spec bootstrap.md §6 (OpenClaw's
// `analyzeBootstrapBudget`). Input rows are a report's rows or clawscope's recomputed ones (same meaning). Pure.

import type { BootstrapFileRow } from "../../model/system-prompt-report.ts";
import { effectiveFileLimit, NEAR_LIMIT_RATIO, type RuleFamily } from "./files-and-limits.ts";

export type TruncationCause = "per-file-limit" | "total-limit";

export interface RowAnalysis {
  fileLimit: number;
  nearLimit: boolean;
  causes: TruncationCause[];
  /** Total budget available when the walk reached this file (9.x rule; informative for others). */
  availBefore: number;
}

export interface BootstrapAnalysis {
  rows: RowAnalysis[];
  totalRawChars: number;
  totalInjectedChars: number;
  truncatedFiles: number;
  nearLimitFiles: number;
  totalNearLimit: boolean;
}

/**
 * Near-limit flags and causes from report rows — spec bootstrap.md §6. 2026.3.2 stores no analysis;
 * there clawscope applies the 7.1 rules per file with the /context 3.2 total rule (Σraw > total cap).
 */
export function analyzeBootstrapRows(
  family: RuleFamily,
  rows: readonly BootstrapFileRow[],
  maxPerFile: number,
  maxTotal: number,
): BootstrapAnalysis {
  const counted = rows.filter((r) => !r.missing && r.nativeUnverified !== true);
  const totalRawChars = counted.reduce((a, r) => a + r.rawChars, 0);
  const totalInjectedChars = counted.reduce((a, r) => a + r.injectedChars, 0);
  const totalHit = family === "2026.3" ? totalRawChars > maxTotal : totalInjectedChars >= maxTotal;
  let avail = maxTotal;
  const out: RowAnalysis[] = [];
  for (const r of rows) {
    const fileLimit = effectiveFileLimit(family, r.name, maxPerFile);
    const availBefore = avail;
    avail = Math.max(0, avail - r.injectedChars);
    const nearLimit = !r.missing && r.rawChars >= Math.ceil(fileLimit * NEAR_LIMIT_RATIO);
    const causes: TruncationCause[] = [];
    if (r.truncated) {
      if (r.rawChars > fileLimit) causes.push("per-file-limit");
      const total = family === "2026.9" ? availBefore < fileLimit && r.rawChars > availBefore : totalHit;
      if (total) causes.push("total-limit");
    }
    out.push({ fileLimit, nearLimit, causes, availBefore });
  }
  return {
    rows: out,
    totalRawChars,
    totalInjectedChars,
    truncatedFiles: rows.filter((r) => r.truncated).length,
    nearLimitFiles: rows.filter((r, i) => out[i]?.nearLimit === true && r.nativeUnverified !== true).length,
    totalNearLimit: totalInjectedChars >= Math.ceil(maxTotal * NEAR_LIMIT_RATIO),
  };
}
