// One PriceTable per editor price list (`""` = none): the in-app editor's list changes as the user types, and a
// handful of lists per process is all a session of clicking produces. Dropped with the config.

import type { JsonObject } from "../../shared/json.ts";
import { parseEditorPrices } from "../../shared/price-editor.ts";
import type { PricingOverrides } from "../../shared/pricing.ts";
import { PriceTable } from "../pricing/price-table.ts";
import { readAgentModelsJson } from "../sources/agent-models-json.ts";

const MAX_TABLES = 16;

export class PriceTables {
  private readonly tables = new Map<string, PriceTable>();

  constructor(
    private readonly source: {
      stateDir: string;
      pricingFile: PricingOverrides | undefined;
      config: () => JsonObject | null;
    },
  ) {}

  get(editor: string): PriceTable {
    const cached = this.tables.get(editor);
    if (cached) return cached;
    const { stateDir, pricingFile, config } = this.source;
    const table = new PriceTable({
      config: config(),
      ...(pricingFile ? { file: pricingFile } : {}),
      modelsJson: (agentId) => readAgentModelsJson(stateDir, agentId).json,
      ...(editor !== "" ? { editor: parseEditorPrices(editor).prices } : {}),
    });
    if (this.tables.size > MAX_TABLES) this.tables.clear();
    this.tables.set(editor, table);
    return table;
  }

  clear(): void {
    this.tables.clear();
  }
}
