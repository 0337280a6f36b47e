// What a price is and how one call is priced with it (spec cache-and-cost.md §4; docs/openclaw-facts.md §6).
// The prices themselves come from the layers in server/pricing/ (a `--pricing` file, the OpenClaw config, the
// agent's models.json, the maintained price library, the in-app editor); the cache facts the library lacks live in
// shared/cache-facts.ts. Shared with the web for the price editor (its URL form) and the DTOs.

import {
  MIN_CACHEABLE,
  ONE_HOUR_WRITE,
  type OneHourWriteFact,
  OPENAI_MIN_CACHEABLE,
  UNKNOWN_CLAUDE_MIN_CACHEABLE,
} from "./cache-facts.ts";
import { isObject, type JsonObject, type JsonValue, num } from "./json.ts";

/** USD per 1M tokens for each usage bucket (OpenClaw `models.providers.*.models[].cost` shape). */
export interface PriceRates {
  input: number;
  output: number;
  cacheRead: number;
  /** 5-minute write price; the 1-hour write is `ResolvedPrice.oneHourWrite` × `input`. */
  cacheWrite: number;
}

/** One tier of 2026.9.x `tieredPricing`: half-open `[start, end)` over prompt tokens; last range may be open. */
export interface PriceTier extends PriceRates {
  start: number;
  end: number | null;
}

/**
 * Where a price comes from, highest precedence first below the recorded `usage.cost` (issue 14 §3): a `--pricing`
 * file, the user's `models.providers.*.models[].cost`, the agent's `models.json`, the price library, the in-app
 * editor (only asked for models nothing else prices).
 */
export type PriceOrigin = "pricing-file" | "config" | "models-json" | "library" | "editor";

export interface ResolvedPrice {
  rates: PriceRates;
  tieredPricing: PriceTier[] | null;
  /** The 1-hour write multiplier over `input` and where it comes from (shared/cache-facts.ts). */
  oneHourWrite: OneHourWriteFact;
  /** Where the numbers come from, shown next to every computed cost. */
  source: string;
  origin: PriceOrigin;
}

/**
 * User prices (a `--pricing` file, the config, models.json, the editor). Keys: `"provider/model"` or a bare model
 * id (matched after `normalizeModelId`). A partial entry inherits the missing rates from the price library
 * (OpenClaw: "Omitted or `{}` cost inherits the catalog", spec §4).
 */
export type PricingOverrides = Record<
  string,
  Partial<PriceRates> & { tieredPricing?: PriceTier[]; source?: string }
>;

const RATE_KEYS = ["input", "output", "cacheRead", "cacheWrite"] as const;

function rateOf(o: JsonObject, key: string): number | undefined {
  const v = num(o, key);
  return v !== undefined && v >= 0 ? v : undefined;
}

function tierOf(t: JsonValue): PriceTier | null {
  if (!isObject(t)) return null;
  const [input, output, cacheRead, cacheWrite, start] = [...RATE_KEYS, "start"].map((k) => rateOf(t, k));
  if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined)
    return null;
  if (start === undefined) return null;
  const end = rateOf(t, "end");
  return { start, end: end !== undefined && end > start ? end : null, input, output, cacheRead, cacheWrite };
}

/** One entry of a price list; an error text when a field is bad. */
function entryOf(raw: JsonObject, source: string): PricingOverrides[string] | string {
  const entry: PricingOverrides[string] = { source };
  for (const [k, v] of Object.entries(raw)) {
    const rk = RATE_KEYS.find((r) => r === k);
    if (rk) {
      const rate = rateOf(raw, k);
      if (rate === undefined) return `${k}: not a number ≥ 0`;
      entry[rk] = rate;
    } else if (k === "tieredPricing") {
      const tiers = (Array.isArray(v) ? v : [null]).map(tierOf);
      if (tiers.some((t) => t === null))
        return "tieredPricing: each tier needs start, input, output, cacheRead, cacheWrite";
      entry.tieredPricing = tiers.flatMap((t) => (t ? [t] : [])).sort((a, b) => a.start - b.start);
    } else if (k !== "source") {
      return `unknown field ${k}`;
    }
  }
  return entry;
}

/**
 * A price list as a `--pricing` file holds it (JSON5): `{ "provider/model" | "model": { input?, output?, cacheRead?,
 * cacheWrite?, tieredPricing?: [{ start, end?, input, output, cacheRead, cacheWrite }] } }`, USD per 1M tokens.
 * Never throws: each bad entry is left out with a located message.
 */
export function parsePricingOverrides(
  value: unknown,
  source: string,
): { prices: PricingOverrides; errors: string[] } {
  const prices: PricingOverrides = {};
  if (!isObject(value)) {
    return {
      prices,
      errors: [`${source}: expected { "provider/model": { input, output, cacheRead, cacheWrite } }`],
    };
  }
  const errors: string[] = [];
  for (const [key, raw] of Object.entries(value)) {
    const entry = isObject(raw) ? entryOf(raw, `${source} "${key}"`) : "expected an object of rates";
    if (typeof entry === "string") errors.push(`${source}: "${key}": ${entry}`);
    else prices[key] = entry;
  }
  return { prices, errors };
}

export interface UsageBuckets {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of `cacheWrite` written with the 1-hour TTL. */
  cacheWrite1h: number;
}

/**
 * The prompt a call was billed for: `input + cacheRead + cacheWrite` (spec transcript.md §4) — the one
 * definition, used by the decoded model calls (server/model/model-calls.ts), the hit rates and the tier pick.
 */
export function promptTokensOf(u: Pick<UsageBuckets, "input" | "cacheRead" | "cacheWrite">): number {
  return u.input + u.cacheRead + u.cacheWrite;
}

/**
 * Price-table key for a recorded model id: lowercase, without Bedrock region/vendor prefixes (`us.anthropic.`),
 * version suffixes (`-v1`, `-v1:0`) and date stamps (`-20251001`). Deliberately exact after that:
 * `claude-opus-4-6-thinking` (a proxy alias) is NOT `claude-opus-4-6`.
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

/** The user-price entry for a provider/model: `provider/model`, `provider/normalised`, `model`, `normalised`. */
export function overrideFor(
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
    if (key === null || !Object.hasOwn(overrides, key)) continue;
    const value = overrides[key];
    if (value) return { key, value };
  }
  return undefined;
}

/** The 1-hour multiplier for a provider: Bedrock's is an estimate (shared/cache-facts.ts). */
export function oneHourWriteFor(provider: string | null): OneHourWriteFact {
  return provider?.toLowerCase().includes("bedrock") ? ONE_HOUR_WRITE.bedrock : ONE_HOUR_WRITE.anthropic;
}

/** All four rates given: nothing to inherit. */
export function isCompletePrice(entry: PricingOverrides[string]): boolean {
  return (
    entry.input !== undefined &&
    entry.output !== undefined &&
    entry.cacheRead !== undefined &&
    entry.cacheWrite !== undefined
  );
}

/**
 * A user price, its missing rates filled from `base` (the library's price for the same model). Null when a rate
 * is still missing: a half-specified price is no price.
 */
export function priceFromOverride(
  provider: string | null,
  entry: PricingOverrides[string],
  base: ResolvedPrice | null,
  origin: PriceOrigin,
  defaultSource: string,
): ResolvedPrice | null {
  const input = entry.input ?? base?.rates.input;
  const output = entry.output ?? base?.rates.output;
  const cacheRead = entry.cacheRead ?? base?.rates.cacheRead;
  const cacheWrite = entry.cacheWrite ?? base?.rates.cacheWrite;
  if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined) {
    return null;
  }
  const complete = isCompletePrice(entry);
  return {
    rates: { input, output, cacheRead, cacheWrite },
    tieredPricing: entry.tieredPricing ?? (complete ? null : (base?.tieredPricing ?? null)),
    oneHourWrite: base?.oneHourWrite ?? oneHourWriteFor(provider),
    source:
      complete || !base
        ? (entry.source ?? defaultSource)
        : `${entry.source ?? defaultSource} (missing rates from ${base.source})`,
    origin,
  };
}

/** The tier OpenClaw 9.x applies to a call: by prompt tokens, half-open `[start, end)`, last one open-ended. */
export function ratesFor(price: ResolvedPrice, promptTokens: number): PriceRates {
  const tiers = price.tieredPricing;
  if (!tiers || tiers.length === 0) return price.rates;
  return (
    tiers.find((t) => promptTokens >= t.start && (t.end === null || promptTokens < t.end)) ?? price.rates
  );
}

/**
 * 2026.9.x `usage.cost` rule (spec cache-and-cost.md §4): one tier by prompt tokens `input + cacheRead +
 * cacheWrite` for every bucket; 1-hour writes at the 1-hour multiplier × input, the rest at `cacheWrite`. USD.
 */
export function costOf(usage: UsageBuckets, price: ResolvedPrice): number {
  const t = costTermsOf(usage, price);
  return (t.input + t.output + t.cacheRead + t.cacheWrite5m + t.cacheWrite1h) / 1e6;
}

/** costOf's terms per bucket, in USD × 1e6 (the overview's cost kinds split a call's cost by them). */
export function costTermsOf(
  usage: UsageBuckets,
  price: ResolvedPrice,
): { input: number; output: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number } {
  const rates = ratesFor(price, promptTokensOf(usage));
  const w1h = Math.min(usage.cacheWrite1h, usage.cacheWrite);
  return {
    input: usage.input * rates.input,
    output: usage.output * rates.output,
    cacheRead: usage.cacheRead * rates.cacheRead,
    cacheWrite5m: (usage.cacheWrite - w1h) * rates.cacheWrite,
    cacheWrite1h: w1h * price.oneHourWrite.multiplier * rates.input,
  };
}

/** Write price per 1M of one tier: the 1-hour rate (multiplier × input) or the 5-minute `cacheWrite`. */
export function writeRateOf(price: ResolvedPrice, rates: PriceRates, oneHour: boolean): number {
  return oneHour ? price.oneHourWrite.multiplier * rates.input : rates.cacheWrite;
}

export interface MinCacheable {
  tokens: number;
  /** The bracket's upper end when the documented value changed (Sonnet 4.6: 1,024 … 2,048). */
  upperTokens: number | null;
  source: string;
  assumed: boolean;
}

/** Minimum cacheable prompt tokens for a model, with where the number comes from (shared/cache-facts.ts). */
export function minCacheableTokens(api: string | null, model: string | null): MinCacheable | null {
  if (model !== null) {
    const id = normalizeModelId(model);
    const fact = MIN_CACHEABLE.find((f) => f.models.includes(id));
    if (fact) {
      return {
        tokens: fact.tokens,
        upperTokens: fact.upperTokens ?? null,
        source: fact.source,
        assumed: false,
      };
    }
    if (/claude/i.test(model)) {
      return { ...UNKNOWN_CLAUDE_MIN_CACHEABLE, upperTokens: null, assumed: true };
    }
  }
  if (api?.startsWith("openai-")) return { ...OPENAI_MIN_CACHEABLE, upperTokens: null, assumed: false };
  return null;
}
