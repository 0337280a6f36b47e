// GET /compare?a=REF[&b=REF][&what-if keys]: session a as run beside session b, as run or under the what-if;
// no b: a under the what-if (issue 16). REF: a session id, a session key or AGENT/SESSIONID, as the CLI takes
// them; an unknown one is a located 404.

import { Hono } from "hono";
import { COMPARE_WHATIF_KEYS, parseCompareWhatIf } from "../../../shared/compare-params.ts";
import { lastValue } from "../../../shared/prune-params.ts";
import type { SessionService } from "../../service/session-service.ts";
import { queryOf } from "../query.ts";
import { respond } from "../respond.ts";

export function compareRoutes(service: SessionService) {
  return new Hono().get("/compare", queryOf(["a", "b", ...COMPARE_WHATIF_KEYS]), (c) => {
    const q = c.req.valid("query");
    return respond(c, service.compareRefs(lastValue(q.a), lastValue(q.b), parseCompareWhatIf(q)));
  });
}
