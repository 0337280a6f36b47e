// Agent-schema check and version family for `openclaw-agent.sqlite` (spec storage.md §4.2, README.md "Version eras").
// Pure: takes what `sqlite_master`, `PRAGMA table_info` and `schema_meta` returned, decides whether the store
// can be read and which rule family applies. Tables and columns are detected, never assumed: schemas 4–13
// are UNVERIFIED in the spec, so outside the supported range we read only when every needed column exists.

import type { VersionInfo } from "../../model/session.ts";

/** Agent schemas whose layout is known (14 introduced session_nodes/session_windows; 23 = 2026.9.6). */
export const SUPPORTED_SCHEMA_MIN = 14;
export const SUPPORTED_SCHEMA_MAX = 23;

/** Table name → its column names. */
export type TableColumns = Map<string, Set<string>>;

/** Columns without which no session can be listed or loaded. */
const REQUIRED: Record<string, string[]> = {
  session_nodes: ["session_key", "current_session_id", "entry_json"],
  transcript_events: ["session_id", "seq", "event_json"],
};

/** Optional tables: reading degrades (with an issue) when they are absent. */
export const OPTIONAL_TABLES = {
  windows: ["session_windows", ["session_id", "session_key", "previous_session_id"]],
  active: [
    "session_transcript_active_events",
    ["session_id", "active_position", "event_seq", "context_eligible"],
  ],
  indexState: ["session_transcript_index_state", ["session_id", "indexed_seq", "needs_rebuild"]],
  trajectory: ["trajectory_runtime_events", ["session_id", "seq", "event_json"]],
  archives: [
    "session_transcript_archives",
    ["session_id", "session_key", "reason", "encoding", "archive_blob", "archive_name"],
  ],
  cold: ["session_transcript_cold_archives", ["session_id", "archive_name", "storage"]],
} as const satisfies Record<string, readonly [string, readonly string[]]>;

export type OptionalTable = keyof typeof OPTIONAL_TABLES;

export function hasColumns(tables: TableColumns, table: string, columns: readonly string[]): boolean {
  const cols = tables.get(table);
  return cols !== undefined && columns.every((c) => cols.has(c));
}

export function hasOptional(tables: TableColumns, which: OptionalTable): boolean {
  const [table, columns] = OPTIONAL_TABLES[which];
  return hasColumns(tables, table, columns);
}

export interface SchemaMeta {
  schemaVersion: number | null;
  appVersion: string | null;
}

export type SchemaVerdict =
  | { ok: true; warnings: string[] }
  | { ok: false; code: "unsupported-schema" | "missing-table"; message: string };

/** What is missing from the required layout, as human text (empty when complete). */
export function missingRequired(tables: TableColumns): string[] {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const cols = tables.get(table);
    if (!cols) {
      missing.push(`table ${table}`);
      continue;
    }
    for (const c of columns) if (!cols.has(c)) missing.push(`column ${table}.${c}`);
  }
  return missing;
}

/**
 * Supported: agent schema 14–23 with the required tables. Another version is read with a warning when the
 * required tables and columns exist; otherwise a clear error names the version found and the range supported.
 */
export function checkSchema(meta: SchemaMeta | null, tables: TableColumns): SchemaVerdict {
  const missing = missingRequired(tables);
  const range = `${SUPPORTED_SCHEMA_MIN}–${SUPPORTED_SCHEMA_MAX}`;
  const v = meta?.schemaVersion ?? null;
  const inRange = v !== null && v >= SUPPORTED_SCHEMA_MIN && v <= SUPPORTED_SCHEMA_MAX;
  if (missing.length > 0) {
    if (v !== null && !inRange) {
      return {
        ok: false,
        code: "unsupported-schema",
        message: `unsupported agent schema ${v} (supported: ${range}); missing ${missing.join(", ")}`,
      };
    }
    const found = v === null ? "no agent schema_meta row" : `agent schema ${v}`;
    return { ok: false, code: "missing-table", message: `${found}, but missing ${missing.join(", ")}` };
  }
  const warnings: string[] = [];
  if (v === null) {
    warnings.push(
      `no schema_meta row with role 'agent'; read because the needed tables exist (supported: ${range})`,
    );
  } else if (!inRange) {
    warnings.push(
      `agent schema ${v} is outside the supported range ${range}; read because the needed tables and columns exist`,
    );
  }
  return { ok: true, warnings };
}

interface ParsedVersion {
  year: number;
  month: number;
  patch: number;
}

/** `2026.9.6`, `2026.7.2-beta.1` → numbers; anything else → null. */
export function parseAppVersion(v: string): ParsedVersion | null {
  const m = /^v?(\d{4})\.(\d{1,2})\.(\d+)/.exec(v.trim());
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), patch: Number(m[3]) };
}

/**
 * Rule family of a SQLite store (README.md "Version eras"): 2026.8.1 on → "2026.9" — the /context report, the
 * bootstrap caps and files, the estimate, the prompt's Temporal Context and the fixed pruning thresholds of
 * 2026.9.6 all arrived in 2026.8.1 (docs/openclaw-facts.md §8: read from the npm builds of 2026.7.35, 8.1, 8.2,
 * 9.1–9.6); rules that changed after it read the app version. The 2026.7.x SQLite betas → "2026.7", unless the
 * transcript holds projection snapshots (`openclaw.cache-ttl` with `prunedToolResults`, transcript.md §9.1).
 */
export function versionInfo(meta: SchemaMeta | null, hasProjectionSnapshots: boolean): VersionInfo {
  const appVersion = meta?.appVersion ?? null;
  const schema = meta?.schemaVersion ?? null;
  const schemaText = schema === null ? "no agent schema version" : `agent schema ${schema}`;
  const parsed = appVersion === null ? null : parseAppVersion(appVersion);
  if (parsed) {
    const from8 = parsed.year > 2026 || (parsed.year === 2026 && parsed.month >= 8);
    if (from8) {
      const newer =
        parsed.year > 2026 || parsed.month > 9 ? "; newer than the 2026.9 rules clawscope knows" : "";
      const early = parsed.year === 2026 && parsed.month === 8 ? " (2026.8.1 brought them in)" : "";
      return {
        appVersion,
        family: "2026.9",
        reason: `schema_meta.app_version ${appVersion} (${schemaText}) → 2026.9 rules${early}${newer}`,
      };
    }
    if (hasProjectionSnapshots) {
      return {
        appVersion,
        family: "2026.9",
        reason: `schema_meta.app_version ${appVersion} (${schemaText}) predates 2026.9, but the transcript holds openclaw.cache-ttl projection snapshots (2026.9 sticky projections) → 2026.9 rules`,
      };
    }
    const early =
      parsed.year < 2026 || parsed.month < 7 || (parsed.month === 7 && parsed.patch < 2)
        ? " (older than the first SQLite release 2026.7.2; treated as early SQLite)"
        : "";
    return {
      appVersion,
      family: "2026.7",
      reason: `schema_meta.app_version ${appVersion} (${schemaText}) → 2026.7.x SQLite, 2026.7 rules${early}`,
    };
  }
  const unknown =
    appVersion === null ? "no schema_meta.app_version" : `unparseable app_version "${appVersion}"`;
  if (hasProjectionSnapshots || (schema !== null && schema >= SUPPORTED_SCHEMA_MAX)) {
    const why = hasProjectionSnapshots
      ? "projection snapshots in the transcript"
      : `${schemaText} (2026.9.6 writes 23)`;
    return { appVersion, family: "2026.9", reason: `${unknown}; ${why} → 2026.9 rules` };
  }
  return {
    appVersion,
    family: "2026.7",
    reason: `${unknown}; SQLite store without 2026.9 signals → 2026.7 rules`,
  };
}
