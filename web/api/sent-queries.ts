// queryOptions of the sent routes (issue 16): every call's sent counts, one call's scrubber view, the slot map.
// Keys sit under the session's prefix, so live.ts invalidates them with the session's other queries.

import { queryOptions } from "@tanstack/react-query";
import { api, body, sessionParam } from "./client.ts";
import { keys } from "./queries.ts";

const session = api.sessions[":agent"][":session"];

export const sentQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "sent"] as const,
    queryFn: async ({ signal }) =>
      body(await session.sent.$get(sessionParam(agentId, sessionId), { init: { signal } })),
  });

export const sentSlotsQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "sent-slots"] as const,
    queryFn: async ({ signal }) =>
      body(await session.sent.slots.$get(sessionParam(agentId, sessionId), { init: { signal } })),
  });

export const sentCallQuery = (agentId: string, sessionId: string, call: number) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "sent-call", call] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.sent.call.$get(
          { ...sessionParam(agentId, sessionId), query: { call: String(call) } },
          { init: { signal } },
        ),
      ),
    // keep the previous call on screen while the next one loads: scrubbing must not flash an empty map
    placeholderData: (prev) => prev,
  });
