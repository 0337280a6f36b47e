// Agent discovery: every agent has its own store (spec storage.md §2 "Agents").
// JSONL era: `agents/<id>/sessions/sessions.json` and `<sessionId>.jsonl` files.
// SQLite era: `agents/<id>/agent/openclaw-agent.sqlite` (read by server/sources/sqlite/*).
// Read-only: only readdir/stat.

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ParseIssue } from "../model/session.ts";
import { isInside, realpathOrNull } from "./fs-safety.ts";

/** Agent ids and session ids accepted anywhere a path is built from them (no `/`, no `..`). */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,200}$/;

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id) && !id.includes("..");
}

export interface DiscoveredAgent {
  agentId: string;
  /** Absolute `agents/<id>/sessions` when it holds `sessions.json` or any `*.jsonl*` file. */
  sessionsDir: string | null;
  /** Absolute `agents/<id>/agent/openclaw-agent.sqlite` when present. */
  sqlitePath: string | null;
}

export interface DiscoveredState {
  agents: DiscoveredAgent[];
  issues: ParseIssue[];
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** True when a sessions dir holds JSONL-era data (`sessions.json`, or any `*.jsonl` / archived `*.jsonl.*`). */
function hasJsonlStore(dir: string): boolean {
  if (isFile(path.join(dir, "sessions.json"))) return true;
  try {
    return readdirSync(dir).some((n) => n.endsWith(".jsonl") || n.includes(".jsonl."));
  } catch {
    return false;
  }
}

/**
 * Enumerate `<stateDir>/agents/*`. Agents are listed even when they hold neither store (an agent that
 * never ran: `agent/models.json` only), so the UI can show them as empty. Sorted by id.
 */
export function discoverState(stateDir: string): DiscoveredState {
  const issues: ParseIssue[] = [];
  const agentsDir = path.join(stateDir, "agents");
  if (!isDir(stateDir)) {
    return {
      agents: [],
      issues: [
        {
          source: stateDir,
          code: "state-dir-missing",
          message: "state dir does not exist",
          severity: "error",
        },
      ],
    };
  }
  let names: string[];
  try {
    names = readdirSync(agentsDir);
  } catch {
    return {
      agents: [],
      issues: [
        {
          source: "agents",
          code: "no-agents-dir",
          message: "state dir has no agents/ folder",
          severity: "warning",
        },
      ],
    };
  }
  const agents: DiscoveredAgent[] = [];
  const realState = realpathOrNull(stateDir) ?? path.resolve(stateDir);
  /** False (with a located issue) for a path that realpaths outside the state dir: a symlink out is not read. */
  const staysInside = (p: string): boolean => {
    const real = realpathOrNull(p);
    if (real === null || isInside(real, realState)) return true;
    issues.push({
      source: path.relative(stateDir, p).split(path.sep).join("/"),
      code: "outside-state-dir",
      message: `is a symbolic link to ${real}, outside the state dir; not read`,
      severity: "warning",
    });
    return false;
  };
  for (const name of names.sort()) {
    const dir = path.join(agentsDir, name);
    if (!isDir(dir)) continue;
    if (!isSafeId(name)) {
      issues.push({
        source: `agents/${name}`,
        code: "unsafe-agent-id",
        message: `agent folder name ${JSON.stringify(name)} is not a valid agent id; skipped`,
        severity: "warning",
      });
      continue;
    }
    if (!staysInside(dir)) continue;
    const sessionsDir = path.join(dir, "sessions");
    const sqlitePath = path.join(dir, "agent", "openclaw-agent.sqlite");
    agents.push({
      agentId: name,
      sessionsDir:
        isDir(sessionsDir) && staysInside(sessionsDir) && hasJsonlStore(sessionsDir) ? sessionsDir : null,
      sqlitePath: isFile(sqlitePath) && staysInside(sqlitePath) ? sqlitePath : null,
    });
  }
  return { agents, issues };
}
