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
 * Rebase `systemPromptReport.workspaceDir` (storage.md §7): when the recorded dir does not exist here and lies
 * under the recorded state dir (prefix of `sessionFile` before `/agents/<id>/sessions/`, or of `workspaceDir`
 * before `/workspace[-<id>]`), swap that prefix for `stateDir`. Null when nothing needs or allows rebasing.
 */
export function rebaseWorkspace(entry: JsonObject | null, stateDir: string): RebasedPath | null {
  const report = entry?.systemPromptReport;
  const workspaceDir = isObject(report) ? str(report, "workspaceDir") : undefined;
  if (!workspaceDir || !path.isAbsolute(workspaceDir)) return null;
  if (exists(workspaceDir)) return null; // exists where recorded: nothing to rebase
  const norm = workspaceDir.replace(/\\/g, "/").replace(/\/+$/, "");
  const sessionFile = str(entry, "sessionFile")?.replace(/\\/g, "/");
  const fromSessionFile = sessionFile
    ? /^(.*)\/agents\/[^/]+\/sessions\/[^/]+$/.exec(sessionFile)?.[1]
    : undefined;
  const fromWorkspace = /^(.*)\/workspace(?:-[^/]+)?$/.exec(norm)?.[1];
  const recordedStateDir = fromSessionFile ?? fromWorkspace;
  if (!recordedStateDir || !norm.startsWith(`${recordedStateDir}/`)) return null;
  const rest = norm.slice(recordedStateDir.length + 1);
  if (rest.split("/").includes("..")) return null;
  return { recorded: workspaceDir, actual: path.join(stateDir, ...rest.split("/")) };
}
