// The Cache & cost tab's paged DTO (issue 18, "the cost DTO is paged like the pruning one"): the report without its
// per-call evidence — one slim row per call for the table, the breakdown card and the price editor — and the full
// CostCallDTO of one call on demand (GET …/cost/call). The CLI's `cost --json` keeps the full CostReportDTO;
// every number on a row is the full call's own field (server/reports/cost/cost-page.ts projects, never recomputes).

import type { CacheVerdict, CostReportDTO, SpendCause } from "./cost.ts";

/**
 * One call as the table lists it: the CostCallDTO fields the table shows, copied, nothing derived anew. Flags are
 * present only when set (a 10,000-call session sends 10,000 rows: every absent field is bytes saved); the verdict's
 * wording, tiers and price source are in the call's full record.
 */
export interface CostCallRowDTO {
  /** 1-based position in the report's calls (the table's `#`). */
  n: number;
  entryIndex: number;
  timestamp: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  promptTokens: number;
  costUsd: number | null;
  hitRate: number | null;
  writeAwareHitRate: number | null;
  verdict: CacheVerdict;
  /** cause.cause of the full call (where its money went). */
  spendCause: SpendCause;
  gapMs: number | null;
  clockBack?: string;
  missCostUsd: number | null;
  /** The full call's writeTier.tier is "1h". */
  oneHourWrite?: true;
  /** The call is off the active branch (onActiveBranch false). */
  offBranch?: true;
  /** heartbeat true, with its signals. */
  heartbeatSignals?: string[];
}

/** One of the session's costliest calls, with the line that says where its money went (CallCauseDTO.detail). */
export interface CostliestCallDTO {
  n: number;
  entryIndex: number;
  costUsd: number;
  cause: SpendCause;
  detail: string;
}

/** CostReportDTO with `rows` in place of `calls`. */
export interface CostReportPageDTO extends Omit<CostReportDTO, "calls"> {
  rows: CostCallRowDTO[];
  /** The five costliest priced calls (cost > 0), costliest first; ties keep call order. */
  costliest: CostliestCallDTO[];
  /** `provider/model` of every call nothing priced (costSource "unpriced"), sorted: what the price editor offers. */
  unpricedModels: string[];
  /** The calls the expiry and pruning-round tables name (by entry id): their `#` and row key, to link to them. */
  linkedCalls: Record<string, { n: number; entryIndex: number }>;
}
