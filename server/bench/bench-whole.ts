// The whole-process section of `npm run bench` (`only=cli`, issue 18): `cost --json` and `prune --json` on the
// 100 MB JSONL session, `cost --json` on the SQLite one, each alternating with its anchors (bench-cli.ts).

import { rmSync, statSync } from "node:fs";
import path from "node:path";
import { zstdDecoder } from "../sources/sqlite/zstd-decoders.ts";
import {
  addProcessRow,
  alternate,
  bareParseJob,
  bareSqliteJob,
  cell,
  cliEntry,
  jqJob,
  nodeE0Job,
  type ProcessRun,
  ProcessRunner,
} from "./bench-cli.ts";
import { type WrittenSession, writeBigStateDir } from "./generate-session.ts";
import { log, MB } from "./measure.ts";

function jobsFor(runner: ProcessRunner, s: WrittenSession, script: string, command: string[]) {
  return () =>
    runner.node([script, ...command, "--state-dir", s.stateDir, "--session", `${s.agentId}/${s.sessionId}`]);
}

export function benchWholeJsonl(tmp: string, s: WrittenSession, runs: number): void {
  const runner = new ProcessRunner(tmp);
  const { script, label } = cliEntry();
  log(`whole process, JSONL (${label})…`);
  const size = `${(statSync(s.file).size / MB).toFixed(0)} MB JSONL`;
  const jq = jqJob(runner, s.file);
  const jobs: Record<string, () => ProcessRun> = {
    ...(jq ? { jq } : {}),
    bare: bareParseJob(runner, s.file),
    e0: nodeE0Job(runner),
    cost: jobsFor(runner, s, script, ["cost", "--json"]),
    prune: jobsFor(runner, s, script, ["prune", "--json"]),
  };
  const r = alternate(runs, jobs);
  const anchor = r.jq
    ? { label: "jq recipe", runs: r.jq }
    : { label: "bare Node read + JSON.parse", runs: r.bare };
  const others = `bare Node read + JSON.parse ${cell(r.bare)}; node -e 0 ${cell(r.e0)}`;
  addProcessRow({
    operation: `\`cost --json\`, whole process (${label})`,
    size,
    command: r.cost,
    anchor,
    others,
    limit: 1.5,
    target: "≤ 1.5× jq (moonshot ≤ 1.0×), peak RSS ≤ 300 MB",
    rssLimitMb: 300,
  });
  const out = r.prune?.[0]?.stdoutBytes ?? 0;
  addProcessRow({
    operation: `\`prune --json\`, whole process (${label}); output ${(out / MB).toFixed(1)} MB`,
    size,
    command: r.prune,
    anchor,
    others,
    // No time target in the issue: it must finish, with output O(calls + tool results) (a test checks that).
    limit: Number.POSITIVE_INFINITY,
    target: "finishes (was: out of memory at 4.3 GB); output linear (test/unit/prune-linear.test.ts)",
  });
  log(`  cost --json stdout ${((r.cost?.[0]?.stdoutBytes ?? 0) / MB).toFixed(1)} MB`);
}

export function benchWholeSqlite(tmp: string, s: WrittenSession, runs: number): void {
  const runner = new ProcessRunner(tmp);
  const { script, label } = cliEntry();
  log(`whole process, SQLite (${label})…`);
  const r = alternate(runs, {
    bare: bareSqliteJob(runner, s.file, s.sessionId),
    cost: jobsFor(runner, s, script, ["cost", "--json"]),
  });
  addProcessRow({
    operation: `\`cost --json\`, SQLite, whole process (${label})`,
    size: `${(s.stats.bytes / MB).toFixed(0)} MB of events / ${s.stats.entries.toLocaleString("en")} rows`,
    command: r.cost,
    anchor: {
      label: `bare SELECT + zstd (${zstdDecoder().name}; frames: ${s.stats.zstd ?? "?"})/UTF-8/JSON decode (node)`,
      runs: r.bare,
    },
    others: "",
    limit: 1.5,
    target: "≤ 1.5× the bare decode, peak RSS ≤ 300 MB",
    rssLimitMb: 300,
  });
}

/**
 * `sessions --json` on a big state dir (500 sessions / 1 GB by default: one generated session copied under 500
 * ids): cold = the persistent cache dir removed first, warm = the next process.
 */
export function benchWholeSessions(
  tmp: string,
  runs: number,
  o: { sessions: number; mbEach: number; seed: number },
  baseEnv: Readonly<Record<string, string | undefined>>,
): void {
  log(`big state dir: ${o.sessions} sessions × ${o.mbEach} MB…`);
  const big = writeBigStateDir(path.join(tmp, "big"), o);
  const runner = new ProcessRunner(tmp);
  const { script, label } = cliEntry();
  const cache = path.join(tmp, "xdg-cache");
  const env = { ...baseEnv, XDG_CACHE_HOME: cache };
  const list =
    (e = env) =>
    () =>
      runner.node([script, "sessions", "--json", "--state-dir", big.stateDir], e);
  // The listing and scan caches keep nothing whose files changed in the last 2 s (scan-store.ts RACY_MS): the dir
  // was just written, so wait that out — else the first round's warm run is a miss.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
  // NODE_EXTRA_CA_CERTS (set on some machines, this bench's VM among them) makes Node read and parse that CA
  // bundle at every start, before any user code: its own pair of rows shows a start without it.
  const certs = baseEnv.NODE_EXTRA_CA_CERTS !== undefined;
  const noCerts = { ...env, NODE_EXTRA_CA_CERTS: undefined };
  const r = alternate(runs, {
    e0: nodeE0Job(runner),
    cold: () => {
      rmSync(cache, { recursive: true, force: true });
      return list()();
    },
    warm: list(),
    ...(certs ? { e0NoCerts: () => runner.node(["-e", "0"], noCerts), warmNoCerts: list(noCerts) } : {}),
  });
  const size = `${o.sessions} sessions / ${((o.sessions * o.mbEach) / 1024).toFixed(2)} GB`;
  const anchor = { label: "node -e 0", runs: r.e0 };
  const bytes = (rs: ProcessRun[] | undefined) => new Set((rs ?? []).map((x) => x.stdoutBytes));
  if (bytes(r.warm).size !== 1 || [...bytes(r.warm)][0] !== [...bytes(r.cold)][0])
    log("  sessions --json: warm and cold outputs differ in size — the cache is wrong");
  addProcessRow({
    operation: `\`sessions --json\`, cold (no persistent cache), whole process (${label})`,
    size,
    command: r.cold,
    anchor,
    others: "",
    limit: Number.POSITIVE_INFINITY,
    target: "≤ 2 s",
    absoluteLimitMs: 2000,
  });
  const warmRow = (command: ProcessRun[] | undefined, e0: ProcessRun[] | undefined, note: string) =>
    addProcessRow({
      operation: `\`sessions --json\`, warm (persistent cache), whole process (${label})${note}`,
      size,
      command,
      anchor: { label: "node -e 0", runs: e0 },
      others: "",
      limit: Number.POSITIVE_INFINITY,
      target: "≤ 100 ms",
      absoluteLimitMs: 100,
    });
  warmRow(r.warm, r.e0, "");
  if (certs)
    warmRow(r.warmNoCerts, r.e0NoCerts, "; NODE_EXTRA_CA_CERTS unset (here Node's start reads a CA bundle)");
}
