// Session list of one agent store (spec storage.md §4.2 `session_nodes`, `session_windows`, archives).
// - a key's current window (`session_nodes.current_session_id`) → live session (archived null);
// - every other `session_windows` row of the key (previous_session_id chain) → archived "ended";
// - a window with a `session_transcript_cold_archives` row → archived "cold" (decoded on demand);
// - `session_transcript_archives` rows (deleted / reset blobs) → archived "deleted" / "reset", listed under
//   their unique `archive_name` because the same session id may still have live rows;
// - transcript rows whose session id has neither a window nor a node → "orphan".
// Pure: rows in, SessionSummary rows + located issues out.

import { isObject, type JsonObject, num, str, tryParseJson } from "../../../shared/json.ts";
import type { ArchivedKind, ParseIssue, SessionSummary } from "../../model/session.ts";

export interface NodeRow {
  sessionKey: string;
  currentSessionId: string;
  entryJson: string;
  updatedAt: number | null;
}

export interface WindowRow {
  sessionId: string;
  sessionKey: string;
  previousSessionId: string | null;
  reason: string | null;
  updatedAt: number | null;
  model: string | null;
  modelProvider: string | null;
}

export interface EventStats {
  sessionId: string;
  count: number;
  maxSeq: number;
  bytes: number;
}

export interface ArchiveRow {
  sessionId: string;
  sessionKey: string;
  reason: string;
  encoding: string;
  archiveName: string;
  createdAt: number | null;
  bytes: number;
}

export interface ColdRow {
  sessionId: string;
  archiveName: string;
  archiveSha256: string | null;
  eventCount: number | null;
  rawBytes: number | null;
  archiveBytes: number | null;
  archivedAt: number | null;
  storage: string;
}

/** A cold archive file under `agents/<id>/sessions/cold/` that no table row names. */
export interface ColdFile {
  name: string;
  relPath: string;
  sizeBytes: number;
  mtimeMs: number;
}

export interface StoreRows {
  nodes: NodeRow[];
  windows: WindowRow[] | null;
  stats: EventStats[];
  archives: ArchiveRow[] | null;
  cold: ColdRow[] | null;
}

/** Parse `entry_json` (SessionEntry, storage.md §6); bad JSON becomes a located issue and a null entry. */
export function parseEntry(
  node: NodeRow,
  source: string,
): { entry: JsonObject | null; issue: ParseIssue | null } {
  const parsed = tryParseJson(node.entryJson);
  if (!parsed.ok) {
    return {
      entry: null,
      issue: {
        source,
        code: "invalid-json",
        message: `entry_json of session key ${node.sessionKey} is not valid JSON: ${parsed.error}`,
        severity: "error",
      },
    };
  }
  if (!isObject(parsed.value)) {
    return {
      entry: null,
      issue: {
        source,
        code: "not-an-object",
        message: `entry_json of session key ${node.sessionKey} is not a JSON object`,
        severity: "error",
      },
    };
  }
  return { entry: parsed.value, issue: null };
}

export const COLD_SUFFIX = ".jsonl.zst";

/** Session id under which an unreferenced cold file is listed. */
export function coldFileSessionId(name: string): string {
  return name.endsWith(COLD_SUFFIX) ? name.slice(0, -COLD_SUFFIX.length) : name;
}

export function buildSummaries(
  agentId: string,
  dbRel: string,
  coldDirRel: string,
  rows: StoreRows,
  coldFiles: ColdFile[],
): { sessions: SessionSummary[]; issues: ParseIssue[] } {
  const issues: ParseIssue[] = [];
  const sessions: SessionSummary[] = [];
  const stats = new Map(rows.stats.map((s) => [s.sessionId, s]));
  const windows = new Map((rows.windows ?? []).map((w) => [w.sessionId, w]));
  const cold = new Map((rows.cold ?? []).map((c) => [c.sessionId, c]));
  const listed = new Set<string>();

  const base = (
    sessionId: string,
    sessionKey: string | null,
    archived: ArchivedKind | null,
  ): SessionSummary => {
    const s = stats.get(sessionId);
    const c = cold.get(sessionId);
    const useCold = !s && c !== undefined;
    return {
      agentId,
      sessionId,
      sessionKey,
      storage: "sqlite",
      archived,
      updatedAt: windows.get(sessionId)?.updatedAt ?? null,
      model: windows.get(sessionId)?.model ?? null,
      provider: windows.get(sessionId)?.modelProvider ?? null,
      entryCount: s ? s.count : useCold ? (c.eventCount ?? null) : 0,
      parseErrorCount: 0,
      location: useCold && c.storage === "file" ? `${coldDirRel}/${c.archiveName}` : dbRel,
      sizeBytes: s ? s.bytes : useCold ? (c.archiveBytes ?? null) : 0,
    };
  };

  for (const node of rows.nodes) {
    const { entry, issue } = parseEntry(node, `${dbRel}#session_nodes`);
    if (issue) issues.push(issue);
    const summary = base(node.currentSessionId, node.sessionKey, null);
    summary.updatedAt = num(entry, "updatedAt") ?? node.updatedAt ?? summary.updatedAt;
    summary.model = str(entry, "model") ?? summary.model;
    summary.provider = str(entry, "modelProvider") ?? summary.provider;
    sessions.push(summary);
    listed.add(node.currentSessionId);
  }
  for (const w of rows.windows ?? []) {
    if (listed.has(w.sessionId)) continue;
    const kind: ArchivedKind = cold.has(w.sessionId) && !stats.has(w.sessionId) ? "cold" : "ended";
    sessions.push(base(w.sessionId, w.sessionKey, kind));
    listed.add(w.sessionId);
  }
  for (const c of rows.cold ?? []) {
    if (listed.has(c.sessionId)) continue;
    const s = base(c.sessionId, null, "cold");
    s.updatedAt = c.archivedAt;
    sessions.push(s);
    listed.add(c.sessionId);
  }
  for (const s of rows.stats) {
    if (listed.has(s.sessionId)) continue;
    issues.push({
      source: `${dbRel}#transcript_events`,
      code: "orphan-transcript",
      message: `transcript rows of session ${s.sessionId} have no session_windows row and no session key`,
      severity: "warning",
    });
    sessions.push(base(s.sessionId, null, "orphan"));
    listed.add(s.sessionId);
  }
  for (const a of rows.archives ?? []) {
    const kind: ArchivedKind = a.reason === "reset" ? "reset" : "deleted";
    if (a.reason !== "reset" && a.reason !== "deleted") {
      issues.push({
        source: `${dbRel}#session_transcript_archives`,
        code: "unknown-archive-reason",
        message: `archive ${a.archiveName} has reason "${a.reason}"; listed as deleted`,
        severity: "warning",
      });
    }
    sessions.push({
      agentId,
      sessionId: a.archiveName,
      sessionKey: a.sessionKey,
      storage: "sqlite",
      archived: kind,
      updatedAt: a.createdAt,
      model: null,
      provider: null,
      entryCount: null,
      parseErrorCount: 0,
      location: dbRel,
      sizeBytes: a.bytes,
    });
  }
  const coldNames = new Set((rows.cold ?? []).map((c) => c.archiveName));
  for (const f of coldFiles) {
    if (coldNames.has(f.name)) continue;
    const id = coldFileSessionId(f.name);
    if (listed.has(id)) continue;
    sessions.push({
      agentId,
      sessionId: id,
      sessionKey: null,
      storage: "sqlite",
      archived: "cold",
      updatedAt: Math.round(f.mtimeMs),
      model: null,
      provider: null,
      entryCount: null,
      parseErrorCount: 0,
      location: f.relPath,
      sizeBytes: f.sizeBytes,
    });
  }
  return { sessions, issues };
}

/** The history chain of a session id: predecessors first, following previous_session_id (cycle-safe). */
export function windowChain(windows: WindowRow[], sessionId: string): string[] {
  const byId = new Map(windows.map((w) => [w.sessionId, w]));
  const chain: string[] = [];
  const seen = new Set<string>();
  let cur: string | null = sessionId;
  while (cur !== null && !seen.has(cur)) {
    seen.add(cur);
    chain.push(cur);
    cur = byId.get(cur)?.previousSessionId ?? null;
  }
  return chain.reverse();
}
