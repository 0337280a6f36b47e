// Path containment and file identity for everything that reads the state dir (guide: "no path from a request may
// escape the state dir"; spec storage.md: never write there). One definition each, used by the state reader, the
// JSONL lister, the SQLite cache and the export writer's "never write into the state dir" check.

import { realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";

/**
 * True when `child` is `parent` itself or lies below it (lexically, on resolved absolute paths). A name that
 * merely starts with two dots (`..notes.jsonl`) is inside; `..` and `../x` are not. Equality counts as inside:
 * for the readers a file can never equal the state dir, and for the export writer the state dir itself is
 * as forbidden as anything in it.
 */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  if (rel === "") return true;
  if (path.isAbsolute(rel)) return false; // another drive (Windows)
  return rel !== ".." && !rel.startsWith(`..${path.sep}`);
}

/**
 * realpath, or null when the path does not exist (or cannot be resolved). The native realpath(3): the JS one
 * lstat()s every path component, which dominated listing a store of thousands of sessions.
 */
export function realpathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * The path with the symlinks of its longest existing prefix resolved (`state/../x`, a symlinked folder), for
 * paths that may not exist yet (an export's output file).
 */
export function resolveExistingPrefix(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  for (let dir = abs; ; ) {
    const real = realpathOrNull(dir);
    if (real !== null) return path.join(real, ...rest);
    const parent = path.dirname(dir);
    if (parent === dir) return abs;
    rest.unshift(path.basename(dir));
    dir = parent;
  }
}

/** `child` inside `parent` after resolving both through their existing prefixes (symlinks cannot sneak out). */
export function isInsideReal(child: string, parent: string): boolean {
  return isInside(resolveExistingPrefix(child), resolveExistingPrefix(parent));
}

/**
 * Identity of one file for caches: device + inode + size + mtime. Any append, truncation, rewrite in place or
 * replacement (rename over it) changes it.
 */
export function statIdentity(st: Pick<Stats, "dev" | "ino" | "size" | "mtimeMs">): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** statIdentity of a path; null when it cannot be stat'ed. */
export function fileIdentity(p: string): string | null {
  try {
    return statIdentity(statSync(p));
  } catch {
    return null;
  }
}

/**
 * Identity of a SQLite database with its `-wal` and `-journal` sidecars: every commit changes one of them.
 * Null when the database itself cannot be stat'ed; a missing sidecar counts as `-`.
 */
export function sqliteFilesIdentity(dbPath: string): string | null {
  const main = fileIdentity(dbPath);
  if (main === null) return null;
  return [main, fileIdentity(`${dbPath}-wal`) ?? "-", fileIdentity(`${dbPath}-journal`) ?? "-"].join("|");
}
