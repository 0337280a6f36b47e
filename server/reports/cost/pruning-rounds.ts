// Pruning rounds in the bill (spec pruning.md §5, cache-and-cost.md §6): which calls a round changed (from
// the replay, or a projection snapshot that marks more results pruned), which later calls it reaches, the
// re-write it caused and what its removed chars save on every later call.
//
// Fed call by call in append order (a cost run that only grows adds its new calls): a round reaches its own call
// and — sticky projections, 2026.9.2+ — every later call of its lineage (same provider and model) until the history is rewritten anyway
// (a compaction or a cold start); stateless (≤ 2026.9.1) a round applies to one request only (pruning.md §1.8). Each call's
// reach is decided when it is added, so nothing already added changes: O(open rounds of its lineage) per call.

import type { PruningRoundCostDTO } from "../../../shared/cost.ts";
import { type PricedCall, writeRate } from "./price-call.ts";

export interface PruningRoundInput {
  /** Entry id of the assistant message (model call) whose request the round changed. */
  entryId: string;
  charsRemoved: number;
}

/** ESTIMATE used to turn removed chars into tokens (labelled wherever it is used). */
export const CHARS_PER_TOKEN = 4;

/** Removed chars as tokens (chars / 4, ESTIMATE). */
export function estimatedTokens(chars: number): number {
  return Math.round(chars / CHARS_PER_TOKEN);
}

/** A call a round changed: the replay says so (its entry id), or its verdict saw a pruning-round signal. */
export function isRoundCall(p: PricedCall, roundIds: { has(id: string): boolean }): boolean {
  return (
    (p.row.entryId !== null && roundIds.has(p.row.entryId)) || p.verdict.signals.includes("pruning-round")
  );
}

/** One round's call and the calls it has reached so far (itself first): its row of `pruningRounds`. */
export class RoundChain {
  /** Removed chars as tokens per reached call (null: the replay does not know the round's size). */
  readonly perCall: number | null;
  private reachedCalls = 0;
  /** Σ over the reached calls of the removed tokens at the rate each would have paid (null: unpriced / size unknown). */
  private saved: number | null;
  /** The row as of the calls reached so far (shared by the reports until the chain reaches another call). */
  private cached: PruningRoundCostDTO | null = null;

  constructor(
    readonly call: PricedCall,
    /** Chars the round removed, when the replay knows them. */
    readonly chars: number | null,
  ) {
    this.perCall = chars !== null ? estimatedTokens(chars) : null;
    this.saved = call.price && this.perCall !== null ? 0 : null;
    this.reach(call);
  }

  /** `p` (this round's call, or a later call of its lineage) carries the round's removal too. */
  reach(p: PricedCall): void {
    this.reachedCalls++;
    this.cached = null;
    const price = this.call.price;
    if (this.saved === null || !price || this.perCall === null) return;
    const rates = price.rates;
    const rate =
      p === this.call || p.verdict.verdict !== "hit"
        ? writeRate(price, rates, p.dto.writeTier)
        : rates.cacheRead;
    this.saved += (this.perCall * rate) / 1e6;
  }

  /** The re-write paid vs the chars saved on the calls reached so far. */
  row(): PruningRoundCostDTO {
    this.cached ??= this.build();
    return this.cached;
  }

  private build(): PruningRoundCostDTO {
    const k = this.call;
    const expired = k.verdict.verdict === "ttl-expired";
    const rewriteTokens = expired ? 0 : Math.min(k.verdict.evidence.missDeficit ?? 0, k.row.usage.cacheWrite);
    const price = k.price;
    return {
      callEntryId: k.row.entryId ?? `#${k.row.entryIndex}`,
      charsRemoved: this.chars,
      origin: this.chars !== null ? "input" : "snapshot",
      rewriteTokens,
      rewriteCostUsd: price
        ? (rewriteTokens * (writeRate(price, price.rates, k.dto.writeTier) - price.rates.cacheRead)) / 1e6
        : null,
      estTokensSavedPerCall: this.perCall,
      laterCalls: this.reachedCalls,
      estSavedUsd: this.saved,
      note: expired
        ? "the cache had expired anyway (TTL): the round adds no rewrite of its own"
        : "the round changed an early tool result: everything after it was re-written",
    };
  }
}

const NONE: readonly RoundChain[] = [];

/** The rounds of a session's calls, fed in append order, and the lineage chains still open (2026.9). */
export class RoundChains {
  /** Every round so far, in append order. */
  readonly all: RoundChain[] = [];
  /** How many of them have a size from the replay. */
  withChars = 0;
  /** Open chains per provider, then model. */
  private readonly open = new Map<string | null, Map<string | null, RoundChain[]>>();

  /** `sticky`: rounds persist (2026.9.2+, pruning/generation.ts); else each applies to its own call only. */
  constructor(private readonly sticky: boolean) {}

  /**
   * The earlier rounds whose removal reaches `p` (round order; none when rounds are stateless). A compaction or cold start of the
   * lineage closes them: `p` is not reached and no later call is.
   */
  reaching(p: PricedCall): readonly RoundChain[] {
    if (!this.sticky) return NONE;
    const byModel = this.open.get(p.row.provider);
    const chains = byModel?.get(p.row.model);
    if (!byModel || !chains || chains.length === 0) return NONE;
    if (p.verdict.signals.includes("compaction") || p.verdict.verdict === "cold-start") {
      byModel.set(p.row.model, []);
      return NONE;
    }
    for (const r of chains) r.reach(p);
    return chains.slice();
  }

  /** `p` is a round's call: its chain starts (reaching `p` itself). */
  start(p: PricedCall, chars: number | null): RoundChain {
    const r = new RoundChain(p, chars);
    this.all.push(r);
    if (chars !== null) this.withChars++;
    if (this.sticky) {
      let byModel = this.open.get(p.row.provider);
      if (!byModel) {
        byModel = new Map();
        this.open.set(p.row.provider, byModel);
      }
      const chains = byModel.get(p.row.model);
      if (chains) chains.push(r);
      else byModel.set(p.row.model, [r]);
    }
    return r;
  }

  /** Per round: the re-write paid vs the chars saved on the calls it reached. */
  rows(): PruningRoundCostDTO[] {
    return this.all.map((r) => r.row());
  }
}
