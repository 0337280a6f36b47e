// One in-memory shape for both storage eras (JSONL files ≤2026.7.1, SQLite ≥2026.7.2).
// Sources (server/sources/*) produce these; reports (server/reports/*) consume them and never
// know which era the data came from. See ../shared/spec/storage.md and transcript.md.

import type { JsonObject } from "../../shared/json.ts";

export type {
  ArchivedKind,
  ParseIssue,
  SessionRef,
  SessionSummary,
  StorageKind,
  VersionInfo,
} from "../../shared/session.ts";

import type { ParseIssue, SessionSummary, VersionInfo } from "../../shared/session.ts";

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
