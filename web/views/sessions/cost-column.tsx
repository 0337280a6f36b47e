// Per-session cost figures for the picker's triage columns and cost sort, from GET /api/cost (all-session totals,
// the same rows `cost --all --json` prints). The cost report is heavier than the session list, so the list never
// waits for it.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { CostTotalsRowDTO } from "../../../shared/cost.ts";
import type { SessionSummary } from "../../../shared/session.ts";
import { allCostQuery } from "../../api/queries.ts";

export interface SessionCosts {
  available: boolean;
  /** The session's totals row; null while loading, or for a session without transcript (it has no cost, not $0). */
  rowOf: (s: SessionSummary) => CostTotalsRowDTO | null;
}

export function useCostBySession(): SessionCosts {
  const q = useQuery(allCostQuery());
  const byKey = useMemo(() => {
    const m = new Map<string, CostTotalsRowDTO>();
    for (const r of q.data?.sessions ?? []) if (!("missing" in r)) m.set(`${r.agentId}/${r.sessionId}`, r);
    return m;
  }, [q.data]);
  const rowOf = useCallback((s: SessionSummary) => byKey.get(`${s.agentId}/${s.sessionId}`) ?? null, [byKey]);
  // one object while the rows are the same: the table's sort memo depends on it
  const available = q.data !== undefined;
  return useMemo(() => ({ available, rowOf }), [available, rowOf]);
}
