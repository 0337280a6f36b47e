// Bench row "treemap layout": shared/treemap-layout.ts on fresh 10,000-leaf context-map-shaped trees.

import type { MapNode } from "../../shared/context-map.ts";
import { layoutTreemap } from "../../shared/treemap-layout.ts";
import { add, lastCpu, log, median, ms, timeRuns, verdict } from "./measure.ts";

/** A context-map-shaped tree: 5 groups, conversation split by kind, 10,000 leaves in all. */
function syntheticMap(leaves: number, seed: number): MapNode {
  let a = seed;
  const rnd = (): number => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
  const leaf = (id: string, group: string): MapNode => {
    const chars = Math.floor(50 + rnd() ** 3 * 200_000);
    const est = Math.ceil(chars / 4);
    return { id, name: id, group, chars, estTokens: est, tiktokenTokens: null, source: "bench" };
  };
  const groupOf = (key: string, kids: MapNode[]): MapNode => ({
    id: key,
    name: key,
    group: key,
    chars: kids.reduce((n, k) => n + k.chars, 0),
    estTokens: kids.reduce((n, k) => n + k.estTokens, 0),
    tiktokenTokens: null,
    source: "bench",
    children: kids,
  });
  const keys = ["system", "workspace", "skills", "tools", "conversation"];
  const shares = [0.01, 0.01, 0.03, 0.01, 0.94];
  const groups = keys.map((k, gi) => {
    const n = Math.max(1, Math.round(leaves * (shares[gi] ?? 0)));
    if (k !== "conversation")
      return groupOf(
        k,
        Array.from({ length: n }, (_, i) => leaf(`${k}/${i}`, k)),
      );
    const kinds = ["user", "assistant", "tool-results"];
    return groupOf(
      k,
      kinds.map((kind, ki) =>
        groupOf(
          `${k}/${kind}`,
          Array.from({ length: Math.round(n / 3) + (ki === 0 ? n % 3 : 0) }, (_, i) =>
            leaf(`${k}/${kind}/${i}`, k),
          ),
        ),
      ),
    );
  });
  return groupOf("", groups);
}

function countLeaves(n: MapNode): number {
  return n.children ? n.children.reduce((s, c) => s + countLeaves(c), 0) : 1;
}

export function benchTreemap(runs: number): void {
  log("treemap layout…");
  const trees = Array.from({ length: runs * 2 + 1 }, (_, i) => syntheticMap(10_000, i + 1));
  const leaves = countLeaves(trees[0] ?? syntheticMap(1, 1));
  // A fresh tree object per run: layoutTreemap memoises per tree, we measure the computation.
  const times = timeRuns(trees.length, (i) => {
    const t = trees[i];
    if (t) layoutTreemap(t, { width: 1280, height: 720, mode: "estTokens" });
  });
  const layoutCpu = median(lastCpu.slice(1));
  const cached = median(
    timeRuns(runs, () => {
      const t = trees[0];
      if (t) layoutTreemap(t, { width: 1280, height: 720, mode: "estTokens" });
    }),
  );
  const m = median(times.slice(1));
  add({
    operation: "treemap layout (shared/treemap-layout.ts)",
    size: `${leaves.toLocaleString("en")} leaves`,
    median: `${ms(m)} (CPU ${ms(layoutCpu)})`,
    baseline: `memoised re-layout ${ms(cached)}`,
    ratio: `${(m / Math.max(cached, 0.001)).toFixed(0)}×`,
    target: "≤ 30 ms",
    verdict: verdict(m, layoutCpu, 30),
  });
}
