// The cost report of one session as a run that can be continued (issue 18 "Live": append → report in
// O(appended)), the way the pruning replay continues (reports/prune-replay/replay-run.ts): every call is
// classified (lineage state), attributed and priced one by one in append order, and none of that changes for
// the calls already seen while the transcript only grows and the session-wide inputs stay the same — the
// config and price table, the cache TTL observed over the whole session (observeCacheTtl), the stored run
// reports, the pruning rounds of the calls already priced. `extend` checks each of them and says false when
// one changed (a model switch that changes the observed TTL, a compaction that rewrote a round, a branch
// switch, a duplicate id…): the caller then starts a new run. Everything the report sums over the priced calls
// is a fold kept here — totals, breakdown, unknown miss, gaps, heartbeat sums, main model, every counterfactual
// scenario and the pruning rounds with the later calls they reach (pruning-rounds.ts RoundChains: a call's
// share of a round is decided when the call is priced) — the same additions in the same order as a sum over
// every call, so an append costs O(appended + rounds), not O(calls).
// test/unit/cost-run-extend.test.ts compares every continued report with a cold build of the same transcript.

import type { CostCallDTO, CostReportDTO, GapCostDTO } from "../../../shared/cost.ts";
import { minCacheableTokens } from "../../../shared/pricing.ts";
import { continueModelCalls, type ModelCall, modelCallsOf } from "../../model/model-calls.ts";
import type { Transcript } from "../../model/session.ts";
import { storedRunReport } from "../../model/system-prompt-report.ts";
import { continuesTranscript } from "../../model/transcript-growth.ts";
import { entryIndexById } from "../../model/tree.ts";
import { CacheClassifier } from "../../openclaw/cache/verdict.ts";
import { configuredPruning } from "../../openclaw/config/agent-settings.ts";
import { HeartbeatDetector } from "../../openclaw/heartbeat.ts";
import { isSticky, pruningGeneration } from "../../openclaw/pruning/generation.ts";
import { PriceTable } from "../../pricing/price-table.ts";
import { CauseAttributor } from "./breakdown.ts";
import { BreakdownFold, UnknownMissFold } from "./breakdown-rows.ts";
import { CacheLifetimes, ModelCounts } from "./cache-lifetime.ts";
import type { CostReportInput } from "./cost-input.ts";
import { counterfactuals, ScenarioSums } from "./counterfactuals.ts";
import { gapCostOf } from "./gap-costs.ts";
import { HeartbeatSums, heartbeatInfo, heartbeatSums } from "./heartbeat-info.ts";
import { type PricedCall, type PricingContext, priceCall } from "./price-call.ts";
import { isRoundCall, type PruningRoundInput, RoundChains } from "./pruning-rounds.ts";
import { TotalsFold } from "./totals.ts";

/** Minimum cacheable tokens per api/model: one lookup each (a table scan with model-id normalisation). */
class Minimums {
  private readonly byKey = new Map<string, number | null>();

  of(api: string | null, model: string | null): number | null {
    const key = `${api}\u0000${model}`;
    let v = this.byKey.get(key);
    if (v === undefined) {
      v = minCacheableTokens(api, model)?.tokens ?? null;
      this.byKey.set(key, v);
    }
    return v;
  }
}

const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The id index a continued run extends: its own copy (the tree's memoised map is shared, never mutated). */
class GrowingIds {
  readonly byId: Map<string, number>;
  /** Parent ids no entry has: an appended entry with one of them would re-link an old entry. */
  private readonly dangling = new Set<string>();
  private size: number;

  constructor(entries: Transcript["entries"], shared: ReadonlyMap<string, number>) {
    this.byId = new Map(shared);
    this.size = entries.length;
    for (const e of entries)
      if (e.parentId !== null && !this.byId.has(e.parentId)) this.dangling.add(e.parentId);
  }

  /** Add the entries appended after `size`; false (nothing added) when one would change an old link. */
  grow(entries: Transcript["entries"]): boolean {
    const added = new Set<string>();
    for (let i = this.size; i < entries.length; i++) {
      const e = entries[i];
      if (!e || e.type === "session" || e.id === null) continue;
      if (this.byId.has(e.id) || this.dangling.has(e.id) || added.has(e.id)) return false;
      added.add(e.id);
    }
    for (let i = this.size; i < entries.length; i++) {
      const e = entries[i];
      if (e && e.type !== "session" && e.id !== null) this.byId.set(e.id, e.index);
    }
    for (let i = this.size; i < entries.length; i++) {
      const p = entries[i]?.parentId;
      if (p != null && !this.byId.has(p)) this.dangling.add(p);
    }
    this.size = entries.length;
    return true;
  }
}

export class CostRun {
  private input: CostReportInput;
  private lifetimes: CacheLifetimes;
  private readonly classifier: CacheClassifier;
  private readonly heartbeats: HeartbeatDetector;
  private readonly causes: CauseAttributor;
  private readonly ctx: PricingContext;
  private readonly roundIds: Set<string>;
  /** Chars each replayed round removed, by its call's entry id. */
  private readonly roundChars: Map<string, number>;
  private readonly priced: PricedCall[] = [];
  private readonly calls: CostCallDTO[] = [];
  /** Sums over the priced calls that only grow: the main model, the counterfactual scenarios, the rest. */
  private readonly models = new ModelCounts();
  private readonly sums: ScenarioSums;
  private readonly totals = new TotalsFold();
  private readonly activeTotals = new TotalsFold();
  private readonly breakdown = new BreakdownFold();
  private readonly unknown = new UnknownMissFold();
  private readonly heartbeatSums = new HeartbeatSums();
  /** The pruning rounds of the priced calls and the lineages they still reach; the expired-cache gaps. */
  private readonly rounds: RoundChains;
  private readonly gaps: GapCostDTO[] = [];
  private previousStart: number | null = null;
  private ids: GrowingIds | null = null;
  /** An extend failed after moving shared state on: the run still reports, but never continues again. */
  private dropped = false;

  static start(input: CostReportInput): CostRun {
    const run = new CostRun(input);
    run.priceNew(modelCallsOf(input.session.transcript).billed);
    return run;
  }

  private constructor(input: CostReportInput) {
    this.input = input;
    const { session, config } = input;
    const transcript = session.transcript;
    const family = session.version.family;
    this.lifetimes = this.lifetimesOf(input);
    const minimums = new Minimums();
    this.roundIds = new Set((input.pruningRounds ?? []).map((r) => r.entryId));
    this.roundChars = new Map((input.pruningRounds ?? []).map((r) => [r.entryId, r.charsRemoved]));
    const stickyRounds = isSticky(pruningGeneration(session.version).algorithm);
    this.rounds = new RoundChains(stickyRounds);
    this.sums = new ScenarioSums(configuredPruning(config).mode, input.bootstrapTrimChars);
    this.classifier = new CacheClassifier({
      transcript,
      ttlFor: (c, previous) => this.lifetimes.ttlFor(c, previous),
      minCacheableFor: (c) => minimums.of(c.api, c.model),
      pruningRoundCallIds: this.roundIds,
      stickyRounds,
    });
    this.heartbeats = new HeartbeatDetector(
      transcript,
      entryIndexById(transcript.entries, session.summary.location),
    );
    const prices =
      input.prices ?? new PriceTable({ config, ...(input.pricing ? { file: input.pricing } : {}) });
    const agentId = session.summary.agentId;
    this.causes = new CauseAttributor({
      transcript,
      family,
      appVersion: session.version.appVersion,
      config,
      report: storedRunReport(session.entry).report,
      sessionKey: session.summary.sessionKey,
      ...(input.agentReports ? { agentReports: input.agentReports } : {}),
    });
    this.ctx = {
      priceOf: (c) => prices.priceFor(agentId, c.provider, c.model, c.atMs),
      family,
      retentionOf: (c) => this.lifetimes.retentionOf(c.provider, c.model).value,
    };
  }

  /** The lifetimes of `input`'s session; continuing `prev`'s observed TTL when given (same config). */
  private lifetimesOf(input: CostReportInput, prev?: CacheLifetimes): CacheLifetimes {
    const { session } = input;
    return new CacheLifetimes(
      input.config,
      session.summary.agentId,
      session.version,
      input.cacheTtlMs,
      session.transcript,
      modelCallsOf(session.transcript).billed,
      prev?.observer,
    );
  }

  /** Classify, attribute and price the billed calls after the ones already priced, in append order. */
  private priceNew(billed: readonly ModelCall[]): void {
    for (let i = this.priced.length; i < billed.length; i++) {
      const row = billed[i];
      if (!row) continue;
      const verdict = this.classifier.classify(row);
      const cause = this.causes.attribute(row, verdict);
      const signals = this.heartbeats.signalsOf(row.entryIndex);
      const p = priceCall(row, verdict, this.ctx, this.previousStart, signals, cause);
      this.priced.push(p);
      this.calls.push(p.dto);
      this.models.add(row);
      this.totals.add(p.dto);
      if (p.dto.onActiveBranch) this.activeTotals.add(p.dto);
      this.breakdown.add(p.dto);
      this.unknown.add(p.dto);
      this.heartbeatSums.addCall(p.dto);
      const reaching = this.rounds.reaching(p);
      const id = row.entryId;
      const own = isRoundCall(p, this.roundIds)
        ? this.rounds.start(p, id !== null ? (this.roundChars.get(id) ?? null) : null)
        : null;
      this.sums.add(p, reaching, own);
      const gap = gapCostOf(p);
      if (gap) {
        this.gaps.push(gap);
        this.heartbeatSums.addGap(gap);
      }
      if (row.atMs !== null) this.previousStart = row.atMs;
    }
  }

  /**
   * Continue over what `next` appended to the session. False (the run is unchanged) when `next` does not
   * simply continue it or a session-wide input changed (see the file header).
   */
  extend(next: CostReportInput): boolean {
    const old = this.input;
    if (this.dropped || !this.sameInputs(old, next)) return false;
    const t = next.session.transcript;
    const before = old.session.transcript;
    if (!continuesTranscript(before, t)) return false;
    continueModelCalls(before, t);
    const billed = modelCallsOf(t).billed;
    const k = this.priced.length;
    if (billed.length < k || (k > 0 && billed[k - 1]?.entryIndex !== this.priced[k - 1]?.row.entryIndex))
      return false;
    const oldIds = this.ids?.byId ?? entryIndexById(before.entries, "transcript");
    const newRounds = appendedRounds(old.pruningRounds ?? [], next.pruningRounds ?? [], oldIds);
    if (newRounds === null) return false;
    // The observer moves on to `next` here: from now on this run continues or is dropped (its caller starts a
    // new one), never used for the old transcript again.
    const lifetimes = this.lifetimesOf(next, this.lifetimes);
    if (!sameJson(lifetimes.observed, this.lifetimes.observed)) {
      this.dropped = true;
      return false;
    }
    this.ids ??= new GrowingIds(before.entries, oldIds);
    if (!this.ids.grow(t.entries)) {
      this.dropped = true;
      return false;
    }
    this.input = next;
    this.lifetimes = lifetimes;
    for (const r of newRounds) {
      this.roundIds.add(r.entryId);
      this.roundChars.set(r.entryId, r.charsRemoved);
    }
    this.classifier.extendTo(t, this.ids.byId);
    this.heartbeats.extendTo(t, this.ids.byId);
    this.causes.extendTo(t, this.ids.byId);
    this.priceNew(billed);
    return true;
  }

  private sameInputs(a: CostReportInput, b: CostReportInput): boolean {
    const sa = a.session;
    const sb = b.session;
    return (
      // the service re-reads the config on every invalidate(): same content, new object
      sameJson(a.config, b.config) &&
      a.prices === b.prices &&
      a.pricing === b.pricing &&
      a.cacheTtlMs === b.cacheTtlMs &&
      a.bootstrapTrimChars === b.bootstrapTrimChars &&
      sa.version.family === sb.version.family &&
      sa.summary.agentId === sb.summary.agentId &&
      sa.summary.sessionId === sb.summary.sessionId &&
      sa.summary.sessionKey === sb.summary.sessionKey &&
      sa.summary.location === sb.summary.location &&
      sameReports(a.agentReports, b.agentReports) &&
      sameJson(storedRunReport(sa.entry).report, storedRunReport(sb.entry).report)
    );
  }

  /** The report of the session so far (each call returns a new DTO; the per-call rows are shared). */
  report(): CostReportDTO {
    const input = this.input;
    const { session, config } = input;
    const agentId = session.summary.agentId;
    const decoded = modelCallsOf(session.transcript);
    const lifetimes = this.lifetimes;
    const notes: string[] = [];
    if (lifetimes.note) notes.push(lifetimes.note);
    const calls = this.calls.slice();
    const totals = this.totals.totals(decoded.excludedCount);
    if (totals.unpricedCalls > 0) {
      notes.push(
        `${totals.unpricedCalls} call(s) have no recorded cost and no known price: costUsd excludes them`,
      );
    }
    const gaps = this.gaps.slice();
    const main = this.models.best();
    const hb = this.heartbeatSums.exact ? this.heartbeatSums : heartbeatSums(calls, gaps);
    const mainRetention = lifetimes.retentionOf(main.provider, main.model);
    const ttl = lifetimes.sessionTtl(mainRetention);
    return {
      calls,
      totals,
      agentId,
      sessionId: session.summary.sessionId,
      sessionKey: session.summary.sessionKey,
      activeBranchTotals: this.activeTotals.totals(decoded.excludedCount),
      retention: {
        value: mainRetention.value,
        source: mainRetention.source,
        cacheTtlMs: ttl.ms,
        ttlSource: ttl.source,
        observedTtl: lifetimes.observed,
      },
      gapCosts: gaps,
      pruningRounds: this.rounds.rows(),
      counterfactuals: counterfactuals({
        sums: this.sums,
        asRunUsd: totals.costUsd,
        unpricedCalls: totals.unpricedCalls,
        rounds: this.rounds,
      }),
      heartbeat: heartbeatInfo(config, session, ttl.ms, hb, main.provider, lifetimes.observed),
      notes,
      breakdown: this.breakdown.rows(totals.costUsd),
      breakdownUnknown: this.unknown.result(),
    };
  }
}

/** The rounds `next` adds after `old`'s (null: `next` does not start with them, or rounds an old call). */
function appendedRounds(
  old: readonly PruningRoundInput[],
  next: readonly PruningRoundInput[],
  /** The id index of the old entries: a round on one of them re-prices an old call. */
  oldIds: ReadonlyMap<string, number>,
): PruningRoundInput[] | null {
  if (next.length < old.length) return null;
  for (let i = 0; i < old.length; i++) {
    const a = old[i];
    const b = next[i];
    if (!a || !b || a.entryId !== b.entryId || a.charsRemoved !== b.charsRemoved) return null;
  }
  const added = next.slice(old.length);
  return added.some((r) => oldIds.has(r.entryId)) ? null : added;
}

function sameReports(a: CostReportInput["agentReports"], b: CostReportInput["agentReports"]): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((r, i) => sameJson(r, b[i]));
}
