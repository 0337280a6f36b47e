// Watches an OpenClaw state dir (read-only) and turns file-system changes into live events.
//
// What is watched, each directory non-recursively with node:fs `watch` (inotify on Linux):
//   <state>/                    config file (openclaw.json, …) and the appearance of agents/
//   <state>/agents/             new agent dirs
//   <state>/agents/<id>/        appearance of sessions/ and agent/
//   <state>/agents/<id>/sessions/   JSONL era: <id>.jsonl transcripts, sessions.json, archives (storage.md §3)
//   <state>/agents/<id>/agent/      SQLite era: openclaw-agent.sqlite, -wal, -journal (storage.md §4–§5)
//   dirname($OPENCLAW_CONFIG_PATH)  when the config lives outside the state dir
// Not `recursive: true`: it works on Linux since Node 20 (checked on 20.20), but Node implements it by
// walking the tree and adding one watch per subdirectory — a state dir holds workspaces (git checkouts,
// node_modules) and media folders that would cost thousands of inotify watches for nothing.
//
// Changes are debounced 150 ms (at most 400 ms after the first change, so a steady writer still updates the UI
// within a second) and mapped by change-map.ts (pure): a `<id>.jsonl` whose size/mtime changed → session-changed; created/removed transcripts,
// archives, sessions.json, new dirs, config → sessions-changed; a sessions.json entry whose JSON changed →
// session-changed for its sessionId; a SQLite write → one cheap probe of `count(*)`/`max(seq)` per session
// and the session_nodes rows (sqlite/incremental.ts `probeStore`), compared with the previous probe.
// Nothing is ever created in the state dir (SQLite probes go through open-readonly.ts).
//
// Fallback: a directory that fs.watch cannot watch (ENOSPC: inotify watch limit, EPERM, unsupported file
// system) is stat-polled every `pollMs` (default 1 s) instead. This polling is server-side only; the web
// client never polls, it listens to GET /api/events.

import { closeSync, type FSWatcher, openSync, readdirSync, readSync, statSync, watch } from "node:fs";
import path from "node:path";
import { str } from "../../shared/json.ts";
import type { LiveEvent } from "../../shared/live.ts";
import { fileIdentity } from "../sources/fs-safety.ts";
import { classifyTranscriptFileName } from "../sources/jsonl/file-names.ts";
import { readSessionsStore } from "../sources/jsonl/sessions-json.ts";
import { HALF_LINE_GRACE_MS } from "../sources/jsonl/tail.ts";
import { probeStore, type StoreProbe } from "../sources/sqlite/incremental.ts";
import {
  ChangeSet,
  type DirKind,
  entryChanges,
  scopeOf,
  storeChanges,
  transcriptChanges,
} from "./change-map.ts";

export interface WatchChange {
  /** Deduplicated events, `sessions-changed` first when present. */
  events: LiveEvent[];
  /** The OpenClaw config file changed (callers drop cached config). */
  configChanged: boolean;
}

export interface StateWatcherOptions {
  onChange(change: WatchChange): void;
  debounceMs?: number;
  maxWaitMs?: number;
  pollMs?: number;
  /** Stat-poll every directory instead of fs.watch (tests; file systems without inotify). */
  forcePoll?: boolean;
  /** Config file outside the state dir ($OPENCLAW_CONFIG_PATH), absolute. */
  configPath?: string | null;
}

export interface StateWatcher {
  close(): void;
  /** Directories watched and how (diagnostics, tests). */
  watched(): { dir: string; how: "fs-watch" | "poll" }[];
}

interface Target {
  dir: string;
  kind: DirKind;
  agentId: string | null;
  how: "fs-watch" | "poll";
  watcher: FSWatcher | null;
  /** poll mode: file name → size:mtime. */
  listing: Map<string, string>;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function listDir(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) out.set(n, fileIdentity(path.join(dir, n)) ?? "");
  return out;
}

/** The file's last byte is not `\n`: a line is being written (or the writer died mid-line). */
function endsMidLine(file: string, size: number): boolean {
  if (size === 0) return false;
  let fd: number | null = null;
  try {
    fd = openSync(file, "r");
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function watchStateDir(stateDirInput: string, opts: StateWatcherOptions): StateWatcher {
  const stateDir = path.resolve(stateDirInput);
  const debounceMs = opts.debounceMs ?? 150;
  const maxWaitMs = opts.maxWaitMs ?? 400;
  const pollMs = opts.pollMs ?? 1000;
  const configPath = opts.configPath ? path.resolve(opts.configPath) : null;
  const targets = new Map<string, Target>();
  /** Transcript file → signature (JSONL). */
  const fileSigs = new Map<string, string>();
  /** Agent → sessionId → SessionEntry JSON (sessions.json). */
  const entryMaps = new Map<string, Map<string, string>>();
  /** Agent → last store probe (SQLite). */
  const probes = new Map<string, StoreProbe | null>();
  const pending = new Map<string, { target: Target; name: string | null }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstPendingAt = 0;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  /** Files that ended mid-line: re-announced once the half line's grace period is over (tail.ts). */
  const halfLineTimers = new Map<string, ReturnType<typeof setTimeout>>();

  /**
   * A half-written last line raises no issue while it waits (jsonl/tail.ts); if no more bytes come, the
   * reader reports it after HALF_LINE_GRACE_MS — announce the session again then so the UI shows it.
   */
  const watchHalfLine = (file: string, sig: string, agentId: string, sessionId: string): void => {
    const old = halfLineTimers.get(file);
    if (old) clearTimeout(old);
    halfLineTimers.delete(file);
    const size = Number(sig.split(":")[2]); // dev:ino:size:mtime
    if (!endsMidLine(file, size)) return;
    const t = setTimeout(() => {
      halfLineTimers.delete(file);
      if (closed || fileIdentity(file) !== sig) return;
      try {
        opts.onChange({ events: [{ type: "session-changed", agentId, sessionId }], configChanged: false });
      } catch {
        // a failing listener must not stop the watcher
      }
    }, HALF_LINE_GRACE_MS + 100);
    t.unref();
    halfLineTimers.set(file, t);
  };

  function ensurePolling(): void {
    if (pollTimer !== null || closed) return;
    pollTimer = setInterval(() => poll(), pollMs);
    pollTimer.unref();
  }

  const enqueue = (target: Target, name: string | null): void => {
    if (closed) return;
    pending.set(`${target.dir}\u0000${name ?? ""}`, { target, name });
    const now = Date.now();
    if (timer === null) firstPendingAt = now;
    else clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstPendingAt + maxWaitMs - now)));
  };

  const sessionEntries = (agentId: string, sessionsDir: string): Map<string, string> => {
    const store = readSessionsStore(
      path.join(sessionsDir, "sessions.json"),
      `agents/${agentId}/sessions/sessions.json`,
    );
    const m = new Map<string, string>();
    for (const [key, entry] of store.entries) {
      const id = str(entry, "sessionId");
      if (id !== undefined) m.set(id, `${m.get(id) ?? ""}${key}\u0000${JSON.stringify(entry)}`);
    }
    return m;
  };

  /** Baseline of a sessions dir: transcript signatures and sessions.json entries. */
  const baselineSessions = (agentId: string, dir: string): void => {
    for (const [name, sig] of listDir(dir)) {
      if (classifyTranscriptFileName(name).kind === "live") fileSigs.set(path.join(dir, name), sig);
    }
    entryMaps.set(agentId, sessionEntries(agentId, dir));
  };

  const addTarget = (dir: string, kind: DirKind, agentId: string | null): void => {
    if (targets.has(dir) || !isDir(dir)) return;
    const target: Target = { dir, kind, agentId, how: "fs-watch", watcher: null, listing: new Map() };
    if (!opts.forcePoll) {
      try {
        const w = watch(dir, { persistent: false }, (_event, filename) => {
          enqueue(target, filename === null ? null : String(filename));
        });
        w.on("error", () => {
          // the directory went away (agent deleted): forget it; a parent event re-syncs
          w.close();
          targets.delete(dir);
          enqueue(target, null);
        });
        target.watcher = w;
      } catch {
        target.how = "poll";
      }
    } else {
      target.how = "poll";
    }
    if (target.how === "poll") {
      target.listing = listDir(dir);
      ensurePolling();
    }
    targets.set(dir, target);
    if (kind === "sessions" && agentId !== null) baselineSessions(agentId, dir);
    if (kind === "store" && agentId !== null) {
      const db = path.join(dir, "openclaw-agent.sqlite");
      probes.set(agentId, fileIdentity(db) === null ? null : probeStore(db));
    }
  };

  /** (Re)create watches for every directory of interest; drop those that disappeared. */
  const sync = (): void => {
    for (const [dir, t] of targets) {
      if (!isDir(dir)) {
        t.watcher?.close();
        targets.delete(dir);
      }
    }
    addTarget(stateDir, "root", null);
    if (configPath && path.dirname(configPath) !== stateDir)
      addTarget(path.dirname(configPath), "config", null);
    const agentsDir = path.join(stateDir, "agents");
    addTarget(agentsDir, "agents", null);
    let names: string[] = [];
    try {
      names = readdirSync(agentsDir);
    } catch {
      // no agents/ yet: the root watch sees it appear
    }
    for (const id of names) {
      const dir = path.join(agentsDir, id);
      if (!isDir(dir)) continue;
      addTarget(dir, "agent", id);
      addTarget(path.join(dir, "sessions"), "sessions", id);
      addTarget(path.join(dir, "agent"), "store", id);
    }
  };

  /** The names of a sessions dir to look at: those that changed, or (a dir-level event) every one known. */
  const namesToCheck = (dir: string, names: Set<string | null>): string[] => {
    if (!names.has(null)) return [...names].filter((n): n is string => n !== null);
    const known = [...fileSigs.keys()].filter((f) => path.dirname(f) === dir).map((f) => path.basename(f));
    return [...new Set([...listDir(dir).keys(), ...known])];
  };

  const checkSessionsDir = (
    out: ChangeSet,
    agentId: string,
    dir: string,
    names: Set<string | null>,
  ): void => {
    const files = namesToCheck(dir, names);
    if (names.has(null) || files.includes("sessions.json")) {
      const after = sessionEntries(agentId, dir);
      entryChanges(out, agentId, entryMaps.get(agentId) ?? new Map(), after);
      entryMaps.set(agentId, after);
    }
    const facts = files.map((name) => {
      const file = path.join(dir, name);
      return { name, before: fileSigs.get(file), after: fileIdentity(file) };
    });
    for (const c of transcriptChanges(out, agentId, facts)) {
      const file = path.join(dir, c.name);
      if (c.signature === null) {
        fileSigs.delete(file);
        continue;
      }
      fileSigs.set(file, c.signature);
      watchHalfLine(file, c.signature, agentId, c.sessionId);
    }
  };

  const checkStore = (out: ChangeSet, agentId: string): void => {
    const db = path.join(stateDir, "agents", agentId, "agent", "openclaw-agent.sqlite");
    const after = fileIdentity(db) === null ? null : probeStore(db);
    storeChanges(out, agentId, probes.get(agentId) ?? null, after);
    probes.set(agentId, after);
  };

  /** One debounced batch → events (change-map.ts decides what each change means). */
  const flush = (): void => {
    timer = null;
    if (closed) return;
    const batch = [...pending.values()].map(({ target, name }) => ({ ...target, name }));
    pending.clear();
    const scope = scopeOf(batch, configPath ? path.basename(configPath) : null);
    const out = new ChangeSet();
    if (scope.resync) {
      sync();
      out.list = true;
    }
    for (const [dir, { agentId, names }] of scope.sessionsDirs) checkSessionsDir(out, agentId, dir, names);
    for (const agentId of scope.stores) checkStore(out, agentId);
    if (scope.config) out.list = true;
    const events = out.ordered();
    if (events.length === 0) return;
    try {
      opts.onChange({ events, configChanged: scope.config });
    } catch {
      // a failing listener must not stop the watcher
    }
  };

  const poll = (): void => {
    for (const t of targets.values()) {
      if (t.how !== "poll") continue;
      const now = listDir(t.dir);
      for (const [name, sig] of now) if (t.listing.get(name) !== sig) enqueue(t, name);
      for (const name of t.listing.keys()) if (!now.has(name)) enqueue(t, name);
      t.listing = now;
    }
  };

  sync();

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (pollTimer) clearInterval(pollTimer);
      for (const t of halfLineTimers.values()) clearTimeout(t);
      halfLineTimers.clear();
      for (const t of targets.values()) t.watcher?.close();
      targets.clear();
    },
    watched: () => [...targets.values()].map((t) => ({ dir: t.dir, how: t.how })),
  };
}
