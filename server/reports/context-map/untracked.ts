// The "Untracked / provider overhead" tile of clawscope's map: the last call's billed prompt tokens minus the
// Σ of the chars/4 estimates of the tiles in that prompt (the number is context-numbers.ts's) — tool names and
// descriptions, message framing, provider-side text and tokenizer differences. A token quantity only (0 chars:
// not drawn in the chars mode).

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import type { LeafSpec } from "./leaf-spec.ts";
import { isPending } from "./token-texts.ts";

/**
 * The tile, when there is a positive difference. Its tokenizer figure is the same difference over the tiles'
 * tokenizer counts, once no tile of that prompt waits for a count.
 */
export function untrackedNode(
  untracked: ContextMapDTO["untracked"],
  billed: number | null,
  order: readonly LeafSpec[],
  nodesById: ReadonlyMap<string, MapNode>,
  tiktoken: ReadonlyMap<string, number> | undefined,
): MapNode | null {
  if (untracked.tokens === null || untracked.tokens <= 0 || billed === null) return null;
  let tik: number | null = null;
  if (tiktoken !== undefined && !order.some((l) => isPending(l, tiktoken))) {
    const tikSum = order.reduce((s, l) => {
      const n = nodesById.get(l.id);
      return s + (n ? (n.tiktokenTokens ?? n.estTokens) : 0);
    }, 0);
    if (billed - tikSum >= 0) tik = billed - tikSum;
  }
  return {
    id: "untracked",
    name: "Untracked / provider overhead",
    group: "untracked",
    chars: 0,
    estTokens: untracked.tokens,
    tiktokenTokens: tik,
    source: `${untracked.reason}: tool names/descriptions, message framing, provider-side text and tokenizer differences`,
    cache: "unknown",
  };
}
