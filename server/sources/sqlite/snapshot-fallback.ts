// Snapshot copy of a WAL database that cannot be opened in place without creating files
// (spec storage.md §5). A read-only WAL connection needs the `-shm` file; when it is missing SQLite would
// create it (and a missing `-wal` of a WAL-mode file) next to the database, i.e. inside the user's state
// dir. Instead the main file and its `-wal` are copied to a private temp dir and the copy is read; the
// caller marks the result "read from a snapshot copy". Copying while OpenClaw writes may catch a torn
// last WAL frame — SQLite ignores frames whose checksum does not match, so the copy is still consistent
// at its last complete commit.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { requireRegularIfPresent } from "../regular-file.ts";

export interface SidecarState {
  /** Header bytes 18/19 = 2: the file is in WAL mode. */
  walMode: boolean;
  wal: boolean;
  shm: boolean;
}

export function sidecars(dbPath: string, header: Uint8Array): SidecarState {
  return {
    walMode: header[18] === 2 || header[19] === 2,
    wal: fs.existsSync(`${dbPath}-wal`),
    shm: fs.existsSync(`${dbPath}-shm`),
  };
}

/**
 * Why opening in place would create files in the state dir, or null when it is safe:
 * - `-wal` present without `-shm`: SQLite creates `-shm` (O_CREAT) even on a read-only connection;
 * - WAL-mode header without `-wal`/`-shm`: SQLite creates both to open the (empty) log, and leaves them
 *   behind after close (checked with better-sqlite3 12: a read-only open of such a file creates both).
 */
export function needsSnapshot(s: SidecarState): string | null {
  if (s.wal && !s.shm) return "the -wal file exists but -shm is missing";
  if (s.walMode && (!s.wal || !s.shm))
    return `the database is in WAL mode but ${s.wal ? "-shm" : "-wal"} is missing`;
  return null;
}

export interface SnapshotCopy {
  dbPath: string;
  dispose: () => void;
}

/**
 * Copy `<db>` and `<db>-wal` (when present) into a fresh directory under os.tmpdir(); with `withJournal` also
 * a hot `<db>-journal`, so SQLite can roll the interrupted write back in the copy.
 */
export function makeSnapshotCopy(dbPath: string, withJournal = false): SnapshotCopy {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-sqlite-"));
  const dispose = (): void => {
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A FIFO or device as a sidecar would block the copy (or never end it): refused before copying.
    requireRegularIfPresent(dbPath);
    requireRegularIfPresent(`${dbPath}-wal`);
    if (withJournal) requireRegularIfPresent(`${dbPath}-journal`);
    const copy = path.join(dir, path.basename(dbPath));
    fs.copyFileSync(dbPath, copy, fs.constants.COPYFILE_EXCL);
    if (fs.existsSync(`${dbPath}-wal`))
      fs.copyFileSync(`${dbPath}-wal`, `${copy}-wal`, fs.constants.COPYFILE_EXCL);
    if (withJournal && fs.existsSync(`${dbPath}-journal`)) {
      fs.copyFileSync(`${dbPath}-journal`, `${copy}-journal`, fs.constants.COPYFILE_EXCL);
    }
    // Copies keep the source mode (the fixtures are 0444); recovery in the copy needs it writable.
    fs.chmodSync(copy, 0o600);
    return { dbPath: copy, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}

/** What identifies the bytes a copy was made of: the main file's and the `-wal`'s inode, size and times. */
function identityOf(dbPath: string): string | null {
  const part = (p: string): string => {
    try {
      const st = fs.statSync(p, { bigint: true });
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      return "-";
    }
  };
  const main = part(dbPath);
  return main === "-" ? null : `${main}|${part(`${dbPath}-wal`)}|${fs.existsSync(`${dbPath}-shm`)}`;
}

interface KeptCopy {
  identity: string;
  copy: SnapshotCopy;
  timer: NodeJS.Timeout;
}

/**
 * Snapshot copies kept for reuse while their source is unchanged. One `cost --json` reads a store three times
 * (session list, load, read-backs) and a cut text read back through the database reads it once more: without
 * reuse each read copied the whole store (a WAL-mode store OpenClaw closed cleanly has neither `-wal` nor
 * `-shm`: 3 × 135 MB for the 100 MB bench session, 5.3 s instead of 2.6 s). A copy is deleted once it has not
 * been used for `idleMs` (a timer that keeps no process alive), when its source changes (inode, size, mtime or
 * ctime of the main file or `-wal`, or `-shm` appearing) and at process exit. Hot-journal copies are never
 * kept: SQLite writes to them while rolling back.
 */
export class SnapshotCopies {
  private readonly kept = new Map<string, KeptCopy>();
  private exitHook = false;

  constructor(private readonly idleMs = 10_000) {}

  /** A copy of `dbPath` as it is now: the kept one when its source is unchanged, else a fresh one. */
  acquire(dbPath: string): SnapshotCopy {
    const identity = identityOf(dbPath);
    const old = this.kept.get(dbPath);
    if (old && identity !== null && old.identity === identity) {
      old.timer.refresh();
      return { dbPath: old.copy.dbPath, dispose: () => {} };
    }
    if (old) this.drop(dbPath);
    const copy = makeSnapshotCopy(dbPath);
    // the source changed while it was copied: use the copy once, keep nothing
    if (identity === null || identityOf(dbPath) !== identity) return copy;
    const timer = setTimeout(() => this.drop(dbPath), this.idleMs);
    timer.unref();
    this.kept.set(dbPath, { identity, copy, timer });
    if (!this.exitHook) {
      this.exitHook = true;
      process.once("exit", () => this.clear());
    }
    return { dbPath: copy.dbPath, dispose: () => {} };
  }

  /** Delete every kept copy. */
  clear(): void {
    for (const dbPath of [...this.kept.keys()]) this.drop(dbPath);
  }

  /** Paths of the kept copies (tests). */
  keptPaths(): string[] {
    return [...this.kept.values()].map((k) => k.copy.dbPath);
  }

  private drop(dbPath: string): void {
    const k = this.kept.get(dbPath);
    if (!k) return;
    this.kept.delete(dbPath);
    clearTimeout(k.timer);
    k.copy.dispose();
  }
}

/** The process's kept snapshot copies (open-readonly.ts). */
export const snapshotCopies = new SnapshotCopies();
