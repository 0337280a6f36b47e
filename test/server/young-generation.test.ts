// The young-generation cap of V8 ≥ 13 (server/shell/young-generation.ts): which V8s get it, and — on a Node
// whose V8 gets it (Node 24; this suite also runs there) — that new space then stays at its start size while
// a run keeps most of what it allocates, as a session load does.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capsYoungGeneration } from "../../server/shell/young-generation.ts";

const REPO = path.resolve(__dirname, "../..");

/** The largest new space a child saw while building ~150 MB of kept objects, and whether it capped. */
function newSpacePeak(cap: boolean): { capped: boolean; peakMb: number } {
  const script = `
    import v8 from "node:v8";
    import { capYoungGeneration } from ${JSON.stringify(path.join(REPO, "server/shell/young-generation.ts"))};
    const capped = ${cap} ? capYoungGeneration() : false;
    const kept = []; let peak = 0;
    for (let i = 0; i < 1_500_000; i++) {
      kept.push({ i, s: "row " + i, a: [i, i + 1] });
      if (i % 10000 === 0) {
        const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
        peak = Math.max(peak, ns ? ns.space_size : 0);
      }
    }
    process.stdout.write(JSON.stringify({ capped, peakMb: peak / 2 ** 20 }));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("the young-generation cap", () => {
  it("is for V8 13 and later (Node 24), not V8 11 or 12 (Node 20, 22)", () => {
    expect(capsYoungGeneration("11.3.244.8-node.33")).toBe(false);
    expect(capsYoungGeneration("12.4.254.21-node.33")).toBe(false);
    expect(capsYoungGeneration("13.6.233.17-node.40")).toBe(true);
    expect(capsYoungGeneration("14.0.1")).toBe(true);
    expect(capsYoungGeneration("")).toBe(false);
  });

  it(`keeps new space at its start size where it applies (this Node: V8 ${process.versions.v8})`, () => {
    const free = newSpacePeak(false);
    const capped = newSpacePeak(true);
    expect(capped.capped).toBe(capsYoungGeneration(process.versions.v8));
    // on V8 11/12 nothing is set, and new space grows as V8 decides in both runs
    if (capped.capped) expect(capped.peakMb).toBeLessThan(free.peakMb / 2);
  }, 60_000);
});
