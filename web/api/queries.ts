// queryOptions factories: one per endpoint, so views share cache entries and live.ts can invalidate by key prefix.

import { queryOptions } from "@tanstack/react-query";
import type { CostAllDTO, CostReportDTO } from "../../shared/cost.ts";
import type { CacheClockDTO } from "../../shared/live.ts";
import type { ContextMapDTO } from "../../shared/map.ts";
import type { PruneCallDetailDTO, PruneReplayDTO, ToolResultPreviewDTO } from "../../shared/prune.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import { getJson, queryString } from "./client.ts";
import {
  allCostRoute,
  clockRoute,
  pruneCallRoute,
  prunePreviewRoute,
  sessionRoute as sessionApiPath,
  sessionsRoute,
  stateRoute,
} from "./routes.ts";
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
    queryFn: ({ signal }) => getJson<StateDTO>(stateRoute(), signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: keys.sessions,
    queryFn: ({ signal }) => getJson<SessionsDTO>(sessionsRoute(), signal),
  });

export const mapQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "map"] as const,
    queryFn: ({ signal }) => getJson<ContextMapDTO>(sessionApiPath(agentId, sessionId, "map"), signal),
    // The tokenizer counts arrive later: poll while they are pending.
    refetchInterval: (q) => (q.state.data?.tokenizer.state === "pending" ? 2000 : false),
  });

export const reportQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "report"] as const,
    queryFn: ({ signal }) => getJson<RunReportDTO>(sessionApiPath(agentId, sessionId, "report"), signal),
  });

/** What-if parameters of /truncation (absent = the report's own caps and family). */
export interface TruncationParams {
  maxPerFile?: string;
  maxTotal?: string;
  family?: string;
}

export const truncationQuery = (agentId: string, sessionId: string, p: TruncationParams) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "truncation", p] as const,
    queryFn: ({ signal }) =>
      getJson<TruncationReportDTO>(
        `${sessionApiPath(agentId, sessionId, "truncation")}${queryString({ ...p })}`,
        signal,
      ),
    placeholderData: (prev) => prev,
  });

/** What-if parameters of /prune, as URL strings (absent = as configured). */
export type PruneParams = Partial<Record<PruneParamKey, string>>;
export const PRUNE_PARAM_KEYS = [
  "ttl",
  "mode",
  "keepLastAssistants",
  "softTrimRatio",
  "hardClearRatio",
  "minPrunableToolChars",
  "softTrimMaxChars",
  "softTrimHeadChars",
  "softTrimTailChars",
  "hardClear",
  "placeholder",
  "allow",
  "deny",
  "contextWindow",
  "algorithm",
  "at",
] as const;
export type PruneParamKey = (typeof PRUNE_PARAM_KEYS)[number];

/**
 * The replay without per-call tool-result states (`calls=summary`: they are O(calls × tool results), tens of
 * MB on a long session); the selected call's come from pruneCallQuery.
 */
export const pruneQuery = (agentId: string, sessionId: string, p: PruneParams) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune", p] as const,
    queryFn: ({ signal }) =>
      getJson<PruneReplayDTO>(
        `${sessionApiPath(agentId, sessionId, "prune")}${queryString({ ...p, calls: "summary" })}`,
        signal,
      ),
    placeholderData: (prev) => prev,
  });

/** One replayed call's tool-result states (same what-if parameters as pruneQuery). */
export const pruneCallQuery = (agentId: string, sessionId: string, p: PruneParams, callIndex: number) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune-call", p, callIndex] as const,
    queryFn: ({ signal }) =>
      getJson<PruneCallDetailDTO>(
        `${pruneCallRoute(agentId, sessionId)}${queryString({ ...p, call: String(callIndex) })}`,
        signal,
      ),
    // no placeholder: another call's (or another what-if's) states must never show under this call
  });

export const prunePreviewQuery = (
  agentId: string,
  sessionId: string,
  p: PruneParams,
  callIndex: number,
  toolCallId: string,
) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune-preview", p, callIndex, toolCallId] as const,
    queryFn: ({ signal }) =>
      getJson<ToolResultPreviewDTO>(
        `${prunePreviewRoute(agentId, sessionId)}${queryString({ ...p, call: String(callIndex), toolCallId })}`,
        signal,
      ),
  });

export const costQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "cost"] as const,
    queryFn: ({ signal }) => getJson<CostReportDTO>(sessionApiPath(agentId, sessionId, "cost"), signal),
  });

export const allCostQuery = () =>
  queryOptions({
    queryKey: keys.allCost,
    queryFn: ({ signal }) => getJson<CostAllDTO>(allCostRoute(), signal),
  });

/**
 * The cache / pruning TTL countdown. No polling: the UI ticks locally from `msLeft`; the DTO is re-fetched when
 * the session changes (live.ts invalidates the session's key prefix) or when the local countdown crosses zero.
 */
export const clockQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "clock"] as const,
    queryFn: ({ signal }) => getJson<CacheClockDTO>(clockRoute(agentId, sessionId), signal),
    retry: false,
  });

export { queryString };
