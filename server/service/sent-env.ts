// What the wire reconstruction needs beyond the session (issue 16): a 2026.9 main session's runtime-context
// carrier announces the agent's other sessions (openclaw/wire/system-events.ts), so it gets their SessionEntries.

import type { JsonObject } from "../../shared/json.ts";
import type { Result } from "../../shared/result.ts";
import type { SessionSummary } from "../../shared/session.ts";
import type { LoadedSession } from "../model/session.ts";
import { mainSessionKey } from "../openclaw/wire/wire-settings.ts";

export function otherSessionNodes(
  s: LoadedSession,
  config: JsonObject | null,
  sessions: readonly SessionSummary[],
  load: (agentId: string, sessionId: string) => Result<LoadedSession>,
): { sessionKey: string; entry: JsonObject }[] {
  const { agentId, sessionId, sessionKey } = s.summary;
  if (s.version.family !== "2026.9" || sessionKey !== mainSessionKey(config, agentId)) return [];
  const out: { sessionKey: string; entry: JsonObject }[] = [];
  for (const row of sessions) {
    if (row.agentId !== agentId || row.sessionId === sessionId || !row.sessionKey || row.archived !== null)
      continue;
    const other = load(row.agentId, row.sessionId);
    if (other.ok && other.value.entry) out.push({ sessionKey: row.sessionKey, entry: other.value.entry });
  }
  return out;
}
