// A sub-agent session names the session that spawned it in its SessionEntry (`spawnedBy`, a session key; spec
// storage.md §3.1 key shapes `agent:<id>:subagent:…`, §4.2 `session_nodes.spawned_by` / entry_json). The session
// list carries it so sub-agent sessions can be shown under their parent.

import { type JsonObject, str } from "../../shared/json.ts";
import type { SessionSummary } from "../model/session.ts";

/** `summary` with `spawnedBy` from the entry when it names a non-empty key (the same object otherwise). */
export function withSpawnedBy(summary: SessionSummary, entry: JsonObject | null): SessionSummary {
  const by = entry ? str(entry, "spawnedBy") : undefined;
  if (by !== undefined && by.trim() !== "") summary.spawnedBy = by;
  return summary;
}
