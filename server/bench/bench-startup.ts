// Start-up as a user feels it (issue 17): whole processes of the BUILT CLI (dist/server/main.js, what
// `npx clawscope` runs), alternating with `node -e 0` in the same loop, median of `runs`. Each row prints its
// ratio to `node -e 0` and its target: `--help` ≤ 3×; `context --mode list` ≤ 300 ms on the 100 MB sessions
// (it prints the stored report and never parses the transcript: StateReader.storedEntry). CPU time
// (user + system of the child, from a preload's exit hook) is printed beside the wall clock: the reference
// machine is shared.

import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import type { WrittenSession } from "./generate-session.ts";
import { add, log, median, ms, verdict } from "./measure.ts";

interface Command {
  name: string;
  args: string[];
}

interface Timing {
  wall: number[];
  cpu: number[];
}

const CPU_MARK = "clawscope-bench-cpu ";

/** Run each command once per round, in order (alternating), `runs` rounds; the child's wall and CPU ms. */
function timeProcesses(commands: Command[], runs: number, preload: string): Map<string, Timing> {
  const out = new Map<string, Timing>(commands.map((c) => [c.name, { wall: [], cpu: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const c of commands) {
      const t = performance.now();
      const r = spawnSync(process.execPath, ["--require", preload, ...c.args], {
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe"],
        maxBuffer: 16 << 20,
      });
      const wall = performance.now() - t;
      if (r.status !== 0) throw new Error(`${c.name} exited with ${r.status}: ${r.stderr.slice(0, 500)}`);
      const m = new RegExp(`${CPU_MARK}(\\d+(?:\\.\\d+)?)`).exec(r.stderr);
      const timing = out.get(c.name);
      timing?.wall.push(wall);
      timing?.cpu.push(m ? Number(m[1]) : Number.NaN);
    }
  }
  return out;
}

export function benchStartup(
  tmp: string,
  sessions: { jsonl: WrittenSession | null; sqlite: WrittenSession | null },
  runs: number,
): void {
  const main = path.join(PACKAGE_ROOT, "dist", "server", "main.js");
  if (!existsSync(main)) {
    log(`start-up rows skipped: ${main} is not built (npm run build)`);
    return;
  }
  log("start-up, whole process (built CLI, alternating with node -e 0)…");
  const preload = path.join(tmp, "cpu-at-exit.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("${CPU_MARK}" + (u.user + u.system) / 1000 + "\\n"); });\n`,
  );
  const list = (s: WrittenSession): string[] => [
    main,
    "context",
    "--session",
    `${s.agentId}/${s.sessionId}`,
    "--mode",
    "list",
    "--state-dir",
    s.stateDir,
  ];
  const commands: Command[] = [
    { name: "node -e 0", args: ["-e", "0"] },
    { name: "--help", args: [main, "--help"] },
    ...(sessions.jsonl ? [{ name: "list jsonl", args: list(sessions.jsonl) }] : []),
    ...(sessions.sqlite ? [{ name: "list sqlite", args: list(sessions.sqlite) }] : []),
  ];
  const t = timeProcesses(commands, runs, preload);
  const at = (name: string) => {
    const x = t.get(name);
    return { wall: median(x?.wall ?? []), cpu: median(x?.cpu ?? []) };
  };
  const node = at("node -e 0");
  const baseline = `node -e 0 ${ms(node.wall)} (CPU ${ms(node.cpu)})`;
  const ratio = (x: { wall: number; cpu: number }) =>
    `${(x.wall / node.wall).toFixed(2)}× (CPU ${(x.cpu / node.cpu).toFixed(2)}×)`;
  const help = at("--help");
  add({
    operation: "clawscope --help, whole process",
    size: "—",
    median: `${ms(help.wall)} (CPU ${ms(help.cpu)})`,
    baseline,
    ratio: ratio(help),
    target: "≤ 3× node -e 0",
    verdict: verdict(help.wall / node.wall, help.cpu / node.cpu, 3),
  });
  for (const [name, s, kind, how] of [
    ["list jsonl", sessions.jsonl, "JSONL", "transcript byte-scanned for version signals, not parsed"],
    ["list sqlite", sessions.sqlite, "SQLite", "schema_meta + session_nodes only"],
  ] as const) {
    if (!s) continue;
    const x = at(name);
    add({
      operation: `clawscope context --mode list, whole process (${kind}: the stored report; ${how})`,
      size: `${(s.stats.bytes / (1 << 20)).toFixed(0)} MB ${kind} session`,
      median: `${ms(x.wall)} (CPU ${ms(x.cpu)})`,
      baseline,
      ratio: ratio(x),
      target: "≤ 300 ms",
      verdict: verdict(x.wall, x.cpu, 300),
    });
  }
}
