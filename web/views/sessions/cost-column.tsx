// Per-session cost for the picker's cost column / sort, from GET /api/cost (all-session totals).
// The cost report is heavier than the session list, so the list never waits for it.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { SessionSummary } from "../../../shared/session.ts";
import { allCostQuery } from "../../api/queries.ts";

export function useCostBySession(): { available: boolean; costOf: (s: SessionSummary) => number | null } {
  const q = useQuery(allCostQuery());
  const byKey = useMemo(() => {
    const m = new Map<string, number>();
    // a session without transcript has no cost (not $0): it stays out of the map
    for (const r of q.data?.sessions ?? [])
      if (!("missing" in r)) m.set(`${r.agentId}/${r.sessionId}`, r.costUsd);
    return m;
  }, [q.data]);
  const costOf = useCallback(
    (s: SessionSummary) => byKey.get(`${s.agentId}/${s.sessionId}`) ?? null,
    [byKey],
  );
  return { available: q.data !== undefined, costOf };
}
