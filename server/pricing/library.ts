// Rates from the maintained price library `@pydantic/genai-prices` (research deps.md §1): used only for the RATES of
// a call (`model_price` of the active price record at the call's time); clawscope applies OpenClaw's own cost
// formula to them (shared/pricing.ts costOf). Pitfalls the adapter handles:
// - loaded lazily, on the first price lookup (831 KB of data; only cost-needing commands and routes get here);
// - rates are memoised per (provider, model, UTC minute): every date/time constraint in its data is on a whole
//   minute (`00:30:00Z`, `2026-03-13`), and a model without dated prices is looked up once;
// - OpenClaw's provider ids map onto the library's (`amazon-bedrock` → `aws` by the library itself, a small alias
//   table for the rest); an unknown provider (`custom-*`, `cli-proxy`, `ollama`) is NEVER priced by model id alone
//   — a proxy alias `claude-opus-4-6-thinking` is not list-price Opus — only a suggestion is returned;
// - a tier applies when the whole prompt is ABOVE its start (the library's rule, Anthropic's billing): as OpenClaw's
//   half-open `[start, end)` tiers that is `start + 1`;
// - no 1-hour write rate on Bedrock rows: the multiplier of shared/cache-facts.ts applies, labelled an estimate;
// - it throws on bad usage: every call is wrapped (rules never throw); `updatePrices` is never called (no network).

import { createRequire } from "node:module";
import type { ModelPrice, PriceCalculation, TieredPrices } from "@pydantic/genai-prices";
import {
  oneHourWriteFor,
  type PriceRates,
  type PriceTier,
  type ResolvedPrice,
} from "../../shared/pricing.ts";

/** The pinned version (package.json), named in every price it gives. */
export const LIBRARY_VERSION = "0.1.8";
export const LIBRARY_NAME = `genai-prices ${LIBRARY_VERSION}`;

type Library = typeof import("@pydantic/genai-prices");

/** OpenClaw provider ids the library knows under another id (research deps.md §1). */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  "minimax-portal": "minimax",
  "google-vertex": "google",
  "anthropic-vertex": "anthropic",
};

export interface LibraryLookup {
  price: ResolvedPrice | null;
  /** For an unknown provider: what the library would match by model id alone (`zhipuai/GLM-5-Turbo`), not used. */
  suggestion: string | null;
}

let library: Library | null = null;

function load(): Library {
  if (library === null) {
    const required: Library = createRequire(import.meta.url)("@pydantic/genai-prices");
    library = required;
  }
  return library;
}

type Bucket = { base: number; tiers: { start: number; price: number }[] };

function bucket(mp: ModelPrice, key: string): Bucket | null {
  const v: number | TieredPrices | undefined = mp[key];
  if (typeof v === "number") return { base: v, tiers: [] };
  if (v && typeof v.base === "number") return { base: v.base, tiers: [...v.tiers] };
  return null;
}

function at(b: Bucket, start: number): number {
  let price = b.base;
  for (const t of b.tiers) if (t.start <= start) price = t.price;
  return price;
}

/**
 * The library's per-bucket rates as OpenClaw-shaped rates + tiers. A bucket it has no rate for is billed as input
 * (DeepSeek/OpenAI have no write surcharge; a model without a read rate reads at input).
 */
function toRates(
  mp: ModelPrice,
): { rates: PriceRates; tiers: PriceTier[] | null; oneHour: number | null } | null {
  const input = bucket(mp, "input_mtok");
  const output = bucket(mp, "output_mtok");
  if (!input || !output) return null;
  const read = bucket(mp, "cache_read_mtok") ?? input;
  const write = bucket(mp, "cache_write_mtok") ?? input;
  const oneHour = bucket(mp, "cache_write_1h_mtok");
  const rateAt = (s: number): PriceRates => ({
    input: at(input, s),
    output: at(output, s),
    cacheRead: at(read, s),
    cacheWrite: at(write, s),
  });
  const starts = [...new Set([input, output, read, write].flatMap((b) => b.tiers.map((t) => t.start)))].sort(
    (a, b) => a - b,
  );
  const rates = rateAt(-1);
  const tiers: PriceTier[] | null =
    starts.length === 0
      ? null
      : [-1, ...starts].map((s, i) => ({
          ...rateAt(s),
          start: s + 1,
          end: i < starts.length ? (starts[i] ?? 0) + 1 : null,
        }));
  return { rates, tiers, oneHour: oneHour && input.base > 0 ? oneHour.base / input.base : null };
}

function calc(
  lib: Library,
  model: string,
  providerId: string | undefined,
  when: Date,
): PriceCalculation | null {
  try {
    return lib.calcPrice({ input_tokens: 1000, output_tokens: 1 }, model, {
      ...(providerId ? { providerId } : {}),
      timestamp: when,
    });
  } catch {
    return null;
  }
}

function resolved(provider: string, r: PriceCalculation): ResolvedPrice | null {
  const converted = toRates(r.model_price);
  if (!converted) return null;
  const fact = oneHourWriteFor(provider);
  const oneHourWrite =
    converted.oneHour !== null
      ? { multiplier: converted.oneHour, estimate: false, source: `${LIBRARY_NAME} cache_write_1h_mtok` }
      : fact;
  return {
    rates: converted.rates,
    tieredPricing: converted.tiers,
    oneHourWrite,
    source: `${LIBRARY_NAME}: ${r.provider.id}/${r.model.id}${r.model.name ? ` (${r.model.name})` : ""}`,
    origin: "library",
  };
}

const MINUTE = 60_000;
const memo = new Map<string, LibraryLookup>();
/** Models whose price has no date/time condition: one lookup for all timestamps. */
const undated = new Set<string>();

/** The library's price for a provider/model at a time (ms; null = now), or a suggestion for unknown providers. */
export function libraryPrice(
  provider: string | null,
  model: string | null,
  atMs: number | null,
): LibraryLookup {
  if (provider === null || model === null) return { price: null, suggestion: null };
  const base = `${provider}\u0000${model}`;
  const minute = atMs === null ? Math.floor(Date.now() / MINUTE) : Math.floor(atMs / MINUTE);
  const key = undated.has(base) ? base : `${base}\u0000${minute}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const lib = load();
  const when = new Date(minute * MINUTE);
  const providerId = PROVIDER_ALIASES[provider.toLowerCase()] ?? provider;
  let result: LibraryLookup;
  if (!lib.findProvider({ providerId })) {
    const guess = calc(lib, model, undefined, when);
    result = { price: null, suggestion: guess ? `${guess.provider.id}/${guess.model.id}` : null };
    undated.add(base);
  } else {
    const r = calc(lib, model, providerId, when);
    result = { price: r ? resolved(provider, r) : null, suggestion: null };
    if (!r || !Array.isArray(r.model.prices)) undated.add(base);
  }
  memo.set(undated.has(base) ? base : key, result);
  return result;
}
