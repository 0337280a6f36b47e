// clawscope's one file write (the export) and why it cannot land in the OpenClaw state dir (issue 20). A path
// check alone is not enough: `writeFile` follows a dangling symlink (and creates the file it names, possibly in the
// state dir) and writes through a hard link (another name of openclaw.json). So the target is lstat'ed — a
// symlink, a non-file or a file with other names (`nlink > 1`) is refused — and the content goes to a temp file
// created with O_EXCL (never an existing file, never through a link) in the realpath'd parent, then renamed over
// the name: rename replaces the directory entry and never writes through whatever the name pointed at.

import { randomBytes } from "node:crypto";
import { lstatSync, type Stats } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { isInside, realpathOrNull } from "../sources/fs-safety.ts";

export class UnsafeTargetError extends Error {}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** Why `target` may not be written (null: it may), the state dir given realpath'd. */
export function refusalReason(target: string, realStateDir: string): string | null {
  const st = lstatOrNull(target);
  if (st?.isSymbolicLink()) return "it is a symbolic link (clawscope writes only to a regular file it names)";
  if (st && !st.isFile()) return "it is not a regular file";
  if (st && st.nlink > 1)
    return `it is a hard link (${st.nlink} names for one file; one may be in the state dir)`;
  const parent = realpathOrNull(path.dirname(path.resolve(target)));
  if (parent === null) return "its folder does not exist";
  if (isInside(parent, realStateDir))
    return `it is inside the OpenClaw state dir ${realStateDir} (clawscope never writes there)`;
  return null;
}

/** Writes `content` to `target` unless refusalReason says no (then UnsafeTargetError, nothing written). */
export async function writeOutsideStateDir(
  target: string,
  stateDir: string,
  content: string | Uint8Array,
): Promise<void> {
  const realState = realpathOrNull(stateDir) ?? path.resolve(stateDir);
  const reason = refusalReason(target, realState);
  if (reason !== null) throw new UnsafeTargetError(`refusing to write ${target}: ${reason}`);
  const parent = realpathOrNull(path.dirname(path.resolve(target))) ?? path.dirname(path.resolve(target));
  const final = path.join(parent, path.basename(target));
  const temp = path.join(parent, `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o644);
  try {
    await (typeof content === "string" ? handle.writeFile(content, "utf8") : handle.writeFile(content));
    await handle.close();
    await rename(temp, final);
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw e;
  }
}
