// Whole-process rows of `npm run bench` (issue 18): `clawscope <command>` spawned as a user runs it — the BUILT
// CLI (dist/server/main.js) when a build is there, else server/bin.mjs through tsx (the row says which) —
// alternating run by run with whole-process anchors on the same data: the issue's jq recipe, a bare Node
// read + JSON.parse, a bare SQLite SELECT + decode, `node -e 0`. Each child's peak RSS and CPU time (user +
// system, all its threads) come from a preload that prints `process.resourceUsage()` at exit (stdout goes to a
// file, as `> out.json` would); the jq pipeline's CPU time from `/usr/bin/time` when it is installed. On a
// shared machine wall clock carries the other jobs' load, so each row shows both ratios.

import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import { jqInstalled } from "./baselines.ts";
import { add, log, MB, median, ms } from "./measure.ts";

const TIME = "/usr/bin/time";

export interface ProcessRun {
  wallMs: number;
  /** Peak RSS (MB) of a node child; null for other programs. */
  peakMb: number | null;
  /** CPU time (ms, user + system) of the child and what it waited for; null when not measured. */
  cpuMs: number | null;
  stdoutBytes: number;
  status: number | null;
}

/** The CLI a user runs: the compiled build, else the sources. */
export function cliEntry(): { script: string; label: string } {
  const built = path.join(PACKAGE_ROOT, "dist", "server", "main.js");
  return existsSync(built)
    ? { script: built, label: "built CLI (dist/server/main.js)" }
    : {
        script: path.join(PACKAGE_ROOT, "server", "bin.mjs"),
        label: "sources through tsx (server/bin.mjs; no build)",
      };
}

export class ProcessRunner {
  private readonly preload: string;
  private readonly out: string;

  constructor(readonly tmp: string) {
    this.preload = path.join(tmp, "peak-rss.cjs");
    this.out = path.join(tmp, "stdout.bin");
    writeFileSync(
      this.preload,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the child's preload source, a template literal there
      'process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeSync(2, `\\nBENCH_PEAK_RSS_KB ${u.maxRSS}\\nBENCH_CPU_US ${u.userCPUTime + u.systemCPUTime}\\n`); });\n',
    );
  }

  /** `node [preload] args…`, stdout to a file; `env`: the child's whole environment (default: the bench's). */
  node(args: string[], env?: Readonly<Record<string, string | undefined>>): ProcessRun {
    return this.run(process.execPath, ["-r", this.preload, ...args], env);
  }

  /** A shell pipeline (the jq recipe as typed), under `/usr/bin/time` for its CPU time when installed. */
  sh(script: string, args: string[]): ProcessRun {
    if (existsSync(TIME))
      return this.run(TIME, ["-f", "BENCH_TIME %U %S", "sh", "-c", script, "sh", ...args]);
    return this.run("sh", ["-c", script, "sh", ...args]);
  }

  private run(file: string, args: string[], env?: Readonly<Record<string, string | undefined>>): ProcessRun {
    const fd = openSync(this.out, "w");
    const t = performance.now();
    let r: ReturnType<typeof spawnSync>;
    try {
      r = spawnSync(file, args, {
        stdio: ["ignore", fd, "pipe"],
        encoding: "utf8",
        maxBuffer: 16 * MB,
        ...(env ? { env } : {}),
      });
    } finally {
      closeSync(fd);
    }
    const wallMs = performance.now() - t;
    const err = String(r.stderr ?? "");
    const m = /BENCH_PEAK_RSS_KB (\d+)/.exec(err);
    const cpuMatch = /BENCH_CPU_US (\d+)/.exec(err);
    const time = /BENCH_TIME (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)/.exec(err);
    if (r.status !== 0)
      log(
        `  ${path.basename(file)} ${args.slice(-4).join(" ")}: exit ${r.status} ${String(r.stderr).slice(0, 300)}`,
      );
    return {
      wallMs,
      peakMb: m ? Number(m[1]) / 1024 : null,
      cpuMs: cpuMatch ? Number(cpuMatch[1]) / 1000 : time ? (Number(time[1]) + Number(time[2])) * 1000 : null,
      stdoutBytes: statSync(this.out).size,
      status: r.status,
    };
  }
}

/** `runs` rounds; in each, every job once, in order (so anchors and commands share the machine's state). */
export function alternate(
  runs: number,
  jobs: Record<string, () => ProcessRun>,
): Record<string, ProcessRun[]> {
  const out: Record<string, ProcessRun[]> = {};
  for (let i = 0; i < runs; i++) {
    for (const [name, job] of Object.entries(jobs)) {
      const list = out[name] ?? [];
      list.push(job());
      out[name] = list;
    }
  }
  return out;
}

export const wall = (rs: ProcessRun[] | undefined): number => median((rs ?? []).map((r) => r.wallMs));
/** Median CPU ms, null when a run has none. */
export const cpu = (rs: ProcessRun[] | undefined): number | null => {
  const list = (rs ?? []).map((r) => r.cpuMs);
  return list.length > 0 && list.every((c) => c !== null) ? median(list.filter((c) => c !== null)) : null;
};
export const peak = (rs: ProcessRun[] | undefined): number =>
  Math.max(0, ...(rs ?? []).map((r) => r.peakMb ?? 0));

/** The issue's jq recipe on a JSONL file (usage sums of assistant lines). */
export function jqJob(runner: ProcessRunner, file: string): (() => ProcessRun) | null {
  if (!jqInstalled()) return null;
  const q =
    '\'select(.type=="message" and .message.role=="assistant") | .message.usage | [.input,.output,.cacheRead,.cacheWrite]\'';
  return () => runner.sh(`jq -c ${q} "$1" | jq -s 'transpose | map(add)'`, [file]);
}

/** Bare Node: read the file, JSON.parse every line, sum assistant usage. */
export function bareParseJob(runner: ProcessRunner, file: string): () => ProcessRun {
  const script =
    'const t=require("node:fs").readFileSync(process.argv[1],"utf8");let n=0;for(const l of t.split("\\n")){if(!l)continue;const v=JSON.parse(l);if(v.type==="message"&&v.message&&v.message.role==="assistant"&&v.message.usage)n+=v.message.usage.output||0}console.log(n)';
  return () => runner.node(["-e", script, file]);
}

/**
 * Bare SQLite: SELECT every event row of the session, zstd → UTF-8 → JSON.parse, with the modules clawscope uses
 * (zstddec, instantiated without the `fetch` path as zstd-decoders.ts does; fzstd for frames without a size).
 */
export function bareSqliteJob(runner: ProcessRunner, dbFile: string, sessionId: string): () => ProcessRun {
  const script = `import {createRequire} from "node:module";const r=createRequire(${JSON.stringify(path.join(PACKAGE_ROOT, "package.json"))});
const D=r("better-sqlite3");const fz=r("fzstd");const {ZSTDDecoder}=await import(r.resolve("zstddec"));
const z=new ZSTDDecoder();const f=Object.getOwnPropertyDescriptor(globalThis,"fetch");Object.defineProperty(globalThis,"fetch",{value:undefined,configurable:true});
const ready=z.init();Object.defineProperty(globalThis,"fetch",f);await ready;
const db=new D(process.argv[1],{readonly:true,fileMustExist:true});const dec=new TextDecoder();let n=0;
for(const x of db.prepare("SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ? ORDER BY seq").iterate(process.argv[2])){
const t=typeof x.event_json==="string"?x.event_json:dec.decode(x.event_utf8_bytes?z.decode(x.event_zstd,x.event_utf8_bytes):fz.decompress(x.event_zstd));if(JSON.parse(t))n++}console.log(n)`;
  return () => runner.node(["--input-type=module", "-e", script, dbFile, sessionId]);
}

export const nodeE0Job = (runner: ProcessRunner) => (): ProcessRun => runner.node(["-e", "0"]);

/** One "median (peak RSS)" cell. */
export function cell(rs: ProcessRun[] | undefined): string {
  const p = peak(rs);
  const c = cpu(rs);
  const extra = [...(c !== null ? [`CPU ${ms(c)}`] : []), ...(p > 0 ? [`peak RSS ${p.toFixed(0)} MB`] : [])];
  return `${ms(wall(rs))}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
}

/** Add a whole-process row: command vs its anchor, ratio and verdict against `limit`. */
export function addProcessRow(o: {
  operation: string;
  size: string;
  command: ProcessRun[] | undefined;
  anchor: { label: string; runs: ProcessRun[] | undefined };
  others: string;
  limit: number;
  target: string;
  rssLimitMb?: number;
  /** A target in ms of wall clock (the ratio is then only shown). */
  absoluteLimitMs?: number;
}): void {
  const ratio = wall(o.command) / wall(o.anchor.runs);
  const cc = cpu(o.command);
  const ca = cpu(o.anchor.runs);
  const cpuRatio = cc !== null && ca !== null && ca > 0 ? cc / ca : null;
  const inTime = o.absoluteLimitMs === undefined || wall(o.command) <= o.absoluteLimitMs;
  const cpuInTime = o.absoluteLimitMs === undefined || (cc !== null && cc <= o.absoluteLimitMs);
  const rssOk = o.rssLimitMb === undefined || peak(o.command) <= o.rssLimitMb;
  const failed = (o.command ?? []).some((r) => r.status !== 0);
  add({
    operation: o.operation,
    size: o.size,
    median: cell(o.command),
    baseline: `${o.anchor.label} ${cell(o.anchor.runs)}${o.others ? `; ${o.others}` : ""}`,
    ratio: `${ratio.toFixed(2)}×${cpuRatio !== null ? ` (CPU ${cpuRatio.toFixed(2)}×)` : ""}`,
    target: o.target,
    verdict: failed
      ? "FAILED (exit ≠ 0)"
      : !rssOk
        ? "MISSED (RSS)"
        : processVerdict(ratio <= o.limit && inTime, cpuRatio === null || (cpuRatio <= o.limit && cpuInTime)),
  });
}

/** Wall clock decides; the CPU figures say when the machine's load made the difference. */
function processVerdict(wallMet: boolean, cpuMet: boolean): string {
  if (wallMet) return cpuMet ? "met" : "met on wall clock (not in CPU time)";
  return cpuMet ? "MISSED on wall clock (met in CPU time)" : "MISSED";
}
