// Pruning rounds in the bill (spec pruning.md §5, cache-and-cost.md §6): which calls a round changed (from
// the replay, or a projection snapshot that marks more results pruned), which later calls it reaches, the
// re-write it caused and what its removed chars save on every later call.

import type { PruningRoundCostDTO } from "../../../shared/cost.ts";
import type { ConfigFamily } from "../../openclaw/config/agent-settings.ts";
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

export class RoundCalls {
  /** Calls a round changed, in append order. */
  readonly all: readonly PricedCall[];
  /** Those whose removed chars the replay knows. */
  readonly withChars: readonly PricedCall[];
  private readonly charsById: ReadonlyMap<string, number>;

  constructor(
    private readonly priced: readonly PricedCall[],
    rounds: readonly PruningRoundInput[],
    private readonly family: ConfigFamily,
    /** The round calls of `priced` when the caller kept them (isRoundCall over `rounds`, append order). */
    all?: readonly PricedCall[],
  ) {
    const charsById = new Map(rounds.map((r) => [r.entryId, r.charsRemoved]));
    this.charsById = charsById;
    this.all = all ?? priced.filter((p) => isRoundCall(p, charsById));
    this.withChars = this.all.filter((k) => k.row.entryId !== null && charsById.has(k.row.entryId));
  }

  /** Where `k` is in `priced`: calls are in append order, so their entry indexes ascend (binary search). */
  private positionOf(k: PricedCall): number {
    let lo = 0;
    let hi = this.priced.length - 1;
    const target = k.row.entryIndex;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.priced[mid]?.row.entryIndex ?? 0;
      if (at === target) return this.priced[mid] === k ? mid : -1;
      if (at < target) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Chars the round at `k` removed, when the replay knows them. */
  charsOf(k: PricedCall): number | null {
    return k.row.entryId !== null ? (this.charsById.get(k.row.entryId) ?? null) : null;
  }

  /**
   * The round's call and the later calls of its lineage until the history is rewritten anyway (compaction /
   * cold start) — or, ≤ 2026.7, only the round's own call (rounds there apply to one request, pruning.md §1.8).
   */
  affected(k: PricedCall): PricedCall[] {
    const out: PricedCall[] = [k];
    if (this.family !== "2026.9") return out;
    for (let j = this.positionOf(k) + 1; j < this.priced.length; j++) {
      const p = this.priced[j];
      if (!p) continue;
      if (p.row.provider !== k.row.provider || p.row.model !== k.row.model) continue;
      if (p.verdict.signals.includes("compaction") || p.verdict.verdict === "cold-start") break;
      out.push(p);
    }
    return out;
  }
}

/** Per round: the re-write paid vs the chars saved on the calls it reaches. */
export function pruningRoundCosts(rounds: RoundCalls): PruningRoundCostDTO[] {
  return rounds.all.map((k) => {
    const chars = rounds.charsOf(k);
    const expired = k.verdict.verdict === "ttl-expired";
    const rewriteTokens = expired ? 0 : Math.min(k.verdict.evidence.missDeficit ?? 0, k.row.usage.cacheWrite);
    const price = k.price;
    const rates = price?.rates ?? null;
    const later = rounds.affected(k);
    const perCall = chars !== null ? estimatedTokens(chars) : null;
    let saved: number | null = null;
    if (price && rates && perCall !== null) {
      saved = 0;
      for (const p of later) {
        const rate =
          p === k || p.verdict.verdict !== "hit" ? writeRate(price, rates, p.dto.writeTier) : rates.cacheRead;
        saved += (perCall * rate) / 1e6;
      }
    }
    return {
      callEntryId: k.row.entryId ?? `#${k.row.entryIndex}`,
      charsRemoved: chars,
      origin: chars !== null ? "input" : "snapshot",
      rewriteTokens,
      rewriteCostUsd:
        price && rates
          ? (rewriteTokens * (writeRate(price, rates, k.dto.writeTier) - rates.cacheRead)) / 1e6
          : null,
      estTokensSavedPerCall: perCall,
      laterCalls: later.length,
      estSavedUsd: saved,
      note: expired
        ? "the cache had expired anyway (TTL): the round adds no rewrite of its own"
        : "the round changed an early tool result: everything after it was re-written",
    };
  });
}
