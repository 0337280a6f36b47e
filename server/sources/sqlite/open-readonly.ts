// Strictly read-only access to an OpenClaw SQLite store (spec storage.md §5).
// - `new Database(path, {readonly: true, fileMustExist: true})`; no pragma writes, no checkpoint, no vacuum.
// - Everything one request needs is read inside ONE deferred read transaction (`BEGIN` … `COMMIT` via
//   `db.exec`): on a read-only connection a deferred BEGIN only ever takes a read lock / WAL read mark, so all
//   tables come from the same snapshot while OpenClaw keeps writing. Commits still only in `-wal` are visible
//   (normal WAL reader).
// - The handle is closed after every request (no cache): a reader that stays open pins a WAL snapshot and
//   delays OpenClaw's checkpoints, and opening costs well under a millisecond.
// - When opening in place would make SQLite create `-wal`/`-shm` in the state dir, the snapshot copy of
//   snapshot-fallback.ts is read instead; the copy is reused while its source is unchanged (a command reads a
//   store several times).
// - SQLITE_BUSY (writer holding an exclusive lock in rollback mode, WAL recovery) is retried with back-off.
// - The driver (better-sqlite3, else node:sqlite; sqlite-driver.ts) is loaded on the first read: a JSONL-only
//   state dir never loads one, and when neither can load every read fails with one clear "sqlite-unavailable"
//   error. Errors are classified by SQLite's result-code name, the same for both drivers.

import fs from "node:fs";
import { notRegularReason, openRegular } from "../regular-file.ts";
import { makeSnapshotCopy, needsSnapshot, sidecars, snapshotCopies } from "./snapshot-fallback.ts";
import type { SqlDatabase, SqliteDriver } from "./sql-database.ts";
import { sqliteDriver } from "./sqlite-driver.ts";
import { sqliteErrorCode } from "./sqlite-result-codes.ts";

export interface ReadOptions {
  /** SQLite busy handler wait per attempt (ms). */
  busyTimeoutMs?: number;
  /** Attempts after the first one when the database stays busy. */
  retries?: number;
}

const DEFAULTS = { busyTimeoutMs: 500, retries: 3 };
const BACKOFF_MS = [50, 150, 400, 800];

export interface ReadSuccess<T> {
  ok: true;
  value: T;
  /** Set when the data came from a temp copy; the reason. */
  snapshotCopy: string | null;
  /** Problems with the file that did not stop the read (e.g. truncation). */
  warnings: string[];
}

export interface ReadFailure {
  ok: false;
  code:
    | "database-missing"
    | "not-a-database"
    | "database-corrupt"
    | "database-locked"
    | "database-unreadable"
    | "sqlite-unavailable";
  message: string;
  status: 404 | 422 | 500;
  /** File problems found before the failure (e.g. truncation). */
  warnings: string[];
}

export type ReadOutcome<T> = ReadSuccess<T> | ReadFailure;

const SQLITE_MAGIC = "SQLite format 3\u0000";

function readHeader(dbPath: string): Uint8Array {
  const fd = openRegular(dbPath);
  try {
    const buf = new Uint8Array(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

function u32be(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
}

/** Header page count vs file size (sqlite fileformat §1.3.7): a shorter file was truncated. */
function truncationWarning(header: Uint8Array, fileSize: number, hasWal: boolean): string | null {
  const rawPageSize = ((header[16] ?? 0) << 8) | (header[17] ?? 0);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = u32be(header, 28);
  const valid = u32be(header, 24) === u32be(header, 92);
  if (!valid || pages === 0 || pageSize === 0 || hasWal) return null;
  const expected = pages * pageSize;
  if (fileSize >= expected) return null;
  return `database file is truncated: the header declares ${pages} pages of ${pageSize} bytes (${expected} bytes), the file has ${fileSize} bytes`;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function classify(e: unknown, truncated: string | null): ReadFailure {
  const f = classifyError(sqliteErrorCode(e) ?? "", e, truncated);
  return { ...f, warnings: truncated ? [truncated] : [] };
}

function classifyError(code: string, e: unknown, truncated: string | null): Omit<ReadFailure, "warnings"> {
  const msg = e instanceof Error ? e.message : String(e);
  const suffix = truncated ? ` (${truncated})` : "";
  if (code === "SQLITE_NOTADB") {
    return {
      ok: false,
      code: "not-a-database",
      message: `not a SQLite database: ${msg}${suffix}`,
      status: 422,
    };
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_IOERR_SHORT_READ" || truncated) {
    return {
      ok: false,
      code: "database-corrupt",
      message: `database is corrupt: ${msg}${suffix}`,
      status: 422,
    };
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return {
      ok: false,
      code: "database-locked",
      message: `database is locked by another process: ${msg}`,
      status: 500,
    };
  }
  return {
    ok: false,
    code: "database-unreadable",
    message: `cannot read database: ${code ? `${code}: ` : ""}${msg}`,
    status: 500,
  };
}

/**
 * One attempt: open read-only, run `fn` inside one read transaction, close. `writableCopy` only for our own
 * temp copy holding a hot rollback journal: SQLite must write the copy to roll the interrupted write back.
 */
function attempt<T>(
  driver: SqliteDriver,
  dbPath: string,
  fn: (db: SqlDatabase) => T,
  busyTimeoutMs: number,
  writableCopy = false,
): T {
  const db = driver.open(dbPath, { readonly: !writableCopy, timeoutMs: busyTimeoutMs });
  try {
    db.exec("BEGIN");
    try {
      const value = fn(db);
      db.exec("COMMIT");
      return value;
    } catch (e) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw e;
    }
  } finally {
    db.close();
  }
}

/**
 * Read a database with `fn` (all statements inside one read transaction). Never throws: failures are
 * classified (missing / not a database / corrupt / locked / unreadable) with an HTTP-ish status.
 */
/** The file's first 100 bytes and size, or why it is no SQLite database to open. */
function checkFile(dbPath: string): { header: Uint8Array; size: number } | ReadFailure {
  const failure = (code: ReadFailure["code"], message: string, status: 404 | 422): ReadFailure => ({
    ok: false,
    code,
    message,
    status,
    warnings: [],
  });
  let header: Uint8Array;
  let size: number;
  try {
    const st = fs.statSync(dbPath);
    const notFile = notRegularReason(dbPath, st);
    if (notFile !== null) return failure("database-missing", notFile, 404);
    size = st.size;
    header = readHeader(dbPath);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return failure("database-missing", `cannot open ${dbPath}: ${msg}`, 404);
  }
  if (header.length < 100 || Buffer.from(header.subarray(0, 16)).toString("latin1") !== SQLITE_MAGIC) {
    const what = size === 0 ? "the file is empty" : "the file does not start with the SQLite header";
    return failure("not-a-database", `not a SQLite database: ${what}`, 422);
  }
  return { header, size };
}

export function readDatabase<T>(
  dbPath: string,
  fn: (db: SqlDatabase) => T,
  options?: ReadOptions,
): ReadOutcome<T> {
  const busyTimeoutMs = options?.busyTimeoutMs ?? DEFAULTS.busyTimeoutMs;
  const retries = options?.retries ?? DEFAULTS.retries;
  const file = checkFile(dbPath);
  if ("ok" in file) return file;
  const driver = sqliteDriver();
  if (!driver.ok) {
    return { ok: false, code: "sqlite-unavailable", message: driver.message, status: 500, warnings: [] };
  }
  const { header, size } = file;
  const side = sidecars(dbPath, header);
  const truncated = truncationWarning(header, size, side.wal);
  const warnings = truncated ? [truncated] : [];
  let snapshotReason = needsSnapshot(side);
  let hotJournal = false;
  let lastError: unknown = null;
  for (let i = 0; i <= retries; i += 1) {
    if (i > 0) sleepSync(BACKOFF_MS[i - 1] ?? 800);
    let copy: ReturnType<typeof makeSnapshotCopy> | null = null;
    try {
      if (snapshotReason !== null) {
        copy = hotJournal ? makeSnapshotCopy(dbPath, true) : snapshotCopies.acquire(dbPath);
      }
      const value = attempt(
        driver.driver,
        copy ? copy.dbPath : dbPath,
        fn,
        busyTimeoutMs,
        hotJournal && copy !== null,
      );
      return { ok: true, value, snapshotCopy: snapshotReason, warnings };
    } catch (e) {
      lastError = e;
      const code = sqliteErrorCode(e) ?? "";
      if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) continue;
      // A writer died mid-transaction in rollback mode and left a hot `-journal`: a read-only connection may
      // not roll it back (OpenClaw does on its next open). Read a copy of db + journal, rolled back there.
      if (code === "SQLITE_READONLY_ROLLBACK" && !hotJournal) {
        hotJournal = true;
        snapshotReason = "a hot rollback journal (interrupted write) was rolled back in the copy";
        continue;
      }
      // A WAL store whose -shm cannot be opened for writing (other owner, read-only mount): read a copy.
      if (
        snapshotReason === null &&
        (side.wal || side.walMode) &&
        (code === "SQLITE_CANTOPEN" || code.startsWith("SQLITE_READONLY"))
      ) {
        snapshotReason = `opening in place failed (${code})`;
        continue;
      }
      return classify(e, truncated);
    } finally {
      copy?.dispose();
    }
  }
  return classify(lastError, truncated);
}
