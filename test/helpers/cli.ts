// One way for tests to run the CLI as a user does: a child `node server/bin.mjs …` (the sources through tsx, as
// `npm run cli`), stdout and stderr kept apart. Thirteen test files each spelled this spawn out with their own
// timeout, buffer and environment; they differed only where a test needs it to (extra env, node flags, stdio).

import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The CLI entry a user's `npx clawscope` reaches in a checkout. */
export const CLI_ENTRY = path.join(REPO, "server", "bin.mjs");

export interface CliOptions {
  /** Added to (and overriding) the test process's environment. */
  env?: Readonly<Record<string, string>>;
  /** Node flags before the entry, e.g. `["--require", preload]`. */
  nodeArgs?: readonly string[];
  timeout?: number;
  /** The node binary (default: the one running the tests). */
  node?: string;
}

/** `clawscope ARGS` to completion; `status` is null when it was killed (timeout). */
export function runCli(args: readonly string[], options: CliOptions = {}): SpawnSyncReturns<string> {
  return spawnSync(options.node ?? process.execPath, [...(options.nodeArgs ?? []), CLI_ENTRY, ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: options.timeout ?? 120_000,
    // a report of a generated session is tens of MB: spawnSync's 1 MB default would cut it
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TZ: "UTC", ...options.env },
  });
}
