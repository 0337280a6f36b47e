// What the watcher last saw of the state dir (watcher.ts): transcript signatures, sessions.json entries and
// SQLite store probes, per agent. A batch of changes is checked against it — the facts before and after go to
// change-map.ts, which decides what they mean — and the new facts replace the old.

import { readdirSync } from "node:fs";
import path from "node:path";
import { str } from "../../shared/json.ts";
import { fileIdentity } from "../sources/fs-safety.ts";
import { classifyTranscriptFileName } from "../sources/jsonl/file-names.ts";
import { readSessionsStore } from "../sources/jsonl/sessions-json.ts";
import { probeStore, type StoreProbe } from "../sources/sqlite/incremental.ts";
import { type ChangeSet, entryChanges, storeChanges, transcriptChanges } from "./change-map.ts";

/** File name → fileIdentity of everything in `dir` ("" when it cannot be stat'ed); empty when unreadable. */
export function listDir(dir: string): Map<string, string> {
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

/** sessionId → its sessions.json keys + entry JSON (what changes when OpenClaw rewrites an entry). */
function sessionEntries(agentId: string, sessionsDir: string): Map<string, string> {
  const source = `agents/${agentId}/sessions/sessions.json`;
  const store = readSessionsStore(path.join(sessionsDir, "sessions.json"), source);
  const m = new Map<string, string>();
  for (const [key, entry] of store.entries) {
    const id = str(entry, "sessionId");
    if (id !== undefined) m.set(id, `${m.get(id) ?? ""}${key}\u0000${JSON.stringify(entry)}`);
  }
  return m;
}

/** A live transcript whose signature changed (the watcher checks it for a half-written last line). */
export interface ChangedTranscript {
  file: string;
  signature: string;
  agentId: string;
  sessionId: string;
}

export class SeenState {
  /** Transcript file → fileIdentity (JSONL). */
  private readonly fileSigs = new Map<string, string>();
  /** Agent → sessionId → SessionEntry JSON (sessions.json). */
  private readonly entryMaps = new Map<string, Map<string, string>>();
  /** Agent → last store probe (SQLite). */
  private readonly probes = new Map<string, StoreProbe | null>();

  constructor(private readonly stateDir: string) {}

  /** Baseline of a sessions dir: transcript signatures and sessions.json entries. */
  rememberSessionsDir(agentId: string, dir: string): void {
    for (const [name, sig] of listDir(dir)) {
      if (classifyTranscriptFileName(name).kind === "live") this.fileSigs.set(path.join(dir, name), sig);
    }
    this.entryMaps.set(agentId, sessionEntries(agentId, dir));
  }

  /** Baseline of an agent's SQLite store. */
  rememberStore(agentId: string): void {
    this.probes.set(agentId, this.probe(agentId));
  }

  /** Changes of a sessions dir (`names` that changed; null = anything): events into `out`, live files changed. */
  checkSessionsDir(
    out: ChangeSet,
    agentId: string,
    dir: string,
    names: Set<string | null>,
  ): ChangedTranscript[] {
    const files = this.namesToCheck(dir, names);
    if (names.has(null) || files.includes("sessions.json")) {
      const after = sessionEntries(agentId, dir);
      entryChanges(out, agentId, this.entryMaps.get(agentId) ?? new Map(), after);
      this.entryMaps.set(agentId, after);
    }
    const facts = files.map((name) => {
      const file = path.join(dir, name);
      return { name, before: this.fileSigs.get(file), after: fileIdentity(file) };
    });
    const changed: ChangedTranscript[] = [];
    for (const c of transcriptChanges(out, agentId, facts)) {
      const file = path.join(dir, c.name);
      if (c.signature === null) this.fileSigs.delete(file);
      else {
        this.fileSigs.set(file, c.signature);
        changed.push({ file, signature: c.signature, agentId, sessionId: c.sessionId });
      }
    }
    return changed;
  }

  /** A write to an agent's SQLite store: one cheap probe, compared with the previous one. */
  checkStore(out: ChangeSet, agentId: string): void {
    const after = this.probe(agentId);
    storeChanges(out, agentId, this.probes.get(agentId) ?? null, after);
    this.probes.set(agentId, after);
  }

  private probe(agentId: string): StoreProbe | null {
    const db = path.join(this.stateDir, "agents", agentId, "agent", "openclaw-agent.sqlite");
    return fileIdentity(db) === null ? null : probeStore(db);
  }

  /** The names of a sessions dir to look at: those that changed, or (a dir-level event) every one known. */
  private namesToCheck(dir: string, names: Set<string | null>): string[] {
    if (!names.has(null)) return [...names].filter((n): n is string => n !== null);
    const known = [...this.fileSigs.keys()]
      .filter((f) => path.dirname(f) === dir)
      .map((f) => path.basename(f));
    return [...new Set([...listDir(dir).keys(), ...known])];
  }
}
