// Session-level types visible to the API and the web (SessionSummary rows, located parse issues, versions).
// server/model/session.ts re-exports them so the server has one import point.

export type StorageKind = "jsonl" | "sqlite";

/**
 * Why a transcript is not the live one of its key:
 * - `reset` / `deleted`: JSONL `*.jsonl.reset.<ts>` / `*.jsonl.deleted.<ts>` archives, or SQLite archives
 * - `ended`: an earlier SQLite session window of a key (previous_session_id chain)
 * - `orphan`: a live-looking JSONL file that no sessions.json entry points to
 * - `cold`: SQLite cold archive (decoded on demand)
 * - `legacy`: a JSONL-era transcript beside a SQLite store (an upgraded install's migration input), listed as
 *   `legacy:<sessionId>`
 * - `backup` / `checkpoint`: JSONL copies of another transcript (`*.jsonl.bak…`, `*.checkpoint.<uuid>.jsonl`):
 *   their entries duplicate that transcript's, so totals leave them out (`copyOf` names it)
 */
export type ArchivedKind =
  | "reset"
  | "deleted"
  | "ended"
  | "orphan"
  | "cold"
  | "legacy"
  | "backup"
  | "checkpoint";

const STORAGE_KINDS: ReadonlySet<string> = new Set<StorageKind>(["jsonl", "sqlite"]);
const ARCHIVED_KINDS: ReadonlySet<string> = new Set<ArchivedKind>([
  "reset",
  "deleted",
  "ended",
  "orphan",
  "cold",
  "legacy",
  "backup",
  "checkpoint",
]);

const isStorageKind = (v: unknown): v is StorageKind => typeof v === "string" && STORAGE_KINDS.has(v);
const isArchivedKind = (v: unknown): v is ArchivedKind => typeof v === "string" && ARCHIVED_KINDS.has(v);

/** A located problem found while reading. Parsers never throw: they return these. */
export interface ParseIssue {
  /** Path relative to the state dir (e.g. `agents/main/sessions/x.jsonl`) or `<db path>#<table>`. */
  source: string;
  /** 1-based line number in a JSONL file. */
  line?: number;
  /** `transcript_events.seq` for SQLite rows. */
  seq?: number;
  /** Stable machine-readable code, e.g. `invalid-json`, `truncated-line`, `missing-parent`. */
  code: string;
  message: string;
  severity: "error" | "warning";
}

export interface SessionRef {
  agentId: string;
  sessionId: string;
}

/** Which OpenClaw release (family) wrote a session; decides the algorithms used. */
export interface VersionInfo {
  /** e.g. "2026.9.6" from schema_meta.app_version, or null when unknown. */
  appVersion: string | null;
  /**
   * Rule family: "2026.3" (E1/E2), "2026.7" (E3, the 2026.7.x SQLite betas), "2026.9" (2026.8.1 on: E5 and the
   * SQLite releases before it; rules that changed inside it read `appVersion`).
   */
  family: "2026.3" | "2026.7" | "2026.9";
  /** Human explanation of the signals used. */
  reason: string;
  /**
   * Which signal decided: the session's own data (store schema, report, transcript); for a JSONL session without
   * any, the install's — the config's `meta.lastTouchedVersion`, then the agent's other sessions, then the state
   * dir's — and `default` when nothing says anything.
   */
  decidedBy?: "session" | "config" | "agent-sessions" | "state-dir" | "default";
}

/** What the session list shows; also the `sessions --json` row. */
export interface SessionSummary {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  storage: StorageKind;
  archived: ArchivedKind | null;
  updatedAt: number | null;
  model: string | null;
  provider: string | null;
  entryCount: number | null;
  parseErrorCount: number;
  /** Relative location: JSONL file path or `agents/<id>/agent/openclaw-agent.sqlite`. */
  location: string;
  sizeBytes: number | null;
  /** The transcript file of this sessions.json entry does not exist (`location` is where it was looked for). */
  missing?: true;
  /** Backups / checkpoints: the transcript (`<id>.jsonl` file name) whose entries this copy duplicates. */
  copyOf?: string;
  /** A sub-agent session: its SessionEntry's `spawnedBy`, the session key of the session that spawned it. */
  spawnedBy?: string;
}

const strOrNull = (v: unknown): boolean => v === null || typeof v === "string";
const numOrNull = (v: unknown): boolean => v === null || typeof v === "number";

/** A SessionSummary as JSON carries it (the listing cache's stored rows are read back through this). */
export function isSessionSummary(v: unknown): v is SessionSummary {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const r: Record<string, unknown> = { ...v };
  return (
    typeof r.agentId === "string" &&
    typeof r.sessionId === "string" &&
    strOrNull(r.sessionKey) &&
    isStorageKind(r.storage) &&
    (r.archived === null || isArchivedKind(r.archived)) &&
    numOrNull(r.updatedAt) &&
    strOrNull(r.model) &&
    strOrNull(r.provider) &&
    numOrNull(r.entryCount) &&
    typeof r.parseErrorCount === "number" &&
    typeof r.location === "string" &&
    numOrNull(r.sizeBytes) &&
    (r.missing === undefined || r.missing === true) &&
    (r.copyOf === undefined || typeof r.copyOf === "string") &&
    (r.spawnedBy === undefined || typeof r.spawnedBy === "string")
  );
}
