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

import { closeSync, type FSWatcher, readdirSync, readSync, statSync, watch } from "node:fs";
import path from "node:path";
import type { LiveEvent } from "../../shared/live.ts";
import { fileIdentity } from "../sources/fs-safety.ts";
import { HALF_LINE_GRACE_MS } from "../sources/jsonl/tail.ts";
import { openRegular } from "../sources/regular-file.ts";
import { ChangeSet, type DirKind, scopeOf } from "./change-map.ts";
import { type ChangedTranscript, listDir, SeenState } from "./seen-state.ts";

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

/** The file's last byte is not `\n`: a line is being written (or the writer died mid-line). */
function endsMidLine(file: string, size: number): boolean {
  if (size === 0) return false;
  let fd: number | null = null;
  try {
    fd = openRegular(file);
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

class StateDirWatcher implements StateWatcher {
  private readonly stateDir: string;
  private readonly configPath: string | null;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly pollMs: number;
  private readonly targets = new Map<string, Target>();
  private readonly seen: SeenState;
  /** Changes waiting for the debounce, by directory + name. */
  private readonly pending = new Map<string, { target: Target; name: string | null }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt = 0;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  /** Files that ended mid-line: re-announced once the half line's grace period is over (tail.ts). */
  private readonly halfLineTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    stateDir: string,
    private readonly opts: StateWatcherOptions,
  ) {
    this.stateDir = path.resolve(stateDir);
    this.configPath = opts.configPath ? path.resolve(opts.configPath) : null;
    this.debounceMs = opts.debounceMs ?? 150;
    this.maxWaitMs = opts.maxWaitMs ?? 400;
    this.pollMs = opts.pollMs ?? 1000;
    this.seen = new SeenState(this.stateDir);
    this.sync();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const t of this.halfLineTimers.values()) clearTimeout(t);
    this.halfLineTimers.clear();
    for (const t of this.targets.values()) t.watcher?.close();
    this.targets.clear();
  }

  watched(): { dir: string; how: "fs-watch" | "poll" }[] {
    return [...this.targets.values()].map((t) => ({ dir: t.dir, how: t.how }));
  }

  private emit(change: WatchChange): void {
    try {
      this.opts.onChange(change);
    } catch {
      // a failing listener must not stop the watcher
    }
  }

  /**
   * A half-written last line raises no issue while it waits (jsonl/tail.ts); if no more bytes come, the
   * reader reports it after HALF_LINE_GRACE_MS — announce the session again then so the UI shows it.
   */
  private watchHalfLine({ file, signature, agentId, sessionId }: ChangedTranscript): void {
    const old = this.halfLineTimers.get(file);
    if (old) clearTimeout(old);
    this.halfLineTimers.delete(file);
    const size = Number(signature.split(":")[2]); // dev:ino:size:mtime
    if (!endsMidLine(file, size)) return;
    const t = setTimeout(() => {
      this.halfLineTimers.delete(file);
      if (this.closed || fileIdentity(file) !== signature) return;
      this.emit({ events: [{ type: "session-changed", agentId, sessionId }], configChanged: false });
    }, HALF_LINE_GRACE_MS + 100);
    t.unref();
    this.halfLineTimers.set(file, t);
  }

  private enqueue(target: Target, name: string | null): void {
    if (this.closed) return;
    this.pending.set(`${target.dir}\u0000${name ?? ""}`, { target, name });
    const now = Date.now();
    if (this.timer === null) this.firstPendingAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstPendingAt + this.maxWaitMs - now));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Watch `dir` (fs.watch, else stat-polling) and take its baseline. */
  private addTarget(dir: string, kind: DirKind, agentId: string | null): void {
    if (this.targets.has(dir) || !isDir(dir)) return;
    const target: Target = { dir, kind, agentId, how: "poll", watcher: null, listing: new Map() };
    if (!this.opts.forcePoll) {
      try {
        const w = watch(dir, { persistent: false }, (_event, filename) => {
          this.enqueue(target, filename === null ? null : String(filename));
        });
        w.on("error", () => {
          // the directory went away (agent deleted): forget it; a parent event re-syncs
          w.close();
          this.targets.delete(dir);
          this.enqueue(target, null);
        });
        target.watcher = w;
        target.how = "fs-watch";
      } catch {
        // ENOSPC (inotify limit), EPERM, an unsupported file system: poll this directory
      }
    }
    if (target.how === "poll") {
      target.listing = listDir(dir);
      this.ensurePolling();
    }
    this.targets.set(dir, target);
    if (kind === "sessions" && agentId !== null) this.seen.rememberSessionsDir(agentId, dir);
    if (kind === "store" && agentId !== null) this.seen.rememberStore(agentId);
  }

  /** (Re)create watches for every directory of interest; drop those that disappeared. */
  private sync(): void {
    for (const [dir, t] of this.targets) {
      if (!isDir(dir)) {
        t.watcher?.close();
        this.targets.delete(dir);
      }
    }
    this.addTarget(this.stateDir, "root", null);
    const configDir = this.configPath ? path.dirname(this.configPath) : null;
    if (configDir && configDir !== this.stateDir) this.addTarget(configDir, "config", null);
    const agentsDir = path.join(this.stateDir, "agents");
    this.addTarget(agentsDir, "agents", null);
    let names: string[] = [];
    try {
      names = readdirSync(agentsDir);
    } catch {
      // no agents/ yet: the root watch sees it appear
    }
    for (const id of names) {
      const dir = path.join(agentsDir, id);
      if (!isDir(dir)) continue;
      this.addTarget(dir, "agent", id);
      this.addTarget(path.join(dir, "sessions"), "sessions", id);
      this.addTarget(path.join(dir, "agent"), "store", id);
    }
  }

  /** One debounced batch → events (change-map.ts decides what each change means). */
  private flush(): void {
    this.timer = null;
    if (this.closed) return;
    const batch = [...this.pending.values()].map(({ target, name }) => ({ ...target, name }));
    this.pending.clear();
    const scope = scopeOf(batch, this.configPath ? path.basename(this.configPath) : null);
    const out = new ChangeSet();
    if (scope.resync) {
      this.sync();
      out.list = true;
    }
    for (const [dir, { agentId, names }] of scope.sessionsDirs) {
      for (const changed of this.seen.checkSessionsDir(out, agentId, dir, names)) this.watchHalfLine(changed);
    }
    for (const agentId of scope.stores) this.seen.checkStore(out, agentId);
    if (scope.config) out.list = true;
    const events = out.ordered();
    if (events.length > 0) this.emit({ events, configChanged: scope.config });
  }

  private ensurePolling(): void {
    if (this.pollTimer !== null || this.closed) return;
    this.pollTimer = setInterval(() => this.poll(), this.pollMs);
    this.pollTimer.unref();
  }

  private poll(): void {
    for (const t of this.targets.values()) {
      if (t.how !== "poll") continue;
      const now = listDir(t.dir);
      for (const [name, sig] of now) if (t.listing.get(name) !== sig) this.enqueue(t, name);
      for (const name of t.listing.keys()) if (!now.has(name)) this.enqueue(t, name);
      t.listing = now;
    }
  }
}

/** Watch a state dir (read-only); never throws: what cannot be watched is polled or skipped. */
export function watchStateDir(stateDir: string, opts: StateWatcherOptions): StateWatcher {
  return new StateDirWatcher(stateDir, opts);
}
