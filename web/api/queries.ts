// queryOptions factories: one per endpoint, so views share cache entries and live.ts can invalidate by key prefix.

import { queryOptions } from "@tanstack/react-query";
import type { ContextMapDTO } from "../../shared/map.ts";
import { getJson, queryString, sessionApiPath } from "./client.ts";
import type { SessionsDTO, StateDTO } from "./types.ts";

export const keys = {
  state: ["state"] as const,
  sessions: ["sessions"] as const,
  allCost: ["cost"] as const,
  session: (agentId: string, sessionId: string) => ["session", agentId, sessionId] as const,
};

export const stateQuery = () =>
  queryOptions({
    queryKey: keys.state,
    queryFn: ({ signal }) => getJson<StateDTO>("/api/state", signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: keys.sessions,
    queryFn: ({ signal }) => getJson<SessionsDTO>("/api/sessions", signal),
  });

export const mapQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "map"] as const,
    queryFn: ({ signal }) => getJson<ContextMapDTO>(sessionApiPath(agentId, sessionId, "map"), signal),
    // The tokenizer counts arrive later: poll while they are pending.
    refetchInterval: (q) => (q.state.data?.tokenizer.state === "pending" ? 2000 : false),
  });

export { queryString };
