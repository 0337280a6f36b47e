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
