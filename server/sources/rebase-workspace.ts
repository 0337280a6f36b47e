// Recorded absolute paths name the machine that wrote them (spec storage.md §7): a state dir read as a copy, a
// backup or on another machine keeps `/home/user/.openclaw/…` in its SessionEntries. For FILE ACCESS only, a
// recorded workspace that does not exist here is rebased onto the state dir being read; rendered output keeps
// the recorded strings.

import { statSync } from "node:fs";
import path from "node:path";
import { isObject, type JsonObject, str } from "../../shared/json.ts";

export interface RebasedPath {
  recorded: string;
  actual: string;
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * A recorded absolute path of either OS in `/` form, without a trailing slash: `C:\Users\me\.openclaw` →
 * `C:/Users/me/.openclaw` (OpenClaw on Windows records backslash paths with a drive letter). Null when the
 * path is not absolute on either OS.
 */
export function recordedPosix(p: string): string | null {
  const norm = p.replace(/\\/g, "/").replace(/(.)\/+$/, "$1");
  return norm.startsWith("/") || /^[A-Za-z]:\//.test(norm) ? norm : null;
}

/**
 * `path` relative to `dir` (both recordedPosix forms) when it lies below it, else null. Windows paths (a drive
 * letter) compare case-insensitively, as the Windows file system does (`.OpenClaw` = `.openclaw`).
 */
export function relativeBelow(p: string, dir: string): string | null {
  const windows = /^[A-Za-z]:\//.test(dir);
  const [a, b] = windows ? [p.toLowerCase(), dir.toLowerCase()] : [p, dir];
  if (!a.startsWith(`${b}/`)) return null;
  const rest = p.slice(dir.length + 1);
  return rest.split("/").includes("..") ? null : rest;
}

/** The state dir a recorded workspace lived in: the prefix before a last `workspace` / `workspace-<id>`. */
export function recordedStateDirOfWorkspace(recordedWorkspaceDir: string): string | null {
  const norm = recordedPosix(recordedWorkspaceDir);
  const m = norm ? /^(.*)\/workspace(?:-[^/]+)?$/i.exec(norm) : null;
  return m?.[1] ? m[1] : null;
}

/**
 * Rebase `systemPromptReport.workspaceDir` (storage.md §7): when the recorded dir does not exist here and lies
 * under the recorded state dir (prefix of `sessionFile` before `/agents/<id>/sessions/`, or of `workspaceDir`
 * before `/workspace[-<id>]`), swap that prefix for `stateDir`. POSIX and Windows recordings alike (both
 * separators, drive letters). Null when nothing needs or allows rebasing.
 */
export function rebaseWorkspace(entry: JsonObject | null, stateDir: string): RebasedPath | null {
  const report = entry?.systemPromptReport;
  const workspaceDir = isObject(report) ? str(report, "workspaceDir") : undefined;
  const norm = workspaceDir ? recordedPosix(workspaceDir) : null;
  if (!workspaceDir || norm === null) return null;
  if (exists(workspaceDir)) return null; // exists where recorded: nothing to rebase
  const sessionFile = recordedPosix(str(entry, "sessionFile") ?? "");
  const fromSessionFile = sessionFile
    ? /^(.*)\/agents\/[^/]+\/sessions\/[^/]+$/i.exec(sessionFile)?.[1]
    : undefined;
  const candidates = [fromSessionFile, recordedStateDirOfWorkspace(workspaceDir)];
  for (const recordedStateDir of candidates) {
    const rest = recordedStateDir ? relativeBelow(norm, recordedStateDir) : null;
    if (rest !== null) return { recorded: workspaceDir, actual: path.join(stateDir, ...rest.split("/")) };
  }
  return null;
}
