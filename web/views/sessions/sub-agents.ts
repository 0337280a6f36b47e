// Sub-agent sessions under the session that spawned them (SessionSummary.spawnedBy = the parent's session key):
// the list keeps its order for top-level sessions, and each parent is followed by its sub-agents (in the same
// order, nested as deep as they spawn). A sub-agent whose parent is not listed (filtered out, archived, another
// agent) stays top-level: nothing is hidden by the grouping.

import type { SessionSummary } from "../../../shared/session.ts";

export interface ListedSession {
  s: SessionSummary;
  /** 0 = top level, 1 = spawned by a listed session, … */
  depth: number;
  /** Listed sessions it spawned (directly). */
  children: number;
}

export function underParents(sorted: readonly SessionSummary[]): ListedSession[] {
  const byKey = new Map<string, SessionSummary>();
  for (const s of sorted) if (s.sessionKey !== null && !byKey.has(s.sessionKey)) byKey.set(s.sessionKey, s);
  const kids = new Map<SessionSummary, SessionSummary[]>();
  const top: SessionSummary[] = [];
  for (const s of sorted) {
    const parent = s.spawnedBy === undefined ? undefined : byKey.get(s.spawnedBy);
    if (parent && parent !== s) kids.set(parent, [...(kids.get(parent) ?? []), s]);
    else top.push(s);
  }
  const out: ListedSession[] = [];
  const seen = new Set<SessionSummary>();
  const visit = (s: SessionSummary, depth: number) => {
    if (seen.has(s)) return; // a spawn cycle in stored data: each session still listed once
    seen.add(s);
    out.push({ s, depth, children: kids.get(s)?.length ?? 0 });
    for (const k of kids.get(s) ?? []) visit(k, depth + 1);
  };
  for (const s of top) visit(s, 0);
  // sessions only reachable through a cycle: listed top-level
  for (const s of sorted) if (!seen.has(s)) visit(s, 0);
  return out;
}
