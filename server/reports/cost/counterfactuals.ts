// What the session would have cost otherwise (spec cache-and-cost.md §4, §7): one function per scenario —
// no caching, 1-hour retention, pruning off (when it was on), pruning on (when it was off), bootstrap trimmed.
// Each recomputes the changed calls' buckets at table rates; every assumption is listed with its result.

import type { CounterfactualDTO } from "../../../shared/cost.ts";
import type { UsageBuckets } from "../../../shared/pricing.ts";
import { asRunBuckets, buckets, type PricedCall } from "./price-call.ts";
import { CHARS_PER_TOKEN, estimatedTokens, type RoundChain, type RoundChains } from "./pruning-rounds.ts";
import { removeFromFront, scenarioTerms } from "./scenario.ts";

type Scenario = Omit<CounterfactualDTO, "deltaUsd">;

function pricedNote(withoutPrice: number): string {
  return `calls without a known price keep their as-run cost (${withoutPrice} such call(s))`;
}

export function asRun(costUsd: number, unpricedCalls: number): Scenario {
  return {
    id: "as-run",
    label: "As run",
    costUsd,
    assumptions: [
      "recorded usage.cost where meaningful, else the pricing table",
      ...(unpricedCalls ? [`${unpricedCalls} unpriced call(s) count as 0`] : []),
    ],
  };
}

const noCachingChange = (p: PricedCall): UsageBuckets => ({
  input: p.row.promptTokens,
  output: p.row.usage.output,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
});

export function noCaching(withoutPrice: number, cost: number): Scenario {
  return {
    id: "no-caching",
    label: "No prompt caching",
    costUsd: cost,
    assumptions: [
      "every prompt token billed at the uncached input rate",
      "same calls, same prompts",
      pricedNote(withoutPrice),
    ],
  };
}

function retention1hChange(p: PricedCall): UsageBuckets {
  const b = buckets(p.row, p.row.usage.cacheWrite);
  const ev = p.verdict.evidence;
  if (p.verdict.verdict === "ttl-expired" && ev.lineageGapMs !== null && ev.lineageGapMs <= 3_600_000) {
    const moved = Math.min(ev.missDeficit ?? 0, b.cacheWrite);
    return {
      ...b,
      cacheRead: b.cacheRead + moved,
      cacheWrite: b.cacheWrite - moved,
      cacheWrite1h: b.cacheWrite - moved,
    };
  }
  return b;
}

export function retention1h(withoutPrice: number, cost: number): Scenario {
  return {
    id: "retention-1h",
    label: "1-hour cache retention",
    costUsd: cost,
    assumptions: [
      "every cache write priced at the 1-hour rate (2 × input)",
      "TTL-expired calls with a gap ≤ 1 h read the previous prefix instead of re-writing it",
      "pruning, heartbeats and prompts unchanged",
      pricedNote(withoutPrice),
    ],
  };
}

/** Pruning was on: every round undone, its removed tokens back on the calls it reached (null: `p` unchanged). */
function pruningOffChange(
  p: PricedCall,
  reaching: readonly RoundChain[],
  own: RoundChain | null,
): UsageBuckets | null {
  const is1h = p.dto.writeTier.tier === "1h";
  let b: UsageBuckets | null = null;
  for (const r of reaching) {
    const t = r.perCall ?? 0;
    if (t === 0) continue;
    const c: UsageBuckets = b ?? asRunBuckets(p);
    b =
      p.verdict.verdict === "hit"
        ? { ...c, cacheRead: c.cacheRead + t }
        : { ...c, cacheWrite: c.cacheWrite + t, cacheWrite1h: is1h ? c.cacheWrite1h + t : c.cacheWrite1h };
  }
  if (!own) return b;
  const t = own.perCall ?? 0;
  const kb = b ?? asRunBuckets(p);
  if (p.verdict.verdict !== "ttl-expired") {
    // Unpruned, the round's call reads the previous prefix and writes only its new suffix.
    const cached = kb.cacheRead + kb.cacheWrite + t;
    const read = Math.min(p.verdict.evidence.expectedRead ?? kb.cacheRead, cached);
    const write = cached - read;
    return { ...kb, cacheRead: read, cacheWrite: write, cacheWrite1h: is1h ? write : 0 };
  }
  // The cache had expired anyway: the removed tokens would have been written too.
  return { ...kb, cacheWrite: kb.cacheWrite + t, cacheWrite1h: is1h ? kb.cacheWrite1h + t : kb.cacheWrite1h };
}

/** `t` tokens less on a call: off what it read (a later hit), else off what it wrote. */
function withoutTokens(b: UsageBuckets, t: number, fromRead: boolean): UsageBuckets {
  return fromRead
    ? { ...b, cacheRead: Math.max(0, b.cacheRead - t) }
    : {
        ...b,
        cacheWrite: Math.max(0, b.cacheWrite - t),
        cacheWrite1h: Math.min(b.cacheWrite1h, Math.max(0, b.cacheWrite - t)),
      };
}

/** Pruning was off: the rounds the replay predicts with the current settings, as if they had run. */
function pruningOnChange(
  p: PricedCall,
  reaching: readonly RoundChain[],
  own: RoundChain | null,
): UsageBuckets | null {
  let b: UsageBuckets | null = null;
  for (const r of reaching) {
    if (r.perCall === null) continue;
    b = withoutTokens(b ?? asRunBuckets(p), r.perCall, p.verdict.verdict === "hit");
  }
  if (!own || own.perCall === null) return b;
  let kb = b ?? asRunBuckets(p);
  // Upper bound: the first pruned result's position is unknown, so what was read is re-written.
  if (p.verdict.verdict === "hit") kb = { ...kb, cacheRead: 0, cacheWrite: kb.cacheWrite + kb.cacheRead };
  return withoutTokens(kb, own.perCall, false);
}

/**
 * The scenario totals, call by call in append order: each call's term depends on that call and the rounds
 * before it that reach it (RoundChains), so a cost run that only grows adds the terms of its new calls — the
 * same additions in the same order as a sum over every call.
 */
export class ScenarioSums {
  noCaching = 0;
  retention1h = 0;
  /** Pruning undone (pruning was on) or the predicted rounds run (it was off). */
  pruning = 0;
  bootstrapTrimmed = 0;
  /** Calls without a known price (they keep their as-run cost in every scenario). */
  withoutPrice = 0;
  private readonly pruningChange: typeof pruningOffChange;
  private readonly trimTokens: number | null;

  constructor(
    /** The configured contextPruning.mode (null = unset). */
    readonly pruningMode: string | null,
    readonly bootstrapTrimChars: number | undefined,
  ) {
    this.pruningChange = pruningMode !== "off" ? pruningOffChange : pruningOnChange;
    this.trimTokens =
      bootstrapTrimChars !== undefined && bootstrapTrimChars > 0 ? estimatedTokens(bootstrapTrimChars) : null;
  }

  /** `p`, the call after the ones added so far; `reaching` / `own`: its rounds (RoundChains). */
  add(p: PricedCall, reaching: readonly RoundChain[], own: RoundChain | null): void {
    const term = scenarioTerms(p);
    if (!p.price) this.withoutPrice++;
    const priced = p.price !== null;
    this.noCaching += term(priced ? noCachingChange(p) : null);
    this.retention1h += term(priced ? retention1hChange(p) : null);
    this.pruning += term(priced ? this.pruningChange(p, reaching, own) : null);
    const t = this.trimTokens;
    if (t !== null) this.bootstrapTrimmed += term(priced ? removeFromFront(asRunBuckets(p), t) : null);
  }
}

function pruningOff(sums: ScenarioSums, rounds: RoundChains): Scenario {
  return {
    id: "pruning-off",
    label: "Pruning off",
    costUsd: sums.pruning,
    assumptions: [
      `${rounds.all.length} pruning round(s) undone; ${rounds.withChars} with a known size from the replay`,
      "a round that busted a warm cache would have read the previous prefix and written only its new suffix",
      `removed chars come back as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) on the round's call and every later call of the lineage until a compaction or reset: read on hits, written on misses`,
      "no compaction that the larger context might have triggered",
      pricedNote(sums.withoutPrice),
    ],
  };
}

function pruningOn(sums: ScenarioSums, rounds: RoundChains): Scenario {
  return {
    id: "pruning-on",
    label: "Pruning on (current settings)",
    costUsd: sums.pruning,
    assumptions: [
      `${rounds.withChars} round(s) predicted by the replay with the current settings`,
      "each round's call re-writes what it read (upper bound: the first pruned result's position is unknown)",
      `removed chars leave as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) from that call and every later call of the lineage`,
      pricedNote(sums.withoutPrice),
    ],
  };
}

function bootstrapTrimmed(sums: ScenarioSums, trimChars: number): Scenario {
  const t = estimatedTokens(trimChars);
  return {
    id: "bootstrap-trimmed",
    label: `Bootstrap trimmed by ${trimChars} chars`,
    costUsd: sums.bootstrapTrimmed,
    assumptions: [
      `${trimChars} chars ≈ ${t} tokens (chars / ${CHARS_PER_TOKEN}, ESTIMATE) less on every call`,
      "bootstrap files sit in the cached stable system block: the saving comes off the read part first, then the written part, then uncached input",
      "the trim itself would bust the cache once (not counted)",
      pricedNote(sums.withoutPrice),
    ],
  };
}

export interface CounterfactualInput {
  /** The scenario sums over every priced call (fed in append order). */
  sums: ScenarioSums;
  asRunUsd: number;
  unpricedCalls: number;
  rounds: RoundChains;
}

/** The scenarios that apply to this session, each with its delta against the as-run cost. */
export function counterfactuals(input: CounterfactualInput): CounterfactualDTO[] {
  const { sums, rounds } = input;
  const scenarios: Scenario[] = [
    asRun(input.asRunUsd, input.unpricedCalls),
    noCaching(sums.withoutPrice, sums.noCaching),
    retention1h(sums.withoutPrice, sums.retention1h),
  ];
  if (rounds.all.length > 0) {
    scenarios.push(sums.pruningMode !== "off" ? pruningOff(sums, rounds) : pruningOn(sums, rounds));
  }
  const trim = sums.bootstrapTrimChars;
  if (trim !== undefined && trim > 0) scenarios.push(bootstrapTrimmed(sums, trim));
  return scenarios.map((s) => ({
    id: s.id,
    label: s.label,
    costUsd: s.costUsd,
    deltaUsd: s.costUsd === null ? null : s.costUsd - input.asRunUsd,
    assumptions: s.assumptions,
  }));
}
