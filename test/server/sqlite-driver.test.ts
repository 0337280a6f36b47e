// better-sqlite3 loaded on the first SQLite read (server/sources/sqlite/sqlite-driver.ts), and what happens when
// its native addon cannot load (no prebuilt binary, no toolchain, a Node ABI mismatch): one clear message per
// store, the JSONL era keeps working. The failure is simulated in a whole CLI process by a preload that makes
// `require("better-sqlite3")` throw the way a missing addon does.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SqlDatabase, SqliteDriver } from "../../server/sources/sqlite/sql-database.ts";
import {
  causeOf,
  DriverSlot,
  loadBetterSqlite3,
  loadSqliteDriver,
} from "../../server/sources/sqlite/sqlite-driver.ts";
import { runCli } from "../helpers/cli.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-driver-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ADDON_ERROR = [
  "Could not locate the bindings file. Tried:",
  " → /x/node_modules/better-sqlite3/build/better_sqlite3.node",
  " → /x/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
].join("\n");

/** A driver that is only a name: which one loadSqliteDriver chose is all these tests look at. */
const named = (name: SqliteDriver["name"]) => (): SqliteDriver => ({
  name,
  open: () => {
    throw new Error("not opened in these tests");
  },
});
const throwing = (message: string) => (): SqliteDriver => {
  throw new Error(message);
};
const ABI_ERROR = [
  "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'",
  "was compiled against a different Node.js version using",
  "NODE_MODULE_VERSION 115. This version of Node.js requires",
  "NODE_MODULE_VERSION 137. Please try re-compiling or re-installing",
  "the module (for instance, using `npm rebuild` or `npm install`).",
].join("\n");

describe("loadSqliteDriver", () => {
  it("better-sqlite3 when it loads, node:sqlite never tried", () => {
    const r = loadSqliteDriver("auto", {
      "better-sqlite3": named("better-sqlite3"),
      "node:sqlite": throwing("must not be loaded"),
    });
    expect(r).toEqual({ ok: true, driver: expect.objectContaining({ name: "better-sqlite3" }), note: null });
  });

  it("an addon that cannot load: node:sqlite, with a note naming the cause's first sentence", () => {
    const r = loadSqliteDriver("auto", {
      "better-sqlite3": throwing(ABI_ERROR),
      "node:sqlite": named("node:sqlite"),
    });
    expect(r.ok && r.driver.name).toBe("node:sqlite");
    expect(r.ok && r.note).toBe(
      "reading SQLite stores with Node's built-in node:sqlite: better-sqlite3's native module cannot load (The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115)",
    );
  });

  it("neither: not ok, both causes, what still works and every way out", () => {
    const r = loadSqliteDriver("auto", {
      "better-sqlite3": throwing(ADDON_ERROR),
      "node:sqlite": throwing("Node 20.20.2 has no node:sqlite; Node 22.16 and later have it"),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(
      "(Could not locate the bindings file. Tried: → /x/node_modules/better-sqlite3/build/better_sqlite3.node).",
    );
    expect(r.message).not.toContain("build/Release");
    expect(r.message).toContain("node:sqlite cannot stand in (Node 20.20.2 has no node:sqlite");
    expect(r.message).toContain("JSONL sessions still are");
    expect(r.message).toContain("npx --allow-scripts=better-sqlite3 clawscope");
    expect(r.message).toMatch(/python3, make and a C\/C\+\+ compiler/);
    expect(r.message).toContain("npm rebuild better-sqlite3");
  });

  it("CLAWSCOPE_SQLITE_DRIVER=better-sqlite3: no fallback", () => {
    const r = loadSqliteDriver("better-sqlite3", {
      "better-sqlite3": throwing(ADDON_ERROR),
      "node:sqlite": named("node:sqlite"),
    });
    expect(r).toEqual({ ok: false, message: expect.stringContaining("Could not locate the bindings file") });
    if (r.ok) return;
    expect(r.message).toContain(
      "CLAWSCOPE_SQLITE_DRIVER=better-sqlite3 rules out Node's built-in node:sqlite.",
    );
    expect(r.message).not.toContain("cannot stand in");
    expect(r.message).not.toContain("Node 22.16");
  });

  it("CLAWSCOPE_SQLITE_DRIVER=node:sqlite: better-sqlite3 never loaded; a failure says it was asked for alone", () => {
    const ok = loadSqliteDriver("node:sqlite", {
      "better-sqlite3": throwing("must not be loaded"),
      "node:sqlite": named("node:sqlite"),
    });
    expect(ok.ok && ok.driver.name).toBe("node:sqlite");
    const no = loadSqliteDriver("node:sqlite", {
      "better-sqlite3": named("better-sqlite3"),
      "node:sqlite": throwing("Node 20.20.2 has no node:sqlite; Node 22.16 and later have it"),
    });
    expect(no).toEqual({
      ok: false,
      message: expect.stringContaining("CLAWSCOPE_SQLITE_DRIVER asks for it alone"),
    });
  });

  it("an addon that loads but fails on the first open (ABI mismatch) fails at load, not per store", () => {
    class Broken implements SqlDatabase {
      readonly inTransaction = false;
      constructor() {
        throw new Error(
          "The module was compiled against a different Node.js version (NODE_MODULE_VERSION 115)",
        );
      }
      prepare(): never {
        throw new Error("unreachable");
      }
      exec(): void {}
      close(): void {}
    }
    expect(() => loadBetterSqlite3(() => Broken)).toThrow("different Node.js version");
  });

  it("the installed better-sqlite3 loads and opens", () => {
    expect(loadBetterSqlite3().name).toBe("better-sqlite3");
  });
});

describe("DriverSlot", () => {
  it("a fallback's note goes to the listener once, when the driver loads — however late the first read", () => {
    let loads = 0;
    const slot = new DriverSlot({
      "better-sqlite3": throwing(ADDON_ERROR),
      "node:sqlite": () => {
        loads++;
        return named("node:sqlite")();
      },
    });
    const notes: string[] = [];
    slot.onNote((n) => notes.push(n));
    expect(notes).toEqual([]); // nothing loaded until a read asks
    expect(slot.get().ok).toBe(true);
    slot.get();
    expect(loads).toBe(1);
    expect(notes).toEqual([expect.stringMatching(/^reading SQLite stores with Node's built-in node:sqlite/)]);
    // another choice is another load (and, pinned, no fallback to speak of)
    slot.choose("node:sqlite");
    expect(slot.get().ok).toBe(true);
    expect(loads).toBe(2);
    expect(notes).toHaveLength(1);
  });

  it("no note when the preferred driver loads", () => {
    const slot = new DriverSlot({
      "better-sqlite3": named("better-sqlite3"),
      "node:sqlite": named("node:sqlite"),
    });
    const notes: string[] = [];
    slot.onNote((n) => notes.push(n));
    expect(slot.get()).toEqual({
      ok: true,
      driver: expect.objectContaining({ name: "better-sqlite3" }),
      note: null,
    });
    expect(notes).toEqual([]);
  });
});

describe("causeOf", () => {
  it("one line as it is; a sentence broken over lines joined up to its full stop; a list keeps its first entry", () => {
    expect(causeOf(new Error("libc not found"))).toBe("libc not found");
    expect(causeOf(new Error(ABI_ERROR))).toBe(
      "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115",
    );
    expect(causeOf(new Error(ADDON_ERROR))).toBe(
      "Could not locate the bindings file. Tried: → /x/node_modules/better-sqlite3/build/better_sqlite3.node",
    );
    expect(
      causeOf(new Error("Cannot find module 'better-sqlite3'\nRequire stack:\n- /x/dist/server/main.js")),
    ).toBe("Cannot find module 'better-sqlite3'");
    expect(causeOf(new Error("Out of memory."))).toBe("Out of memory");
    expect(causeOf("")).toBe("unknown error");
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
  // better-sqlite3 alone: on a Node with node:sqlite, "auto" would read the stores with that instead
  const cli = (...args: string[]) =>
    runCli([...args, "--demo"], {
      nodeArgs: ["--require", preload],
      env: { CLAWSCOPE_SQLITE_DRIVER: "better-sqlite3" },
    });

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
