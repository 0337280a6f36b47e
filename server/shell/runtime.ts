// Process-level wiring shared by the CLI commands and the server: the session service over the chosen state dir.

import type { PricingOverrides } from "../../shared/pricing.ts";
import { createSessionService, type SessionService } from "../service/session-service.ts";
import { discoverState } from "../sources/discover.ts";
import type { SqliteDriverChoice } from "../sources/sqlite/sql-database.ts";
import { chooseSqliteDriver, onSqliteDriverNote, sqliteDriver } from "../sources/sqlite/sqlite-driver.ts";
import { prepareZstd } from "../sources/sqlite/zstd-decoders.ts";
import type { UserEnvironment } from "../sources/user-path.ts";
import type { StateChoice } from "./config.ts";

export interface Runtime {
  state: StateChoice;
  service: SessionService;
}

/**
 * `pricingFile`: the prices of `--pricing FILE` (issue 14 §3), above the config's. `cacheDir`: the persistent
 * cache (config.ts cacheDir; null = `--no-cache`).
 */
export function createRuntime(
  state: StateChoice,
  environment: UserEnvironment,
  pricingFile?: PricingOverrides,
  cacheDir: string | null = null,
): Runtime {
  return {
    state,
    service: createSessionService({
      ...state,
      environment,
      cacheDir,
      ...(pricingFile ? { pricingFile } : {}),
    }),
  };
}

/**
 * What the synchronous readers need set up, once, before the first read of a state dir with SQLite stores (a
 * JSONL-only dir loads neither): the driver `sqliteChoice` asks for (sqlite-driver.ts; a fallback is said once
 * on stderr, also when a store first appears while the dashboard runs) and the WebAssembly zstd decoder
 * (zstd-decoders.ts, instantiated asynchronously).
 */
export async function prepareRuntime(
  stateDir: string,
  sqliteChoice: SqliteDriverChoice = "auto",
): Promise<void> {
  chooseSqliteDriver(sqliteChoice);
  onSqliteDriverNote((note) => process.stderr.write(`clawscope: ${note}\n`));
  if (!discoverState(stateDir).agents.some((a) => a.sqlitePath !== null)) return;
  sqliteDriver(); // loaded now, so its note comes before the command's output
  await prepareZstd();
}
