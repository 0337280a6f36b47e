// The part of a SQLite driver the readers use — all of it, so either driver serves every read: better-sqlite3
// (the native addon, preferred) or Node's built-in node:sqlite (Node ≥ 22.16, no install step). See
// sqlite-driver.ts for which one a process gets and why.

/** A prepared statement whose rows come back as arrays in column order (no object with named keys per row). */
export interface SqlRawStatement {
  iterate(...params: unknown[]): Iterable<unknown>;
  get(...params: unknown[]): unknown;
}

export interface SqlStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  /** The same statement, rows as arrays. */
  raw(): SqlRawStatement;
}

export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  close(): unknown;
}

export interface SqlOpenOptions {
  /** false only for clawscope's own temp copy (snapshot-fallback.ts), never for a file in the state dir. */
  readonly: boolean;
  /** SQLite's busy handler wait (ms). */
  timeoutMs: number;
}

export type SqliteDriverName = "better-sqlite3" | "node:sqlite";

/** What `CLAWSCOPE_SQLITE_DRIVER` may ask for (config.ts): "auto" = better-sqlite3, else node:sqlite. */
export type SqliteDriverChoice = "auto" | SqliteDriverName;

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /** Open an existing database file (never creates one). */
  open(file: string, options: SqlOpenOptions): SqlDatabase;
}
