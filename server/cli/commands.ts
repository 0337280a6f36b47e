// One function per command. stdout carries the result only (text or --json); logs and warnings go to stderr,
// so `npm run -s cli -- … | diff` works. Every command calls the same service the HTTP API uses. The service,
// the server, the export and the bench are imported when a command needs them, so `--help` and usage errors
// load none of SQLite, zstd, the tokenizer or the export renderer.

import type { PricingOverrides } from "../../shared/pricing.ts";
import { lastValue, type PruneQuery, parsePruneQuery } from "../../shared/prune-params.ts";
import type { Result } from "../../shared/result.ts";
import {
  cacheDir,
  chooseStateDir,
  readEnvironment,
  type ServeOptions,
  type StateChoice,
  serveOptions,
  sqliteDriverChoice,
} from "../shell/config.ts";
import type { Runtime } from "../shell/runtime.ts";
import type { SqliteDriverChoice } from "../sources/sqlite/sql-database.ts";
import type { UserEnvironment } from "../sources/user-path.ts";
import { BufferedWriter, writeJson } from "./json-out.ts";
import { asUsage, type CliValues, pruneQueryFromFlags, UsageError } from "./options.ts";
import { writeStdout } from "./stdout.ts";
import { escapeControls, issueLines } from "./terminal-text.ts";

/** A command that ran and failed (bad session data, a refused export path): printed with exit code 1. */
export class CommandError extends Error {}

export interface CommandInput {
  values: CliValues;
  /** Arguments after the command name. */
  rest: string[];
}

type Command = (input: CommandInput) => Promise<void>;

/**
 * The text formatters, loaded when a command prints text (the tables' code is not parsed for `--json`, `--help`
 * and usage errors; shared/format.ts builds its Intl formatters, and so starts ICU, only on first use).
 */
const textOutput = () => import("./text-output.ts");

function out(text: string): void {
  // Two writes: appending "\n" to a report of tens of MB would copy it once more.
  writeStdout(text);
  if (!text.endsWith("\n")) writeStdout("\n");
}

/** Text for a terminal: stored control sequences shown escaped (terminal-text.ts). */
function outText(text: string): void {
  out(escapeControls(text));
}

function outJson(value: unknown): void {
  const w = new BufferedWriter(writeStdout);
  writeJson(value, w.write);
  w.write("\n");
  w.flush();
}

/** The runtime over the state dir the flags and the environment choose (a named dir that is missing: usage). */
async function runtime(
  values: CliValues,
  environment: UserEnvironment = readEnvironment(),
  stateDir: string | undefined = oneStateDir(values),
): Promise<Runtime> {
  const chosen = chosenState(values, environment, stateDir);
  return runtimeOver(values, chosen, environment, await pricingOf(values));
}

/** The state dir to read and the SQLite driver to read it with (both from flags and environment, once). */
interface ChosenState {
  state: StateChoice;
  sqlite: SqliteDriverChoice;
}

/**
 * The state dir the flags and the environment choose, said on stderr. Every command that reads a state dir
 * comes here first, so a bad `CLAWSCOPE_SQLITE_DRIVER` is refused even where a cache answers without a read.
 */
function chosenState(
  values: CliValues,
  environment: UserEnvironment,
  stateDir: string | undefined = oneStateDir(values),
): ChosenState {
  // `CLAWSCOPE_SQLITE_DRIVER` that names no driver, a named state dir that does not exist: usage
  const sqlite = asUsage(() => sqliteDriverChoice(environment));
  const state = asUsage(() =>
    chooseStateDir({ stateDir, profile: values.profile, demo: values.demo, dev: values.dev }, environment),
  );
  process.stderr.write(`${escapeControls(`clawscope: state dir ${state.stateDir} (${state.reason})`)}\n`);
  return { state, sqlite };
}

/** The prices of `--pricing FILE` (a file that does not read: usage). */
async function pricingOf(values: CliValues): Promise<PricingOverrides | undefined> {
  if (values.pricing === undefined) return undefined;
  const { readPricingFile } = await import("../sources/pricing-file.ts");
  const read = readPricingFile(values.pricing);
  if (read.errors.length > 0) throw new UsageError(`--pricing: ${read.errors.join("; ")}`);
  return read.prices;
}

async function runtimeOver(
  values: CliValues,
  { state, sqlite }: ChosenState,
  environment: UserEnvironment,
  pricingFile: PricingOverrides | undefined,
): Promise<Runtime> {
  const cache = values["no-cache"] ? null : cacheDir(environment);
  const [{ enableCompileCache }, { capYoungGeneration }] = await Promise.all([
    import("../shell/compile-cache.ts"),
    import("../shell/young-generation.ts"),
  ]);
  capYoungGeneration(); // before a session is read
  enableCompileCache(cache, state.stateDir); // before the service's code is loaded
  const { createRuntime, prepareRuntime } = await import("../shell/runtime.ts");
  await prepareRuntime(state.stateDir, sqlite);
  return createRuntime(state, environment, pricingFile, cache);
}

/** The one --state-dir of a command that reads one state dir. */
function oneStateDir(values: CliValues): string | undefined {
  const dirs = values["state-dir"] ?? [];
  if (dirs.length > 1) throw new UsageError("--state-dir may be given once (more only for export-calls)");
  return dirs[0];
}

function requireSession(rt: Runtime, values: CliValues): { agentId: string; sessionId: string } {
  const ref = values.session;
  if (!ref) throw new UsageError("--session REF is required");
  const resolved = rt.service.resolveRef(ref);
  if (!resolved) {
    // A store that could not be read (e.g. SQLite without its native module) may hold the session: say so.
    const unread = rt.service
      .listSessions()
      .issues.filter((i) => i.severity === "error")
      .map((i) => `\n  ${i.source}: ${i.message}`);
    const why = unread.length > 0 ? `; these stores could not be read:${unread.join("")}` : "";
    throw new UsageError(`no session matches ${JSON.stringify(ref)} in ${rt.state.stateDir}${why}`);
  }
  return resolved;
}

/** The value of a command's Result, or its error as a CommandError. */
function resultValue<T>(r: Result<T>): T {
  if (!r.ok) throw new CommandError(r.error.message);
  return r.value;
}

const serve: Command = async ({ values }) => {
  const environment = readEnvironment();
  const opts: ServeOptions = asUsage(() =>
    serveOptions(
      {
        host: values.host,
        port: values.port,
        open: values.open,
        noOpen: values["no-open"],
        allowRemote: values["allow-remote"],
      },
      environment,
    ),
  );
  const rt = await runtime(values, environment);
  const { startServer } = await import("../shell/serve.ts");
  await startServer(rt, opts);
};

const sessions: Command = async ({ values }) => {
  if (!values["no-cache"]) {
    // The warm path (issue 18): the listing cache decides before the service is even loaded.
    const environment = readEnvironment();
    const chosen = chosenState(values, environment);
    const pricingFile = await pricingOf(values);
    const { sessionsListing } = await import("./sessions-listing.ts");
    await sessionsListing(
      chosen.state.stateDir,
      cacheDir(environment),
      () => runtimeOver(values, chosen, environment, pricingFile),
      values.json ? "json" : "text",
    );
    return;
  }
  const rt = await runtime(values);
  const { sessions, issues } = rt.service.listSessions();
  for (const line of issueLines(issues)) process.stderr.write(`${line}\n`);
  if (values.json) outJson(sessions);
  else outText((await textOutput()).formatSessionsTable(sessions));
};

/**
 * A stored report of another session id (issue 13), said on stderr beside `context` and `map`: stdout stays
 * OpenClaw's reply / the JSON. From the stored entry (no transcript load; memoised).
 */
function noteReportOwner(rt: Runtime, ref: { agentId: string; sessionId: string }): void {
  const r = rt.service.storedContextText(ref.agentId, ref.sessionId, "list");
  if (r.ok && r.value.owner) process.stderr.write(`note: ${escapeControls(r.value.owner.note)}\n`);
}

const context: Command = async ({ values }) => {
  const rt = await runtime(values);
  const ref = requireSession(rt, values);
  const mode = values.mode ?? "list";
  if (mode !== "list" && mode !== "detail" && mode !== "json")
    throw new UsageError("--mode must be list|detail|json");
  if (mode === "detail") {
    const text = resultValue(rt.service.contextText(ref.agentId, ref.sessionId, mode));
    noteReportOwner(rt, ref);
    writeStdout(escapeControls(text));
    return;
  }
  // list and json print the stored report: the transcript is not loaded (issue 17).
  // `--mode json` is OpenClaw's JSON reply (exact); list and detail are text for a terminal.
  const { text, available } = resultValue(rt.service.storedContextText(ref.agentId, ref.sessionId, mode));
  noteReportOwner(rt, ref);
  writeStdout(mode === "json" ? text : escapeControls(text));
  // No stored run report: `--mode json` printed {"available": false, …}; the exit code says so (see --help).
  if (mode === "json" && !available) process.exitCode = 3;
};

const truncation: Command = async ({ values }) => {
  const rt = await runtime(values);
  const ref = requireSession(rt, values);
  const query = {
    ...(values["max-per-file"] ? { maxPerFile: values["max-per-file"] } : {}),
    ...(values["max-total"] ? { maxTotal: values["max-total"] } : {}),
    ...(values.family ? { family: values.family } : {}),
    ...(values.workspace ? { workspace: values.workspace } : {}),
  };
  const report = resultValue(
    rt.service.truncation(ref.agentId, ref.sessionId, query, { allowWorkspaceOverride: true }),
  );
  if (values.json) outJson(report);
  else outText((await textOutput()).formatTruncation(report));
};

/** `--call N`: a call number from 1 (the numbering of `prune --json`). */
function callNumber(values: CliValues): number | null {
  if (values.call === undefined) return null;
  const n = Number(values.call);
  if (!Number.isInteger(n) || n < 1) throw new UsageError("--call must be a call number (1, 2, …)");
  return n;
}

/**
 * `--at`: when the hypothetical next message comes (`next`): an ISO time, epoch ms, or `now` (the wall clock).
 * Without it, right after the session's last entry — a replay's output does not change with the clock.
 */
function withAt(query: PruneQuery): PruneQuery {
  const at = lastValue(query.at);
  if (at === undefined) return query;
  if (at === "now") return { ...query, at: String(Date.now()) };
  if (parsePruneQuery({ at }).at === undefined)
    throw new UsageError(`--at must be an ISO time, epoch milliseconds or now (got ${JSON.stringify(at)})`);
  return query;
}

const prune: Command = async ({ values }) => {
  const call = callNumber(values);
  if (call !== null && values.full) throw new UsageError("--call and --full exclude each other");
  const query = withAt(pruneQueryFromFlags(values));
  const rt = await runtime(values);
  const ref = requireSession(rt, values);
  if (call !== null) {
    const record = resultValue(rt.service.pruneCallRecord(ref.agentId, ref.sessionId, query, call));
    if (values.json) outJson({ call, ...record });
    else outText((await textOutput()).formatPruneCall(call, record));
  } else if (values.full && values.json) {
    // The old contract, O(calls × tool results): kept for scripts that read every call's map.
    outJson(resultValue(rt.service.prune(ref.agentId, ref.sessionId, query)));
  } else {
    const replay = resultValue(rt.service.pruneLinear(ref.agentId, ref.sessionId, query));
    if (values.json) outJson(replay);
    else outText((await textOutput()).formatPrune(replay));
  }
};

const cost: Command = async ({ values }) => {
  const rt = await runtime(values);
  if (values.all) {
    const totals = rt.service.costAll(values.archived !== false);
    if (values.json) outJson(totals);
    else outText((await textOutput()).formatCostAll(totals));
    return;
  }
  const ref = requireSession(rt, values);
  const report = resultValue(rt.service.cost(ref.agentId, ref.sessionId));
  if (values.json) outJson(report);
  else outText((await textOutput()).formatCost(report));
};

const overview: Command = async ({ values }) => {
  const rt = await runtime(values);
  const query = {
    ...(values.since !== undefined ? { since: values.since } : {}),
    ...(values.until !== undefined ? { until: values.until } : {}),
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.tz !== undefined ? { tz: values.tz } : {}),
    ...(values.archived === false ? { archived: "0" } : {}),
  };
  const r = rt.service.overview(query);
  if (!r.ok)
    throw r.error.status === 400 ? new UsageError(r.error.message) : new CommandError(r.error.message);
  if (values.json) outJson(r.value);
  else out((await textOutput()).formatOverview(r.value));
};

const exportCommand: Command = async ({ values }) => {
  const rt = await runtime(values);
  const ref = requireSession(rt, values);
  if (!values.out) throw new UsageError("--out FILE is required");
  const { ExportError, writeExport } = await import("../export/write-export.ts");
  const redact = !values["no-redact"];
  try {
    await writeExport(rt.service, rt.state.stateDir, ref, values.out, { redact });
  } catch (e) {
    if (e instanceof ExportError) throw new CommandError(e.message);
    throw e;
  }
  process.stderr.write(`${escapeControls(`clawscope: wrote ${values.out}${redact ? " (redacted)" : ""}`)}\n`);
};

const map: Command = async ({ values }) => {
  const rt = await runtime(values);
  const ref = requireSession(rt, values);
  const { mapOutput } = await import("./map-command.ts");
  const result = mapOutput(rt.service, ref, values.call, (message) => {
    throw new CommandError(message);
  });
  noteReportOwner(rt, ref);
  if (values.json) outJson(result.json);
  else outText(result.text());
};

const compare: Command = async ({ values }) => {
  if (!values.a) throw new UsageError("--a REF is required");
  const rt = await runtime(values);
  const { compareWhatIf, formatCompare } = await import("./compare-command.ts");
  const dto = resultValue(rt.service.compareRefs(values.a, values.b, compareWhatIf(values)));
  if (values.json) outJson(dto);
  else outText(formatCompare(dto));
};

const exportCalls: Command = async ({ values }) => {
  const format = values.format;
  if (format !== "parquet" && format !== "csv" && format !== "ndjson")
    throw new UsageError("--format parquet|csv|ndjson is required");
  if (!values.out) throw new UsageError("--out FILE is required");
  const dirs = values["state-dir"] ?? [];
  const { writeCallsExport } = await import("../export/write-calls.ts");
  const runtimes: Runtime[] = [];
  for (const d of dirs.length > 0 ? dirs : [undefined])
    runtimes.push(await runtime(values, readEnvironment(), d));
  const r = await writeCallsExport(
    runtimes.map((rt) => ({ service: rt.service, stateDir: rt.state.stateDir })),
    values.out,
    format,
  );
  for (const e of r.errors) process.stderr.write(`warning: ${e}\n`);
  if (!r.ok) throw new CommandError(r.message);
  process.stderr.write(`clawscope: wrote ${r.rows} calls to ${values.out} (${format})\n`);
};

const bench: Command = async ({ rest }) => {
  const { runBench } = await import("../bench/run-bench.ts");
  await runBench(rest, readEnvironment().env);
};

const COMMANDS: Readonly<Record<string, Command>> = {
  serve,
  sessions,
  context,
  truncation,
  prune,
  cost,
  map,
  compare,
  overview,
  export: exportCommand,
  "export-calls": exportCalls,
  bench,
};

/** The command of that name (own keys only: `clawscope constructor` is no command). */
export function commandNamed(name: string): Command | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
