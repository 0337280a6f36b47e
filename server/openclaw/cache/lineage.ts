// Cache lineages (spec cache-and-cost.md §1 "Invalidation", §3, §5): the provider keeps a separate prompt cache
// per provider/model, so the previous call of call n is the latest earlier call with the same provider and
// model; how close a read must come to the previous prefix to count as a hit; which usage has no write counter.

import type { ModelCall } from "../../model/model-calls.ts";

/** The lineage of a call: provider + model, case-insensitive. */
export function lineageKey(c: ModelCall): string {
  const provider = c.provider ?? "";
  const model = c.model ?? "";
  let byModel = keyMemo.get(provider);
  if (!byModel) {
    if (keyMemo.size >= KEY_MEMO_LIMIT) keyMemo.clear();
    byModel = new Map();
    keyMemo.set(provider, byModel);
  }
  let key = byModel.get(model);
  if (key === undefined) {
    if (byModel.size >= KEY_MEMO_LIMIT) byModel.clear();
    // flattened here once: the key is hashed by several Maps per call
    key = `${provider.toLowerCase()}\u0000${model.toLowerCase()}`;
    byModel.set(model, key);
  }
  return key;
}

/**
 * The keys made so far, by provider then model: a session has a handful of lineages but one call per turn, and
 * lowering and joining both names per call was ~1 µs of every call's cache verdict. Bounded, so a state dir of
 * unusual names cannot grow it without end.
 */
const keyMemo = new Map<string, Map<string, string>>();
const KEY_MEMO_LIMIT = 256;

/**
 * Deficits up to this count as a hit: Anthropic's lookback and OpenAI's 1,024/128-token read steps make
 * the read differ slightly from the previous prefix (§3). Heuristic, not an OpenClaw number.
 */
export function hitTolerance(expectedRead: number): number {
  return Math.max(1024, Math.round(expectedRead * 0.05));
}

/** Providers whose usage has no write counter: `cacheWrite 0` means unknown (§3). */
export function lacksWriteCounter(call: ModelCall, lineageWrote: boolean): boolean {
  if (call.api === "anthropic-messages" || call.api === "bedrock-converse-stream") return false;
  return !lineageWrote;
}
