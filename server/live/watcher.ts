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
// Mapping (debounced 150 ms, at most 400 ms after the first change so a steady writer still updates the UI
// within a second): a `<id>.jsonl` whose size/mtime changed → session-changed; created/removed transcripts,
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
import { classifyTranscriptFileName, readSessionsStore } from "../sources/jsonl/sessions-store.ts";
import { HALF_LINE_GRACE_MS } from "../sources/jsonl/tail.ts";
import { probeStore, type StoreProbe } from "../sources/sqlite/incremental.ts";

/** OpenClaw's config file names in the state dir (same list as server/sources/openclaw-config.ts). */
const CONFIG_NAMES: ReadonlySet<string> = new Set([
  "openclaw.json",
  "clawdbot.json",
  "moldbot.json",
  "moltbot.json",
]);
const STORE_FILE = /^openclaw-agent\.sqlite(?:-wal|-journal)?$/;

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

type DirKind = "root" | "agents" | "agent" | "sessions" | "store" | "config";

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

function signature(p: string): string | null {
  try {
    const st = statSync(p);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
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
  for (const n of names) out.set(n, signature(path.join(dir, n)) ?? "");
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

function eventKey(e: LiveEvent): string {
  return e.type === "session-changed" ? `s\u0000${e.agentId}\u0000${e.sessionId}` : "list";
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
    const size = Number(sig.split(":")[1]);
    if (!endsMidLine(file, size)) return;
    const t = setTimeout(() => {
      halfLineTimers.delete(file);
      if (closed || signature(file) !== sig) return;
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
      probes.set(agentId, signature(db) === null ? null : probeStore(db));
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

  const flush = (): void => {
    timer = null;
    if (closed) return;
    const batch = [...pending.values()];
    pending.clear();
    const events = new Map<string, LiveEvent>();
    const add = (e: LiveEvent) => events.set(eventKey(e), e);
    let list = false;
    let config = false;
    let resync = false;
    const stores = new Set<string>();
    const sessionsDirs = new Map<string, { agentId: string; dir: string; names: Set<string | null> }>();
    for (const { target, name } of batch) {
      switch (target.kind) {
        case "root":
          if (name === null || CONFIG_NAMES.has(name) || (configPath && name === path.basename(configPath)))
            config = true;
          if (name === null || name === "agents") resync = true;
          break;
        case "config":
          if (name === null || (configPath && name === path.basename(configPath))) config = true;
          break;
        case "agents":
        case "agent":
          resync = true;
          break;
        case "sessions": {
          if (target.agentId === null) break;
          const s = sessionsDirs.get(target.dir) ?? {
            agentId: target.agentId,
            dir: target.dir,
            names: new Set(),
          };
          s.names.add(name);
          sessionsDirs.set(target.dir, s);
          break;
        }
        case "store":
          if (target.agentId !== null && (name === null || STORE_FILE.test(name))) stores.add(target.agentId);
          break;
      }
    }
    if (resync) {
      sync();
      list = true;
    }
    for (const { agentId, dir, names } of sessionsDirs.values()) {
      const all = names.has(null);
      const files = all
        ? [
            ...new Set([
              ...listDir(dir).keys(),
              ...[...fileSigs.keys()].filter((f) => path.dirname(f) === dir).map((f) => path.basename(f)),
            ]),
          ]
        : [...names].filter((n): n is string => n !== null);
      if (all || files.includes("sessions.json")) {
        list = true;
        const before = entryMaps.get(agentId) ?? new Map<string, string>();
        const after = sessionEntries(agentId, dir);
        for (const [id, json] of after)
          if (before.get(id) !== json) add({ type: "session-changed", agentId, sessionId: id });
        for (const id of before.keys()) if (!after.has(id)) list = true;
        entryMaps.set(agentId, after);
      }
      for (const name of files) {
        const kind = classifyTranscriptFileName(name);
        if (kind.kind === "reset" || kind.kind === "deleted") {
          list = true;
          continue;
        }
        if (kind.kind !== "live") continue;
        const file = path.join(dir, name);
        const sig = signature(file);
        const old = fileSigs.get(file);
        if (sig === old) continue; // an event without a change (touch by a reader, duplicate inotify event)
        if (sig === null) {
          fileSigs.delete(file);
          list = true;
          continue;
        }
        if (old === undefined) list = true;
        fileSigs.set(file, sig);
        add({ type: "session-changed", agentId, sessionId: kind.id });
        watchHalfLine(file, sig, agentId, kind.id);
      }
    }
    for (const agentId of stores) {
      const db = path.join(stateDir, "agents", agentId, "agent", "openclaw-agent.sqlite");
      const before = probes.get(agentId) ?? null;
      const after = signature(db) === null ? null : probeStore(db);
      probes.set(agentId, after);
      if (after === null || before === null) {
        if (after !== before) list = true;
        continue;
      }
      for (const [id, marker] of after.events) {
        if (before.events.get(id) === marker) continue;
        if (!before.events.has(id)) list = true;
        add({ type: "session-changed", agentId, sessionId: id });
      }
      for (const id of before.events.keys()) if (!after.events.has(id)) list = true;
      for (const [id, node] of after.nodes) {
        if (before.nodes.get(id) === node) continue;
        list = true;
        add({ type: "session-changed", agentId, sessionId: id });
      }
      if (before.nodes.size !== after.nodes.size) list = true;
    }
    if (config) list = true;
    if (list) events.set("list", { type: "sessions-changed" });
    if (events.size === 0) return;
    const ordered = [...events.values()].sort(
      (a, b) => Number(b.type === "sessions-changed") - Number(a.type === "sessions-changed"),
    );
    try {
      opts.onChange({ events: ordered, configChanged: config });
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
