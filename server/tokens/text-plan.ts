// What of a text the tokenizer may see (pure). js-tiktoken's BPE is quadratic in the length of one
// pre-tokenised piece (a 16,000-letter run takes ~30 s), so any run of more than `maxRunChars` non-whitespace
// characters (base64 images, minified code, hashes) is never tokenised: it counts as ceil(chars/4) and the
// result says how many chars were estimated.

import type { TokenCount } from "./token-cache.ts";

export const DEFAULT_MAX_RUN_CHARS = 1000;
export interface TextPlan {
  /** Parts to tokenise, in order. */
  pieces: string[];
  /** Chars of the long runs left out of `pieces`. */
  estimatedChars: number;
  /** Σ ceil(run length / 4) over those runs. */
  estimatedTokens: number;
}

/** Splits a text into tokenisable pieces and long unbroken runs (estimated). Pure. */
export function planText(text: string, maxRunChars = DEFAULT_MAX_RUN_CHARS): TextPlan {
  const pieces: string[] = [];
  let estimatedChars = 0;
  let estimatedTokens = 0;
  const re = new RegExp(`\\S{${maxRunChars + 1},}`, "g");
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    estimatedChars += m[0].length;
    estimatedTokens += Math.ceil(m[0].length / 4);
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return { pieces, estimatedChars, estimatedTokens };
}

/** Anything with `encode(text, allowedSpecial, disallowedSpecial)` (js-tiktoken's Tiktoken). */
export interface Encoder {
  encode(text: string, allowedSpecial?: string[] | "all", disallowedSpecial?: string[] | "all"): number[];
}

/** Counts one planned text. Special-token strings inside the text count as plain text (never throw). */
export function countPlanned(encoder: Encoder, plan: TextPlan): TokenCount {
  let tokens = plan.estimatedTokens;
  for (const p of plan.pieces) tokens += encoder.encode(p, [], []).length;
  return { tokens, estimatedChars: plan.estimatedChars };
}
