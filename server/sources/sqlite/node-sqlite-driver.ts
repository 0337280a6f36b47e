// Node's built-in SQLite (node:sqlite) behind the readers' SqlDatabase, for a machine where better-sqlite3's
// native addon did not install: npm 12 skips dependencies' install scripts unless allowed, so a plain
// `npx clawscope` there gets better-sqlite3 without its binary. node:sqlite needs no install step.
// - Node ≥ 22.16 / 24.0: the first releases with `StatementSync#setReturnArrays` (rows as arrays, what the
//   event reader iterates), `DatabaseSync#isTransaction` and the `timeout` (busy handler) option. Older Nodes with
//   node:sqlite lack them: unavailable, with that reason.
// - Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" when the module loads; that one
//   warning is kept off stderr (it says nothing a user can act on); every other warning is emitted as usual.
// - Opened with `readOnly` exactly as better-sqlite3 is opened (open-readonly.ts); errors carry the extended
//   result code in `errcode`, named by sqlite-result-codes.ts.

import { createRequire } from "node:module";
import type {
  SqlDatabase,
  SqliteDriver,
  SqlOpenOptions,
  SqlRawStatement,
  SqlStatement,
} from "./sql-database.ts";

interface NodeStatementSync {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  iterate(...params: unknown[]): Iterable<unknown>;
  setReturnArrays(enabled: boolean): void;
  setReadBigInts(enabled: boolean): void;
}

interface NodeDatabaseSync {
  prepare(sql: string): NodeStatementSync;
  exec(sql: string): void;
  readonly isTransaction: boolean;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (file: string, options: { readOnly: boolean; timeout: number }) => NodeDatabaseSync;
}

const TOO_OLD = `node:sqlite of Node ${process.versions.node} predates setReturnArrays and isTransaction (Node 22.16 / 24.0)`;

function hasMethod(proto: unknown, name: string): boolean {
  return typeof proto === "object" && proto !== null && name in proto;
}

/** Why this node:sqlite cannot serve the readers, or null when it can. */
function missingFeature(m: unknown): string | null {
  if (typeof m !== "object" || m === null || !("DatabaseSync" in m) || !("StatementSync" in m)) {
    return "node:sqlite has no DatabaseSync";
  }
  const { DatabaseSync, StatementSync } = m;
  if (typeof DatabaseSync !== "function" || typeof StatementSync !== "function") {
    return "node:sqlite has no DatabaseSync";
  }
  if (!hasMethod(StatementSync.prototype, "setReturnArrays")) return TOO_OLD;
  return null;
}

function isUsable(m: unknown): m is NodeSqliteModule {
  return missingFeature(m) === null;
}

/**
 * Integers as better-sqlite3 returns them: a JavaScript number, rounded above 2^53. node:sqlite's default throws
 * ERR_OUT_OF_RANGE on such a value instead — one corrupt or foreign timestamp would fail a whole table — so
 * statements read BigInts and each row's BigInts become numbers here.
 */
function asNumbers(row: unknown): unknown {
  if (Array.isArray(row)) {
    for (let i = 0; i < row.length; i++) if (typeof row[i] === "bigint") row[i] = Number(row[i]);
  } else if (typeof row === "object" && row !== null) {
    for (const [key, value] of Object.entries(row))
      if (typeof value === "bigint") Reflect.set(row, key, Number(value));
  }
  return row;
}

function* numberRows(rows: Iterable<unknown>): Iterable<unknown> {
  for (const row of rows) yield asNumbers(row);
}

/** A statement whose `raw()` switches it to arrays (node:sqlite's setReturnArrays; the switch is per statement). */
class NodeStatement implements SqlStatement, SqlRawStatement {
  constructor(private readonly statement: NodeStatementSync) {
    statement.setReadBigInts(true);
  }
  all(...params: unknown[]): unknown[] {
    return this.statement.all(...params).map(asNumbers);
  }
  get(...params: unknown[]): unknown {
    return asNumbers(this.statement.get(...params));
  }
  iterate(...params: unknown[]): Iterable<unknown> {
    return numberRows(this.statement.iterate(...params));
  }
  raw(): SqlRawStatement {
    this.statement.setReturnArrays(true);
    return this;
  }
}

class NodeDatabase implements SqlDatabase {
  constructor(private readonly db: NodeDatabaseSync) {}
  prepare(sql: string): SqlStatement {
    return new NodeStatement(this.db.prepare(sql));
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  get inTransaction(): boolean {
    return this.db.isTransaction;
  }
  close(): void {
    this.db.close();
  }
}

function isObjectWithType(v: unknown): v is { type: unknown } {
  return typeof v === "object" && v !== null && "type" in v;
}

/** Run `fn` with node:sqlite's one ExperimentalWarning (Node 22, on load) kept off stderr; every other warning passes. */
export function withoutSqliteWarning<T>(fn: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = (...args: unknown[]): void => {
    const [warning, second] = args;
    const type = typeof second === "string" ? second : isObjectWithType(second) ? second.type : undefined;
    const text = typeof warning === "string" ? warning : warning instanceof Error ? warning.message : "";
    if (type === "ExperimentalWarning" && /^SQLite is an experimental/.test(text)) return;
    Reflect.apply(emit, process, args);
  };
  try {
    return fn();
  } finally {
    process.emitWarning = emit;
  }
}

function requireNodeSqlite(): unknown {
  return withoutSqliteWarning(() => createRequire(import.meta.url)("node:sqlite"));
}

/** The node:sqlite driver, or why this Node has none (throws: the loader in sqlite-driver.ts catches). */
export function loadNodeSqlite(load: () => unknown = requireNodeSqlite): SqliteDriver {
  let m: unknown;
  try {
    m = load();
  } catch (e) {
    const unknownBuiltin =
      typeof e === "object" && e !== null && "code" in e && e.code === "ERR_UNKNOWN_BUILTIN_MODULE";
    if (unknownBuiltin)
      throw new Error(`Node ${process.versions.node} has no node:sqlite; Node 22.16 and later have it`);
    throw e;
  }
  if (!isUsable(m)) throw new Error(missingFeature(m) ?? "node:sqlite is not usable");
  const { DatabaseSync } = m;
  // isTransaction is an own accessor of each handle, not on the prototype: ask a handle
  const probe = new DatabaseSync(":memory:", { readOnly: false, timeout: 0 });
  const hasIsTransaction = typeof probe.isTransaction === "boolean";
  probe.close();
  if (!hasIsTransaction) throw new Error(TOO_OLD);
  return {
    name: "node:sqlite",
    open: (file: string, o: SqlOpenOptions): SqlDatabase =>
      new NodeDatabase(new DatabaseSync(file, { readOnly: o.readonly, timeout: o.timeoutMs })),
  };
}
