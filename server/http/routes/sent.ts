// The context as sent at the session's calls (issue 16): every call's sent counts beside its billed usage, one
// call's view for the turn scrubber (its row and the context map at it) and the scrubber's fixed slot map.

import { Hono } from "hono";
import type { SessionService } from "../../service/session-service.ts";
import { queryOne } from "../query.ts";
import { respond } from "../respond.ts";

export function sentRoutes(service: SessionService) {
  return new Hono()
    .get("/sessions/:agent/:session/sent", (c) =>
      respond(c, service.sentCalls(c.req.param("agent"), c.req.param("session"))),
    )
    .get("/sessions/:agent/:session/sent/slots", (c) =>
      respond(c, service.sentSlots(c.req.param("agent"), c.req.param("session"))),
    )
    .get("/sessions/:agent/:session/sent/call", queryOne(["call"]), (c) =>
      respond(c, service.sentView(c.req.param("agent"), c.req.param("session"), c.req.valid("query").call)),
    );
}
