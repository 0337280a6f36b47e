// The overview's filter from a query (`overview --since … --until … --agent … --model … --tz …`, and the same keys
// of GET /api/overview): one parser, so the CLI and the page read a URL the same way. Bad values are errors
// that name the value, never ignored.

import type { OverviewFilter } from "../../../shared/overview.ts";
import { fail, ok, type Result } from "../../../shared/result.ts";
import { canonicalTimeZone, isIsoDay } from "./day-key.ts";

export interface OverviewQuery {
  since?: string;
  until?: string;
  agent?: string;
  model?: string;
  tz?: string;
  /** `0` / `false`: leave archived sessions out (default: included). */
  archived?: string;
}

export const OVERVIEW_QUERY_KEYS = ["since", "until", "agent", "model", "tz", "archived"] as const;

export function parseOverviewQuery(q: OverviewQuery): Result<OverviewFilter> {
  for (const key of ["since", "until"] as const) {
    const v = q[key];
    if (v !== undefined && v !== "" && !isIsoDay(v))
      return fail("bad-request", `${key} must be a day YYYY-MM-DD, got ${JSON.stringify(v)}`, 400);
  }
  const since = q.since || null;
  const until = q.until || null;
  if (since !== null && until !== null && since > until)
    return fail("bad-request", `since (${since}) is after until (${until})`, 400);
  const tz = q.tz || "UTC";
  const timeZone = canonicalTimeZone(tz);
  if (timeZone === null) return fail("bad-request", `unknown time zone ${JSON.stringify(tz)}`, 400);
  return ok({
    since,
    until,
    agentId: q.agent || null,
    model: q.model || null,
    timeZone,
    includeArchived: q.archived !== "0" && q.archived !== "false",
  });
}
