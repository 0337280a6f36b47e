// OpenClaw's history turn limit (2026.3.2 `getHistoryLimitFromSessionKey`, src/agents/pi-embedded-runner): a run
// replays only the last N user turns when the session key names a channel DM (`channels.<provider>.dmHistoryLimit`,
// a per-DM `channels.<provider>.dms.<id>.historyLimit`) or a channel / group (`channels.<provider>.historyLimit`).
// No config, or a key of another shape (agent:main:main), means no limit. With a limit, each new run can drop the
// oldest turn, which rewrites the history at its start — a prefix change nothing in the transcript records.

import { isObject, type JsonObject } from "../../shared/json.ts";

/** OpenClaw's stripThreadSuffix: a DM id without its `:thread:<n>` / `:topic:<n>` suffix. */
function stripThreadSuffix(id: string): string {
  return /^(.*)(?::(?:thread|topic):\d+)$/iu.exec(id)?.[1] ?? id;
}

/** limitHistoryTurns' own test: `!limit || limit <= 0` replays the whole history. */
function limits(v: unknown): boolean {
  return !(v === undefined || v === null || v === false || v === 0 || (typeof v === "number" && v <= 0));
}

/** The history limit a run of `sessionKey` replays under (undefined: none). */
export function historyLimitFor(sessionKey: string, config: JsonObject | null): unknown {
  if (!config) return undefined;
  const parts = sessionKey.split(":").filter((p) => p !== "");
  const rest = parts.length >= 3 && parts[0] === "agent" ? parts.slice(2) : parts;
  const provider = rest[0]?.toLowerCase();
  if (!provider) return undefined;
  const channels = config.channels;
  const entry = isObject(channels) ? channels[provider] : undefined;
  if (!isObject(entry)) return undefined;
  const kind = rest[1]?.toLowerCase();
  if (kind === "dm" || kind === "direct") {
    const userId = stripThreadSuffix(rest.slice(2).join(":"));
    const dm = isObject(entry.dms) ? entry.dms[userId] : undefined;
    if (userId && isObject(dm) && dm.historyLimit !== undefined) return dm.historyLimit;
    return entry.dmHistoryLimit;
  }
  if (kind === "channel" || kind === "group") return entry.historyLimit;
  return undefined;
}

/** Whether no run of this session can be under a history limit: known key without one, or none configured at all. */
export function noHistoryLimit(sessionKey: string | null, config: JsonObject | null): boolean {
  if (sessionKey !== null) return !limits(historyLimitFor(sessionKey, config));
  const channels = config?.channels;
  if (!isObject(channels)) return true;
  return Object.values(channels).every(
    (c) =>
      !isObject(c) ||
      (!limits(c.dmHistoryLimit) &&
        !limits(c.historyLimit) &&
        !(isObject(c.dms) && Object.values(c.dms).some((d) => isObject(d) && limits(d.historyLimit)))),
  );
}
