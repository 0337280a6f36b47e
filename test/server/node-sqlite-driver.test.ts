// Node's built-in node:sqlite as the SQLite driver (server/sources/sqlite/node-sqlite-driver.ts): what a user
// gets when better-sqlite3's addon did not install (npm 12 skips install scripts unless allowed). The readers
// must not be able to tell the drivers apart: every command prints the same bytes on both, errors are classified
// the same, and a WAL store without -shm is still read from a copy, nothing created next to it. The suite runs on
// Node 20, which has no node:sqlite, so the whole-process half runs the CLI on a Node that has one
// (test/helpers/node-with-sqlite.ts) and compares it with this Node's better-sqlite3.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RACY_MS } from "../../server/sources/jsonl/scan-store.ts";
import { loadNodeSqlite, withoutSqliteWarning } from "../../server/sources/sqlite/node-sqlite-driver.ts";
import { resultCodeName, sqliteErrorCode } from "../../server/sources/sqlite/sqlite-result-codes.ts";
import { cleanupTmp, sha256File, tmpDir, walOnlyCommit } from "../fixtures/sqlite/helpers.ts";
import { REPO, runCli } from "../helpers/cli.ts";
import { type NodeWithSqlite, nodeWithSqlite } from "../helpers/node-with-sqlite.ts";

afterAll(cleanupTmp);

describe("SQLite result-code names, the same for both drivers", () => {
  it("primary and extended codes by number (sqlite.org/rescode.html)", () => {
    expect(resultCodeName(5)).toBe("SQLITE_BUSY");
    expect(resultCodeName(261)).toBe("SQLITE_BUSY_RECOVERY");
    expect(resultCodeName(517)).toBe("SQLITE_BUSY_SNAPSHOT");
    expect(resultCodeName(6)).toBe("SQLITE_LOCKED");
    expect(resultCodeName(522)).toBe("SQLITE_IOERR_SHORT_READ");
    expect(resultCodeName(776)).toBe("SQLITE_READONLY_ROLLBACK");
    expect(resultCodeName(1288)).toBe("SQLITE_READONLY_CANTINIT");
    expect(resultCodeName(11)).toBe("SQLITE_CORRUPT");
    expect(resultCodeName(779)).toBe("SQLITE_CORRUPT_INDEX");
    expect(resultCodeName(14)).toBe("SQLITE_CANTOPEN");
    expect(resultCodeName(26)).toBe("SQLITE_NOTADB");
    expect(resultCodeName(101)).toBe("SQLITE_DONE");
    // an extended code this table does not know keeps its primary name, so classification still works
    expect(resultCodeName(10 | (200 << 8))).toBe("SQLITE_IOERR");
  });

  it("every result code sqlite3.h defines (the copy better-sqlite3 builds) has its name", () => {
    const header = fs.readFileSync(
      path.join(REPO, "node_modules", "better-sqlite3", "deps", "sqlite3", "sqlite3.h"),
      "utf8",
    );
    // the primary codes are the block from SQLITE_OK to SQLITE_DONE (other #defines reuse small numbers)
    const block = header.slice(header.indexOf("#define SQLITE_OK "), header.indexOf("#define SQLITE_DONE"));
    const primary = new Map<string, number>([
      ["SQLITE_ROW", 100],
      ["SQLITE_DONE", 101],
    ]);
    for (const m of `${block}\n`.matchAll(/^#define (SQLITE_[A-Z]+)\s+(\d+)\s/gm)) {
      const [, name, value] = m;
      if (name && value) primary.set(name, Number(value));
    }
    expect(header).toMatch(/#define SQLITE_ROW +100 /);
    expect(header).toMatch(/#define SQLITE_DONE +101 /);
    expect(primary.get("SQLITE_NOTADB")).toBe(26);
    const codes = new Map(primary);
    for (const m of header.matchAll(
      /^#define (SQLITE_[A-Z_]+)\s+\((SQLITE_[A-Z]+)\s*\|\s*\((\d+)<<8\)\)/gm,
    )) {
      const [, name, base, n] = m;
      const b = base ? primary.get(base) : undefined;
      if (name && b !== undefined && n) codes.set(name, b | (Number(n) << 8));
    }
    expect(codes.size).toBeGreaterThan(100);
    for (const [name, value] of codes) expect(`${value} ${resultCodeName(value)}`).toBe(`${value} ${name}`);
  });

  it("better-sqlite3's SqliteError by its code, node:sqlite's error by errcode, anything else null", () => {
    const dir = tmpDir();
    const notDb = path.join(dir, "not.sqlite");
    fs.writeFileSync(notDb, "x".repeat(4096));
    let thrown: unknown = null;
    try {
      new Database(notDb, { readonly: true }).prepare("SELECT 1 FROM sqlite_master").get();
    } catch (e) {
      thrown = e;
    }
    expect(sqliteErrorCode(thrown)).toBe("SQLITE_NOTADB");
    expect(sqliteErrorCode({ code: "ERR_SQLITE_ERROR", errcode: 776, errstr: "readonly" })).toBe(
      "SQLITE_READONLY_ROLLBACK",
    );
    expect(sqliteErrorCode({ code: "ERR_SQLITE_ERROR" })).toBeNull();
    expect(sqliteErrorCode(Object.assign(new Error("x"), { code: "ENOENT" }))).toBeNull();
    expect(sqliteErrorCode(new Error("plain"))).toBeNull();
    expect(sqliteErrorCode("SQLITE_BUSY")).toBeNull();
  });
});

describe("loadNodeSqlite", () => {
  it("a Node without node:sqlite: says which Node and which have it", () => {
    const missing = Object.assign(new Error("No such built-in module: node:sqlite"), {
      code: "ERR_UNKNOWN_BUILTIN_MODULE",
    });
    expect(() =>
      loadNodeSqlite(() => {
        throw missing;
      }),
    ).toThrow(`Node ${process.versions.node} has no node:sqlite; Node 22.16 and later have it`);
  });

  it("a node:sqlite older than setReturnArrays (22.13–22.15): unusable, with the releases that have it", () => {
    class StatementSync {}
    class DatabaseSync {}
    expect(() => loadNodeSqlite(() => ({ DatabaseSync, StatementSync }))).toThrow(
      /predates setReturnArrays .*22\.16/,
    );
    expect(() => loadNodeSqlite(() => ({}))).toThrow("node:sqlite has no DatabaseSync");
  });

  it("this Node's own node:sqlite, when it has none, fails the same way", () => {
    const hasBuiltin = process.versions.node.split(".").map(Number)[0] ?? 0;
    if (hasBuiltin >= 22) return; // covered by the whole-process tests below
    expect(() => loadNodeSqlite()).toThrow("has no node:sqlite");
  });
});

describe("withoutSqliteWarning", () => {
  it("keeps node:sqlite's ExperimentalWarning off the warning stream and lets every other warning through", async () => {
    const seen: string[] = [];
    const listener = (w: Error): void => {
      seen.push(`${w.name}: ${w.message}`);
    };
    process.on("warning", listener);
    try {
      const value = withoutSqliteWarning(() => {
        process.emitWarning(
          "SQLite is an experimental feature and might change at any time",
          "ExperimentalWarning",
        );
        process.emitWarning("SQLite is an experimental feature and might change at any time", {
          type: "ExperimentalWarning",
        });
        process.emitWarning("Fetch is an experimental feature", "ExperimentalWarning");
        process.emitWarning("SQLite is an experimental feature", "DeprecationWarning");
        return 42;
      });
      expect(value).toBe(42);
      await new Promise((r) => setTimeout(r, 20)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", listener);
    }
    expect(seen).toEqual([
      "ExperimentalWarning: Fetch is an experimental feature",
      "DeprecationWarning: SQLite is an experimental feature",
    ]);
    // the original is back
    expect(process.emitWarning.name).toBe("emitWarning");
  });
});

const DEMO = path.join(REPO, "server", "demo", "state");

describe("CLAWSCOPE_SQLITE_DRIVER", () => {
  it("a value that names no driver is a usage error (exit 2) listing the ones there are", () => {
    const r = runCli(["sessions", "--json", "--no-cache", "--demo"], {
      env: { CLAWSCOPE_SQLITE_DRIVER: "sqlite3" },
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "CLAWSCOPE_SQLITE_DRIVER=sqlite3: expected one of auto, better-sqlite3, node:sqlite",
    );
  });

  it("refused too where the listing cache answers without reading a store (a JSONL-only dir, warm)", async () => {
    const state = tmpDir();
    fs.cpSync(path.join(DEMO, "agents", "legacy"), path.join(state, "agents", "legacy"), { recursive: true });
    // the listing cache skips a dir that changed in its last 2 s (RACY_MS, by ctime): let the copy settle
    await new Promise((r) => setTimeout(r, RACY_MS + 100));
    const cache = { XDG_CACHE_HOME: tmpDir() };
    expect(runCli(["sessions", "--json", "--state-dir", state], { env: cache }).status).toBe(0);
    expect(
      fs.readdirSync(path.join(cache.XDG_CACHE_HOME, "clawscope")).some((f) => f.startsWith("sessions-list")),
    ).toBe(true);
    const warm = runCli(["sessions", "--json", "--state-dir", state], {
      env: { ...cache, CLAWSCOPE_SQLITE_DRIVER: "sqlite3" },
    });
    expect(warm.status).toBe(2);
    expect(warm.stdout).toBe("");
  });

  it("--help names it and its values", () => {
    const r = runCli(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /CLAWSCOPE_SQLITE_DRIVER +auto \(default: better-sqlite3, else Node's built-in node:sqlite/,
    );
  });

  it("auto on a Node whose better-sqlite3 loads: better-sqlite3, no note", () => {
    const r = runCli(["sessions", "--json", "--no-cache", "--demo"], {
      env: { CLAWSCOPE_SQLITE_DRIVER: "auto" },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain("node:sqlite");
  });
});
const SESSIONS = [
  "main/bc255ab3-b341-464a-a811-4d1115e16ed8",
  "research/c50b7fb8-120b-44a9-a477-545eec87c0a7",
];
const COMMANDS = [
  ["cost", "--json"],
  ["prune", "--json"],
  ["context", "--mode", "detail"],
  ["truncation", "--json"],
  ["map", "--json", "--call", "all"],
  ["compare", "--pruning", "off", "--json"],
];

let other: NodeWithSqlite = { node: null, note: "not looked for yet" };
beforeAll(() => {
  other = nodeWithSqlite(process.env);
  if (!other.node) console.warn(`SKIPPED node:sqlite whole-process tests: ${other.note}`);
}, 300_000);

/** One command on both drivers: this Node's better-sqlite3, and node:sqlite on the other Node. */
function both(args: string[]): { better: ReturnType<typeof runCli>; builtin: ReturnType<typeof runCli> } {
  const better = runCli([...args, "--no-cache"], { env: { CLAWSCOPE_SQLITE_DRIVER: "better-sqlite3" } });
  const builtin = runCli([...args, "--no-cache"], {
    node: other.node ?? process.execPath,
    env: { CLAWSCOPE_SQLITE_DRIVER: "node:sqlite" },
  });
  return { better, builtin };
}

/** stderr without the lines that name the process's own choices (state dir, driver). */
const problems = (stderr: string): string[] =>
  stderr.split("\n").filter((l) => l !== "" && !l.startsWith("clawscope: "));

describe("the CLI on node:sqlite prints what it prints on better-sqlite3", () => {
  it("sessions --json of the demo (one JSONL agent, two SQLite agents)", (ctx) => {
    if (!other.node) return ctx.skip();
    const { better, builtin } = both(["sessions", "--json", "--state-dir", DEMO]);
    expect([better.status, builtin.status]).toEqual([0, 0]);
    expect(JSON.parse(builtin.stdout).map((s: { storage: string }) => s.storage)).toEqual([
      "jsonl",
      "sqlite",
      "sqlite",
    ]);
    expect(builtin.stdout).toBe(better.stdout);
    expect(problems(builtin.stderr)).toEqual(problems(better.stderr));
    expect(builtin.stderr).not.toMatch(/ExperimentalWarning|^\s+at /m);
  });

  for (const session of SESSIONS) {
    for (const command of COMMANDS) {
      it(`${command.join(" ")} of ${session}`, (ctx) => {
        if (!other.node) return ctx.skip();
        const args =
          command[0] === "compare" ? [...command, "--a", session] : [...command, "--session", session];
        const { better, builtin } = both([...args, "--state-dir", DEMO]);
        expect(better.status).toBe(0);
        expect(better.stdout.length).toBeGreaterThan(100);
        expect(builtin.status).toBe(0);
        expect(builtin.stdout).toBe(better.stdout);
      }, 60_000);
    }
  }

  it("on a Node where better-sqlite3's addon cannot load, auto falls back and says so once", (ctx) => {
    if (!other.node || other.node === process.execPath) return ctx.skip(); // the addon is built for this Node's ABI
    const r = runCli(["sessions", "--json", "--no-cache", "--state-dir", DEMO], { node: other.node });
    expect(r.status).toBe(0);
    const notes = r.stderr.split("\n").filter((l) => l.includes("node:sqlite"));
    expect(notes).toEqual([
      expect.stringMatching(
        /^clawscope: reading SQLite stores with Node's built-in node:sqlite: better-sqlite3's native module cannot load \(.*different Node\.js version/,
      ),
    ]);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    // two state dirs, two runtimes, one process: still one note
    const out = path.join(tmpDir(), "calls.ndjson");
    const two = runCli(
      [
        "export-calls",
        "--state-dir",
        DEMO,
        "--state-dir",
        DEMO,
        "--format",
        "ndjson",
        "--out",
        out,
        "--no-cache",
      ],
      { node: other.node },
    );
    expect(two.status).toBe(0);
    expect(two.stderr.split("\n").filter((l) => l.includes("reading SQLite stores with"))).toHaveLength(1);
  });

  it("an integer above 2^53: a rounded number as on better-sqlite3, not a table lost to ERR_OUT_OF_RANGE", (ctx) => {
    if (!other.node) return ctx.skip();
    const state = tmpDir();
    fs.cpSync(DEMO, state, { recursive: true });
    const w = new Database(path.join(state, "agents", "main", "agent", "openclaw-agent.sqlite"));
    w.prepare("UPDATE session_nodes SET updated_at = ? WHERE session_key = 'agent:main:main'").run(
      2n ** 53n + 1n,
    );
    w.prepare("UPDATE session_windows SET updated_at = ?").run(2n ** 60n);
    w.close();
    const { better, builtin } = both(["sessions", "--json", "--state-dir", state]);
    expect(better.status).toBe(0);
    expect(problems(better.stderr)).toEqual([]);
    expect(builtin.stdout).toBe(better.stdout);
    expect(problems(builtin.stderr)).toEqual([]);
  });

  it("a damaged store: the same located errors; the other stores still listed", (ctx) => {
    if (!other.node) return ctx.skip();
    const state = tmpDir();
    fs.cpSync(DEMO, state, { recursive: true });
    const main = path.join(state, "agents", "main", "agent", "openclaw-agent.sqlite");
    fs.truncateSync(main, Math.floor(fs.statSync(main).size / 2));
    const research = path.join(state, "agents", "research", "agent", "openclaw-agent.sqlite");
    const bytes = fs.readFileSync(research);
    bytes.fill(0xff, 100, 4096); // the schema page
    fs.writeFileSync(research, bytes);
    const { better, builtin } = both(["sessions", "--json", "--state-dir", state]);
    expect(builtin.status).toBe(better.status);
    expect(builtin.stdout).toBe(better.stdout);
    const errors = problems(builtin.stderr);
    expect(errors).toEqual(problems(better.stderr));
    expect(errors).toContainEqual(
      expect.stringContaining("agents/main/agent/openclaw-agent.sqlite: database is corrupt"),
    );
    expect(errors).toContainEqual(
      expect.stringContaining("agents/research/agent/openclaw-agent.sqlite: database is corrupt"),
    );
  });

  it("a WAL store without -shm: read from a copy, the -wal-only commit seen, nothing created or changed", (ctx) => {
    if (!other.node) return ctx.skip();
    const state = tmpDir();
    fs.cpSync(DEMO, state, { recursive: true });
    const db = path.join(state, "agents", "research", "agent", "openclaw-agent.sqlite");
    // a writer in WAL mode that never checkpoints: its commit lives only in -wal
    const w = walOnlyCommit(db, "c50b7fb8-120b-44a9-a477-545eec87c0a7");
    // copy the main file and its -wal (not -shm) while the writer holds the commit un-checkpointed
    const copy = tmpDir();
    fs.cpSync(state, copy, { recursive: true });
    w.close();
    const copied = path.join(copy, "agents", "research", "agent", "openclaw-agent.sqlite");
    fs.rmSync(`${copied}-shm`, { force: true });
    expect(fs.existsSync(`${copied}-wal`)).toBe(true);
    const sums = [sha256File(copied), sha256File(`${copied}-wal`)];
    const listing = fs.readdirSync(path.dirname(copied)).sort();
    const { better, builtin } = both(["sessions", "--json", "--state-dir", copy]);
    expect(builtin.status).toBe(0);
    expect(builtin.stdout).toBe(better.stdout);
    const research = JSON.parse(builtin.stdout).find((s: { agentId: string }) => s.agentId === "research");
    const before = JSON.parse(runCli(["sessions", "--json", "--no-cache", "--state-dir", DEMO]).stdout).find(
      (s: { agentId: string }) => s.agentId === "research",
    );
    expect(research.entryCount).toBe(before.entryCount + 1);
    expect(fs.readdirSync(path.dirname(copied)).sort()).toEqual(listing);
    expect([sha256File(copied), sha256File(`${copied}-wal`)]).toEqual(sums);
  });
});
