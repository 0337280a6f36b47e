// `clawscope cost --json | head`: when the reader closes the pipe early the CLI exits 0 without a word — not an
// unhandled EPIPE with a Node stack trace on the user's terminal (server/main.ts).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { CLI_ENTRY } from "../helpers/cli.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-pipe-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// a report of a few MB: far more than one pipe buffer, so writes are still pending when the pipe closes
const s = writeJsonlStateDir(tmp, { targetBytes: 4 << 20, seed: 5 });

describe("a closed stdout pipe", () => {
  it("ends the CLI quietly with exit code 0", async () => {
    const args = ["cost", "--json", "--state-dir", s.stateDir, "--session", s.sessionId];
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    // like `head -c 1`: read the first chunk, then close the reading end
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.once("exit", (c) => done(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\(/);
    expect(code).toBe(0);
  }, 60_000);
});
