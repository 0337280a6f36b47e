// queryOptions factories: one per endpoint, so views share cache entries and live.ts can invalidate by key prefix.
// Each queryFn calls the typed client; the data types come from the server's route chain, not from a cast.

import { queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import type { PruneParams } from "../../shared/prune-params.ts";
import { api, body, sessionParam } from "./client.ts";

export const keys = {
  state: ["state"] as const,
  sessions: ["sessions"] as const,
  allCost: ["cost"] as const,
  session: (agentId: string, sessionId: string) => ["session", agentId, sessionId] as const,
};

const session = api.sessions[":agent"][":session"];

/** Defined, non-empty values only (an empty URL field means "as configured", not `key=`). */
function defined<T extends Record<string, string | undefined>>(params: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== "") Object.assign(out, { [k]: v });
  return out;
}

export const stateQuery = () =>
  queryOptions({
    queryKey: keys.state,
    queryFn: async ({ signal }) => body(await api.state.$get(undefined, { init: { signal } })),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: keys.sessions,
    queryFn: async ({ signal }) => body(await api.sessions.$get(undefined, { init: { signal } })),
  });

export const mapQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "map"] as const,
    queryFn: async ({ signal }) =>
      body(await session.map.$get(sessionParam(agentId, sessionId), { init: { signal } })),
    // The tokenizer counts arrive later: poll while they are pending.
    refetchInterval: (q) => (q.state.data?.tokenizer.state === "pending" ? 2000 : false),
  });

export const reportQuery = (agentId: string, sessionId: string) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "report"] as const,
    queryFn: async ({ signal }) =>
      body(await session.report.$get(sessionParam(agentId, sessionId), { init: { signal } })),
  });

/** What-if parameters of /truncation (absent = the report's own caps and family): the route's own query. */
export type TruncationParams = InferRequestType<typeof session.truncation.$get>["query"];

export const truncationQuery = (agentId: string, sessionId: string, p: TruncationParams) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "truncation", p] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.truncation.$get(
          { ...sessionParam(agentId, sessionId), query: defined(p) },
          { init: { signal } },
        ),
      ),
    placeholderData: (prev) => prev,
  });

/**
 * The replay without per-call tool-result states (`calls=summary`: they are O(calls × tool results), tens of
 * MB on a long session); the selected call's come from pruneCallQuery.
 */
export const pruneQuery = (agentId: string, sessionId: string, p: PruneParams) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune", p] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.prune.$get(
          { ...sessionParam(agentId, sessionId), query: { ...defined(p), calls: "summary" } },
          { init: { signal } },
        ),
      ),
    placeholderData: (prev) => prev,
  });

/**
 * The next-call prediction alone, for the Next call card when the URL picks no `at`: at the server's wall clock
 * (a refetch — the card's "now", a live change — asks again). The replay's own `next` is right after the last entry.
 */
export const pruneNextQuery = (agentId: string, sessionId: string, p: PruneParams) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune-next", p] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.prune.next.$get(
          { ...sessionParam(agentId, sessionId), query: defined(p) },
          { init: { signal } },
        ),
      ),
    // no placeholder: another what-if's prediction must not show under this one
  });

/** One replayed call's tool-result states (same what-if parameters as pruneQuery). */
export const pruneCallQuery = (agentId: string, sessionId: string, p: PruneParams, callIndex: number) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "prune-call", p, callIndex] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.prune.call.$get(
          { ...sessionParam(agentId, sessionId), query: { ...defined(p), call: String(callIndex) } },
          { init: { signal } },
        ),
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
    queryFn: async ({ signal }) =>
      body(
        await session.prune.preview.$get(
          {
            ...sessionParam(agentId, sessionId),
            query: { ...defined(p), call: String(callIndex), toolCallId },
          },
          { init: { signal } },
        ),
      ),
  });

/**
 * The Cache & cost tab's paged report (issue 18): one slim row per call, no evidence. `prices`: the price
 * editor's list in its text form (shared/price-editor.ts), "" for none.
 */
export const costPageQuery = (agentId: string, sessionId: string, prices = "") =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "cost", prices, "page"] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.cost.page.$get(
          { ...sessionParam(agentId, sessionId), query: prices === "" ? {} : { prices } },
          { init: { signal } },
        ),
      ),
  });

/** One call's full record (evidence, cause, tiers), fetched when its row is opened; `entryIndex` = the row key. */
export const costCallQuery = (agentId: string, sessionId: string, prices: string, entryIndex: number) =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "cost", prices, "call", entryIndex] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.cost.call.$get(
          {
            ...sessionParam(agentId, sessionId),
            query: prices === "" ? { call: String(entryIndex) } : { prices, call: String(entryIndex) },
          },
          { init: { signal } },
        ),
      ),
  });

export const allCostQuery = () =>
  queryOptions({
    queryKey: keys.allCost,
    queryFn: async ({ signal }) => body(await api.cost.$get({ query: {} }, { init: { signal } })),
  });

/** The overview's filter as the route's query (since, until, agent, model, tz, archived). */
export type OverviewParams = InferRequestType<typeof api.overview.$get>["query"];

/**
 * GET /api/overview never waits for the all-session scan: it answers with the sessions done so far and the
 * progress, so the page polls while the scan runs (and shows the previous filter's numbers while a new one loads).
 */
export const overviewQuery = (p: OverviewParams) =>
  queryOptions({
    queryKey: [...keys.allCost, "overview", p] as const,
    queryFn: async ({ signal }) => body(await api.overview.$get({ query: defined(p) }, { init: { signal } })),
    refetchInterval: (q) => (q.state.data?.progress.state === "ready" ? false : 500),
    placeholderData: (prev) => prev,
  });

/**
 * The cache / pruning TTL countdown. No polling: the UI ticks locally from `msLeft`; the DTO is re-fetched when
 * the session changes (live.ts invalidates the session's key prefix) or when the local countdown crosses zero.
 */
export const clockQuery = (agentId: string, sessionId: string, prices = "") =>
  queryOptions({
    queryKey: [...keys.session(agentId, sessionId), "clock", prices] as const,
    queryFn: async ({ signal }) =>
      body(
        await session.clock.$get(
          { ...sessionParam(agentId, sessionId), query: prices === "" ? {} : { prices } },
          { init: { signal } },
        ),
      ),
    retry: false,
  });

/** GET …/export: the self-contained HTML file (the server redacts unless `redact=0`); a download link. */
export function exportHref(agentId: string, sessionId: string, redact: boolean): string {
  const url = session.export.$url({
    ...sessionParam(agentId, sessionId),
    query: { redact: redact ? "1" : "0" },
  });
  return url.pathname + url.search;
}

/** GET …/issue.md: the "Copy as issue" Markdown block. */
export async function fetchIssueMarkdown(
  agentId: string,
  sessionId: string,
  redact: boolean,
): Promise<string> {
  const res = await session["issue.md"].$get({
    ...sessionParam(agentId, sessionId),
    query: { redact: redact ? "1" : "0" },
  });
  return res.text();
}
