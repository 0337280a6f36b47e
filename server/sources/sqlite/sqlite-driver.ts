// Which SQLite driver the readers get, loaded when the first SQLite store is read — not when the CLI starts:
// `--help`, a JSONL-only state dir and every command that reads no database never pay for it.
// - better-sqlite3 first: a native addon (compiled per platform and Node ABI by its install step, or fetched
//   prebuilt), the fastest reader on every Node clawscope supports.
// - node:sqlite when better-sqlite3's addon cannot load — no prebuilt binary and no toolchain, an ABI mismatch,
//   or npm 12, which skips dependencies' install scripts unless they are allowed (a plain `npx clawscope`). Node
//   ≥ 22.16 has it built in (node-sqlite-driver.ts); the process says once on stderr that it fell back and why.
// - Neither: ONE clear message on every SQLite read (code "sqlite-unavailable") while the JSONL era keeps working.
// `CLAWSCOPE_SQLITE_DRIVER` (config.ts) pins one driver: to compare them, or to rule one out.
// Loaded with synchronous requires (better-sqlite3 is a CommonJS package): the readers are synchronous.

import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { loadNodeSqlite } from "./node-sqlite-driver.ts";
import type {
  SqlDatabase,
  SqliteDriver,
  SqliteDriverChoice,
  SqliteDriverName,
  SqlOpenOptions,
} from "./sql-database.ts";

export type DriverLoad =
  | {
      ok: true;
      driver: SqliteDriver;
      /** Why the preferred driver is not the one used (said once on stderr). */
      note: string | null;
    }
  | { ok: false; message: string };

export type DriverLoaders = Readonly<Record<SqliteDriverName, () => SqliteDriver>>;

/**
 * An error's first sentence, on one line and without its full stop (it goes in parentheses): Node breaks the
 * ABI-mismatch message over lines mid-sentence ("The module '…'" / "was compiled against a different Node.js
 * version using" / "NODE_MODULE_VERSION 115. …"). A line ending in ":" heads a list: "… Tried:" keeps the list's
 * first entry; a heading on a later line ("Require stack:") ends the sentence before it.
 */
export function causeOf(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  const lines = raw
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  let out = lines[0] ?? "unknown error";
  let next = 1;
  const continues = (line: string | undefined): line is string => line !== undefined && !line.endsWith(":");
  while (!/[.!?:]$/.test(out) && !/[.!?]\s/.test(out) && continues(lines[next])) out += ` ${lines[next++]}`;
  if (next > 1) out = /^(.*?[.!?])(\s|$)/.exec(out)?.[1] ?? out;
  else if (out.endsWith(":") && lines[1]) out = `${out} ${lines[1]}`;
  return out.replace(/\.$/, "");
}

/**
 * What a user reads when better-sqlite3's addon cannot load: the cause, why node:sqlite does not stand in
 * (`nodeSqlite`: its cause, or null when CLAWSCOPE_SQLITE_DRIVER pinned better-sqlite3), what still works, what
 * to do.
 */
export function driverUnavailableMessage(e: unknown, nodeSqlite: string | null): string {
  return [
    `better-sqlite3's native module cannot load (${causeOf(e)}).`,
    nodeSqlite === null
      ? "CLAWSCOPE_SQLITE_DRIVER=better-sqlite3 rules out Node's built-in node:sqlite."
      : `Node's built-in node:sqlite cannot stand in (${nodeSqlite}).`,
    "OpenClaw's SQLite stores (releases 2026.7.2 and later) cannot be read without one of them; JSONL sessions still are.",
    "If npm skipped its install script (npm 12 does unless allowed), run `npx --allow-scripts=better-sqlite3 clawscope`;",
    "where no prebuilt binary exists the install step compiles one, which needs python3, make and a C/C++ compiler:",
    "install those, then reinstall clawscope (or run `npm rebuild better-sqlite3` where it is installed).",
    nodeSqlite === null
      ? 'See the README, "Install".'
      : 'Or run clawscope on Node 22.16 or later, whose node:sqlite needs no install step — see the README, "Install".',
  ].join(" ");
}

/** better-sqlite3's Database class, as far as the readers use it. */
type BetterSqlite3Class = new (
  file: string,
  options?: { readonly?: boolean; fileMustExist?: boolean; timeout?: number },
) => SqlDatabase;

function requireBetterSqlite3(): BetterSqlite3Class {
  const Database: typeof BetterSqlite3 = createRequire(import.meta.url)("better-sqlite3");
  return Database;
}

/** better-sqlite3, opened once in memory: a missing or mismatched addon (it is only `dlopen`ed on the first open) fails here. */
export function loadBetterSqlite3(load: () => BetterSqlite3Class = requireBetterSqlite3): SqliteDriver {
  const Database = load();
  new Database(":memory:").close();
  return {
    name: "better-sqlite3",
    open: (file: string, o: SqlOpenOptions): SqlDatabase =>
      new Database(file, { readonly: o.readonly, fileMustExist: true, timeout: o.timeoutMs }),
  };
}

const LOADERS: DriverLoaders = {
  "better-sqlite3": () => loadBetterSqlite3(),
  "node:sqlite": () => loadNodeSqlite(),
};

/** Load the driver `choice` asks for ("auto": better-sqlite3, else node:sqlite); never throws. */
export function loadSqliteDriver(choice: SqliteDriverChoice, loaders: DriverLoaders = LOADERS): DriverLoad {
  if (choice === "node:sqlite") {
    try {
      return { ok: true, driver: loaders["node:sqlite"](), note: null };
    } catch (e) {
      return {
        ok: false,
        message: `Node's built-in node:sqlite cannot be used (${causeOf(e)}), and CLAWSCOPE_SQLITE_DRIVER asks for it alone. OpenClaw's SQLite stores (releases 2026.7.2 and later) cannot be read; JSONL sessions still are.`,
      };
    }
  }
  let failure: unknown;
  try {
    return { ok: true, driver: loaders["better-sqlite3"](), note: null };
  } catch (e) {
    failure = e;
  }
  if (choice === "better-sqlite3") return { ok: false, message: driverUnavailableMessage(failure, null) };
  try {
    const driver = loaders["node:sqlite"]();
    const note = `reading SQLite stores with Node's built-in node:sqlite: better-sqlite3's native module cannot load (${causeOf(failure)})`;
    return { ok: true, driver, note };
  } catch (e) {
    return { ok: false, message: driverUnavailableMessage(failure, causeOf(e)) };
  }
}

/**
 * The process's driver: the choice the shell made (default "auto"), loaded on the first SQLite read — which
 * may come long after start (a store that appears while the dashboard runs). The note of a fallback goes to
 * the one listener the shell set, once, when the driver loads.
 */
export class DriverSlot {
  private choice: SqliteDriverChoice = "auto";
  private loaded: DriverLoad | null = null;
  private listener: ((note: string) => void) | null = null;

  constructor(private readonly loaders: DriverLoaders = LOADERS) {}

  choose(choice: SqliteDriverChoice): void {
    if (choice === this.choice) return;
    this.choice = choice;
    this.loaded = null;
  }

  /** Where a fallback's note goes (replaces the previous listener). */
  onNote(listener: (note: string) => void): void {
    this.listener = listener;
  }

  get(): DriverLoad {
    if (this.loaded === null) {
      const load = loadSqliteDriver(this.choice, this.loaders);
      this.loaded = load;
      if (load.ok && load.note !== null) this.listener?.(load.note);
    }
    return this.loaded;
  }
}

const slot = new DriverSlot();

/** Set by the shell from `CLAWSCOPE_SQLITE_DRIVER` before the first read. */
export function chooseSqliteDriver(choice: SqliteDriverChoice): void {
  slot.choose(choice);
}

export function sqliteDriver(): DriverLoad {
  return slot.get();
}

/** Where the shell says why the driver in use is not the preferred one (stderr), once, when it loads. */
export function onSqliteDriverNote(listener: (note: string) => void): void {
  slot.onNote(listener);
}
