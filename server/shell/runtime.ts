// Process-level wiring shared by the CLI commands and the server: the session service over the chosen state dir.

import type { PricingOverrides } from "../../shared/pricing.ts";
import { createSessionService, type SessionService } from "../service/session-service.ts";
import { discoverState } from "../sources/discover.ts";
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
 * What the synchronous readers need set up asynchronously, once, before the first read: the WebAssembly zstd
 * decoder when the state dir has SQLite stores (zstd-decoders.ts; a JSONL-only dir never loads it).
 */
export async function prepareRuntime(stateDir: string): Promise<void> {
  if (discoverState(stateDir).agents.some((a) => a.sqlitePath !== null)) await prepareZstd();
}
