// The pruning replay routes: the replay (the what-if of shared/prune-params.ts in the query), the next-call
// prediction alone, one call's tool-result states, and the before/after text of one tool result at one call.

import { Hono } from "hono";
import { PRUNE_PARAM_KEYS } from "../../../shared/prune-params.ts";
import type { SessionService } from "../../service/session-service.ts";
import { queryOf } from "../query.ts";
import { respond } from "../respond.ts";

export function pruneRoutes(service: SessionService) {
  return (
    new Hono()
      .get("/sessions/:agent/:session/prune", queryOf([...PRUNE_PARAM_KEYS, "calls"]), (c) =>
        respond(c, service.prune(c.req.param("agent"), c.req.param("session"), c.req.valid("query"))),
      )
      // the next-call card: without `at`, at the server's wall clock (the clock route's `now`, sessions.ts)
      .get("/sessions/:agent/:session/prune/next", queryOf(PRUNE_PARAM_KEYS), (c) =>
        respond(
          c,
          service.pruneNext(c.req.param("agent"), c.req.param("session"), c.req.valid("query"), Date.now()),
        ),
      )
      .get("/sessions/:agent/:session/prune/call", queryOf([...PRUNE_PARAM_KEYS, "call"]), (c) =>
        respond(c, service.pruneCall(c.req.param("agent"), c.req.param("session"), c.req.valid("query"))),
      )
      .get(
        "/sessions/:agent/:session/prune/preview",
        queryOf([...PRUNE_PARAM_KEYS, "call", "toolCallId"]),
        (c) =>
          respond(
            c,
            service.prunePreview(c.req.param("agent"), c.req.param("session"), c.req.valid("query")),
          ),
      )
  );
}
