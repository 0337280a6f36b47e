// `npm run bench` (issue 9): generates large seeded sessions (JSONL and SQLite), measures the operations
// the dashboard runs through the same public functions the server uses, and prints one table with the
// median of several runs and the ratio to a baseline measured in the same run. A benchmark, not a test:
// it never fails on a missed target, it says so. docs/performance.md explains every row.
//
// Options (positionals, e.g. `npm run bench -- size=10 runs=3`): size=MB (default 100), runs=N (default 5),
//   seed=N (default 9), keep (leave the temp dir),
//   only=startup,jsonl,sqlite,warm,append,prune,scrub,treemap,tokenizer,memory,overview,cli,sessions
//   (overview: overview-sessions=N, default 200; overview-size=MB, default 1024. cli, sessions: whole-process
//   rows, bench-whole.ts; sessions=N bigdir=MB size the big state dir, default 500 sessions / 1000 MB).
// Internal: `rss-probe DIR AGENT SESSION` (child process that measures server RSS with one session open).

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runReplay } from "../reports/prune-replay/replay-run.ts";
import { prepareZstd } from "../sources/sqlite/zstd-decoders.ts";
import { openStateReader } from "../sources/state-reader.ts";
import { bareSqliteDecode, jqInstalled, jqUsage, naiveUsage } from "./baselines.ts";
import { benchWarmAndAppend } from "./bench-append.ts";
import { benchBrowser } from "./bench-browser.ts";
import { benchOverview } from "./bench-overview.ts";
import { benchScrub } from "./bench-scrub.ts";
import { closeSharedCounter, fullReport, newService } from "./bench-service.ts";
import { benchStartup } from "./bench-startup.ts";
import { benchTokenizer } from "./bench-tokenizer.ts";
import { benchTreemap } from "./bench-treemap.ts";
import { benchWholeJsonl, benchWholeSessions, benchWholeSqlite } from "./bench-whole.ts";
import { type WrittenSession, writeJsonlStateDir, writeSqliteStateDir } from "./generate-session.ts";
import { add, lastCpu, log, MB, median, ms, printTable, timeRuns, verdict } from "./measure.ts";

// ------------------------------------------------------------------------------------------------------
// Sections

function benchJsonl(s: WrittenSession, runs: number): void {
  const bytes = statSync(s.file).size;
  const size = `${(bytes / MB).toFixed(0)} MB JSONL / ${s.stats.entries.toLocaleString("en")} entries`;
  log("JSONL cold load + full report…");
  let jq: number | null = null;
  if (jqInstalled()) {
    jq = median(timeRuns(Math.min(runs, 3), () => jqUsage(s.file)));
  } else {
    log("  jq not installed: the jq baseline is skipped (apt install jq)");
  }
  const naive = median(timeRuns(Math.min(runs, 3), () => naiveUsage(s.file)));
  const cold = median(
    timeRuns(runs, () => {
      const service = newService(s.stateDir);
      fullReport(service, s.agentId, s.sessionId);
    }),
  );
  const coldCpu = median(lastCpu);
  const base = jq ?? naive;
  add({
    operation: "cold load + full report (usage, map, pruning replay, cost)",
    size,
    median: `${ms(cold)} (CPU ${ms(coldCpu)})`,
    baseline: jq !== null ? `jq usage recipe ${ms(jq)}` : `jq not installed; naive Node ${ms(naive)}`,
    ratio: `${(cold / base).toFixed(2)}× (naive Node read+parse ${ms(naive)}: ${(cold / naive).toFixed(2)}×)`,
    target: "< jq recipe (ratio < 1)",
    verdict: jq === null ? "n/a (no jq)" : cold < jq ? "met" : "MISSED",
  });
}

function benchSqlite(s: WrittenSession, runs: number): void {
  log("SQLite cold load + full report…");
  const size = `${(s.stats.bytes / MB).toFixed(0)} MB of events / ${s.stats.entries.toLocaleString("en")} rows`;
  const bare = median(timeRuns(runs, () => bareSqliteDecode(s.file, s.sessionId)));
  const bareCpu = median(lastCpu);
  const cold = median(
    timeRuns(runs, () => {
      const service = newService(s.stateDir);
      fullReport(service, s.agentId, s.sessionId);
    }),
  );
  const coldCpu = median(lastCpu);
  add({
    operation: "cold load + full report, SQLite store with zstd blobs",
    size,
    median: `${ms(cold)} (CPU ${ms(coldCpu)})`,
    baseline: `bare SELECT + zstd/UTF-8/JSON decode ${ms(bare)} (CPU ${ms(bareCpu)})`,
    ratio: `${(cold / bare).toFixed(2)}× (CPU ${(coldCpu / bareCpu).toFixed(2)}×)`,
    target: "≤ 1.5× baseline",
    verdict:
      cold / bare <= 1.5
        ? "met"
        : coldCpu / bareCpu <= 1.5
          ? "MISSED on wall clock (met in CPU time)"
          : "MISSED",
  });
}

/** A ~5,000-message session (the pruning and scrubber rows' size). */
function fiveThousandMessages(tmp: string, seed: number): WrittenSession | null {
  // The generator averages ~4.3 messages per 10 KB at these sizes; grow until reached.
  let s: WrittenSession | null = null;
  let mb = 16;
  for (let tries = 0; tries < 4; tries++) {
    const dir = path.join(tmp, `prune-${tries}`);
    s = writeJsonlStateDir(dir, { targetBytes: mb * MB, seed: seed + 1 });
    if (s.stats.messages >= 5000) break;
    mb = Math.ceil((mb * 5200) / Math.max(1, s.stats.messages));
  }
  return s;
}

function benchPrune(s: WrittenSession, runs: number): void {
  log("pruning replay / what-if…");
  const loaded = openStateReader(s.stateDir).loadSession({ agentId: s.agentId, sessionId: s.sessionId });
  if ("error" in loaded) throw new Error(loaded.error.message);
  const sha = (x: string): string => createHash("sha256").update(x).digest("base64url");
  const config = null;
  const first = timeRuns(1, () => runReplay({ session: loaded, config, sha256Base64Url: sha }))[0] ?? 0;
  const ttls = ["1m", "2m", "3m", "4m", "6m", "7m", "8m", "9m", "11m", "12m", "13m", "14m"];
  const whatIf = median(
    timeRuns(runs * 2, (i) =>
      runReplay({
        session: loaded,
        config,
        overrides: { ttl: ttls[i % ttls.length] ?? "1m", softTrimRatio: 0.2 + (i % 5) * 0.05 },
        sha256Base64Url: sha,
      }),
    ),
  );
  const whatIfCpu = median(lastCpu);
  add({
    operation: "pruning replay / what-if recompute",
    size: `${s.stats.messages.toLocaleString("en")} messages`,
    median: `${ms(whatIf)} (CPU ${ms(whatIfCpu)})`,
    baseline: `first replay of the transcript ${ms(first)}`,
    ratio: `${(whatIf / first).toFixed(2)}×`,
    target: "≤ 30 ms",
    verdict: verdict(whatIf, whatIfCpu, 30),
  });
}

function benchMemory(s: WrittenSession): void {
  log("server memory (child process)…");
  const script = process.argv[1] ?? "server/bin.mjs";
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", script, "bench", "rss-probe", s.stateDir, s.agentId, s.sessionId],
    {
      encoding: "utf8",
      maxBuffer: 8 * MB,
    },
  );
  const m = /RSS (\d+) PEAK (\d+) HEAP (\d+) HEAPTOTAL (\d+) EXTERNAL (\d+) BEFORE (\d+)/.exec(r.stdout);
  if (!m) {
    log(`  rss probe failed: ${r.stderr.slice(0, 500)}`);
    return;
  }
  const rss = Number(m[1]);
  const peak = Number(m[2]);
  add({
    operation: "server memory, session open (after full report)",
    size: `${(statSync(s.file).size / MB).toFixed(0)} MB session`,
    median: `RSS ${rss} MB (peak ${peak} MB; JS heap used ${m[3]} MB of ${m[4]} MB, external ${m[5]} MB)`,
    baseline: `process before loading ${m[6]} MB`,
    ratio: "—",
    target: "RSS ≤ 300 MB",
    verdict: rss <= 300 ? (peak <= 300 ? "met" : "met (peak above)") : "MISSED",
  });
}

/** Child: open a service, build the full report, settle, print RSS (and what the process held before). */
function rssProbe(stateDir: string, agentId: string, sessionId: string): void {
  const before = process.memoryUsage().rss;
  const service = newService(stateDir);
  fullReport(service, agentId, sessionId);
  void closeSharedCounter();
  // Two full collections: the first one only queues the freed Buffers' backing stores.
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (typeof gc === "function") {
    gc();
    gc();
  }
  const mem = process.memoryUsage();
  const peak = process.resourceUsage().maxRSS / 1024;
  const mb = (x: number): number => Math.round(x / MB);
  process.stdout.write(
    `RSS ${mb(mem.rss)} PEAK ${Math.round(peak)} HEAP ${mb(mem.heapUsed)} HEAPTOTAL ${mb(mem.heapTotal)} EXTERNAL ${mb(mem.external)} BEFORE ${mb(before)}\n`,
  );
}

/** A bench option: `name=value` (also `--name value` after a `--`); the CLI parses options strictly, so they are positionals. */
function optionOf(args: readonly string[], name: string): string | undefined {
  for (const [i, a] of args.entries()) {
    const bare = a.replace(/^--?/, "");
    if (bare.startsWith(`${name}=`)) return bare.slice(name.length + 1);
    if (bare === name && a.startsWith("-")) return args[i + 1];
  }
  return undefined;
}

const ALL_ROWS =
  "startup,jsonl,sqlite,warm,append,prune,scrub,treemap,tokenizer,memory,overview,cli,sessions,browser";

interface BenchPlan {
  get: (name: string) => string | undefined;
  only: ReadonlySet<string>;
  sizeMb: number;
  runs: number;
  seed: number;
  tmp: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Generates the sessions the chosen rows need and runs those rows, in an order that keeps them independent. */
async function runRows(p: BenchPlan): Promise<void> {
  const { only, runs, seed, tmp, get } = p;
  await prepareZstd(); // what the CLI does before it reads a state dir with SQLite stores
  log(`generating ${p.sizeMb} MB sessions (seed ${seed}) in ${tmp}…`);
  const needJsonl = ["startup", "jsonl", "warm", "append", "memory", "cli", "browser"].some((k) =>
    only.has(k),
  );
  const jsonl = needJsonl
    ? writeJsonlStateDir(path.join(tmp, "jsonl"), { targetBytes: p.sizeMb * MB, seed })
    : null;
  if (jsonl) log(`  JSONL: ${JSON.stringify(jsonl.stats)}`);
  const sqlite =
    only.has("sqlite") || only.has("startup") || only.has("cli")
      ? writeSqliteStateDir(path.join(tmp, "sqlite"), { targetBytes: p.sizeMb * MB, seed })
      : null;
  if (sqlite) log(`  SQLite: ${JSON.stringify(sqlite.stats)}`);
  if (jsonl && only.has("jsonl")) benchJsonl(jsonl, runs);
  if (only.has("startup")) benchStartup(tmp, { jsonl, sqlite }, runs);
  if (sqlite && only.has("sqlite")) benchSqlite(sqlite, runs);
  if (jsonl && only.has("memory")) benchMemory(jsonl);
  // Before the append rows, which grow the JSONL file.
  if (jsonl && only.has("cli")) benchWholeJsonl(tmp, jsonl, runs);
  if (sqlite && only.has("cli")) benchWholeSqlite(tmp, sqlite, runs);
  if (jsonl && only.has("browser"))
    await benchBrowser(jsonl, runs, { ...p.env, XDG_CACHE_HOME: path.join(tmp, "xdg-browser") });
  if (only.has("sessions")) {
    const sessions = Number(get("sessions") ?? 500);
    benchWholeSessions(
      tmp,
      runs,
      { sessions, mbEach: Number(get("bigdir") ?? 1000) / sessions, seed },
      p.env,
    );
  }
  if (jsonl && (only.has("warm") || only.has("append"))) benchWarmAndAppend(jsonl, runs, "JSONL");
  if (sqlite && only.has("warm")) benchWarmAndAppend(sqlite, runs, "SQLite");
  const five = only.has("prune") || only.has("scrub") ? fiveThousandMessages(tmp, seed) : null;
  if (five && only.has("prune")) benchPrune(five, runs);
  if (five && only.has("scrub")) benchScrub(five, runs);
  if (only.has("treemap")) benchTreemap(runs);
  if (only.has("overview"))
    benchOverview(tmp, runs, {
      sessions: Number(get("overview-sessions") ?? 200),
      sizeMb: Number(get("overview-size") ?? 1024),
      seed,
    });
  await closeSharedCounter();
  if (only.has("tokenizer")) await benchTokenizer(seed);
}

/** `env`: the process environment (the CLI reads it; children of whole-process rows inherit it). */
export async function runBench(
  args: string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<void> {
  const get = (name: string) => optionOf(args, name);
  const probe = args.indexOf("rss-probe");
  if (probe >= 0) {
    rssProbe(args[probe + 1] ?? "", args[probe + 2] ?? "main", args[probe + 3] ?? "");
    return;
  }
  const sizeMb = Number(get("size") ?? 100);
  const runs = Math.max(1, Number(get("runs") ?? 5));
  const seed = Number(get("seed") ?? 9);
  const only = new Set((get("only") ?? ALL_ROWS).split(",").map((x) => x.trim()));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-bench-"));
  const started = performance.now();
  try {
    await runRows({ get, only, sizeMb, runs, seed, tmp, env });
  } finally {
    if (!args.some((a) => a.replace(/^--?/, "") === "keep")) rmSync(tmp, { recursive: true, force: true });
  }
  const meta = [
    `clawscope bench — ${new Date().toISOString()}`,
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "?"}), ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM, Node ${process.version}, ${os.platform()}`,
    `load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")} (other processes share the cores; medians are wall-clock)`,
    `sessions: seeded generator (seed ${seed}), ${sizeMb} MB; median of ${runs} runs; total bench time ${((performance.now() - started) / 1000).toFixed(0)} s`,
  ].join("\n");
  process.stdout.write(printTable(meta));
}
