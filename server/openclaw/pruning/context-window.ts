// The context window W (tokens) the pruner uses; charWindow = W × 4.
// Order (spec pruning.md §1.3, §2.4; storage.md §6.1): configured model `contextWindow`
// (`models.providers[<provider>].models[id == modelId]`, config/agent-settings.ts; 2026.7 also a model-level
// `contextTokens`)
// → the stored SessionEntry (`contextBudgetStatus.contextTokenBudget` — the run's budget in 2026.9.x —
// then `contextTokens`) → 200000; then capped by `agents.defaults.contextTokens` when smaller.
// Pure.

import { type JsonObject, num, obj } from "../../../shared/json.ts";
import { configuredModel, defaultsContextTokens } from "../config/agent-settings.ts";

export const FALLBACK_CONTEXT_WINDOW = 200_000;

export interface ContextWindowInput {
  config: JsonObject | null;
  provider: string | null;
  modelId: string | null;
  /** SessionEntry JSON, when known. */
  entry: JsonObject | null;
  /** 2026.7 honours a model-level `contextTokens`. */
  family?: "2026.3" | "2026.7" | "2026.9";
}

export interface ContextWindow {
  tokens: number;
  /** Where the number came from, in words. */
  source: string;
}

function positive(v: number | undefined): number | undefined {
  return v !== undefined && v > 0 ? v : undefined;
}

export function resolveContextWindow(input: ContextWindowInput): ContextWindow {
  const model = configuredModel(input.config, input.provider, input.modelId);
  let tokens: number | undefined;
  let source = "";
  const modelPath = `models.providers.${input.provider ?? "?"}.models[${input.modelId ?? "?"}]`;
  const cw = positive(num(model, "contextWindow"));
  if (cw !== undefined) {
    tokens = cw;
    source = `${modelPath}.contextWindow`;
  }
  if (input.family === "2026.7") {
    const mct = positive(num(model, "contextTokens"));
    if (mct !== undefined && (tokens === undefined || mct < tokens)) {
      tokens = mct;
      source = `${modelPath}.contextTokens`;
    }
  }
  if (tokens === undefined) {
    const budget = positive(num(obj(input.entry, "contextBudgetStatus"), "contextTokenBudget"));
    if (budget !== undefined) {
      tokens = budget;
      source = "SessionEntry.contextBudgetStatus.contextTokenBudget";
    }
  }
  if (tokens === undefined) {
    const stored = positive(num(input.entry, "contextTokens"));
    if (stored !== undefined) {
      tokens = stored;
      source = "SessionEntry.contextTokens";
    }
  }
  if (tokens === undefined) {
    tokens = FALLBACK_CONTEXT_WINDOW;
    source = "default 200000";
  }
  const cap = positive(defaultsContextTokens(input.config));
  if (cap !== undefined && cap < tokens) {
    tokens = cap;
    source = "agents.defaults.contextTokens (cap)";
  }
  return { tokens: Math.floor(tokens), source };
}
