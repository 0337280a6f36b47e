// better-sqlite3 loaded on the first SQLite read (server/sources/sqlite/sqlite-driver.ts), and what happens when
// its native addon cannot load (no prebuilt binary, no toolchain, a Node ABI mismatch): one clear message per
// store, the JSONL era keeps working. The failure is simulated in a whole CLI process by a preload that makes
// `require("better-sqlite3")` throw the way a missing addon does.

import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSqliteDriver } from "../../server/sources/sqlite/sqlite-driver.ts";
import { runCli } from "../helpers/cli.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-driver-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ADDON_ERROR = [
  "Could not locate the bindings file. Tried:",
  " → /x/node_modules/better-sqlite3/build/better_sqlite3.node",
  " → /x/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
].join("\n");

describe("loadSqliteDriver", () => {
  it("a require that throws: not ok, the cause's first line, what still works and what the machine needs", () => {
    const r = loadSqliteDriver(() => {
      throw new Error(ADDON_ERROR);
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(
      "(Could not locate the bindings file. Tried: → /x/node_modules/better-sqlite3/build/better_sqlite3.node).",
    );
    expect(r.message).not.toContain("build/Release");
    expect(r.message).toContain("JSONL sessions still are");
    expect(r.message).toMatch(/python3, make and a C\/C\+\+ compiler/);
    expect(r.message).toContain("npm rebuild better-sqlite3");
  });

  it("an addon that loads but fails on the first open (ABI mismatch) fails here, not per store", () => {
    const broken = class {
      close(): void {}
      constructor() {
        throw new Error(
          "The module was compiled against a different Node.js version (NODE_MODULE_VERSION 115)",
        );
      }
    };
    const r = loadSqliteDriver(() => broken);
    expect(r).toEqual({ ok: false, message: expect.stringContaining("different Node.js version") });
  });

  it("the installed driver loads and opens", () => {
    const r = loadSqliteDriver(() => createRequire(import.meta.url)("better-sqlite3"));
    expect(r.ok).toBe(true);
  });
});

describe("the CLI without the native module (demo: one JSONL agent, two SQLite agents)", () => {
  const preload = path.join(tmp, "no-sqlite.cjs");
  fs.writeFileSync(
    preload,
    `const Module = require("node:module");
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "better-sqlite3") throw new Error(${JSON.stringify(ADDON_ERROR)});
  return load.call(this, request, ...rest);
};
`,
  );
  const cli = (...args: string[]) => runCli([...args, "--demo"], { nodeArgs: ["--require", preload] });

  it("sessions --json lists the JSONL session and warns once per SQLite store with the clear message", () => {
    const r = cli("sessions", "--json");
    expect(r.status).toBe(0);
    const rows: { agentId: string; storage: string }[] = JSON.parse(r.stdout);
    expect(rows.map((s) => `${s.agentId}:${s.storage}`)).toEqual(["legacy:jsonl"]);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning: "));
    expect(warnings).toHaveLength(2);
    for (const agent of ["main", "research"]) {
      expect(warnings).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^warning: agents/${agent}/agent/openclaw-agent\\.sqlite: better-sqlite3's native module cannot load`,
          ),
        ),
      );
    }
    expect(r.stderr).toContain("python3, make and a C/C++ compiler");
  });

  it("a JSONL session's reports still work; a SQLite session is a located error, not a crash", () => {
    const list = cli("context", "--session", "agent:legacy:main", "--mode", "list");
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("Context breakdown");
    const sqlite = cli("context", "--session", "agent:main:main", "--mode", "list");
    expect(sqlite.status).toBe(2);
    expect(sqlite.stderr).toContain('no session matches "agent:main:main"');
    expect(sqlite.stderr).toContain(
      "agents/main/agent/openclaw-agent.sqlite: better-sqlite3's native module cannot load",
    );
    expect(sqlite.stderr).not.toMatch(/^\s+at /m);
  });
});
