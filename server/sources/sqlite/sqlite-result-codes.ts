// SQLite's result-code names (https://sqlite.org/rescode.html) for an error either driver threw. better-sqlite3
// puts the name in `code` ("SQLITE_BUSY_RECOVERY"); node:sqlite puts "ERR_SQLITE_ERROR" there and the number in
// `errcode` (the extended code: primary | n << 8). The readers classify by name (open-readonly.ts, queries.ts),
// so both drivers go through this one function and classify the same way. The table is every result code of
// SQLite 3.51's sqlite3.h (test/server/node-sqlite-driver.test.ts checks it against the header better-sqlite3
// ships).

const PRIMARY: readonly string[] = [
  "OK",
  "ERROR",
  "INTERNAL",
  "PERM",
  "ABORT",
  "BUSY",
  "LOCKED",
  "NOMEM",
  "READONLY",
  "INTERRUPT",
  "IOERR",
  "CORRUPT",
  "NOTFOUND",
  "FULL",
  "CANTOPEN",
  "PROTOCOL",
  "EMPTY",
  "SCHEMA",
  "TOOBIG",
  "CONSTRAINT",
  "MISMATCH",
  "MISUSE",
  "NOLFS",
  "AUTH",
  "FORMAT",
  "RANGE",
  "NOTADB",
  "NOTICE",
  "WARNING",
];

/** Extended codes by primary code: index n is the code `primary | n << 8` (n ≥ 1; "" = unassigned). */
const EXTENDED: Readonly<Record<number, readonly string[]>> = {
  0: ["", "LOAD_PERMANENTLY", "SYMLINK"],
  1: ["", "MISSING_COLLSEQ", "RETRY", "SNAPSHOT", "RESERVESIZE", "KEY", "UNABLE"],
  4: ["", "", "ROLLBACK"],
  5: ["", "RECOVERY", "SNAPSHOT", "TIMEOUT"],
  6: ["", "SHAREDCACHE", "VTAB"],
  8: ["", "RECOVERY", "CANTLOCK", "ROLLBACK", "DBMOVED", "CANTINIT", "DIRECTORY"],
  10: [
    "",
    "READ",
    "SHORT_READ",
    "WRITE",
    "FSYNC",
    "DIR_FSYNC",
    "TRUNCATE",
    "FSTAT",
    "UNLOCK",
    "RDLOCK",
    "DELETE",
    "BLOCKED",
    "NOMEM",
    "ACCESS",
    "CHECKRESERVEDLOCK",
    "LOCK",
    "CLOSE",
    "DIR_CLOSE",
    "SHMOPEN",
    "SHMSIZE",
    "SHMLOCK",
    "SHMMAP",
    "SEEK",
    "DELETE_NOENT",
    "MMAP",
    "GETTEMPPATH",
    "CONVPATH",
    "VNODE",
    "AUTH",
    "BEGIN_ATOMIC",
    "COMMIT_ATOMIC",
    "ROLLBACK_ATOMIC",
    "DATA",
    "CORRUPTFS",
    "IN_PAGE",
    "BADKEY",
    "CODEC",
  ],
  11: ["", "VTAB", "SEQUENCE", "INDEX"],
  14: ["", "NOTEMPDIR", "ISDIR", "FULLPATH", "CONVPATH", "DIRTYWAL", "SYMLINK"],
  19: [
    "",
    "CHECK",
    "COMMITHOOK",
    "FOREIGNKEY",
    "FUNCTION",
    "NOTNULL",
    "PRIMARYKEY",
    "TRIGGER",
    "UNIQUE",
    "VTAB",
    "ROWID",
    "PINNED",
    "DATATYPE",
  ],
  23: ["", "USER"],
  27: ["", "RECOVER_WAL", "RECOVER_ROLLBACK", "RBU"],
  28: ["", "AUTOINDEX"],
};

/** The name of a result code, e.g. 776 → "SQLITE_READONLY_ROLLBACK"; an unassigned extended code keeps its primary name. */
export function resultCodeName(code: number): string {
  const primary = code & 0xff;
  const base = PRIMARY[primary] ?? (primary === 100 ? "ROW" : primary === 101 ? "DONE" : `UNKNOWN_${code}`);
  const ext = EXTENDED[primary]?.[code >> 8] ?? "";
  return `SQLITE_${ext === "" ? base : `${base}_${ext}`}`;
}

/** The SQLite result-code name of an error thrown by better-sqlite3 or node:sqlite; null for any other error. */
export function sqliteErrorCode(e: unknown): string | null {
  if (typeof e !== "object" || e === null || !("code" in e)) return null;
  if (typeof e.code === "string" && e.code.startsWith("SQLITE_")) return e.code;
  if (e.code === "ERR_SQLITE_ERROR" && "errcode" in e && typeof e.errcode === "number") {
    return resultCodeName(e.errcode);
  }
  return null;
}
