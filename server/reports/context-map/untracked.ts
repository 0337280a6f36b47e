// The "Untracked / provider overhead" tile of clawscope's map: the last call's billed prompt tokens minus the
// chars/4 estimate of the tiles in that prompt — tool names and descriptions, message framing, provider-side
// text and tokenizer differences. A token quantity only (0 chars: not drawn in the chars mode).

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import { fmtInt } from "../../../shared/format.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import type { LeafSpec } from "./leaf-spec.ts";
import { isPending } from "./token-texts.ts";

/** billed − ceil(tracked chars of the last call's prompt / 4) when ≥ 0; otherwise unknown, with the reason. */
export function untrackedOf(billed: number | null, order: readonly LeafSpec[]): ContextMapDTO["untracked"] {
  if (billed === null) return { tokens: null, reason: "not observed: no usage recorded for the last call" };
  const lastCallChars = order.reduce((s, l) => s + l.chars, 0);
  const diff = billed - tokensFromChars(lastCallChars);
  return diff >= 0
    ? {
        tokens: diff,
        reason: `billed prompt tokens of the last call ${fmtInt(billed)} (input + cacheRead + cacheWrite) − ceil(${fmtInt(lastCallChars)} tracked chars in that prompt / 4)`,
      }
    : {
        tokens: null,
        reason: `not observed: the tracked estimate (~${fmtInt(tokensFromChars(lastCallChars))} tok) exceeds the last call's billed ${fmtInt(billed)} tok`,
      };
}

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
