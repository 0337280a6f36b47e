// GET /api/state (and the demo banner): which state dir is read, why, and the OpenClaw config found in it.

import { createHash } from "node:crypto";
import type { JsonObject } from "../../shared/json.ts";
import type { PriceRates } from "../../shared/pricing.ts";
import type { ParseIssue } from "../../shared/session.ts";
import { configuredModel, configuredPricing } from "../openclaw/config/agent-settings.ts";
import type { OpenClawConfigRead } from "../sources/openclaw-config.ts";

export interface StateInfo {
  stateDir: string;
  demo: boolean;
  reason: string;
  configPath: string | null;
  configIssues: ParseIssue[];
  /** Prices the config sets (`models.providers.*.models[].cost`): the demo banner names them (issue 14 §3). */
  configPrices: { model: string; name: string | null; rates: Partial<PriceRates> }[];
}

/** The prices a config sets, by `provider/model`, with the model's display name when the config gives one. */
function configPrices(config: JsonObject | null): StateInfo["configPrices"] {
  return Object.entries(configuredPricing(config)).map(([model, p]) => {
    const slash = model.indexOf("/");
    const m = configuredModel(config, model.slice(0, slash), model.slice(slash + 1));
    const name = m && typeof m.name === "string" ? m.name : null;
    const { source: _source, tieredPricing: _tiers, ...rates } = p;
    return { model, name, rates };
  });
}

export function stateInfo(
  where: { stateDir: string; demo: boolean; reason: string },
  read: OpenClawConfigRead | null,
  config: JsonObject | null,
): StateInfo {
  return {
    ...where,
    configPath: read?.path ?? null,
    configIssues: read?.issues ?? [],
    configPrices: configPrices(config),
  };
}

/** sha256 (16 hex) of the OpenClaw config as read (export-calls' config_hash); null without a config. */
export function configHash(config: JsonObject | null): string | null {
  return config === null
    ? null
    : createHash("sha256").update(JSON.stringify(config)).digest("hex").slice(0, 16);
}
