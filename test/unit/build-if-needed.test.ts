// `npm start` in a clone rebuilds a half of the build only when its output is missing or older than one of its
// inputs (server/shell/build-if-needed.ts). Checked on a small temp tree with controlled mtimes.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILD_STEPS, type BuildStep, staleSteps } from "../../server/shell/build-if-needed.ts";

const root = mkdtempSync(path.join(tmpdir(), "clawscope-build-if-needed-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const STEP: BuildStep = {
  name: "t",
  output: "out/index.html",
  inputs: ["src", "conf.ts"],
  viteArgs: ["build"],
};

function write(rel: string, atSeconds: number): void {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, rel);
  utimesSync(p, atSeconds, atSeconds);
}

function touchDir(rel: string, atSeconds: number): void {
  utimesSync(path.join(root, rel), atSeconds, atSeconds);
}

describe("staleSteps", () => {
  it("a missing output is stale", () => {
    write("src/a.ts", 1000);
    touchDir("src", 1000);
    write("conf.ts", 1000);
    expect(staleSteps(root, [STEP])).toEqual([STEP]);
  });

  it("an output newer than every input file and folder is fresh", () => {
    write("out/index.html", 2000);
    expect(staleSteps(root, [STEP])).toEqual([]);
  });

  it("a newer file deep in an input folder makes it stale", () => {
    write("src/deep/b.ts", 3000);
    touchDir("src/deep", 1000);
    touchDir("src", 1000);
    expect(staleSteps(root, [STEP])).toEqual([STEP]);
  });

  it("a deleted file (only its folder's mtime moves) makes it stale", () => {
    write("out/index.html", 4000);
    expect(staleSteps(root, [STEP])).toEqual([]);
    rmSync(path.join(root, "src/a.ts"));
    touchDir("src", 5000);
    expect(staleSteps(root, [STEP])).toEqual([STEP]);
  });

  it("a missing input does not count", () => {
    write("out/index.html", 6000);
    expect(staleSteps(root, [{ ...STEP, inputs: [...STEP.inputs, "nowhere"] }])).toHaveLength(0);
  });

  it("the package's steps build dist/web and dist/server, never from the shipped demo data", () => {
    expect(BUILD_STEPS.map((s) => s.output)).toEqual(["dist/web/index.html", "dist/server/main.js"]);
    write("dist/web/index.html", 7000);
    write("dist/server/main.js", 7000);
    for (const dir of ["web", "shared", "server", "server/demo"]) {
      mkdirSync(path.join(root, dir), { recursive: true });
      touchDir(dir, 1000);
    }
    write("server/demo/state/agents/main/sessions/s.jsonl", 9000);
    touchDir("server/demo/state/agents/main/sessions", 9000);
    touchDir("server/demo/state/agents/main", 9000);
    touchDir("server/demo/state/agents", 9000);
    touchDir("server/demo/state", 9000);
    touchDir("server/demo", 1000);
    touchDir("server", 1000);
    expect(staleSteps(root)).toEqual([]);
  });
});
