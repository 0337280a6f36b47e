// Editable pricing and prompt-cache data (USD per 1M tokens) and the lookup that prices one call.
// Provider prices change: this file is DATA, kept out of the report code on purpose
// (spec cache-and-cost.md §1 "keep the marked tables in an editable data file").
// Every number below comes from the spec tables; each row names its source. Never add a price
// that is not documented somewhere you can cite in `source`.

/** USD per 1M tokens for each usage bucket (OpenClaw `models.providers.*.models[].cost` shape). */
export interface PriceRates {
  input: number;
  output: number;
  cacheRead: number;
  /** 5-minute write price; the 1-hour write costs 2 × `input` (cache-and-cost.md §1, §4 9.x rule). */
  cacheWrite: number;
}

/** One tier of 2026.9.x `tieredPricing`: half-open `[start, end)` over prompt tokens; last range may be open. */
export interface PriceTier extends PriceRates {
  start: number;
  end: number | null;
}

export interface ModelPrice extends PriceRates {
  tieredPricing?: PriceTier[];
  /** Where the numbers come from (shown next to every computed cost). */
  source: string;
}

export interface CatalogModel {
  /** Normalised model id (see `normalizeModelId`). */
  id: string;
  price: ModelPrice | null;
  /** Minimum cacheable prompt length in tokens, or null when the provider documents none we know of. */
  minCacheableTokens: number | null;
  minCacheableSource: string | null;
  contextWindow: number | null;
}

const CATALOG_SOURCE = "pi-ai 0.55.3 bundled catalog (spec cache-and-cost.md §4), editable";
const MIN_SOURCE = "provider docs as mirrored by gateway vendors (spec cache-and-cost.md §1), UNVERIFIED";

function price(input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice {
  return { input, output, cacheRead, cacheWrite, source: CATALOG_SOURCE };
}

/** Anthropic models; prices only where the spec lists them, minimums for every listed model. */
export const CATALOG: CatalogModel[] = [
  {
    id: "claude-sonnet-4-5",
    price: price(3, 15, 0.3, 3.75),
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: 200_000,
  },
  {
    id: "claude-opus-4-5",
    price: price(5, 25, 0.5, 6.25),
    minCacheableTokens: 4096,
    minCacheableSource: MIN_SOURCE,
    contextWindow: 200_000,
  },
  {
    id: "claude-opus-4-6",
    price: price(5, 25, 0.5, 6.25),
    minCacheableTokens: 4096,
    minCacheableSource: MIN_SOURCE,
    contextWindow: 200_000,
  },
  {
    id: "claude-haiku-4-5",
    price: price(1, 5, 0.1, 1.25),
    minCacheableTokens: 4096,
    minCacheableSource: MIN_SOURCE,
    contextWindow: 200_000,
  },
  {
    id: "claude-sonnet-4-6",
    price: null,
    minCacheableTokens: 2048,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-opus-4-1",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-opus-4",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-sonnet-4",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-3-7-sonnet",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-3-5-sonnet",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-3-opus",
    price: null,
    minCacheableTokens: 1024,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-3-5-haiku",
    price: null,
    minCacheableTokens: 2048,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
  {
    id: "claude-3-haiku",
    price: null,
    minCacheableTokens: 2048,
    minCacheableSource: MIN_SOURCE,
    contextWindow: null,
  },
];

/** Newer/unknown Claude models: treat as 1,024 with a warning (spec cache-and-cost.md §1 last row). */
export const FALLBACK_MIN_CACHEABLE_TOKENS = 1024;

/** OpenAI automatic caching starts at 1,024-token prefixes (spec cache-and-cost.md §3). */
export const OPENAI_MIN_CACHEABLE_TOKENS = 1024;

/**
 * User/config prices, highest precedence first when merged by the caller. Keys: `"provider/model"` or a bare
 * model id (matched after `normalizeModelId`). Missing rate fields inherit the catalog price (OpenClaw:
 * "Omitted or `{}` cost inherits the catalog", spec §4).
 */
export type PricingOverrides = Record<
  string,
  Partial<PriceRates> & { tieredPricing?: PriceTier[]; source?: string }
>;

/**
 * Catalog key for a recorded model id: lowercase, without Bedrock region/vendor prefixes
 * (`us.anthropic.`), version suffixes (`-v1`, `-v1:0`) and date stamps (`-20251001`).
 * Deliberately exact after that: `claude-opus-4-6-thinking` (a proxy alias) is NOT priced as `claude-opus-4-6`.
 */
export function normalizeModelId(model: string): string {
  let m = model.trim().toLowerCase();
  m = m.replace(/^(us|eu|apac|global|jp|au)\./, "");
  m = m.replace(/^anthropic\./, "");
  m = m.replace(/-v\d+(:\d+)?$/, "");
  m = m.replace(/-\d{8}$/, "");
  m = m.replace(/@\d{8}$/, "");
  return m;
}

export function catalogModel(model: string): CatalogModel | undefined {
  const id = normalizeModelId(model);
  return CATALOG.find((c) => c.id === id);
}

export interface ResolvedPrice {
  rates: PriceRates;
  tieredPricing: PriceTier[] | null;
  source: string;
  /** "override" = from the caller/config overrides (possibly partial, filled from the catalog); "catalog" otherwise. */
  origin: "override" | "catalog";
}

function overrideFor(
  provider: string | null,
  model: string,
  overrides: PricingOverrides | undefined,
): { key: string; value: PricingOverrides[string] } | undefined {
  if (!overrides) return undefined;
  const norm = normalizeModelId(model);
  const candidates = [
    provider ? `${provider}/${model}` : null,
    provider ? `${provider}/${norm}` : null,
    model,
    norm,
  ];
  for (const key of candidates) {
    if (key === null) continue;
    const value = overrides[key];
    if (value) return { key, value };
  }
  return undefined;
}

/** Price for one provider/model: overrides (filled from the catalog) → catalog → null (unpriced). */
export function priceFor(
  provider: string | null,
  model: string | null,
  overrides?: PricingOverrides,
): ResolvedPrice | null {
  if (model === null) return null;
  const base = catalogModel(model)?.price ?? null;
  const ov = overrideFor(provider, model, overrides);
  if (ov) {
    const v = ov.value;
    const input = v.input ?? base?.input;
    const output = v.output ?? base?.output;
    const cacheRead = v.cacheRead ?? base?.cacheRead;
    const cacheWrite = v.cacheWrite ?? base?.cacheWrite;
    if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined) {
      return null;
    }
    return {
      rates: { input, output, cacheRead, cacheWrite },
      tieredPricing: v.tieredPricing ?? base?.tieredPricing ?? null,
      source: v.source ?? `pricing override "${ov.key}"`,
      origin: "override",
    };
  }
  if (!base) return null;
  return {
    rates: { input: base.input, output: base.output, cacheRead: base.cacheRead, cacheWrite: base.cacheWrite },
    tieredPricing: base.tieredPricing ?? null,
    source: `${base.source}: ${normalizeModelId(model)}`,
    origin: "catalog",
  };
}

export interface UsageBuckets {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of `cacheWrite` written with the 1-hour TTL (priced 2 × input). */
  cacheWrite1h: number;
}

/**
 * 2026.9.x `usage.cost` rule (spec cache-and-cost.md §4): pick one tier by prompt tokens
 * `input + cacheRead + cacheWrite` (half-open ranges, last open-ended), apply its rates to every bucket;
 * 1-hour writes at 2 × input, the rest of the writes at the `cacheWrite` rate. Returns USD.
 */
export function costOf(usage: UsageBuckets, price: ResolvedPrice): number {
  let rates: PriceRates = price.rates;
  if (price.tieredPricing && price.tieredPricing.length > 0) {
    const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
    const tier = price.tieredPricing.find(
      (t) => promptTokens >= t.start && (t.end === null || promptTokens < t.end),
    );
    if (tier) rates = tier;
  }
  const w1h = Math.min(usage.cacheWrite1h, usage.cacheWrite);
  return (
    (usage.input * rates.input +
      usage.output * rates.output +
      usage.cacheRead * rates.cacheRead +
      (usage.cacheWrite - w1h) * rates.cacheWrite +
      w1h * 2 * rates.input) /
    1e6
  );
}

/** Minimum cacheable prompt tokens for a model, with where the number comes from. */
export function minCacheableTokens(
  api: string | null,
  model: string | null,
): { tokens: number; source: string; assumed: boolean } | null {
  if (model !== null) {
    const c = catalogModel(model);
    if (c && c.minCacheableTokens !== null) {
      return { tokens: c.minCacheableTokens, source: c.minCacheableSource ?? MIN_SOURCE, assumed: false };
    }
    if (/claude/i.test(model)) {
      return {
        tokens: FALLBACK_MIN_CACHEABLE_TOKENS,
        source: "unknown Claude model: treated as 1,024 (spec cache-and-cost.md §1), warning",
        assumed: true,
      };
    }
  }
  if (api?.startsWith("openai-")) {
    return {
      tokens: OPENAI_MIN_CACHEABLE_TOKENS,
      source: "OpenAI automatic caching ≥ 1,024 tokens (spec §3)",
      assumed: false,
    };
  }
  return null;
}
