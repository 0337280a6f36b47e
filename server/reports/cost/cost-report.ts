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

import type {
  CostAllDTO,
  CostCallDTO,
  CostReportDTO,
  CostTotalsRowDTO,
  LeftOutCopyDTO,
  MissingTranscriptRowDTO,
} from "../../../shared/cost.ts";
import type { JsonObject } from "../../../shared/json.ts";
import { minCacheableTokens, type PricingOverrides } from "../../../shared/pricing.ts";
import { modelCallsOf } from "../../model/model-calls.ts";
import type { LoadedSession, SessionSummary } from "../../model/session.ts";
import { type SystemPromptReport, storedRunReport } from "../../model/system-prompt-report.ts";
import { entryIndexById } from "../../model/tree.ts";
import { CacheClassifier } from "../../openclaw/cache/verdict.ts";
import { configuredPruning } from "../../openclaw/config/agent-settings.ts";
import { HeartbeatDetector, isCronSessionKey } from "../../openclaw/heartbeat.ts";
import { PriceTable } from "../../pricing/price-table.ts";
import { breakdownByCause, CauseAttributor, unknownMiss } from "./breakdown.ts";
import { CacheLifetimes, mostUsedModel } from "./cache-lifetime.ts";
import { counterfactuals } from "./counterfactuals.ts";
import { gapCosts } from "./gap-costs.ts";
import { heartbeatInfo } from "./heartbeat-info.ts";
import { type PricedCall, priceCall } from "./price-call.ts";
import { type PruningRoundInput, pruningRoundCosts, RoundCalls } from "./pruning-rounds.ts";
import { sumTotals } from "./totals.ts";

export type { PruningRoundInput } from "./pruning-rounds.ts";

export interface CostReportInput {
  session: LoadedSession;
  config: JsonObject | null;
  /**
   * The price precedence below recorded costs (server/pricing/price-table.ts); default: this `config` and
   * `pricing` (as a `--pricing` file) over the price library.
   */
  prices?: PriceTable;
  pricing?: PricingOverrides;
  /** Rounds from the pruning replay (pruning.md §5): as run when pruning is on, predicted when it is off. */
  pruningRounds?: PruningRoundInput[];
  /** Cache lifetime override (ms). The fixtures' mock uses the scenario's pruning ttl (fixtures.md §1). */
  cacheTtlMs?: number;
  /** Counterfactual: bootstrap files trimmed by this many chars. */
  bootstrapTrimChars?: number;
  /**
   * The stored run reports of the session's agent (every SessionEntry's), for `system-prompt-changed` across
   * runs (reports/cost/breakdown.ts); default: this session's own report only.
   */
  agentReports?: readonly SystemPromptReport[];
}

/** Classify and price every billed call, in append order. */
function priceCalls(input: CostReportInput, lifetimes: CacheLifetimes): PricedCall[] {
  const { session, config } = input;
  const transcript = session.transcript;
  const family = session.version.family;
  // One lookup per api/model (a table scan with model-id normalisation), not one per call.
  const minimums = new Map<string, number | null>();
  const minimumOf = (api: string | null, model: string | null): number | null => {
    const key = `${api}\u0000${model}`;
    let v = minimums.get(key);
    if (v === undefined) {
      v = minCacheableTokens(api, model)?.tokens ?? null;
      minimums.set(key, v);
    }
    return v;
  };
  const classifier = new CacheClassifier({
    transcript,
    ttlFor: (c, previous) => lifetimes.ttlFor(c, previous),
    minCacheableFor: (c) => minimumOf(c.api, c.model),
    pruningRoundCallIds: new Set((input.pruningRounds ?? []).map((r) => r.entryId)),
    family,
  });
  const heartbeats = new HeartbeatDetector(
    transcript,
    entryIndexById(transcript.entries, session.summary.location),
  );
  const prices =
    input.prices ?? new PriceTable({ config, ...(input.pricing ? { file: input.pricing } : {}) });
  const agentId = session.summary.agentId;
  const causes = new CauseAttributor({
    transcript,
    family,
    config,
    report: storedRunReport(session.entry).report,
    sessionKey: session.summary.sessionKey,
    ...(input.agentReports ? { agentReports: input.agentReports } : {}),
  });
  const ctx = {
    priceOf: (c: { provider: string | null; model: string | null; atMs: number | null }) =>
      prices.priceFor(agentId, c.provider, c.model, c.atMs),
    family,
    retentionOf: (c: { provider: string | null; model: string | null }) =>
      lifetimes.retentionOf(c.provider, c.model).value,
  };
  const priced: PricedCall[] = [];
  let previousStart: number | null = null;
  for (const row of modelCallsOf(transcript).billed) {
    const verdict = classifier.classify(row);
    const cause = causes.attribute(row, verdict);
    priced.push(priceCall(row, verdict, ctx, previousStart, heartbeats.signalsOf(row.entryIndex), cause));
    if (row.atMs !== null) previousStart = row.atMs;
  }
  return priced;
}

/** The cost + cache report of one session. */
export function buildCostReport(input: CostReportInput): CostReportDTO {
  const { session, config } = input;
  const agentId = session.summary.agentId;
  const decoded = modelCallsOf(session.transcript);
  const lifetimes = new CacheLifetimes(
    config,
    agentId,
    session.version.family,
    input.cacheTtlMs,
    session.transcript,
    decoded.billed,
  );
  const notes: string[] = [];
  if (lifetimes.note) notes.push(lifetimes.note);
  const priced = priceCalls(input, lifetimes);
  const calls = priced.map((p) => p.dto);
  const totals = sumTotals(calls, decoded.excludedCount);
  if (totals.unpricedCalls > 0) {
    notes.push(
      `${totals.unpricedCalls} call(s) have no recorded cost and no known price: costUsd excludes them`,
    );
  }
  const gaps = gapCosts(priced);
  const rounds = new RoundCalls(priced, input.pruningRounds ?? [], session.version.family);
  const main = mostUsedModel(decoded.billed);
  const mainRetention = lifetimes.retentionOf(main.provider, main.model);
  const ttl = lifetimes.sessionTtl(mainRetention);
  return {
    calls,
    totals,
    agentId,
    sessionId: session.summary.sessionId,
    sessionKey: session.summary.sessionKey,
    activeBranchTotals: sumTotals(
      calls.filter((c) => c.onActiveBranch),
      decoded.excludedCount,
    ),
    retention: {
      value: mainRetention.value,
      source: mainRetention.source,
      cacheTtlMs: ttl.ms,
      ttlSource: ttl.source,
      observedTtl: lifetimes.observed,
    },
    gapCosts: gaps,
    pruningRounds: pruningRoundCosts(rounds),
    counterfactuals: counterfactuals({
      priced,
      asRunUsd: totals.costUsd,
      unpricedCalls: totals.unpricedCalls,
      rounds,
      pruningMode: configuredPruning(config).mode,
      ...(input.bootstrapTrimChars !== undefined ? { bootstrapTrimChars: input.bootstrapTrimChars } : {}),
    }),
    heartbeat: heartbeatInfo(config, session, ttl.ms, calls, gaps, main.provider, lifetimes.observed),
    notes,
    breakdown: breakdownByCause(calls, totals.costUsd),
    breakdownUnknown: unknownMiss(calls),
  };
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
    all.push(...report.calls);
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
