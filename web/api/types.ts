// Response shapes of the small endpoints that have no DTO file in shared/ (yet).

import type { ParseIssue, SessionSummary } from "../../shared/session.ts";

/** GET /api/state */
export interface StateDTO {
  stateDir: string;
  /** True when the bundled demo state dir is served (the UI shows a banner). */
  demo: boolean;
  /** Why this state dir was chosen (flag, env, default, demo fallback). */
  reason: string;
}

/** GET /api/sessions */
export interface SessionsDTO {
  sessions: SessionSummary[];
  issues: ParseIssue[];
}
