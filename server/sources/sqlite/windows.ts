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
import { withSpawnedBy } from "../spawned-by.ts";

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

/** The summary rows of one store, added kind by kind; a session id is listed once, by the first kind that has it. */
class Summaries {
  readonly sessions: SessionSummary[] = [];
  readonly issues: ParseIssue[] = [];
  private readonly listed = new Set<string>();
  private readonly stats: Map<string, EventStats>;
  private readonly windows: Map<string, WindowRow>;
  private readonly cold: Map<string, ColdRow>;

  constructor(
    private readonly agentId: string,
    private readonly dbRel: string,
    private readonly coldDirRel: string,
    private readonly rows: StoreRows,
  ) {
    this.stats = new Map(rows.stats.map((x) => [x.sessionId, x]));
    this.windows = new Map((rows.windows ?? []).map((w) => [w.sessionId, w]));
    this.cold = new Map((rows.cold ?? []).map((c) => [c.sessionId, c]));
  }

  /** A key's current window (archived null), with the SessionEntry's time and model. */
  addNodes(): void {
    for (const node of this.rows.nodes) {
      const { entry, issue } = parseEntry(node, `${this.dbRel}#session_nodes`);
      if (issue) this.issues.push(issue);
      const summary = withSpawnedBy(this.base(node.currentSessionId, node.sessionKey, null), entry);
      summary.updatedAt = num(entry, "updatedAt") ?? node.updatedAt ?? summary.updatedAt;
      summary.model = str(entry, "model") ?? summary.model;
      summary.provider = str(entry, "modelProvider") ?? summary.provider;
      this.add(summary);
    }
  }

  /** Earlier windows of a key ("ended"; "cold" when only a cold archive holds them). */
  addWindows(): void {
    for (const w of this.rows.windows ?? []) {
      if (this.listed.has(w.sessionId)) continue;
      const kind: ArchivedKind =
        this.cold.has(w.sessionId) && !this.stats.has(w.sessionId) ? "cold" : "ended";
      this.add(this.base(w.sessionId, w.sessionKey, kind));
    }
  }

  /** Cold archive rows, then transcript rows no window or node names ("orphan"). */
  addColdAndOrphans(): void {
    for (const c of this.rows.cold ?? []) {
      if (this.listed.has(c.sessionId)) continue;
      this.add({ ...this.base(c.sessionId, null, "cold"), updatedAt: c.archivedAt });
    }
    for (const x of this.rows.stats) {
      if (this.listed.has(x.sessionId)) continue;
      this.issues.push({
        source: `${this.dbRel}#transcript_events`,
        code: "orphan-transcript",
        message: `transcript rows of session ${x.sessionId} have no session_windows row and no session key`,
        severity: "warning",
      });
      this.add(this.base(x.sessionId, null, "orphan"));
    }
  }

  /** Deleted/reset archive blobs, listed under their unique `archive_name`. */
  addArchives(): void {
    for (const a of this.rows.archives ?? []) {
      if (a.reason !== "reset" && a.reason !== "deleted") {
        this.issues.push({
          source: `${this.dbRel}#session_transcript_archives`,
          code: "unknown-archive-reason",
          message: `archive ${a.archiveName} has reason "${a.reason}"; listed as deleted`,
          severity: "warning",
        });
      }
      const archived: ArchivedKind = a.reason === "reset" ? "reset" : "deleted";
      this.sessions.push({
        ...this.bare(a.archiveName, a.sessionKey, archived, this.dbRel),
        updatedAt: a.createdAt,
        sizeBytes: a.bytes,
      });
    }
  }

  /** Cold files under `sessions/cold` that no table row names. */
  addColdFiles(files: readonly ColdFile[]): void {
    const named = new Set((this.rows.cold ?? []).map((c) => c.archiveName));
    for (const f of files) {
      const id = coldFileSessionId(f.name);
      if (named.has(f.name) || this.listed.has(id)) continue;
      const row = this.bare(id, null, "cold", f.relPath);
      this.sessions.push({ ...row, updatedAt: Math.round(f.mtimeMs), sizeBytes: f.sizeBytes });
    }
  }

  private add(summary: SessionSummary): void {
    this.sessions.push(summary);
    this.listed.add(summary.sessionId);
  }

  private bare(
    sessionId: string,
    sessionKey: string | null,
    archived: ArchivedKind | null,
    location: string,
  ): SessionSummary {
    return {
      agentId: this.agentId,
      sessionId,
      sessionKey,
      storage: "sqlite",
      archived,
      updatedAt: null,
      model: null,
      provider: null,
      entryCount: null,
      parseErrorCount: 0,
      location,
      sizeBytes: null,
    };
  }

  /** A session id with its row counts (transcript_events, else its cold archive) and its window's metadata. */
  private base(sessionId: string, sessionKey: string | null, archived: ArchivedKind | null): SessionSummary {
    const s = this.stats.get(sessionId);
    const c = this.cold.get(sessionId);
    const useCold = !s && c !== undefined;
    const w = this.windows.get(sessionId);
    return {
      ...this.bare(
        sessionId,
        sessionKey,
        archived,
        useCold && c.storage === "file" ? `${this.coldDirRel}/${c.archiveName}` : this.dbRel,
      ),
      updatedAt: w?.updatedAt ?? null,
      model: w?.model ?? null,
      provider: w?.modelProvider ?? null,
      entryCount: s ? s.count : useCold ? (c.eventCount ?? null) : 0,
      sizeBytes: s ? s.bytes : useCold ? (c.archiveBytes ?? null) : 0,
    };
  }
}

export function buildSummaries(
  agentId: string,
  dbRel: string,
  coldDirRel: string,
  rows: StoreRows,
  coldFiles: ColdFile[],
): { sessions: SessionSummary[]; issues: ParseIssue[] } {
  const out = new Summaries(agentId, dbRel, coldDirRel, rows);
  out.addNodes();
  out.addWindows();
  out.addColdAndOrphans();
  out.addArchives();
  out.addColdFiles(coldFiles);
  return { sessions: out.sessions, issues: out.issues };
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
