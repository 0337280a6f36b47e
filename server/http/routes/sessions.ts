// The read-only session routes: the state dir, the session list, and each session's report, context map,
// bootstrap truncation, cost and cache clock; plus the cost of every session.

import { Hono } from "hono";
import type { SessionService } from "../../session-service.ts";
import { respond } from "../respond.ts";

export function sessionRoutes(service: SessionService) {
  return new Hono()
    .get("/state", (c) => c.json(service.stateInfo(), 200))
    .get("/sessions", (c) => {
      const { sessions, issues } = service.listSessions();
      return c.json({ sessions, issues }, 200);
    })
    .get("/sessions/:agent/:session/report", (c) =>
      respond(c, service.runReport(c.req.param("agent"), c.req.param("session"))),
    )
    .get("/sessions/:agent/:session/map", (c) =>
      respond(c, service.contextMap(c.req.param("agent"), c.req.param("session"))),
    )
    .get("/sessions/:agent/:session/truncation", (c) =>
      respond(c, service.truncation(c.req.param("agent"), c.req.param("session"), c.req.query())),
    )
    .get("/sessions/:agent/:session/cost", (c) =>
      respond(c, service.cost(c.req.param("agent"), c.req.param("session"))),
    )
    .get("/sessions/:agent/:session/clock", (c) =>
      respond(c, service.clock(c.req.param("agent"), c.req.param("session"), Date.now())),
    )
    .get("/cost", (c) => c.json(service.costAll(c.req.query("archived") !== "0"), 200));
}
