// What a SessionService is made from: the state dir, and what the shell injects (environment, prices, caches).

import type { PricingOverrides } from "../../shared/pricing.ts";
import type { UserEnvironment } from "../sources/user-path.ts";
import type { TokenCounter } from "../tokens/tokenizer.ts";

export interface SessionServiceOptions {
  stateDir: string;
  demo: boolean;
  reason: string;
  /** Token counter for the tokenizer size mode; created lazily when omitted. */
  tokenCounter?: TokenCounter;
  /** The process environment, for `$OPENCLAW_CONFIG_PATH` (none: the config is looked up in the state dir). */
  environment?: UserEnvironment;
  /** Prices of a `--pricing FILE` (JSON5), above the config's (issue 14 §3). */
  pricingFile?: PricingOverrides;
  /** The host's time zone (OpenClaw stamps user messages in its Gateway host's zone); default: this process's. */
  hostTimeZone?: string;
  /** The persistent cache dir (outside the state dir; none: `--no-cache`, or not asked for). */
  cacheDir?: string | null;
}
