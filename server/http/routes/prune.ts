// The pruning replay routes: the replay (what-if parameters in the query), one call's tool-result states, and
// the before/after text of one tool result at one call.

import { Hono } from "hono";
import type { SessionService } from "../../session-service.ts";
import { respond } from "../respond.ts";

export function pruneRoutes(service: SessionService) {
  return new Hono()
    .get("/sessions/:agent/:session/prune", (c) =>
      respond(c, service.prune(c.req.param("agent"), c.req.param("session"), c.req.queries())),
    )
    .get("/sessions/:agent/:session/prune/call", (c) =>
      respond(c, service.pruneCall(c.req.param("agent"), c.req.param("session"), c.req.queries())),
    )
    .get("/sessions/:agent/:session/prune/preview", (c) =>
      respond(c, service.prunePreview(c.req.param("agent"), c.req.param("session"), c.req.queries())),
    );
}
