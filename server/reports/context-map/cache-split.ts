// The prompt-cache state of each tile at the last call ("Cache state" size mode) — an estimate: the last call's
// billed cache-read / cache-write / uncached tokens laid over the tiles in prompt order, each tile placed by its
// chars/4 position scaled to the billed total.

import type { CacheState } from "../../../shared/context-map.ts";
import { fmtInt } from "../../../shared/format.ts";
import { promptTokensOf } from "../../../shared/pricing.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import type { LastCallUsage, LeafSpec } from "./leaf-spec.ts";

export interface CacheSplit {
  read: number;
  write: number;
  uncached: number;
}

export interface CacheEstimate {
  /** Leaf id → its state (the largest share) and its tokens split at the boundaries. */
  byLeaf: Map<string, { state: CacheState; split: CacheSplit }>;
  /** How the states were derived, or why they are unknown. */
  basis: string;
}

function overlap(a: number, b: number, lo: number, hi: number): number {
  return Math.max(0, Math.min(b, hi) - Math.max(a, lo));
}

function stateOf(split: CacheSplit): CacheState {
  if (split.read >= split.write && split.read >= split.uncached) return "read";
  return split.write >= split.uncached ? "write" : "uncached";
}

/**
 * Splits the tiles of the last call's prompt (`order`: prompt order on the wire) at its cache boundaries.
 * Unknown without usage, or when the last call's reply is not in the context list (`replyPos` null).
 */
export function splitCache(
  order: readonly LeafSpec[],
  usage: LastCallUsage | null,
  replyPos: number | null,
): CacheEstimate {
  const byLeaf = new Map<string, { state: CacheState; split: CacheSplit }>();
  const billed = usage ? promptTokensOf(usage) : 0;
  if (!usage || billed <= 0 || replyPos === null)
    return {
      byLeaf,
      basis:
        usage === null
          ? "unknown: no usage recorded for the last call"
          : "unknown: the last call's reply is not in the model-context list",
    };
  const totalEst = order.reduce((s, l) => s + tokensFromChars(l.chars), 0);
  const scale = totalEst > 0 ? billed / totalEst : 0;
  const readEnd = usage.cacheRead;
  const writeEnd = usage.cacheRead + usage.cacheWrite;
  let pos = 0;
  for (const l of order) {
    const est = tokensFromChars(l.chars);
    const a = pos * scale;
    const b = (pos + est) * scale;
    pos += est;
    const span = b - a;
    const fr = span > 0 ? overlap(a, b, 0, readEnd) / span : 0;
    const fw = span > 0 ? overlap(a, b, readEnd, writeEnd) / span : 0;
    const read = Math.round(est * fr);
    const write = Math.min(est - read, Math.round(est * fw));
    const split = { read, write, uncached: est - read - write };
    byLeaf.set(l.id, { state: stateOf(split), split });
  }
  return {
    byLeaf,
    basis: `estimate: the last call billed ${fmtInt(usage.cacheRead)} cache-read + ${fmtInt(usage.cacheWrite)} cache-write + ${fmtInt(usage.input)} uncached input tokens, in prompt order (tools, system prompt, messages, runtime context); each tile is placed by its chars/4 position scaled to the billed total`,
  };
}
