// Opening only regular files (issue 20). A FIFO named sessions.json or openclaw.json blocked every command on its
// first read (open(2) of a FIFO waits for a writer) and `serve` never listened, with no message; a device file
// would stream forever. Each read of the state dir opens with O_NONBLOCK (a FIFO opens at once; on a regular file
// the flag does nothing), checks fstat on the open descriptor (no race with a rename), and refuses anything that
// is not a regular file with a message saying so.

import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";

/** Thrown for a path that exists but is not a regular file; `code` like Node's own fs errors. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isDirectory()) return "a directory";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a file";
}

/** The reason `st` cannot be read as a file, or null for a regular file. */
export function notRegularReason(p: string, st: Stats): string | null {
  return st.isFile() ? null : `${p} is not a regular file (${kindOf(st)}); not read`;
}

/** A read-only descriptor of `p`, a regular file (the caller closes it); NotRegularFileError otherwise. */
export function openRegular(p: string): number {
  // O_NONBLOCK is POSIX; Windows has no FIFOs in the file system (0: the flag is absent there).
  const fd = openSync(p, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const reason = notRegularReason(p, fstatSync(fd));
    if (reason !== null) throw new NotRegularFileError(reason);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** readFileSync for the state dir: never blocks on a FIFO, never reads a device (NotRegularFileError). */
export function readRegularFileSync(p: string): Buffer;
export function readRegularFileSync(p: string, encoding: "utf8"): string;
export function readRegularFileSync(p: string, encoding?: "utf8"): Buffer | string {
  const fd = openRegular(p);
  try {
    const bytes = readFileSync(fd);
    return encoding ? bytes.toString(encoding) : bytes;
  } finally {
    closeSync(fd);
  }
}

/** Throws NotRegularFileError when `p` exists and is not a regular file (before handing it to a copy). */
export function requireRegularIfPresent(p: string): void {
  let st: Stats;
  try {
    st = statSync(p);
  } catch {
    return;
  }
  const reason = notRegularReason(p, st);
  if (reason !== null) throw new NotRegularFileError(reason);
}
