// Per-session cost for the picker's cost column / sort. GET /api/cost (all-session totals) has no DTO
// file yet; until it does, the column shows "—" and the cost sort is disabled.

import type { SessionSummary } from "../../../shared/session.ts";

export function useCostBySession(): { available: boolean; costOf: (s: SessionSummary) => number | null } {
  return { available: false, costOf: noCost };
}

function noCost(_s: SessionSummary): number | null {
  return null;
}
