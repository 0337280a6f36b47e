// One in-memory shape for both storage eras (JSONL files ≤2026.7.1, SQLite ≥2026.7.2).
// Sources (server/sources/*) produce these; reports (server/reports/*) consume them and never
// know which era the data came from. See ../shared/spec/storage.md and transcript.md.

import type { JsonObject } from "../../shared/json.ts";

export type StorageKind = "jsonl" | "sqlite";

/**
 * Why a transcript is not the live one of its key:
 * - `reset` / `deleted`: JSONL `*.jsonl.reset.<ts>` / `*.jsonl.deleted.<ts>` archives, or SQLite archives
 * - `ended`: an earlier SQLite session window of a key (previous_session_id chain)
 * - `orphan`: a live-looking JSONL file that no sessions.json entry points to
 * - `cold`: SQLite cold archive (decoded on demand)
 */
export type ArchivedKind = "reset" | "deleted" | "ended" | "orphan" | "cold";

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

/** One transcript object (JSONL line or decoded `transcript_events` row), in append order. */
export interface TranscriptEntry {
  /** 0-based append index among successfully parsed objects (the header is index 0 when present). */
  index: number;
  /** `type` field; unknown types are kept (opaque rows). */
  type: string;
  id: string | null;
  parentId: string | null;
  /** Envelope ISO timestamp, if any. */
  timestamp: string | null;
  /** The full parsed object, unknown fields preserved. */
  raw: JsonObject;
  /** Where it came from: JSONL line (1-based) or SQLite seq. */
  line?: number;
  seq?: number;
}

/** A parsed transcript: every entry plus the active branch and the issues found. */
export interface Transcript {
  header: JsonObject | null;
  /** Header `version` (3 in JSONL files, 4 in 2026.9.x SQLite events). */
  version: number | null;
  /** All entries in append order, header included (index 0) when present. */
  entries: TranscriptEntry[];
  /** Indexes into `entries` of the active branch, root → leaf (header excluded). */
  activeBranch: number[];
  /** Index of the leaf entry, or null for an empty transcript. */
  leafIndex: number | null;
  /** SQLite: per active entry, whether `context_eligible` was set (absent for JSONL). */
  contextEligible?: Map<number, boolean>;
  issues: ParseIssue[];
}

export interface SessionRef {
  agentId: string;
  sessionId: string;
}

/** Which OpenClaw release (family) wrote a session; decides the algorithms used. */
export interface VersionInfo {
  /** e.g. "2026.9.6" from schema_meta.app_version, or null when unknown. */
  appVersion: string | null;
  /** Rule family: "2026.3" (E1/E2), "2026.7" (E3 / early SQLite), "2026.9" (E5). */
  family: "2026.3" | "2026.7" | "2026.9";
  /** Human explanation of the signals used. */
  reason: string;
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
}

/** A session as the reports see it: store metadata + transcript. */
export interface LoadedSession {
  summary: SessionSummary;
  /** SessionEntry JSON (sessions.json value / session_nodes.entry_json), when the key has one. */
  entry: JsonObject | null;
  transcript: Transcript;
  version: VersionInfo;
  /** Paths recorded in the data that were rebased onto this state dir for file access. */
  rebasedPaths: { recorded: string; actual: string }[];
  issues: ParseIssue[];
}

/** A message of the model-context list (transcript.md §7), before provider conversion. */
export interface ContextMessage {
  /** user | assistant | toolResult | custom | compactionSummary | branchSummary | bashExecution | … */
  role: string;
  /** The stored `message` object for message entries; `{role, content, …}` built for summaries / custom_message. */
  message: JsonObject;
  /** Index (into Transcript.entries) of the entry it came from. */
  entryIndex: number;
}
