// Where the money went across every session (issue 14 §1): `overview --json`, GET /api/overview, the landing page.
// The first-level names of OverviewDTO and of its rows are the contract; fields marked "extra" are not.
// Every number is a sum over the per-call rows of the per-session cost reports (server/reports/cost/): one price
// and one miss cost per call, so `totals` equal the sum of the per-session `cost --json` totals.

import type { LeftOutCopyDTO, SpendCause } from "./cost.ts";

/**
 * What a priced call's cost was spent on (the day chart's stack): fresh (uncached) input, cache reads, cache
 * writes of a call that read the previous prefix (`hit`: the new suffix), cache writes of any other call (a miss
 * re-writing the prefix), output. `unsplit`: a recorded cost with no known per-token price to split it by.
 */
export type CostKind =
  | "freshInput"
  | "cacheRead"
  | "cacheWriteAfterHit"
  | "cacheWriteAfterMiss"
  | "output"
  | "unsplit";

export const COST_KINDS: readonly CostKind[] = [
  "freshInput",
  "cacheRead",
  "cacheWriteAfterHit",
  "cacheWriteAfterMiss",
  "output",
  "unsplit",
];

export type CostByKind = Record<CostKind, number>;

export interface OverviewTotalsDTO {
  /** Sum of the priced calls' cost (USD); see `unpricedCalls`. */
  costUsd: number;
  calls: number;
  sessions: number;
  /** Calls with no recorded cost and no known price: left out of every $ figure, never counted as $0. */
  unpricedCalls: number;
  /** Sum of the calls' miss cost (what re-writing the missed prefix cost over reading it; priced misses only). */
  missCostUsd: number;
  // ---- extras ----
  /** missCostUsd / costUsd (null when nothing is priced). */
  missShare: number | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** cacheRead / (input + cacheRead + cacheWrite) of the summed buckets. */
  hitRate: number | null;
  /** The spec's write-aware hit rate of the summed buckets (cache-and-cost.md §5). */
  writeAwareHitRate: number | null;
  byKind: CostByKind;
}

export interface OverviewDayDTO {
  /** `YYYY-MM-DD` in the overview's time zone; null: calls without a timestamp. */
  day: string | null;
  costUsd: number;
  calls: number;
  // ---- extras ----
  unpricedCalls: number;
  missCostUsd: number;
  byKind: CostByKind;
}

export interface OverviewAgentDTO {
  agentId: string;
  costUsd: number;
  calls: number;
  sessions: number;
  // ---- extras ----
  unpricedCalls: number;
  missCostUsd: number;
}

/** The spend of the filter's calls by cause ("where the money went", issue 14 §2, summed over every session). */
export interface OverviewCauseDTO {
  cause: SpendCause;
  costUsd: number;
  calls: number;
  unpricedCalls: number;
  missCostUsd: number;
}

export interface OverviewModelDTO {
  provider: string | null;
  model: string | null;
  costUsd: number;
  calls: number;
  // ---- extras ----
  unpricedCalls: number;
  missCostUsd: number;
}

export interface OverviewSessionDTO {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  /** The session's archive kind (as in `cost --all`), null when live. */
  archived: string | null;
  costUsd: number;
  missCostUsd: number;
  calls: number;
  // ---- extras ----
  unpricedCalls: number;
}

export type AdviceKind =
  | "cache-retention"
  | "keep-warm-heartbeat"
  | "pruning-ttl"
  | "bootstrap-file"
  | "dm-scope";

export interface AdviceDTO {
  kind: AdviceKind;
  agentId: string;
  /** Today's setting, as the config says it (or the default that applies). */
  current: string;
  /** The recommended setting (the config snippet to paste, when there is one). */
  recommended: string;
  /**
   * What the recommendation would have saved over the analysed period (USD; null: not priced, or a card that
   * prices a cost rather than a saving — the bootstrap card's $ are in its text).
   */
  savingsUsd: number | null;
  /** The numbers behind it, one line each. */
  evidence: string[];
}

export interface OverviewFilter {
  /** First day included, `YYYY-MM-DD` in `timeZone`. */
  since: string | null;
  /** Last day included, `YYYY-MM-DD` in `timeZone`. */
  until: string | null;
  agentId: string | null;
  /** `provider/model` or a bare model id. */
  model: string | null;
  /** IANA time zone of the days (default UTC). */
  timeZone: string;
  includeArchived: boolean;
}

export interface OverviewDTO {
  totals: OverviewTotalsDTO;
  /** Days with calls, ascending (the calls without a timestamp last). */
  byDay: OverviewDayDTO[];
  /** By cost, descending. */
  byAgent: OverviewAgentDTO[];
  /** By cost, descending. */
  byModel: OverviewModelDTO[];
  /** By cost, descending. */
  sessions: OverviewSessionDTO[];
  advice: AdviceDTO[];
  // ---- extras ----
  filter: OverviewFilter;
  /** Every agent and model of the unfiltered sessions (the filter choices). */
  agents: string[];
  models: string[];
  /** Every session's calls by cause, by cost descending: Σ costUsd = totals.costUsd (each call has one cause). */
  byCause: OverviewCauseDTO[];
  /**
   * Backup / checkpoint copies listed by `sessions` but never counted: their calls are another transcript's
   * (issue 13). Every one of the state dir whatever the filter; none when archived sessions are hidden.
   */
  leftOut: LeftOutCopyDTO[];
}

/** GET /api/overview: the overview of the sessions scanned so far and how far the scan is. */
export interface OverviewResponseDTO {
  overview: OverviewDTO;
  progress: { state: "idle" | "running" | "ready"; done: number; total: number };
}

export function emptyByKind(): CostByKind {
  return {
    freshInput: 0,
    cacheRead: 0,
    cacheWriteAfterHit: 0,
    cacheWriteAfterMiss: 0,
    output: 0,
    unsplit: 0,
  };
}

/** `provider/model` as the model filter and the by-model rows name it. */
export function modelLabel(provider: string | null, model: string | null): string {
  return `${provider ?? "?"}/${model ?? "?"}`;
}
