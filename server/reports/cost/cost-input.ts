// What a cost report is built from (cost-report.ts buildCostReport, cost-run.ts CostRun): its own module, so the
// report and the run that continues it both import it without importing each other.

import type { JsonObject } from "../../../shared/json.ts";
import type { PricingOverrides } from "../../../shared/pricing.ts";
import type { LoadedSession } from "../../model/session.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import type { PriceTable } from "../../pricing/price-table.ts";
import type { PruningRoundInput } from "./pruning-rounds.ts";

export interface CostReportInput {
  session: LoadedSession;
  config: JsonObject | null;
  /**
   * The price precedence below recorded costs (server/pricing/price-table.ts); default: this `config` and
   * `pricing` (as a `--pricing` file) over the price library.
   */
  prices?: PriceTable;
  pricing?: PricingOverrides;
  /** Rounds from the pruning replay (pruning.md §5): as run when pruning is on, predicted when it is off. */
  pruningRounds?: readonly PruningRoundInput[];
  /** Cache lifetime override (ms). The fixtures' mock uses the scenario's pruning ttl (fixtures.md §1). */
  cacheTtlMs?: number;
  /** Counterfactual: bootstrap files trimmed by this many chars. */
  bootstrapTrimChars?: number;
  /**
   * The stored run reports of the session's agent (every SessionEntry's), for `system-prompt-changed` across
   * runs (reports/cost/breakdown.ts); default: this session's own report only.
   */
  agentReports?: readonly SystemPromptReport[];
}
