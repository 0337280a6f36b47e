// A user-typed session reference (`--session REF`, the URL of a shared link) → one listed session. Pure over
// the rows the eras listed: no file is read here.

import type { SessionRef } from "../model/session.ts";
import { isSafeId } from "./discover.ts";
import type { ListedRow } from "./session-era.ts";

export interface AgentRows {
  agentId: string;
  rows: ListedRow[];
}

/** The default agent first (OpenClaw's `main`), then the others in the order given (discover sorts by id). */
function mainFirst(agents: readonly AgentRows[]): AgentRows[] {
  return [...agents].sort((a, b) => Number(b.agentId === "main") - Number(a.agentId === "main"));
}

function refOf(r: ListedRow): SessionRef {
  return { agentId: r.summary.agentId, sessionId: r.summary.sessionId };
}

/**
 * REF = `AGENT/SESSIONID`, or, searched over every agent (`main` first): 1. a session key (keys route by
 * `agent:<agentId>:…`, storage.md §3.1), 2. an exact session id, 3. a SessionEntry's own sessionId,
 * 4. a unique id prefix of ≥ 6 chars (CLI convenience). Null when nothing (or, for a prefix, more than one
 * session) matches.
 */
export function resolveRefInRows(input: string, agents: readonly AgentRows[]): SessionRef | null {
  const ref = input.trim();
  if (!ref) return null;
  const slash = ref.indexOf("/");
  if (slash > 0) {
    const agentId = ref.slice(0, slash);
    const sessionId = ref.slice(slash + 1);
    if (!isSafeId(agentId) || !isSafeId(sessionId)) return null;
    const found = agents
      .find((a) => a.agentId === agentId)
      ?.rows.find((r) => r.summary.sessionId === sessionId);
    return found ? refOf(found) : null;
  }
  const ordered = mainFirst(agents);
  const pick = (pred: (r: ListedRow) => boolean): SessionRef | null => {
    for (const a of ordered) {
      const r = a.rows.find(pred);
      if (r) return refOf(r);
    }
    return null;
  };
  const exact =
    pick((r) => r.sessionKeys.includes(ref)) ??
    pick((r) => r.summary.sessionId === ref) ??
    pick((r) => r.entrySessionId === ref);
  if (exact || ref.length < 6) return exact;
  const matches = agents.flatMap((a) => a.rows.filter((r) => r.summary.sessionId.startsWith(ref)));
  const only = matches[0];
  return matches.length === 1 && only ? refOf(only) : null;
}
