// The read-only session routes: the state dir, the session list, and each session's report, context map,
// bootstrap truncation, cost and cache clock; plus the cost of every session.

import { Hono } from "hono";
import type { CostReportDTO } from "../../../shared/cost.ts";
import { ok, type Result } from "../../../shared/result.ts";
import { OVERVIEW_QUERY_KEYS } from "../../reports/overview/overview-filter.ts";
import type { SessionService } from "../../service/session-service.ts";
import { withEditorPrices } from "../editor-prices.ts";
import { queryOne } from "../query.ts";
import { respond } from "../respond.ts";

export function sessionRoutes(service: SessionService) {
  return (
    new Hono()
      .get("/state", (c) => respond(c, ok(service.stateInfo())))
      .get("/sessions", (c) => {
        const { sessions, issues } = service.listSessions();
        return respond(c, ok({ sessions, issues }));
      })
      .get("/sessions/:agent/:session/report", (c) =>
        respond(c, service.runReport(c.req.param("agent"), c.req.param("session"))),
      )
      .get("/sessions/:agent/:session/map", (c) =>
        respond(c, service.contextMap(c.req.param("agent"), c.req.param("session"))),
      )
      .get("/sessions/:agent/:session/truncation", queryOne(["maxPerFile", "maxTotal", "family"]), (c) =>
        respond(c, service.truncation(c.req.param("agent"), c.req.param("session"), c.req.valid("query"))),
      )
      // `prices`: the in-app price editor's list (shared/price-editor.ts), below every recorded and configured price.
      .get("/sessions/:agent/:session/cost", queryOne(["prices"]), (c) => {
        const r: Result<CostReportDTO> = withEditorPrices(c.req.valid("query").prices, (prices) =>
          service.cost(c.req.param("agent"), c.req.param("session"), prices),
        );
        return respond(c, r);
      })
      .get("/sessions/:agent/:session/clock", queryOne(["prices"]), (c) =>
        respond(
          c,
          withEditorPrices(c.req.valid("query").prices, (prices) =>
            service.clock(c.req.param("agent"), c.req.param("session"), Date.now(), prices),
          ),
        ),
      )
      // Computed in slices off the request path (service/cost-all.ts): other requests are answered meanwhile.
      .get("/cost", queryOne(["archived"]), async (c) =>
        c.json(await service.costAllAsync(c.req.valid("query").archived !== "0"), 200),
      )
      .get("/cost/progress", (c) => c.json(service.costAllProgress(), 200))
      // Never waits for the scan: the sessions done so far, and how far it is (the page polls while it runs).
      .get("/overview", queryOne(OVERVIEW_QUERY_KEYS), (c) =>
        respond(c, service.overviewNow(c.req.valid("query"))),
      )
  );
}
