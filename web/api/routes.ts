// API paths built with the typed Hono client (`hc<AppType>`): a renamed or removed server route is a
// compile error here instead of a 404 at run time. Responses are fetched by client.ts (getJson) and typed
// with the shared DTOs, because the route types do not narrow success bodies from error bodies.

import { hc } from "hono/client";
import type { AppType } from "../../server/http/app.ts";

function client() {
  return hc<AppType>(typeof window === "undefined" ? "http://localhost" : window.location.origin);
}

export type SessionLeaf = "report" | "map" | "truncation" | "prune" | "cost";

export function sessionRoute(agentId: string, sessionId: string, leaf: SessionLeaf): string {
  const s = client().api.sessions[":agent"][":session"];
  // hc pastes params verbatim: encode them (session ids and agent ids are file names, may hold any char).
  const param = { param: { agent: encodeURIComponent(agentId), session: encodeURIComponent(sessionId) } };
  switch (leaf) {
    case "report":
      return s.report.$url(param).pathname;
    case "map":
      return s.map.$url(param).pathname;
    case "truncation":
      return s.truncation.$url(param).pathname;
    case "prune":
      return s.prune.$url(param).pathname;
    case "cost":
      return s.cost.$url(param).pathname;
  }
}

export const stateRoute = (): string => client().api.state.$url().pathname;
export const sessionsRoute = (): string => client().api.sessions.$url().pathname;
export const allCostRoute = (): string => client().api.cost.$url().pathname;

function sessionApi(agentId: string, sessionId: string) {
  return {
    s: client().api.sessions[":agent"][":session"],
    param: { param: { agent: encodeURIComponent(agentId), session: encodeURIComponent(sessionId) } },
  };
}

/** GET /api/sessions/:a/:s/clock (shared/live.ts CacheClockDTO). */
export function clockRoute(agentId: string, sessionId: string): string {
  const { s, param } = sessionApi(agentId, sessionId);
  return s.clock.$url(param).pathname;
}

/** GET …/export: the self-contained HTML file (the server redacts unless `redact=0`). */
export function exportRoute(agentId: string, sessionId: string, redact: boolean): string {
  const { s, param } = sessionApi(agentId, sessionId);
  return `${s.export.$url(param).pathname}?redact=${redact ? "1" : "0"}`;
}

/** GET …/issue.md: the "Copy as issue" Markdown block. */
export function issueRoute(agentId: string, sessionId: string, redact: boolean): string {
  const { s, param } = sessionApi(agentId, sessionId);
  return `${s["issue.md"].$url(param).pathname}?redact=${redact ? "1" : "0"}`;
}

/** GET …/prune/call?call=: one replayed call's tool-result states. */
export function pruneCallRoute(agentId: string, sessionId: string): string {
  const { s, param } = sessionApi(agentId, sessionId);
  return s.prune.call.$url(param).pathname;
}

/** GET …/prune/preview?call=&toolCallId=: before/after text of one tool result at one call. */
export function prunePreviewRoute(agentId: string, sessionId: string): string {
  const { s, param } = sessionApi(agentId, sessionId);
  return s.prune.preview.$url(param).pathname;
}
