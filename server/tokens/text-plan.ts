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

/**
 * JavaScript's `\s` (ECMA-262 WhiteSpace + LineTerminator): the characters a `\S` run stops at. Tested against
 * the RegExp it replaces (test/server/long-unbroken-run.test.ts).
 */
function isJsWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Splits a text into tokenisable pieces and long unbroken runs (estimated). Pure, linear, no RegExp: V8's
 * `\S{1001,}` overflowed the stack on a run of ~8 M chars, and that text killed the server (issue 20).
 */
export function planText(text: string, maxRunChars = DEFAULT_MAX_RUN_CHARS): TextPlan {
  const pieces: string[] = [];
  let estimatedChars = 0;
  let estimatedTokens = 0;
  let last = 0;
  let runStart = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isJsWhitespace(text.charCodeAt(i));
    if (!space) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && i - runStart > maxRunChars) {
      if (runStart > last) pieces.push(text.slice(last, runStart));
      estimatedChars += i - runStart;
      estimatedTokens += Math.ceil((i - runStart) / 4);
      last = i;
    }
    runStart = -1;
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
