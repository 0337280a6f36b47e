// The CLI's surface: the help text, the flags (node:util parseArgs), and which flag sets which what-if
// parameter of the pruning replay (shared/prune-params.ts names the parameters). Light on purpose: `--help` and
// argument errors load nothing else.

import { parseArgs } from "node:util";
import { PRUNE_PARAM_KEYS, type PruneParamKey, type PruneQuery } from "../../shared/prune-params.ts";

export const HELP = `clawscope — what fills your OpenClaw context window, what pruning and caching do, and what it costs

Usage: clawscope [command] [options]

Commands:
  serve        start the dashboard (default)        [--port N] [--host H] [--allow-remote] [--open|--no-open]
                                                    (binds 127.0.0.1; a non-loopback --host needs --allow-remote:
                                                    there is no login, anyone reaching it reads your sessions)
                                                    (opens the browser when run from a terminal, not in CI)
  sessions     list every session of every agent    [--json]
  context      OpenClaw's /context text             --session REF --mode list|detail|json
                                                    (no stored run report: --mode json prints
                                                    {"available": false, …} and exits 3)
  truncation   bootstrap truncation per file        --session REF [--max-per-file N] [--max-total N]
                                                    [--workspace DIR] [--family 2026.3|2026.7|2026.9] [--json]
  prune        cache-TTL pruning replay             --session REF [--ttl DUR] [--keep-last-assistants N]
                                                    [--soft-trim-ratio X] [--hard-clear-ratio X]
                                                    [--min-prunable-tool-chars N] [--soft-trim-max-chars N]
                                                    [--soft-trim-head-chars N] [--soft-trim-tail-chars N]
                                                    [--hard-clear on|off] [--placeholder S] [--allow GLOB]…
                                                    [--deny GLOB]… [--context-window N]
                                                    [--algorithm auto|2026.3|2026.7|2026.8|2026.9]
                                                    [--at ISO|now]
                                                    [--json] [--call N] [--full]
               --json: per call what changed, per tool result its transitions
               (O(calls + tool results)); --call N: call N (from 1) with every tool result's
               state; --full: every call with every state (quadratic: tens of MB per session);
               --at: when the predicted next message comes (default: right after the last
               entry; now: the wall clock, as the dashboard's Next call card)
  cost         per-call usage, cache verdicts, cost --session REF | --all [--json]
  map          the context at the last call: billed,  --session REF [--call N|all] [--json]
               tracked, untracked, by group (--call:
               as sent at call N, or every call)
  compare      two sessions, or one under a what-if  --a REF [--b REF] [prune what-if flags] [--pruning off|cache-ttl]
                                                    [--max-per-file N] [--max-total N]
                                                    [--retention none|short|long] [--json] (flags change b)
  overview     where the money went, all sessions   [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--agent ID]
                                                    [--model [PROVIDER/]MODEL] [--tz TZ] [--archived=false]
                                                    [--json] (days in UTC unless --tz)
  export       self-contained HTML report           --session REF --out FILE [--redact|--no-redact]
  export-calls one row per model call (docs/export-calls.md)
                                                    [--state-dir DIR]… --format parquet|csv|ndjson --out FILE
  bench        benchmark (see docs/performance.md)

Common options:
  --state-dir DIR   OpenClaw state dir (else OPENCLAW_STATE_DIR, CLAWDBOT_STATE_DIR, --profile NAME,
                    ~/.openclaw, ~/.clawdbot, ~/.moldbot, ~/.moltbot; OPENCLAW_HOME replaces ~).
                    When none exists, the bundled demo state dir is used.
  --profile NAME    use ~/.openclaw-NAME (--dev: ~/.openclaw-dev)
  --demo            use the bundled demo state dir
  --no-cache        do not use the persistent cache ($XDG_CACHE_HOME/clawscope, else ~/.cache/clawscope:
                    the session list's transcript scans, keyed by path + size + mtime + inode, and the
                    last sessions --json of each state dir, keyed by the stats of its files, and on
                    Node >= 22.1 Node's compile cache of clawscope's code; safe to delete; never inside
                    the state dir)
  --pricing FILE    prices (JSON5) above the config's: { "provider/model": { input, output, cacheRead,
                    cacheWrite } } in USD per 1M tokens (cost, serve)
  --version, -v     print clawscope's version
REF: a sessionId, a session key (agent:main:main) or AGENT/SESSIONID.

Environment:
  CLAWSCOPE_HOST, CLAWSCOPE_PORT   serve's --host and --port when the flags are not given
  CLAWSCOPE_SQLITE_DRIVER          auto (default: better-sqlite3, else Node's built-in node:sqlite on
                                   Node >= 22.16), better-sqlite3 or node:sqlite
`;

export const OPTIONS = {
  // Repeatable for `export-calls` only; every other command takes one (a second is a usage error).
  "state-dir": { type: "string", multiple: true },
  profile: { type: "string" },
  demo: { type: "boolean" },
  "no-cache": { type: "boolean" },
  dev: { type: "boolean" },
  json: { type: "boolean" },
  session: { type: "string" },
  a: { type: "string" },
  b: { type: "string" },
  pruning: { type: "string" },
  retention: { type: "string" },
  mode: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  "allow-remote": { type: "boolean" },
  open: { type: "boolean" },
  "no-open": { type: "boolean" },
  "max-per-file": { type: "string" },
  "max-total": { type: "string" },
  workspace: { type: "string" },
  family: { type: "string" },
  ttl: { type: "string" },
  "keep-last-assistants": { type: "string" },
  "soft-trim-ratio": { type: "string" },
  "hard-clear-ratio": { type: "string" },
  "min-prunable-tool-chars": { type: "string" },
  "soft-trim-max-chars": { type: "string" },
  "soft-trim-head-chars": { type: "string" },
  "soft-trim-tail-chars": { type: "string" },
  "hard-clear": { type: "string" },
  placeholder: { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  "context-window": { type: "string" },
  algorithm: { type: "string" },
  at: { type: "string" },
  call: { type: "string" },
  full: { type: "boolean" },
  all: { type: "boolean" },
  since: { type: "string" },
  until: { type: "string" },
  agent: { type: "string" },
  model: { type: "string" },
  tz: { type: "string" },
  archived: { type: "boolean" },
  out: { type: "string" },
  redact: { type: "boolean" },
  format: { type: "string" },
  "no-redact": { type: "boolean" },
  pricing: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

export type CliValues = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

/** A mistake in the command line: printed with exit code 2. */
export class UsageError extends Error {}

/** `f()`, whose error is the user's (a flag or an environment variable that does not read): a usage error. */
export function asUsage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

export interface ParsedArgs {
  command: string;
  /** Arguments after the command (`clawscope bench size=2`). */
  rest: string[];
  values: CliValues;
}

/** argv → command and flags; an unknown flag or a missing value is a UsageError (with the help text). */
export function parseCli(argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    return { command: positionals[0] ?? "serve", rest: positionals.slice(1), values };
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n\n${HELP}`);
  }
}

/** `clawscope prune` flag of each what-if parameter (`mode` has none: `--mode` is /context's). */
const PRUNE_FLAGS = {
  ttl: "ttl",
  keepLastAssistants: "keep-last-assistants",
  softTrimRatio: "soft-trim-ratio",
  hardClearRatio: "hard-clear-ratio",
  minPrunableToolChars: "min-prunable-tool-chars",
  softTrimMaxChars: "soft-trim-max-chars",
  softTrimHeadChars: "soft-trim-head-chars",
  softTrimTailChars: "soft-trim-tail-chars",
  hardClear: "hard-clear",
  placeholder: "placeholder",
  contextWindow: "context-window",
  algorithm: "algorithm",
  at: "at",
  allow: "allow",
  deny: "deny",
} as const satisfies Record<Exclude<PruneParamKey, "mode">, keyof typeof OPTIONS>;

/** The prune flags as the query the HTTP route takes, so both paths share one parser (parsePruneQuery). */
export function pruneQueryFromFlags(values: CliValues): PruneQuery {
  const q: PruneQuery = {};
  for (const key of PRUNE_PARAM_KEYS) {
    if (key === "mode") continue;
    const v = values[PRUNE_FLAGS[key]];
    if (typeof v === "string" || Array.isArray(v)) q[key] = v;
  }
  return q;
}
