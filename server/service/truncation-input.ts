// The bootstrap-truncation report's input for one session: the stored systemPromptReport, the workspace files
// as they are on disk now, and the what-if caps of the query (`/truncation?maxPerFile=…` or the CLI's flags).

import { isObject, obj, str } from "../../shared/json.ts";
import type { TruncationFamily } from "../../shared/truncation.ts";
import type { LoadedSession } from "../model/session.ts";
import { bootstrapFileNames } from "../openclaw/bootstrap/files-and-limits.ts";
import type { TruncationReportInput } from "../reports/truncation/truncation-report.ts";
import { readWorkspaceFiles } from "../sources/workspace-files.ts";

/** The what-if of /truncation (absent = the report's own caps and family); `workspace` only from the CLI. */
export type TruncationQuery = Partial<Record<"maxPerFile" | "maxTotal" | "family" | "workspace", string>>;

function toInt(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function isFamily(v: string | undefined): v is TruncationFamily {
  return v === "2026.3" || v === "2026.7" || v === "2026.9";
}

export function truncationInput(
  s: LoadedSession,
  stateDir: string,
  query: TruncationQuery,
  allowWorkspaceOverride: boolean,
): TruncationReportInput {
  const report = s.entry ? obj(s.entry, "systemPromptReport") : undefined;
  const rows = Array.isArray(report?.injectedWorkspaceFiles) ? report.injectedWorkspaceFiles : [];
  const recordedFiles = rows.flatMap((r) =>
    isObject(r) && typeof r.name === "string"
      ? [{ name: r.name, path: typeof r.path === "string" ? r.path : r.name }]
      : [],
  );
  const files = readWorkspaceFiles({
    recordedWorkspaceDir: str(report, "workspaceDir") ?? null,
    stateDir,
    recordedFiles,
    workspaceOverride: allowWorkspaceOverride ? (query.workspace ?? null) : null,
    // every family's names: the what-if may switch family
    names: (["2026.3", "2026.7", "2026.9"] as const).flatMap((f) => bootstrapFileNames(f)),
  });
  const family = query.family;
  return {
    report: report ?? {},
    family: s.version.family,
    workspace: {
      dir: files.dir,
      files: files.files,
      readPaths: files.readPaths,
      rebasedPaths: files.rebasedPaths,
    },
    overrides: {
      maxPerFile: toInt(query.maxPerFile),
      maxTotal: toInt(query.maxTotal),
      family: isFamily(family) ? family : undefined,
    },
  };
}
