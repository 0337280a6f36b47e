// Whose run report a session shows. A SessionEntry keeps the `systemPromptReport` of the last embedded run of its
// session key (context-report.md §1: a run that builds no report keeps the old one), so after a `/new` the entry
// of the key's new session carries its predecessor's report, and an older session of the key shown with the key's
// entry carries the current session's (real data: a cron key whose report names another session id). Pure.

import type { ReportOwnerDTO } from "../../shared/run-report.ts";
import type { SystemPromptReport } from "../model/system-prompt-report.ts";

function short(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

/** Null when the report names no session or the session shown; else who it belongs to, in words. */
export function reportOwner(
  report: SystemPromptReport | null,
  session: { sessionId: string; entrySessionId: string | null },
): ReportOwnerDTO | null {
  const owner = report?.sessionId ?? null;
  if (owner === null || owner === session.sessionId) return null;
  const currentOfKey = owner === session.entrySessionId;
  const relation = currentOfKey
    ? "the current session of this key"
    : session.entrySessionId === session.sessionId
      ? "an earlier session of this key (no run of this session has stored a report yet)"
      : "another session of this key";
  return {
    reportSessionId: owner,
    sessionId: session.sessionId,
    currentOfKey,
    note: `This is the run report of session ${short(owner)}, ${relation}, not of the session shown (${short(session.sessionId)}).`,
  };
}
