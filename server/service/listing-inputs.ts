// What the session list of a JSONL state dir is computed from, as one comparable string (issue 18, warm
// `sessions --json`): the listing-cache key. It names every fact of the file system the listing reads
// (state-reader.ts listSessions → discover.ts, sessions-store.ts, entry-file.ts, quick-scan.ts), so an equal key
// means an equal listing:
// - the agents as discoverState finds them (it is cheap: a few stats and realpaths per agent, run as is);
// - per agent with a sessions dir: the real path of that dir; the stamp of `sessions.json`; every entry of the
//   dir by name and type (add, remove, rename, a file turned into a link); the stamp of every entry that is not
//   a folder (a transcript appended, truncated, touched or replaced — whatever the listing may read, lock and
//   temp files included, which only costs a miss); the real path of every symbolic link;
// - the real path and stamp of each absolute `sessionFile` recorded outside the agent's sessions dir. A recorded
//   path `<sessionsDir>/<name>` needs none: its real path follows from the dir's real path and the entry's type.
//   Which paths are recorded comes from `sessions.json`, whose stamp is in the key: the list is taken from the
//   parsed store when the listing is made and kept beside the key, so a warm run never parses the store.
// A stamp is device, inode, mode, size, mtime and ctime (fs.Stats' ms doubles); any write, `touch`, rename over
// the file or chmod changes it — once the file system's clock has moved on: its timestamps are coarse (a kernel
// tick on Linux, 1–2 s on HFS+ and FAT), so a same-size rewrite within one tick keeps the stamp. The caller
// therefore keeps no listing whose files changed just before it (latestChange; git's "racy" rule). An agent with a SQLite store makes the dir uncacheable
// (its listing reads the database; its WAL commits need another key) — null.

import { type Dirent, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { str } from "../../shared/json.ts";
import { type DiscoveredAgent, discoverState } from "../sources/discover.ts";
import { realpathOrNull } from "../sources/fs-safety.ts";
import { readSessionsStore } from "../sources/jsonl/sessions-json.ts";

/** Recorded absolute `sessionFile`s outside each agent's sessions dir, by agent id. */
export type OutsidePaths = Readonly<Record<string, readonly string[]>>;

export interface ListingInputs {
  /** Equal strings: equal listings. */
  key: string;
  outside: OutsidePaths;
  /** The latest mtime or ctime of a stamped file (epoch ms; -Infinity when none). */
  latestChange: number;
}

/** Device, inode, mode, size, mtime and ctime of `p` (links followed); `-` when absent, `!CODE` when unreadable. */
export function statStamp(p: string): string {
  return new Stamps().of(p);
}

/** Stamps of files, and the latest mtime or ctime among them (a change that recent may not show in a stamp). */
class Stamps {
  latest = Number.NEGATIVE_INFINITY;

  of(p: string): string {
    try {
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) return "-";
      this.latest = Math.max(this.latest, st.mtimeMs, st.ctimeMs);
      return `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch (e) {
      return `!${e instanceof Error && "code" in e ? String(e.code) : "error"}`;
    }
  }
}

function typeChar(d: Dirent): string {
  if (d.isFile()) return "f";
  if (d.isSymbolicLink()) return "l";
  if (d.isDirectory()) return "d";
  return "o";
}

/** A recorded path whose real path the dir's own facts decide: `<sessionsDir>/<name>` spelled exactly so. */
function isInDir(recorded: string, sessionsDir: string): boolean {
  const name = path.basename(recorded);
  return name !== "." && name !== ".." && recorded === path.join(sessionsDir, name);
}

/**
 * The recorded absolute `sessionFile`s of the agent's store that lie outside its sessions dir (sorted, once
 * each). `source` must be the listing's own (sessions-store.ts): the parse is cached per file version and its
 * issues carry it, so the listing that follows reuses this parse.
 */
export function recordedOutside(stateDir: string, sessionsDir: string): string[] {
  const file = path.join(sessionsDir, "sessions.json");
  const source = path.relative(stateDir, file).split(path.sep).join("/");
  const out = new Set<string>();
  for (const [, entry] of readSessionsStore(file, source).entries) {
    const recorded = str(entry, "sessionFile");
    if (recorded && path.isAbsolute(recorded) && !isInDir(recorded, sessionsDir)) out.add(recorded);
  }
  return [...out].sort();
}

function agentFacts(
  agent: DiscoveredAgent,
  sessionsDir: string,
  outside: readonly string[],
  stamps: Stamps,
): unknown[] {
  let dirents: Dirent[] = [];
  let listError = "";
  try {
    dirents = readdirSync(sessionsDir, { withFileTypes: true });
  } catch (e) {
    listError = e instanceof Error ? e.message : String(e);
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: string[] = [];
  for (const d of dirents) {
    // A dirent name holds no separator, and the dir is absolute and normalised: path.join's normalising pass
    // (a third of this loop's time over 500 files) would change nothing.
    const full = `${sessionsDir}${path.sep}${d.name}`;
    const type = typeChar(d);
    const link = type === "l" ? ` ${realpathOrNull(full)}` : "";
    entries.push(type === "d" ? `d ${d.name}` : `${type} ${d.name} ${stamps.of(full)}${link}`);
  }
  return [
    agent.agentId,
    realpathOrNull(sessionsDir),
    listError,
    entries,
    outside.map((p) => [p, realpathOrNull(p), stamps.of(p)]),
  ];
}

/**
 * The inputs of `stateDir`'s listing now; `outsideOf` names each agent's recorded paths outside its dir (a warm
 * run: the ones kept beside the key; else recordedOutside). `extra`: facts of the caller's own (code identity,
 * the scan cache file) that the listing also depends on. Null when the dir has a SQLite store.
 */
export function listingInputs(
  stateDir: string,
  outsideOf: (agentId: string, sessionsDir: string) => readonly string[],
  extra: readonly string[],
): ListingInputs | null {
  const abs = path.resolve(stateDir);
  const discovered = discoverState(abs);
  if (discovered.agents.some((a) => a.sqlitePath !== null)) return null;
  const outside: Record<string, readonly string[]> = {};
  const agents: unknown[] = [];
  const stamps = new Stamps();
  for (const agent of discovered.agents) {
    if (!agent.sessionsDir) continue;
    const paths = outsideOf(agent.agentId, agent.sessionsDir);
    if (paths.length > 0) outside[agent.agentId] = paths;
    agents.push(agentFacts(agent, agent.sessionsDir, paths, stamps));
  }
  const key = JSON.stringify([extra, abs, realpathOrNull(abs), discovered, agents]);
  return { key, outside, latestChange: stamps.latest };
}
