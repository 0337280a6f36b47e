// What changed in the workspace since OpenClaw stored the report, and what the current files mean for the next
// run. The report stores no per-file hashes (context-report.md §2), so files are compared by size only. Pure.

import { fmtInt } from "../../../shared/format.ts";
import type { TruncationFamily, WorkspaceChangeDTO } from "../../../shared/truncation.ts";
import { bootstrapFileNames, isOptionalBootstrapFile } from "../../openclaw/bootstrap/files-and-limits.ts";
import { sessionBootstrapFiles } from "../../openclaw/bootstrap/session-files.ts";
import type { ReportRow, TruncationReportInput } from "./inputs.ts";

/** Size changes, appearances and disappearances of the report's files (rawChars = trimEnd() length). */
export function workspaceChanges(
  recordedRows: readonly ReportRow[],
  contentOf: (r: ReportRow) => string | null | undefined,
): WorkspaceChangeDTO[] {
  const changes: WorkspaceChangeDTO[] = [];
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
  return changes;
}

export function changesWarning(changes: readonly WorkspaceChangeDTO[]): string | null {
  if (changes.length === 0) return null;
  const list = changes
    .map((c) =>
      c.kind === "size"
        ? `${c.name} ${fmtInt(c.recordedRawChars)} → ${fmtInt(c.currentRawChars ?? 0)} chars`
        : `${c.name} ${c.kind}`,
    )
    .join(", ");
  return (
    `Workspace files changed since the report was generated: ${list}. Compared by size (rawChars = trimEnd() ` +
    "length) only — the report stores no per-file hashes, so an edit that keeps the size is not detected."
  );
}

/** Optional files are listed only when they exist (bootstrap.md §1): one that exists now joins the next run. */
export function newOptionalFileWarnings(
  family: TruncationFamily,
  listed: ReadonlySet<string>,
  files: ReadonlyMap<string, string | null>,
  session: TruncationReportInput["session"] = undefined,
): string[] {
  return sessionBootstrapFiles(
    family,
    bootstrapFileNames(family),
    session?.sessionKey ?? null,
    session?.chatType ?? null,
  )
    .filter(
      (name) =>
        isOptionalBootstrapFile(name, family) && typeof files.get(name) === "string" && !listed.has(name),
    )
    .map((name) => `${name} exists now but is not in the report; OpenClaw would inject it on the next run.`);
}
