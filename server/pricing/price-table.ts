// The precedence of prices below a call's recorded `usage.cost` (issue 14 §3), one lookup per call:
//   a `--pricing` file > the user's `models.providers.*.models[].cost` in openclaw.json > the agent's
//   `agents/<id>/agent/models.json` > the price library (server/pricing/library.ts) > the in-app editor > unpriced.
// The editor comes last on purpose: it is offered only for models nothing else prices. A partial user price
// inherits the missing rates from the library (OpenClaw: "Omitted or `{}` cost inherits the catalog").
// (OpenClaw 9.6 itself reads the agent's models.json before models.providers — docs/openclaw-facts.md §6.3; OpenClaw
// writes models.json from models.providers, so they agree unless edited by hand; the order is kept.)
// Pure apart from the library's lazy load; the service hands in what it read from disk.

import type { JsonObject } from "../../shared/json.ts";
import {
  isCompletePrice,
  overrideFor,
  type PriceOrigin,
  type PricingOverrides,
  priceFromOverride,
  type ResolvedPrice,
} from "../../shared/pricing.ts";
import { configuredPricing } from "../openclaw/config/agent-settings.ts";
import { type LibraryLookup, libraryPrice } from "./library.ts";

export interface PriceLayers {
  /** `--pricing FILE` (JSON5): same keys as the editor, `provider/model` or a bare model id. */
  file?: PricingOverrides;
  /** The OpenClaw config. */
  config: JsonObject | null;
  /** The parsed `agents/<id>/agent/models.json` of an agent (null: none). */
  modelsJson?: (agentId: string) => JsonObject | null;
  /** Prices entered in the in-app editor. */
  editor?: PricingOverrides;
}

export interface PriceAnswer {
  price: ResolvedPrice | null;
  /** Unpriced: what the library would match by model id alone, for the editor to offer. */
  suggestion: string | null;
}

const MINUTE = 60_000;

export class PriceTable {
  private readonly config: PricingOverrides;
  private readonly modelsJsonByAgent = new Map<string, PricingOverrides>();
  private readonly memo = new Map<string, PriceAnswer>();
  /** Answers that read no dated library price (a complete user price), per agent, provider and model. */
  private readonly undated = new Map<string, PriceAnswer>();
  private last: {
    agentId: string;
    provider: string | null;
    model: string;
    minute: number | null;
    answer: PriceAnswer;
  } | null = null;

  constructor(private readonly layers: PriceLayers) {
    this.config = configuredPricing(layers.config);
  }

  private modelsJson(agentId: string): PricingOverrides {
    let p = this.modelsJsonByAgent.get(agentId);
    if (!p) {
      const json = this.layers.modelsJson?.(agentId) ?? null;
      p = json ? configuredPricing({ models: json }, `agents/${agentId}/agent/models.json providers`) : {};
      this.modelsJsonByAgent.set(agentId, p);
    }
    return p;
  }

  /** The price of one call of `agentId` to provider/model at `atMs` (the library's prices are dated). */
  priceFor(agentId: string, provider: string | null, model: string | null, atMs: number | null): PriceAnswer {
    if (model === null) return { price: null, suggestion: null };
    const minute = atMs === null ? null : Math.floor(atMs / MINUTE);
    // A session's calls come in runs of one model within a minute: the last answer, without building a key.
    const last = this.last;
    if (
      last !== null &&
      last.minute === minute &&
      last.model === model &&
      last.provider === provider &&
      last.agentId === agentId
    )
      return last.answer;
    const modelKey = `${agentId}\u0000${provider}\u0000${model}`;
    const key = `${modelKey}\u0000${minute}`;
    let answer = this.undated.get(modelKey) ?? this.memo.get(key);
    if (!answer) {
      const resolved = this.resolve(agentId, provider, model, atMs);
      answer = resolved.answer;
      // a session spans thousands of minutes; a price that is not the library's is the same in every one
      if (resolved.dated) this.memo.set(key, answer);
      else this.undated.set(modelKey, answer);
    }
    this.last = { agentId, provider, model, minute, answer };
    return answer;
  }

  /** The answer, and whether it read the library (whose prices are dated, so it holds for one minute only). */
  private resolve(
    agentId: string,
    provider: string | null,
    model: string,
    atMs: number | null,
  ): { answer: PriceAnswer; dated: boolean } {
    let lib: LibraryLookup | null = null;
    const library = (): LibraryLookup => {
      lib ??= libraryPrice(provider, model, atMs);
      return lib;
    };
    const answer = this.answer(agentId, provider, model, library);
    return { answer, dated: lib !== null };
  }

  private answer(
    agentId: string,
    provider: string | null,
    model: string,
    library: () => LibraryLookup,
  ): PriceAnswer {
    const layers: [PricingOverrides | undefined, PriceOrigin, string][] = [
      [this.layers.file, "pricing-file", "--pricing file"],
      [this.config, "config", "config models.providers"],
      [this.modelsJson(agentId), "models-json", `agents/${agentId}/agent/models.json`],
    ];
    for (const [overrides, origin, label] of layers) {
      const hit = overrideFor(provider, model, overrides);
      if (!hit) continue;
      const base = isCompletePrice(hit.value) ? null : library().price;
      const price = priceFromOverride(provider, hit.value, base, origin, `${label} "${hit.key}"`);
      if (price) return { price, suggestion: null };
    }
    if (library().price) return { price: library().price, suggestion: null };
    const edited = overrideFor(provider, model, this.layers.editor);
    if (edited) {
      const price = priceFromOverride(provider, edited.value, null, "editor", `price editor "${edited.key}"`);
      if (price) return { price, suggestion: null };
    }
    return { price: null, suggestion: library().suggestion };
  }
}
