// The overview (issue 14 §1) over the all-session cost rows: its filter parsed from the query, each row reduced to
// the fields the overview report reads, and the retention advisor (issue 14 §4) over the same rows.

import type { OverviewDTO } from "../../shared/overview.ts";
import type { Result } from "../../shared/result.ts";
import { ok } from "../../shared/result.ts";
import type { SessionSummary } from "../model/session.ts";
import { retentionAdvice } from "../reports/advice/retention-advice.ts";
import { inLocationOrder, leftOutCopy } from "../reports/cost/cost-report.ts";
import { type OverviewQuery, parseOverviewQuery } from "../reports/overview/overview-filter.ts";
import { buildOverview } from "../reports/overview/overview-report.ts";
import type { SessionCostRow } from "./cost-all.ts";

/**
 * The overview of `rows` under the filter `query` names (or the filter's located error), with the advisor's cards
 * over the same sessions (archived ones behind the switch).
 */
export function overviewOf(
  rows: readonly SessionCostRow[],
  query: OverviewQuery,
  /** The listing's backup / checkpoint copies: never rows, said so (issue 13). */
  listed: readonly SessionSummary[] = [],
): Result<OverviewDTO> {
  const parsed = parseOverviewQuery(query);
  if (!parsed.ok) return parsed;
  const filter = parsed.value;
  const sessions = rows.map((r) => {
    const { agentId, sessionId, sessionKey, archived } = r.row;
    return { agentId, sessionId, sessionKey, archived, calls: r.calls };
  });
  const advised = rows.flatMap((r) =>
    r.advice !== null && (filter.includeArchived || r.row.archived === null) ? [r.advice] : [],
  );
  // as cost --all: with archived sessions hidden the copies are not listed, so nothing was left out
  const leftOut = filter.includeArchived ? inLocationOrder(listed.flatMap((s) => leftOutCopy(s) ?? [])) : [];
  return ok(buildOverview(sessions, filter, retentionAdvice(advised), leftOut));
}
