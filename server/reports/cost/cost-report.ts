// Per-call and per-session cost + prompt-cache report (spec cache-and-cost.md §4–§7, transcript.md §4, §8).
// Pure: a LoadedSession (+ config, pricing overrides, optional pruning rounds from the replay) in, DTO out.
//
// Totals sum over ALL model calls of the transcript (every branch — each one was billed), excluding
// transcript-only assistants (gateway-injected replies, delivery mirrors); `activeBranchTotals` is what the
// context displays describe (cache-and-cost.md §4 "Rules for clawscope").
//
// A composition of per-call steps (classify → price) and sums over the priced calls (totals, gaps, rounds,
// counterfactuals, heartbeats): a breakdown by cause is one more sum over the same PricedCall list, and an
// appended session needs only its new calls classified and priced while the session-wide inputs (observed
// TTL, config, pricing) are unchanged (CacheClassifier and priceCall take calls one by one).

import { pushAll } from "../../../shared/big-lists.ts";
import type {
  CostAllDTO,
  CostCallDTO,
  CostReportDTO,
  CostTotalsRowDTO,
  LeftOutCopyDTO,
  MissingTranscriptRowDTO,
} from "../../../shared/cost.ts";
import type { JsonObject } from "../../../shared/json.ts";
import type { PricingOverrides } from "../../../shared/pricing.ts";
import type { LoadedSession, SessionSummary } from "../../model/session.ts";
import { isCronSessionKey } from "../../openclaw/heartbeat.ts";
import { PriceTable } from "../../pricing/price-table.ts";
import type { CostReportInput } from "./cost-input.ts";
import { CostRun } from "./cost-run.ts";
import { sumTotals } from "./totals.ts";

export type { CostReportInput } from "./cost-input.ts";
export type { PruningRoundInput } from "./pruning-rounds.ts";

/** The cost + cache report of one session (a run that is not kept; the service keeps and continues its own). */
export function buildCostReport(input: CostReportInput): CostReportDTO {
  return CostRun.start(input).report();
}

/**
 * `cost --all --json`: one totals row per session (archived included) plus the grand total. A session without
 * transcript gets a row without numbers; backup / checkpoint copies are left out of rows and totals and listed in
 * `leftOut` (their calls are another transcript's).
 */
export function buildCostTotals(
  sessions: LoadedSession[],
  options?: { config?: JsonObject | null; pricing?: PricingOverrides; prices?: PriceTable },
): CostAllDTO {
  const rows: CostAllDTO["sessions"] = [];
  const leftOut: LeftOutCopyDTO[] = [];
  const all: CostCallDTO[] = [];
  let transcriptOnly = 0;
  const config = options?.config ?? null;
  const prices =
    options?.prices ?? new PriceTable({ config, ...(options?.pricing ? { file: options.pricing } : {}) });
  for (const session of sessions) {
    const copy = leftOutCopy(session.summary);
    if (copy) {
      leftOut.push(copy);
      continue;
    }
    if (session.summary.missing) {
      rows.push(missingTranscriptRow(session.summary));
      continue;
    }
    const report = buildCostReport({ session, config, prices });
    pushAll(all, report.calls);
    transcriptOnly += report.totals.transcriptOnlyExcluded;
    rows.push(costTotalsRow(session, report));
  }
  return { sessions: rows, totals: sumTotals(all, transcriptOnly), leftOut: inLocationOrder(leftOut) };
}

/** One session's row of the all-session totals (buildCostTotals; the service's sliced aggregate). */
export function costTotalsRow(session: LoadedSession, report: CostReportDTO): CostTotalsRowDTO {
  let missCostUsd = 0;
  let lastPromptTokens: number | null = null;
  for (const c of report.calls) {
    missCostUsd += c.missCostUsd ?? 0;
    if (c.onActiveBranch && c.verdict !== "no-usage") lastPromptTokens = c.promptTokens;
  }
  return {
    ...report.totals,
    agentId: session.summary.agentId,
    sessionId: session.summary.sessionId,
    sessionKey: session.summary.sessionKey,
    archived: session.summary.archived,
    cronSession: report.heartbeat.cronSession,
    heartbeatCalls: report.heartbeat.heartbeatCalls,
    missCostUsd,
    lastPromptTokens,
  };
}

/** The row of a session whose transcript file does not exist: where it was looked for, and no numbers. */
export function missingTranscriptRow(summary: SessionSummary): MissingTranscriptRowDTO {
  return {
    agentId: summary.agentId,
    sessionId: summary.sessionId,
    sessionKey: summary.sessionKey,
    archived: summary.archived,
    cronSession: isCronSessionKey(summary.sessionKey),
    missing: true,
    location: summary.location,
  };
}

/** Left-out copies in one order whatever the listing order (the sliced aggregate lists in its own). */
export function inLocationOrder(copies: readonly LeftOutCopyDTO[]): LeftOutCopyDTO[] {
  return [...copies].sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
}

/** A backup / checkpoint copy, said as left out of the totals (null for any other session). */
export function leftOutCopy(summary: SessionSummary): LeftOutCopyDTO | null {
  const kind = summary.archived;
  if (summary.copyOf === undefined || (kind !== "backup" && kind !== "checkpoint")) return null;
  const what = kind === "backup" ? "a backup copy" : "a pre-compaction checkpoint copy";
  return {
    agentId: summary.agentId,
    sessionId: summary.sessionId,
    kind,
    location: summary.location,
    copyOf: summary.copyOf,
    reason: `${what} of ${summary.copyOf}: its calls are that transcript's, counted once there`,
  };
}
