// Read-only reading of a workspace's bootstrap files (AGENTS.md, USER.md, …) for the truncation
// report; which names to read is the caller's (the bootstrap rule lives in openclaw/). Recorded paths name the machine that wrote the report; when they do not exist here they
// are rebased onto the actual state dir — spec storage.md §7.

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { arr, isObject, type JsonObject, str } from "../../shared/json.ts";
import { isInside, realpathOrNull } from "./fs-safety.ts";
import {
  type RebasedPath,
  recordedPosix,
  recordedStateDirOfWorkspace,
  relativeBelow,
} from "./rebase-workspace.ts";
import { readRegularFileSync } from "./regular-file.ts";

export type { RebasedPath } from "./rebase-workspace.ts";

export interface WorkspaceFilesRead {
  /** Directory the files were read from (recorded, rebased or --workspace); null = unavailable. */
  dir: string | null;
  /** The workspaceDir recorded in the report. */
  recordedDir: string | null;
  /** Content by file name; null = missing or unreadable. */
  files: Map<string, string | null>;
  /** Actual path read per file name. */
  readPaths: Map<string, string>;
  /** Recorded → actual rebasings used for reading (display only; output keeps recorded strings). */
  rebasedPaths: RebasedPath[];
  /** Files that exist but could not be read (permission, not a file, too large). */
  unreadable: { name: string; path: string; reason: string }[];
  /** Why `dir` is null. */
  unavailableReason: string | null;
}

/** Bootstrap files are small; refuse anything absurd rather than loading it into memory. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The state dir a recorded workspaceDir lived in: the prefix before its last component when that
 * is `workspace` or `workspace-<id>` — spec storage.md §7 (POSIX or Windows recording). Null otherwise
 * (custom workspace).
 */
export function recordedStateDirOf(recordedWorkspaceDir: string): string | null {
  return recordedStateDirOfWorkspace(recordedWorkspaceDir);
}

/**
 * Rebase a recorded absolute path lying under the recorded state dir onto the actual state dir
 * (`…/.openclaw/workspace/USER.md` → `<stateDir>/workspace/USER.md`, also from `C:\…\.openclaw\…`); null when it
 * does not lie there.
 */
export function rebaseRecordedPath(
  recorded: string,
  recordedStateDir: string,
  stateDir: string,
): string | null {
  const p = recordedPosix(recorded);
  const dir = recordedPosix(recordedStateDir);
  const rest = p && dir ? relativeBelow(p, dir) : null;
  return rest === null ? null : path.join(stateDir, ...rest.split("/"));
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

type ReadOutcome = { kind: "ok"; content: string } | { kind: "absent" } | { kind: "error"; reason: string };

function readText(p: string): ReadOutcome {
  let size: number;
  try {
    const st = statSync(p);
    if (!st.isFile()) return { kind: "error", reason: "not a regular file" };
    size = st.size;
  } catch (e) {
    const code = e instanceof Error && "code" in e ? String(e.code) : "";
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    return { kind: "error", reason: e instanceof Error ? e.message : String(e) };
  }
  if (size > MAX_FILE_BYTES) return { kind: "error", reason: `larger than ${MAX_FILE_BYTES} bytes` };
  try {
    // Read-only, never creates or modifies the file; a FIFO swapped in after the stat does not block.
    return { kind: "ok", content: readRegularFileSync(p, "utf8") };
  } catch (e) {
    return { kind: "error", reason: e instanceof Error ? e.message : String(e) };
  }
}

export interface ReadWorkspaceOptions {
  recordedWorkspaceDir: string | null;
  stateDir: string | null;
  /** Report rows (`injectedWorkspaceFiles[]`): name + recorded path. */
  recordedFiles?: readonly { name: string; path: string }[];
  /** `--workspace DIR`: read from here instead of the recorded/rebased dir. */
  workspaceOverride?: string | null;
  /**
   * Workspaces the config names (`agents.*.workspace`): a recorded workspaceDir outside the state dir is read
   * only when it is one of them (issue 20). A report is data; the config is the user's own choice.
   */
  trustedDirs?: readonly string[];
  /**
   * Bootstrap file names to read besides the report rows — the caller's list (OpenClaw's rule lives in
   * openclaw/; this I/O module knows none). Default: the report rows only.
   */
  names?: readonly string[];
}

/** The directory to read: `--workspace`, else the recorded one, else it rebased; or why there is none. */
function chooseDir(
  opts: ReadWorkspaceOptions,
  rebase: (p: string) => string | null,
): { dir: string; rebased: RebasedPath | null } | { unavailableReason: string } {
  const recordedDir = opts.recordedWorkspaceDir;
  if (opts.workspaceOverride) {
    const dir = path.resolve(opts.workspaceOverride);
    return isDir(dir)
      ? { dir, rebased: null }
      : { unavailableReason: `--workspace ${dir} is not a directory` };
  }
  if (!recordedDir) return { unavailableReason: "the report records no workspaceDir" };
  if (isDir(recordedDir)) return { dir: recordedDir, rebased: null };
  const actual = rebase(recordedDir);
  if (actual && isDir(actual)) return { dir: actual, rebased: { recorded: recordedDir, actual } };
  return {
    unavailableReason: actual
      ? `workspace ${recordedDir} does not exist here, nor rebased at ${actual}`
      : `workspace ${recordedDir} does not exist here and does not lie under the recorded state dir`,
  };
}

/** A bootstrap file name as OpenClaw reads it from the workspace: one path component. */
function isPlainName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !/[\\/]/u.test(name);
}

/**
 * The folder every file read must realpath into (issue 20): `--workspace` (the user named it) or a workspace the
 * config names, else the state dir — a recorded workspaceDir outside both is not read. Without a state dir (a
 * bare fixture workspace), the chosen folder itself.
 */
function readableRoot(
  dir: string,
  opts: ReadWorkspaceOptions,
): { real: string } | { unavailableReason: string } {
  const realDir = realpathOrNull(dir);
  if (realDir === null) return { unavailableReason: `workspace ${dir} cannot be resolved` };
  if (opts.workspaceOverride) return { real: realDir };
  const trusted = (opts.trustedDirs ?? []).some((t) => realpathOrNull(t) === realDir);
  if (trusted) return { real: realDir };
  if (opts.stateDir === null) return { real: realDir };
  const realState = realpathOrNull(opts.stateDir) ?? path.resolve(opts.stateDir);
  if (isInside(realDir, realState)) return { real: realState };
  return {
    unavailableReason: `workspace ${dir} lies outside the state dir ${opts.stateDir} and is not a workspace the config names (agents.*.workspace): not read`,
  };
}

interface Wanted {
  key: string;
  name: string;
  recordedPath: string | null;
}

/**
 * The files to read, keyed by name; a second row with the same name (9.x: the AGENTS.md of a session run from
 * another folder) is keyed by its recorded path (buildTruncationReport looks up path first).
 */
function wantedFiles(opts: ReadWorkspaceOptions): Wanted[] {
  const wanted: Wanted[] = [];
  const seen = new Set<string>();
  for (const f of opts.recordedFiles ?? []) {
    const key = seen.has(f.name) ? f.path : f.name;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    wanted.push({ key, name: f.name, recordedPath: f.path || null });
  }
  for (const name of opts.names ?? []) {
    if (seen.has(name)) continue;
    seen.add(name);
    wanted.push({ key: name, name, recordedPath: null });
  }
  return wanted;
}

/** Where to look for one file, in order: the recorded path, it rebased, the chosen dir. */
function candidatesFor(
  w: Wanted,
  dir: string,
  opts: ReadWorkspaceOptions,
  rebase: (p: string) => string | null,
) {
  if (opts.workspaceOverride) return [path.join(dir, w.name)];
  // Absolute on either OS: a Windows recording (`C:\…\AGENTS.md`) is the recorded path too, rebased below.
  const recorded = w.recordedPath && recordedPosix(w.recordedPath) !== null ? w.recordedPath : null;
  const candidates = recorded ? [recorded] : [path.join(opts.recordedWorkspaceDir ?? dir, w.name)];
  const reb = rebase(candidates[0] ?? "");
  if (reb) candidates.push(reb);
  // The workspace's own file last — also for a row whose recorded path pointed elsewhere (it is not opened
  // outside the root); not for a second row of the name (another folder's AGENTS.md, keyed by its path).
  if (!candidates.includes(path.join(dir, w.name)) && (!recorded || w.key === w.name))
    candidates.push(path.join(dir, w.name));
  return candidates;
}

/**
 * Read the bootstrap files of a session's workspace, read-only.
 * Order of preference for each file: `workspaceOverride/<name>` (when given; no rebasing), else the
 * recorded path (report row `path`, else `<recordedWorkspaceDir>/<name>`), else that path rebased
 * onto `stateDir` when it lies under the recorded state dir.
 */
export function readWorkspaceFiles(opts: ReadWorkspaceOptions): WorkspaceFilesRead {
  const out: WorkspaceFilesRead = {
    dir: null,
    recordedDir: opts.recordedWorkspaceDir,
    files: new Map(),
    readPaths: new Map(),
    rebasedPaths: [],
    unreadable: [],
    unavailableReason: null,
  };
  const recordedStateDir = opts.recordedWorkspaceDir ? recordedStateDirOf(opts.recordedWorkspaceDir) : null;
  const rebase = (p: string): string | null =>
    recordedStateDir && opts.stateDir ? rebaseRecordedPath(p, recordedStateDir, opts.stateDir) : null;
  const chosen = chooseDir(opts, rebase);
  if ("unavailableReason" in chosen) {
    out.unavailableReason = chosen.unavailableReason;
    return out;
  }
  const root = readableRoot(chosen.dir, opts);
  if ("unavailableReason" in root) {
    out.unavailableReason = root.unavailableReason;
    return out;
  }
  out.dir = chosen.dir;
  if (chosen.rebased) out.rebasedPaths.push(chosen.rebased);
  for (const w of wantedFiles(opts)) {
    const candidates = candidatesFor(w, chosen.dir, opts, rebase);
    let content: string | null = null;
    let refused: string | null = null;
    for (const [i, p] of candidates.entries()) {
      // A path absolute only on the other OS names nothing here (never resolved against the cwd).
      if (!path.isAbsolute(p) || !existsSync(p)) continue;
      const real = realpathOrNull(p);
      // Realpath'd under the root: a recorded `/etc/passwd`, a `../` name or a symlink leaving is never opened.
      if (real === null || !isInside(real, root.real) || !isPlainName(w.name)) {
        refused ??= p;
        continue;
      }
      const r = readText(p);
      if (r.kind === "ok") {
        content = r.content;
        out.readPaths.set(w.key, p);
        const first = candidates[0];
        if (i > 0 && first !== undefined && first !== p)
          out.rebasedPaths.push({ recorded: first, actual: p });
      } else if (r.kind === "error") {
        out.unreadable.push({ name: w.key, path: p, reason: r.reason });
      }
      break;
    }
    if (content === null && refused !== null && !out.readPaths.has(w.key))
      out.unreadable.push({ name: w.key, path: refused, reason: `outside ${root.real}: not read` });
    out.files.set(w.key, content);
  }
  dedupeMemoryFile(out);
  return out;
}

/**
 * 2026.3.2 reads both MEMORY.md and memory.md but deduplicates them by real path (spec bootstrap.md
 * §1): on a case-insensitive file system both names open the same file.
 */
function dedupeMemoryFile(read: WorkspaceFilesRead): void {
  const upper = read.readPaths.get("MEMORY.md");
  const lower = read.readPaths.get("memory.md");
  if (!upper || !lower) return;
  try {
    const a = statSync(upper);
    const b = statSync(lower);
    if (a.dev === b.dev && a.ino === b.ino) {
      read.files.set("memory.md", null);
      read.readPaths.delete("memory.md");
    }
  } catch {
    // Unreadable now: keep what was read.
  }
}

/**
 * The `workspace` input of buildTruncationReport for a stored systemPromptReport: reads its
 * workspaceDir (rebased onto `stateDir` when needed, or `workspaceOverride`) and its rows' files.
 */
export function readWorkspaceForReport(
  report: JsonObject,
  opts: { stateDir: string | null; workspaceOverride?: string | null },
): {
  dir: string | null;
  files: Map<string, string | null>;
  readPaths: Map<string, string>;
  rebasedPaths: RebasedPath[];
  unavailableReason: string | null;
  unreadable: { name: string; path: string; reason: string }[];
} {
  const recordedFiles: { name: string; path: string }[] = [];
  for (const item of arr(report, "injectedWorkspaceFiles") ?? []) {
    if (!isObject(item)) continue;
    const recordedPath = str(item, "path") ?? "";
    const name = str(item, "name") ?? recordedPath.split(/[\\/]/u).pop();
    if (name) recordedFiles.push({ name, path: recordedPath });
  }
  const read = readWorkspaceFiles({
    recordedWorkspaceDir: str(report, "workspaceDir") ?? null,
    stateDir: opts.stateDir,
    recordedFiles,
    workspaceOverride: opts.workspaceOverride ?? null,
  });
  return {
    dir: read.dir,
    files: read.files,
    readPaths: read.readPaths,
    rebasedPaths: read.rebasedPaths,
    unavailableReason: read.unavailableReason,
    unreadable: read.unreadable,
  };
}

/** The state-dir folder names OpenClaw uses (`~/.openclaw`, `~/.openclaw-<profile>`, the legacy names). */
const STATE_DIR_NAME = /^\.(?:openclaw|clawdbot|moldbot|moltbot)(?:-[^/]+)?$/i;

/**
 * A configured workspace (`agents.*.workspace` of an openclaw.json written on another machine, e.g. Windows
 * `D:\.openclaw\workspace`) rebased onto the state dir being read, for a session without a stored report: the
 * part below the recorded state dir — the prefix through its last `.openclaw[-<profile>]` segment (any case),
 * else the prefix before a last `workspace[-<id>]` — under `stateDir`. Null when the path exists here, is not
 * absolute on either OS, or names no state dir.
 */
export function rebaseConfiguredWorkspace(configured: string, stateDir: string): string | null {
  const norm = recordedPosix(configured);
  if (norm === null || isDir(configured)) return null;
  const parts = norm.split("/");
  let recordedState: string | null = null;
  for (let i = parts.length - 2; i > 0 && recordedState === null; i--)
    if (STATE_DIR_NAME.test(parts[i] ?? "")) recordedState = parts.slice(0, i + 1).join("/");
  recordedState ??= recordedStateDirOf(configured);
  return recordedState ? rebaseRecordedPath(configured, recordedState, stateDir) : null;
}
