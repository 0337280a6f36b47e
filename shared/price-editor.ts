// The in-app price editor's prices in their shareable text form (issue 14 §3: kept in localStorage, in the URL
// when shared): `provider/model=input,output,cacheRead,cacheWrite;…`, USD per 1M tokens. Parsing never throws: a
// bad part is skipped and reported.

import type { PricingOverrides } from "./pricing.ts";

export const EDITOR_SOURCE = "price editor (entered in clawscope)";

/** At most this many models and this many chars: the text travels in a URL and a query string. */
const MAX_MODELS = 50;
export const MAX_EDITOR_TEXT = 4000;

function rate(s: string): number | null {
  if (!/^\d+(\.\d+)?$/.test(s.trim())) return null;
  const v = Number(s);
  return Number.isFinite(v) && v >= 0 && v < 1e6 ? v : null;
}

export function parseEditorPrices(text: string): { prices: PricingOverrides; errors: string[] } {
  const prices: PricingOverrides = {};
  const errors: string[] = [];
  if (text.length > MAX_EDITOR_TEXT)
    return { prices, errors: [`price list longer than ${MAX_EDITOR_TEXT} chars`] };
  for (const part of text.split(";")) {
    if (part.trim() === "") continue;
    const eq = part.lastIndexOf("=");
    const key = eq > 0 ? part.slice(0, eq).trim() : "";
    const nums =
      eq > 0
        ? part
            .slice(eq + 1)
            .split(",")
            .map(rate)
        : [];
    const [input, output, cacheRead, cacheWrite] = nums;
    if (
      key === "" ||
      nums.length !== 4 ||
      input == null ||
      output == null ||
      cacheRead == null ||
      cacheWrite == null
    ) {
      errors.push(`"${part.slice(0, 80)}": expected provider/model=input,output,cacheRead,cacheWrite`);
      continue;
    }
    if (Object.keys(prices).length >= MAX_MODELS) {
      errors.push(`more than ${MAX_MODELS} models`);
      break;
    }
    prices[key] = { input, output, cacheRead, cacheWrite, source: `${EDITOR_SOURCE}: ${key}` };
  }
  return { prices, errors };
}

export function formatEditorPrices(prices: PricingOverrides): string {
  return Object.entries(prices)
    .flatMap(([key, p]) =>
      p.input !== undefined &&
      p.output !== undefined &&
      p.cacheRead !== undefined &&
      p.cacheWrite !== undefined
        ? [`${key}=${p.input},${p.output},${p.cacheRead},${p.cacheWrite}`]
        : [],
    )
    .join(";");
}
