// Node's compile cache (server/shell/compile-cache.ts): on a Node that has `module.enableCompileCache`
// (≥ 22.1) a command leaves compiled code under $XDG_CACHE_HOME/clawscope/v8-compile; never with --no-cache,
// never when that dir is inside the state dir, and on Node 20 not at all — the command's output is the same.

import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, runCli } from "../helpers/cli.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-compile-cache-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const nodeHasIt = "enableCompileCache" in module;
const SESSION = "legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";

function costJson(stateDir: string, xdg: string, ...flags: string[]): string {
  const r = runCli(["cost", "--json", "--state-dir", stateDir, "--session", SESSION, ...flags], {
    env: { XDG_CACHE_HOME: xdg, NODE_COMPILE_CACHE: "" },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

const compiled = (xdg: string) => {
  const dir = path.join(xdg, "clawscope", "v8-compile");
  return existsSync(dir) && readdirSync(dir).length > 0;
};

describe("the compile cache", () => {
  const stateDir = path.join(tmp, "state");
  cpSync(path.join(REPO, "server/demo/state"), stateDir, { recursive: true });

  it(`is written on a Node that has it (this one: ${nodeHasIt ? "yes" : "no"}), and changes no output`, () => {
    const plain = costJson(stateDir, path.join(tmp, "off"), "--no-cache");
    const xdg = path.join(tmp, "on");
    expect(costJson(stateDir, xdg)).toBe(plain);
    expect(compiled(xdg)).toBe(nodeHasIt);
    expect(costJson(stateDir, xdg)).toBe(plain); // a second run compiles from it
    expect(compiled(path.join(tmp, "off"))).toBe(false);
  }, 60_000);

  it("is never written inside the state dir", () => {
    const inside = path.join(stateDir, "cache-home");
    costJson(stateDir, inside);
    expect(compiled(inside)).toBe(false);
  }, 60_000);
});
