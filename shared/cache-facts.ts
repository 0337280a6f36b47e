// Prompt-cache facts the price library does not carry (spec cache-and-cost.md §1, §3; research deps.md §1): the
// minimum cacheable prompt per model and the 1-hour write multiplier. DATA, kept out of the report code on purpose
// (spec: "keep the marked tables in an editable data file"); every row names its source. Never add a number that
// is not documented somewhere you can cite here.

const ANTHROPIC_CACHING = "platform.claude.com/docs/en/build-with-claude/prompt-caching";
const ANTHROPIC_LIMITS = `${ANTHROPIC_CACHING} ("Cache limitations"); spec cache-and-cost.md §1`;

/** Minimum cacheable prompt of one model: below `tokens` a marked prefix is simply not cached (spec §1). */
export interface MinCacheableFact {
  /** Model ids after `normalizeModelId` (shared/pricing.ts). Exact: a proxy alias (`…-thinking`) is no match. */
  models: readonly string[];
  /** The lower documented value: `below-min-cacheable` fires only under it. */
  tokens: number;
  /** A higher value documented at another time, when the documentation changed (the bracket's upper end). */
  upperTokens?: number;
  source: string;
}

export const MIN_CACHEABLE: readonly MinCacheableFact[] = [
  {
    models: ["claude-opus-4-5", "claude-opus-4-6", "claude-opus-4-7", "claude-haiku-4-5"],
    tokens: 4096,
    source: ANTHROPIC_LIMITS,
  },
  {
    models: ["claude-sonnet-4-6"],
    tokens: 1024,
    upperTokens: 2048,
    source: `${ANTHROPIC_LIMITS}: 2,048 until the docs change of 2026-05-15, 1,024 after (one user report of 2,048 observed: anthropics/anthropic-sdk-python#1194)`,
  },
  {
    models: [
      "claude-sonnet-4-5",
      "claude-opus-4-1",
      "claude-opus-4",
      "claude-sonnet-4",
      "claude-3-7-sonnet",
      "claude-3-5-sonnet",
      "claude-3-opus",
    ],
    tokens: 1024,
    source: ANTHROPIC_LIMITS,
  },
  { models: ["claude-3-5-haiku", "claude-3-haiku"], tokens: 2048, source: ANTHROPIC_LIMITS },
];

/** Newer/unknown Claude models: treated as 1,024 with a warning (spec cache-and-cost.md §1 last row). */
export const UNKNOWN_CLAUDE_MIN_CACHEABLE = {
  tokens: 1024,
  source: "unknown Claude model: treated as 1,024 (spec cache-and-cost.md §1), assumed",
} as const;

/** OpenAI automatic caching starts at 1,024-token prefixes (spec cache-and-cost.md §3). */
export const OPENAI_MIN_CACHEABLE = {
  tokens: 1024,
  source: "OpenAI automatic caching ≥ 1,024 tokens (platform.openai.com/docs/guides/prompt-caching; spec §3)",
} as const;

/** What a 1-hour cache write costs, as a multiple of the base input rate. */
export interface OneHourWriteFact {
  multiplier: number;
  /** True when no source documents it for this provider (shown as an estimate). */
  estimate: boolean;
  source: string;
}

/**
 * 1-hour writes: 2 × input on Anthropic's API (also OpenClaw 2026.9.x `calculateUsageCost`: `cacheWrite1h ×
 * input × 2`). The price library has no 1-hour rate on Bedrock rows and would price them at the 5-minute rate,
 * so clawscope applies the same multiplier there and labels it.
 */
export const ONE_HOUR_WRITE: { anthropic: OneHourWriteFact; bedrock: OneHourWriteFact } = {
  anthropic: {
    multiplier: 2,
    estimate: false,
    source: `${ANTHROPIC_CACHING}#pricing (1-hour write 2 × base input); spec cache-and-cost.md §1, §4`,
  },
  bedrock: {
    multiplier: 2,
    estimate: true,
    source:
      "ESTIMATE: 2 × input assumed; no Bedrock 1-hour rate documented in the price library (docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html, UNVERIFIED)",
  },
};
