// What a batch of file-system changes means for the dashboard (pure): the watcher (watcher.ts) collects which
// watched directories saw which names and the file facts before and after, this module maps them to live
// events. Spec storage.md §3 (JSONL: transcripts, archives, sessions.json), §4–§5 (SQLite: the database, its
// -wal and -journal).

import type { LiveEvent } from "../../shared/live.ts";
import { classifyTranscriptFileName } from "../sources/jsonl/file-names.ts";
import { CONFIG_FILE_NAMES } from "../sources/openclaw-config.ts";
import type { StoreProbe } from "../sources/sqlite/incremental.ts";

/** OpenClaw's config file names in the state dir (storage.md §1), as the config reader probes them. */
export const CONFIG_NAMES: ReadonlySet<string> = new Set(CONFIG_FILE_NAMES);
const STORE_FILE = /^openclaw-agent\.sqlite(?:-wal|-journal)?$/;

/** What a watched directory holds (watcher.ts watches each non-recursively). */
export type DirKind = "root" | "agents" | "agent" | "sessions" | "store" | "config";

/** One changed name (null = "something in this directory") of one watched directory. */
export interface DirChange {
  dir: string;
  kind: DirKind;
  agentId: string | null;
  name: string | null;
}

/** Which checks a batch needs. */
export interface BatchScope {
  config: boolean;
  /** New or vanished directories: the watch set is rebuilt and the list refetched. */
  resync: boolean;
  /** Sessions dirs with the names that changed there (a null name = rescan the whole dir). */
  sessionsDirs: Map<string, { agentId: string; names: Set<string | null> }>;
  /** Agents whose SQLite store (database, -wal, -journal) was written. */
  stores: Set<string>;
}

export function scopeOf(batch: readonly DirChange[], configBaseName: string | null): BatchScope {
  const scope: BatchScope = { config: false, resync: false, sessionsDirs: new Map(), stores: new Set() };
  for (const { dir, kind, agentId, name } of batch) {
    const isConfig = name === null || CONFIG_NAMES.has(name) || name === configBaseName;
    if (kind === "root") {
      if (isConfig) scope.config = true;
      if (name === null || name === "agents") scope.resync = true;
    } else if (kind === "config") {
      if (name === null || name === configBaseName) scope.config = true;
    } else if (kind === "agents" || kind === "agent") {
      scope.resync = true;
    } else if (kind === "sessions" && agentId !== null) {
      const s = scope.sessionsDirs.get(dir) ?? { agentId, names: new Set() };
      s.names.add(name);
      scope.sessionsDirs.set(dir, s);
    } else if (kind === "store" && agentId !== null && (name === null || STORE_FILE.test(name))) {
      scope.stores.add(agentId);
    }
  }
  return scope;
}

/** Events found so far; `list` = the session list must be refetched. */
export class ChangeSet {
  list = false;
  private readonly events = new Map<string, LiveEvent>();

  session(agentId: string, sessionId: string): void {
    this.events.set(`s\u0000${agentId}\u0000${sessionId}`, { type: "session-changed", agentId, sessionId });
  }

  /** Deduplicated events, `sessions-changed` first when the list changed. */
  ordered(): LiveEvent[] {
    const out: LiveEvent[] = this.list ? [{ type: "sessions-changed" }] : [];
    return out.concat([...this.events.values()]);
  }
}

/** sessions.json entries (sessionId → keys + entry JSON) before and after: an entry that changed is its session's. */
export function entryChanges(
  out: ChangeSet,
  agentId: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): void {
  out.list = true;
  for (const [id, json] of after) if (before.get(id) !== json) out.session(agentId, id);
  for (const id of before.keys()) if (!after.has(id)) out.list = true;
}

/** A file of a sessions dir with its signature before (undefined = not seen) and now (null = gone). */
export interface FileFact {
  name: string;
  before: string | undefined;
  after: string | null;
}

/**
 * Transcript files whose signature changed are their session's; archives appearing, transcripts appearing or
 * vanishing change the list. Returns the live transcripts that changed (the watcher re-signs them).
 */
export function transcriptChanges(
  out: ChangeSet,
  agentId: string,
  files: readonly FileFact[],
): { name: string; sessionId: string; signature: string | null }[] {
  const changed: { name: string; sessionId: string; signature: string | null }[] = [];
  for (const f of files) {
    const kind = classifyTranscriptFileName(f.name);
    if (kind.kind === "reset" || kind.kind === "deleted") {
      out.list = true;
      continue;
    }
    if (kind.kind !== "live" || f.after === f.before) continue; // a touch by a reader, a duplicate event
    if (f.after === null || f.before === undefined) out.list = true;
    if (f.after !== null) out.session(agentId, kind.id);
    changed.push({ name: f.name, sessionId: kind.id, signature: f.after });
  }
  return changed;
}

/** SQLite store probes before and after a write: sessions whose rows or node changed, sessions added or gone. */
export function storeChanges(
  out: ChangeSet,
  agentId: string,
  before: StoreProbe | null,
  after: StoreProbe | null,
): void {
  if (after === null || before === null) {
    if (after !== before) out.list = true;
    return;
  }
  for (const [id, marker] of after.events) {
    if (before.events.get(id) === marker) continue;
    if (!before.events.has(id)) out.list = true;
    out.session(agentId, id);
  }
  for (const id of before.events.keys()) if (!after.events.has(id)) out.list = true;
  for (const [id, node] of after.nodes) {
    if (before.nodes.get(id) === node) continue;
    out.list = true;
    out.session(agentId, id);
  }
  if (before.nodes.size !== after.nodes.size) out.list = true;
}
