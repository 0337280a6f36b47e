// The bootstrap-truncation report's input for one session: the stored systemPromptReport, the workspace files
// as they are on disk now, and the what-if caps of the query (`/truncation?maxPerFile=…` or the CLI's flags).
// Without a report naming the workspace, the workspace OpenClaw would use for the agent and the caps it would
// apply (openclaw/bootstrap/workspace-dir.ts; issue 13).

import { type JsonObject, obj, str } from "../../shared/json.ts";
import { ok, type Result } from "../../shared/result.ts";
import type { TruncationFamily, TruncationReportDTO } from "../../shared/truncation.ts";
import type { LoadedSession, VersionInfo } from "../model/session.ts";
import { readSystemPromptReport } from "../model/system-prompt-report.ts";
import { bootstrapFileNames } from "../openclaw/bootstrap/files-and-limits.ts";
import { releaseBootstrapDefaults } from "../openclaw/bootstrap/release-defaults.ts";
import { configuredBootstrapLimits, workspaceCandidates } from "../openclaw/bootstrap/workspace-dir.ts";
import {
  buildTruncationReport,
  type TruncationReportInput,
} from "../reports/truncation/truncation-report.ts";
import type { LoadRef, StateReader } from "../sources/state-reader.ts";
import { expandUserPath } from "../sources/user-path.ts";
import { readWorkspaceFiles, rebaseConfiguredWorkspace } from "../sources/workspace-files.ts";

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

/**
 * What the truncation report reads of a session — its SessionEntry and release verdict, never its transcript
 * (issue 18: a command computes only what it prints).
 */
export interface TruncationSession {
  agentId: string;
  sessionId: string;
  /** Its key: a sub-agent's or cron run's bootstrap files are a subset (openclaw/bootstrap/session-files.ts). */
  sessionKey: string | null;
  entry: JsonObject | null;
  version: VersionInfo;
}

/**
 * The session's TruncationSession from its stored entry when that decides the release verdict exactly
 * (StoredEntry.version: a stored report, no transcript row that could change the verdict), else from `load()`
 * (which also says every error the way a load does).
 */
export function truncationSession(
  reader: StateReader,
  ref: LoadRef,
  load: () => Result<LoadedSession>,
): Result<TruncationSession> {
  const stored = reader.storedEntry(ref, { version: true });
  if (stored !== null && !("error" in stored) && stored.version !== null)
    return ok({
      agentId: ref.agentId,
      sessionId: stored.sessionId,
      sessionKey: stored.sessionKey,
      entry: stored.entry,
      version: stored.version,
    });
  const s = load();
  return s.ok ? ok(truncationSessionOf(s.value)) : s;
}

/** A loaded session's TruncationSession. */
export function truncationSessionOf({ summary, entry, version }: LoadedSession): TruncationSession {
  return {
    agentId: summary.agentId,
    sessionId: summary.sessionId,
    sessionKey: summary.sessionKey,
    entry,
    version,
  };
}

export function truncationInput(
  s: TruncationSession,
  stateDir: string,
  query: TruncationQuery,
  allowWorkspaceOverride: boolean,
  config: JsonObject | null,
  /** OpenClaw's home dir (server/shell/config.ts reads it), for a `~` workspace path; null = left as written. */
  home: string | null = null,
): TruncationReportInput {
  const report = s.entry ? (obj(s.entry, "systemPromptReport") ?? null) : null;
  const decoded = report ? readSystemPromptReport(report) : null;
  const override = allowWorkspaceOverride ? (query.workspace ?? null) : null;
  // The workspaces the config names: a recorded workspaceDir outside the state dir is read only when it is one.
  const trustedDirs = workspaceCandidates(config, stateDir, s.agentId, s.version.family).map((c) => c.dir);
  const read = (recordedDir: string | null, dir: string | null) =>
    readWorkspaceFiles({
      recordedWorkspaceDir: recordedDir,
      stateDir,
      trustedDirs,
      recordedFiles: decoded?.files.map((f) => ({ name: f.name, path: f.path })) ?? [],
      workspaceOverride: dir,
      // every family's names: the what-if may switch family
      names: (["2026.3", "2026.7", "2026.9"] as const).flatMap((f) => bootstrapFileNames(f)),
    });
  let files = read(decoded?.workspaceDir ?? null, override);
  let source = override ? "--workspace" : null;
  const tried: string[] = [];
  // No report names the workspace (cron runs, orphans, archives): the one OpenClaw would use for this agent.
  if (files.dir === null && !override && !decoded?.workspaceDir) {
    search: for (const c of workspaceCandidates(config, stateDir, s.agentId, s.version.family)) {
      // OpenClaw resolves `~/…` against its home dir (resolveUserPath, spec storage.md §1)
      const dir = home !== null && /^~(?:$|[\\/])/u.test(c.dir) ? expandUserPath(c.dir, home) : c.dir;
      // a config written on another machine (Windows `D:\.openclaw\workspace`): its path under this state dir
      const rebased = rebaseConfiguredWorkspace(dir, stateDir);
      for (const d of rebased && rebased !== dir ? [dir, rebased] : [dir]) {
        const f = read(null, d);
        if (f.dir !== null) {
          files = f;
          source = d === dir ? c.source : `${c.source}, rebased`;
          break search;
        }
        tried.push(d);
      }
    }
  }
  const family = query.family;
  const v = s.version;
  const defaults = v.appVersion ? releaseBootstrapDefaults(v.appVersion) : null;
  const release = defaults ? { defaults, decidedBy: v.decidedBy ?? "session", reason: v.reason } : null;
  return {
    report,
    session: {
      sessionId: s.sessionId,
      entrySessionId: str(s.entry, "sessionId") ?? null,
      sessionKey: s.sessionKey,
      chatType: str(s.entry, "chatType") ?? null,
    },
    family: s.version.family,
    release,
    version: { decidedBy: v.decidedBy ?? "session", reason: v.reason },
    workspace: {
      dir: files.dir,
      files: files.files,
      readPaths: files.readPaths,
      rebasedPaths: files.rebasedPaths,
      source,
      tried,
    },
    configuredLimits: report
      ? undefined
      : configuredBootstrapLimits(config, s.agentId, s.version.family, defaults),
    overrides: {
      maxPerFile: toInt(query.maxPerFile),
      maxTotal: toInt(query.maxTotal),
      family: isFamily(family) ? family : undefined,
    },
  };
}

/** The session's bootstrap-truncation report under the query's what-if (the workspace files read now). */
export function truncationReportOf(
  s: TruncationSession | LoadedSession,
  stateDir: string,
  query: TruncationQuery,
  allowWorkspaceOverride: boolean,
  config: JsonObject | null,
  home: string | null,
): TruncationReportDTO {
  const t = "summary" in s ? truncationSessionOf(s) : s;
  return buildTruncationReport(truncationInput(t, stateDir, query, allowWorkspaceOverride, config, home));
}
