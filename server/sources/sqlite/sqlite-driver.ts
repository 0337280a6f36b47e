// better-sqlite3, loaded when the first SQLite store is read — not when the CLI starts: `--help`, a JSONL-only
// state dir and every command that reads no database never pay for it. It is a native addon (compiled per
// platform and Node ABI by its install step, or fetched prebuilt); when the addon cannot load, the reason
// becomes ONE clear message on every SQLite read (code "sqlite-unavailable") while the JSONL era keeps working.
// Loaded with a synchronous require (it is a CommonJS package): the readers are synchronous.

import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

export type SqliteDriver = typeof BetterSqlite3;

export type DriverLoad<D = SqliteDriver> = { ok: true; Database: D } | { ok: false; message: string };

/** What a user reads when the addon cannot load: the cause, what still works, what the machine needs. */
export function driverUnavailableMessage(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  // One line; a first line that introduces a list ("Tried:" and a path per line) keeps the list's first entry.
  const lines = raw
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const first = lines[0] ?? "unknown error";
  const cause = first.endsWith(":") && lines[1] ? `${first} ${lines[1]}` : first;
  return [
    `better-sqlite3's native module cannot load (${cause}).`,
    "OpenClaw's SQLite stores (releases 2026.7.2 and later) cannot be read without it; JSONL sessions still are.",
    "Its install step downloads a prebuilt binary or compiles one, which needs python3, make and a C/C++ compiler:",
    "install those, then reinstall clawscope (or run `npm rebuild better-sqlite3` where it is installed) — see",
    'the README, "Install".',
  ].join(" ");
}

/**
 * Load the driver with `load` and open an in-memory database, so a missing or mismatched addon (it is only
 * `dlopen`ed on the first open) fails here, once, instead of as a raw error per store.
 */
export function loadSqliteDriver<D extends new (file: string) => { close(): unknown }>(
  load: () => D,
): DriverLoad<D> {
  try {
    const Database = load();
    new Database(":memory:").close();
    return { ok: true, Database };
  } catch (e) {
    return { ok: false, message: driverUnavailableMessage(e) };
  }
}

let loaded: DriverLoad | null = null;

/** The process's driver, loaded on first use. */
export function sqliteDriver(): DriverLoad {
  loaded ??= loadSqliteDriver((): SqliteDriver => createRequire(import.meta.url)("better-sqlite3"));
  return loaded;
}
