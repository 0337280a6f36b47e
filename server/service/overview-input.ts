// The overview (issue 14 §1) over the all-session cost rows: its filter parsed from the query, each row reduced to
// the fields the overview report reads.

import type { OverviewDTO } from "../../shared/overview.ts";
import type { Result } from "../../shared/result.ts";
import { ok } from "../../shared/result.ts";
import { type OverviewQuery, parseOverviewQuery } from "../reports/overview/overview-filter.ts";
import { buildOverview } from "../reports/overview/overview-report.ts";
import type { SessionCostRow } from "./cost-all.ts";

function overviewSessionOf(r: SessionCostRow) {
  const { agentId, sessionId, sessionKey, archived } = r.row;
  return { agentId, sessionId, sessionKey, archived, calls: r.calls };
}

/** The overview of `rows` under the filter `query` names, or the filter's located error. */
export function overviewOf(rows: readonly SessionCostRow[], query: OverviewQuery): Result<OverviewDTO> {
  const filter = parseOverviewQuery(query);
  if (!filter.ok) return filter;
  return ok(buildOverview(rows.map(overviewSessionOf), filter.value));
}
