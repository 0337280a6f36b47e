// What the session would have cost otherwise (spec cache-and-cost.md §4, §7): one function per scenario —
// no caching, 1-hour retention, pruning off (when it was on), pruning on (when it was off), bootstrap trimmed.
// Each recomputes the changed calls' buckets at table rates; every assumption is listed with its result.

import type { CounterfactualDTO } from "../../../shared/cost.ts";
import type { UsageBuckets } from "../../../shared/pricing.ts";
import { asRunBuckets, buckets, type PricedCall } from "./price-call.ts";
import { CHARS_PER_TOKEN, estimatedTokens, type RoundCalls } from "./pruning-rounds.ts";
import { removeFromFront, scenarioCost, scenarioTerm } from "./scenario.ts";

type Scenario = Omit<CounterfactualDTO, "deltaUsd">;

function pricedNote(priced: readonly PricedCall[]): string {
  return `calls without a known price keep their as-run cost (${priced.filter((p) => !p.price).length} such call(s))`;
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

export function noCaching(priced: readonly PricedCall[], cost: number): Scenario {
  return {
    id: "no-caching",
    label: "No prompt caching",
    costUsd: cost,
    assumptions: [
      "every prompt token billed at the uncached input rate",
      "same calls, same prompts",
      pricedNote(priced),
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

export function retention1h(priced: readonly PricedCall[], cost: number): Scenario {
  return {
    id: "retention-1h",
    label: "1-hour cache retention",
    costUsd: cost,
    assumptions: [
      "every cache write priced at the 1-hour rate (2 × input)",
      "TTL-expired calls with a gap ≤ 1 h read the previous prefix instead of re-writing it",
      "pruning, heartbeats and prompts unchanged",
      pricedNote(priced),
    ],
  };
}

/**
 * The no-caching and 1-hour-retention totals: each call's term depends on that call alone, so a cost run that
 * only grows adds the terms of its new calls (the same additions in the same order as scenarioCost makes).
 */
export class ScenarioSums {
  private done = 0;
  private noCaching = 0;
  private retention1h = 0;

  /** The sums over `priced`, whose first calls are the ones summed before (append only). */
  over(priced: readonly PricedCall[]): { noCaching: number; retention1h: number } {
    for (; this.done < priced.length; this.done++) {
      const p = priced[this.done];
      if (!p) continue;
      this.noCaching += scenarioTerm(p, noCachingChange);
      this.retention1h += scenarioTerm(p, retention1hChange);
    }
    return { noCaching: this.noCaching, retention1h: this.retention1h };
  }
}

/** Changed buckets per call, starting from the as-run ones. */
class Deltas {
  private readonly map = new Map<PricedCall, UsageBuckets>();
  get(p: PricedCall): UsageBuckets {
    return this.map.get(p) ?? asRunBuckets(p);
  }
  set(p: PricedCall, b: UsageBuckets): void {
    this.map.set(p, b);
  }
  changed(p: PricedCall): UsageBuckets | null {
    return this.map.get(p) ?? null;
  }
}

/** Pruning was on: every round undone, its removed tokens back on the calls it reached. */
export function pruningOff(priced: readonly PricedCall[], rounds: RoundCalls): Scenario {
  const d = new Deltas();
  const is1h = (p: PricedCall): boolean => p.dto.writeTier.tier === "1h";
  for (const k of rounds.all) {
    const chars = rounds.charsOf(k);
    const t = chars === null ? 0 : estimatedTokens(chars);
    const kb = d.get(k);
    if (k.verdict.verdict !== "ttl-expired") {
      // Unpruned, the round's call reads the previous prefix and writes only its new suffix.
      const cached = kb.cacheRead + kb.cacheWrite + t;
      const read = Math.min(k.verdict.evidence.expectedRead ?? kb.cacheRead, cached);
      const write = cached - read;
      d.set(k, { ...kb, cacheRead: read, cacheWrite: write, cacheWrite1h: is1h(k) ? write : 0 });
    } else {
      // The cache had expired anyway: the removed tokens would have been written too.
      d.set(k, {
        ...kb,
        cacheWrite: kb.cacheWrite + t,
        cacheWrite1h: is1h(k) ? kb.cacheWrite1h + t : kb.cacheWrite1h,
      });
    }
    if (t === 0) continue;
    for (const p of rounds.affected(k)) {
      if (p === k) continue;
      const b = d.get(p);
      d.set(
        p,
        p.verdict.verdict === "hit"
          ? { ...b, cacheRead: b.cacheRead + t }
          : {
              ...b,
              cacheWrite: b.cacheWrite + t,
              cacheWrite1h: is1h(p) ? b.cacheWrite1h + t : b.cacheWrite1h,
            },
      );
    }
  }
  return {
    id: "pruning-off",
    label: "Pruning off",
    costUsd: scenarioCost(priced, (p) => d.changed(p)),
    assumptions: [
      `${rounds.all.length} pruning round(s) undone; ${rounds.withChars.length} with a known size from the replay`,
      "a round that busted a warm cache would have read the previous prefix and written only its new suffix",
      `removed chars come back as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) on the round's call and every later call of the lineage until a compaction or reset: read on hits, written on misses`,
      "no compaction that the larger context might have triggered",
      pricedNote(priced),
    ],
  };
}

/** Pruning was off: the rounds the replay predicts with the current settings, as if they had run. */
export function pruningOn(priced: readonly PricedCall[], rounds: RoundCalls): Scenario {
  const d = new Deltas();
  for (const k of rounds.withChars) {
    const t = estimatedTokens(rounds.charsOf(k) ?? 0);
    const kb = d.get(k);
    if (k.verdict.verdict === "hit") {
      // Upper bound: the first pruned result's position is unknown, so what was read is re-written.
      d.set(k, { ...kb, cacheRead: 0, cacheWrite: kb.cacheWrite + kb.cacheRead });
    }
    for (const p of rounds.affected(k)) {
      const b = d.get(p);
      const fromRead = p !== k && p.verdict.verdict === "hit";
      d.set(
        p,
        fromRead
          ? { ...b, cacheRead: Math.max(0, b.cacheRead - t) }
          : {
              ...b,
              cacheWrite: Math.max(0, b.cacheWrite - t),
              cacheWrite1h: Math.min(b.cacheWrite1h, Math.max(0, b.cacheWrite - t)),
            },
      );
    }
  }
  return {
    id: "pruning-on",
    label: "Pruning on (current settings)",
    costUsd: scenarioCost(priced, (p) => d.changed(p)),
    assumptions: [
      `${rounds.withChars.length} round(s) predicted by the replay with the current settings`,
      "each round's call re-writes what it read (upper bound: the first pruned result's position is unknown)",
      `removed chars leave as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) from that call and every later call of the lineage`,
      pricedNote(priced),
    ],
  };
}

export function bootstrapTrimmed(priced: readonly PricedCall[], trimChars: number): Scenario {
  const t = estimatedTokens(trimChars);
  return {
    id: "bootstrap-trimmed",
    label: `Bootstrap trimmed by ${trimChars} chars`,
    costUsd: scenarioCost(priced, (p) => removeFromFront(asRunBuckets(p), t)),
    assumptions: [
      `${trimChars} chars ≈ ${t} tokens (chars / ${CHARS_PER_TOKEN}, ESTIMATE) less on every call`,
      "bootstrap files sit in the cached stable system block: the saving comes off the read part first, then the written part, then uncached input",
      "the trim itself would bust the cache once (not counted)",
      pricedNote(priced),
    ],
  };
}

export interface CounterfactualInput {
  priced: readonly PricedCall[];
  /** The per-call scenario sums over `priced` (ScenarioSums), when the caller keeps them. */
  sums?: { noCaching: number; retention1h: number };
  asRunUsd: number;
  unpricedCalls: number;
  rounds: RoundCalls;
  /** The configured contextPruning.mode (null = unset). */
  pruningMode: string | null;
  bootstrapTrimChars?: number;
}

/** The scenarios that apply to this session, each with its delta against the as-run cost. */
export function counterfactuals(input: CounterfactualInput): CounterfactualDTO[] {
  const { priced, rounds } = input;
  const sums = input.sums ?? new ScenarioSums().over(priced);
  const scenarios: Scenario[] = [
    asRun(input.asRunUsd, input.unpricedCalls),
    noCaching(priced, sums.noCaching),
    retention1h(priced, sums.retention1h),
  ];
  if (rounds.all.length > 0) {
    scenarios.push(input.pruningMode !== "off" ? pruningOff(priced, rounds) : pruningOn(priced, rounds));
  }
  const trim = input.bootstrapTrimChars;
  if (trim !== undefined && trim > 0) scenarios.push(bootstrapTrimmed(priced, trim));
  return scenarios.map((s) => ({
    id: s.id,
    label: s.label,
    costUsd: s.costUsd,
    deltaUsd: s.costUsd === null ? null : s.costUsd - input.asRunUsd,
    assumptions: s.assumptions,
  }));
}
