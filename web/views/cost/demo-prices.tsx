// The demo banner's price sentence (issue 14 §3): the demo's config prices its mock model as a named real model,
// and the banner says so, so no dollar figure on the demo is mistaken for a real bill.

import { fmtUsd } from "../../../shared/format.ts";
import type { PriceRates } from "../../../shared/pricing.ts";

export interface ConfigPrice {
  model: string;
  name: string | null;
  rates: Partial<PriceRates>;
}

export function DemoPrices({ prices }: { prices: readonly ConfigPrice[] }) {
  if (prices.length === 0) return null;
  return (
    <span data-testid="demo-prices">
      {" "}
      Prices:{" "}
      {prices.map((p, i) => (
        <span key={p.model}>
          {i > 0 ? "; " : ""}
          <code>{p.model}</code>
          {p.name ? ` (${p.name})` : ""} at {fmtUsd(p.rates.input ?? null)} input,{" "}
          {fmtUsd(p.rates.output ?? null)} output, {fmtUsd(p.rates.cacheRead ?? null)} cache read,{" "}
          {fmtUsd(p.rates.cacheWrite ?? null)} cache write per 1M tokens
        </span>
      ))}
      , set in the demo's <code>openclaw.json</code> — a real model's list price, not a real bill.
    </span>
  );
}
