// The bench's measuring and its one table (run-bench.ts): wall-clock medians with the process's CPU time next
// to them (the reference machine is shared, so wall clock alone misleads), and the rows printed at the end.

export interface Row {
  operation: string;
  size: string;
  median: string;
  baseline: string;
  ratio: string;
  target: string;
  verdict: string;
}

const rows: Row[] = [];
export const MB = 1024 * 1024;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export function ms(x: number): string {
  if (!Number.isFinite(x)) return "—";
  return x >= 1000 ? `${(x / 1000).toFixed(2)} s` : x >= 10 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`;
}

/** CPU ms (user + system of this process, all its threads) of each run of the last timeRuns call. */
export let lastCpu: number[] = [];

export function timeRuns(runs: number, f: (i: number) => void): number[] {
  const out: number[] = [];
  lastCpu = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    f(i);
    out.push(performance.now() - t);
    const d = process.cpuUsage(c);
    lastCpu.push((d.user + d.system) / 1000);
  }
  return out;
}

/** Verdict on the wall-clock median, with what CPU time says when the machine is shared. */
export function verdict(wall: number, cpu: number, limit: number): string {
  if (wall <= limit) return "met";
  return cpu <= limit ? "MISSED on wall clock (met in CPU time)" : "MISSED";
}

export function log(s: string): void {
  process.stderr.write(`${s}\n`);
}

export function add(r: Row): void {
  rows.push(r);
  log(`  ${r.operation}: ${r.median} (baseline ${r.baseline}, ratio ${r.ratio}) → ${r.verdict}`);
}

export function printTable(meta: string): string {
  const header = ["operation", "size", "median", "baseline (same run)", "ratio", "target", "verdict"];
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map(
      (r) => `| ${[r.operation, r.size, r.median, r.baseline, r.ratio, r.target, r.verdict].join(" | ")} |`,
    ),
  ];
  return `${meta}\n\n${lines.join("\n")}\n`;
}
