// Issue 18: a command's stdout redirected to a file is written with fs.writeSync (server/cli/stdout.ts), a
// pipe through process.stdout. Both must carry the same bytes: JSON and text, ASCII and not, one write and
// many, and `>>` must append after what the file held.

import { isAscii } from "node:buffer";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { CLI_ENTRY } from "../helpers/cli.ts";

const JSONL = "legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const SQLITE = "main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-stdout-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a report of a few MB: several 1 MB writes (json-out.ts's BufferedWriter)
const big = writeJsonlStateDir(dir, { targetBytes: 8 << 20, seed: 3 });
const BIG = ["--state-dir", big.stateDir, "--session", big.sessionId];

const run = (args: string[], stdout: "pipe" | number) =>
  spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    stdio: ["ignore", stdout, "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });

/** The command's stdout through a pipe, and into a file that already held `before` and was opened for append. */
function bothWays(args: string[]): { piped: Buffer; file: Buffer } {
  const piped = run(args, "pipe");
  expect(piped.status, String(piped.stderr)).toBe(0);
  const file = path.join(dir, "out.txt");
  writeFileSync(file, "before\n");
  const fd = openSync(file, "a");
  try {
    expect(run(args, fd).status).toBe(0);
  } finally {
    closeSync(fd);
  }
  return { piped: piped.stdout, file: readFileSync(file) };
}

describe("stdout to a file and to a pipe", () => {
  it.each([
    ["cost --json", ["cost", "--demo", "--session", JSONL, "--json"]],
    ["cost (text)", ["cost", "--demo", "--session", SQLITE]],
    ["cost --json of a few MB (many writes)", ["cost", ...BIG, "--json"]],
    ["context --mode detail (non-ASCII text)", ["context", "--demo", "--session", JSONL, "--mode", "detail"]],
    ["sessions --json", ["sessions", "--demo", "--json", "--no-cache"]],
  ])("%s: the same bytes", { timeout: 60_000 }, (_name, args) => {
    const { piped, file } = bothWays(args);
    expect(piped.length).toBeGreaterThan(100);
    expect(file.equals(Buffer.concat([Buffer.from("before\n"), piped]))).toBe(true);
  });

  it("the outputs this checks are not all ASCII, and the big one is more than one write", {
    timeout: 60_000,
  }, () => {
    expect(isAscii(run(["context", "--demo", "--session", JSONL, "--mode", "detail"], "pipe").stdout)).toBe(
      false,
    );
    expect(isAscii(run(["cost", "--demo", "--session", JSONL, "--json"], "pipe").stdout)).toBe(false);
    expect(run(["cost", ...BIG, "--json"], "pipe").stdout.length).toBeGreaterThan(1 << 20);
  });
});
