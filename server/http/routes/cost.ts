// The Cache & cost tab's paged cost report (issue 18): the report with one slim row per call, and one call's full
// record (evidence, cause, tiers) when its row is opened. Both read the service's memoized report, so they agree
// with GET …/cost (the CLI's `cost --json`) field for field.

import { Hono } from "hono";
import type { CostCallDTO } from "../../../shared/cost.ts";
import type { CostReportPageDTO } from "../../../shared/cost-page.ts";
import { fail, ok, type Result } from "../../../shared/result.ts";
import { costCallAt, costReportPage } from "../../reports/cost/cost-page.ts";
import type { SessionService } from "../../service/session-service.ts";
import { withEditorPrices } from "../editor-prices.ts";
import { queryOne } from "../query.ts";
import { respond } from "../respond.ts";

/** `call`: the call's transcript entry index (CostCallRowDTO.entryIndex, the table's row key). */
function callOf(
  value: string | undefined,
  f: (entryIndex: number) => Result<CostCallDTO>,
): Result<CostCallDTO> {
  const entryIndex = Number(value);
  if (value === undefined || value === "" || !Number.isInteger(entryIndex) || entryIndex < 0)
    return fail("bad-request", "call (the call's entry index, an integer ≥ 0) is required", 400);
  return f(entryIndex);
}

export function costRoutes(service: SessionService) {
  return new Hono()
    .get("/sessions/:agent/:session/cost/page", queryOne(["prices"]), (c) => {
      const r: Result<CostReportPageDTO> = withEditorPrices(c.req.valid("query").prices, (prices) => {
        const report = service.cost(c.req.param("agent"), c.req.param("session"), prices);
        return report.ok ? ok(costReportPage(report.value)) : report;
      });
      return respond(c, r);
    })
    .get("/sessions/:agent/:session/cost/call", queryOne(["prices", "call"]), (c) => {
      const q = c.req.valid("query");
      const r: Result<CostCallDTO> = withEditorPrices(q.prices, (prices) =>
        callOf(q.call, (entryIndex) => {
          const report = service.cost(c.req.param("agent"), c.req.param("session"), prices);
          if (!report.ok) return report;
          const call = costCallAt(report.value, entryIndex);
          return call
            ? ok(call)
            : fail(
                "not-found",
                `no model call at entry ${entryIndex} (the cost report has ${report.value.calls.length} calls)`,
                404,
              );
        }),
      );
      return respond(c, r);
    });
}
