// The in-app price editor (issue 14 §3) for models nothing prices: four rates per model (USD per 1M tokens),
// kept in this browser's localStorage and in the URL (`prices=`, shared/price-editor.ts) so a shared link prices
// the same way. Editor prices rank last, below recorded costs, --pricing, the config, models.json and the library.

import { useState } from "react";
import type { CostReportPageDTO } from "../../../shared/cost-page.ts";
import { formatEditorPrices, parseEditorPrices } from "../../../shared/price-editor.ts";
import type { PricingOverrides } from "../../../shared/pricing.ts";

const STORAGE_KEY = "clawscope.prices";
const RATES = ["input", "output", "cacheRead", "cacheWrite"] as const;
type Rates = Record<(typeof RATES)[number], string>;

/** The editor's list: the URL's, else this browser's. */
export function editorPrices(urlValue: string | null): string {
  if (urlValue !== null) return urlValue;
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    return "";
  }
}

export function storeEditorPrices(text: string): void {
  try {
    if (text === "") window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // private mode: the URL still carries the prices
  }
}

/** provider/model of every call nothing priced, plus the models the editor already prices. */
function editableModels(dto: CostReportPageDTO, prices: PricingOverrides): string[] {
  const keys = new Set(Object.keys(prices));
  for (const m of dto.unpricedModels) keys.add(m);
  return [...keys].sort();
}

const EMPTY: Rates = { input: "", output: "", cacheRead: "", cacheWrite: "" };

/** The editor's draft rates per model, seeded from the applied prices. */
function useDraft(models: readonly string[], current: PricingOverrides) {
  const [draft, setDraft] = useState<Record<string, Rates>>(() =>
    Object.fromEntries(
      models.map((m) => {
        const p = current[m];
        const rate = (v: number | undefined) => String(v ?? "");
        return [
          m,
          {
            input: rate(p?.input),
            output: rate(p?.output),
            cacheRead: rate(p?.cacheRead),
            cacheWrite: rate(p?.cacheWrite),
          },
        ];
      }),
    ),
  );
  const set = (m: string, k: keyof Rates, value: string) =>
    setDraft((d) => ({ ...d, [m]: { ...(d[m] ?? EMPTY), [k]: value } }));
  /** The complete, valid rows as the editor's price list text. */
  const text = () => {
    const prices: PricingOverrides = {};
    for (const [m, r] of Object.entries(draft)) {
      const n = RATES.map((k) => Number(r[k]));
      if (RATES.some((k) => r[k].trim() === "") || n.some((v) => !Number.isFinite(v) || v < 0)) continue;
      const [input, output, cacheRead, cacheWrite] = n;
      prices[m] = { input, output, cacheRead, cacheWrite, source: "editor" };
    }
    return formatEditorPrices(prices);
  };
  return { draft, set, text };
}

export function PriceEditor({
  dto,
  text,
  onApply,
}: {
  dto: CostReportPageDTO;
  text: string;
  onApply: (text: string) => void;
}) {
  const current = parseEditorPrices(text).prices;
  const models = editableModels(dto, current);
  const { draft, set, text: draftText } = useDraft(models, current);
  if (models.length === 0) return null;
  const unpriced = dto.totals.unpricedCalls;
  return (
    <div className="card" data-testid="price-editor">
      <h3>Prices for unpriced models</h3>
      <p className="small muted">
        {unpriced > 0 ? `${unpriced} call(s) have no recorded cost and no known price. ` : ""}
        Enter USD per 1M tokens. Kept in this browser and in the link (prices=…); used only below recorded
        costs, --pricing, the config's models.providers, models.json and the price library.
      </p>
      {models.map((m) => (
        <div className="controls" key={m} data-testid={`price-editor-${m}`}>
          <span className="mono small">{m}</span>
          {RATES.map((k) => (
            <label key={k}>
              {k}
              <input
                type="number"
                min="0"
                step="any"
                aria-label={`${m} ${k}`}
                value={draft[m]?.[k] ?? ""}
                onChange={(e) => set(m, k, e.target.value)}
              />
            </label>
          ))}
        </div>
      ))}
      <p>
        <button type="button" onClick={() => onApply(draftText())} data-testid="price-editor-apply">
          Apply prices
        </button>{" "}
        {text !== "" ? (
          <button type="button" onClick={() => onApply("")} data-testid="price-editor-clear">
            Clear
          </button>
        ) : null}
      </p>
    </div>
  );
}
