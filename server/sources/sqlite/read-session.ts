// The read phase of one SQLite session load: everything the load needs, fetched inside open-readonly.ts's ONE
// read transaction (spec storage.md §4.3 step 5: all tables from the same snapshot). Decoding the archives and
// assembling the model happen after the transaction ended (assemble-session.ts), so OpenClaw's checkpoints are
// never held up by our CPU work — except the transcript rows, decoded one at a time while the statement
// iterates (incremental.ts: never every stored blob in memory at once).

import type { ParseIssue } from "../../model/session.ts";
import type { ActiveRow, IndexStateRow } from "./active-branch.ts";
import { readEventsSince, type SqliteEventsState } from "./incremental.ts";
import * as Q from "./queries.ts";
import type { EventRow } from "./read-events.ts";
import {
  checkSchema,
  hasOptional,
  type SchemaMeta,
  type SchemaVerdict,
  type TableColumns,
} from "./schema.ts";
import type { TrajectoryRow } from "./trajectory.ts";
import type { ArchiveRow, ColdRow, StoreRows, WindowRow } from "./windows.ts";

/** A deleted/reset archive's blob with its table row. */
export interface ArchiveRead {
  row: ArchiveRow;
  blob: Uint8Array;
  encoding: string;
  sha256: string | null;
}

/** Where the session's transcript is: live rows, a cold archive, a deleted/reset archive, or nowhere in the tables. */
export type TranscriptRead =
  | {
      kind: "events";
      /** Rows decoded by readEventsSince; null when its statement failed and the full read of queries.ts ran. */
      eventsSince: ReturnType<typeof readEventsSince> | null;
      eventRows: EventRow[] | null;
      activeRows: ActiveRow[] | null;
      indexState: IndexStateRow | null;
    }
  | { kind: "cold"; row: ColdRow; blob: Uint8Array | null }
  | { kind: "archive"; archive: ArchiveRead }
  | { kind: "not-found" };

export interface SessionRead {
  tables: TableColumns;
  meta: SchemaMeta | null;
  verdict: SchemaVerdict;
  issues: ParseIssue[];
  /** The key's rows (node, windows, stats) — what the session's summary is built from. */
  rows: StoreRows | null;
  keyWindows: WindowRow[];
  transcript: TranscriptRead;
  trajectory: TrajectoryRow[];
}

/** The node and windows of the session's key, its event stats and cold row. */
function readKeyRows(ctx: Q.ReadCtx, sessionId: string): { rows: StoreRows; ownWindow: WindowRow[] } {
  // Without the byte sum: the rows read later give it (set after decoding, same transaction).
  const stats = Q.readEventStats(ctx, Q.where("session_id", sessionId), false);
  const ownWindow = Q.readWindows(ctx, Q.where("session_id", sessionId)) ?? [];
  let nodes = Q.readNodes(ctx, Q.where("current_session_id", sessionId));
  const key = nodes[0]?.sessionKey ?? ownWindow[0]?.sessionKey ?? null;
  if (key !== null && nodes.length === 0) nodes = Q.readNodes(ctx, Q.where("session_key", key));
  const windows = key === null ? ownWindow : (Q.readWindows(ctx, Q.where("session_key", key)) ?? ownWindow);
  const cold = Q.readCold(ctx, Q.where("session_id", sessionId));
  return { rows: { nodes, windows, stats, archives: [], cold }, ownWindow };
}

function readLiveEvents(
  ctx: Q.ReadCtx,
  sessionId: string,
  prev: SqliteEventsState | null,
  dbPath: string,
): TranscriptRead {
  const source = `${ctx.dbRel}#transcript_events`;
  let eventsSince: ReturnType<typeof readEventsSince> | null = null;
  let eventRows: EventRow[] | null = null;
  try {
    eventsSince = readEventsSince(ctx.db, ctx.tables, sessionId, prev, { dbPath, sessionId }, source);
  } catch (e) {
    if (Q.isBusy(e)) throw e;
    // a damaged table: the full read of queries.ts records the located issue
    eventRows = Q.readEventRows(ctx, sessionId);
  }
  return {
    kind: "events",
    eventsSince,
    eventRows,
    activeRows: Q.readActiveRows(ctx, sessionId),
    indexState: Q.readIndexState(ctx, sessionId),
  };
}

function readArchive(ctx: Q.ReadCtx, name: string): ArchiveRead | null {
  if (!hasOptional(ctx.tables, "archives")) return null;
  const row = Q.readArchives(ctx, Q.where("archive_name", name))?.[0];
  const blob = row ? Q.readArchiveBlob(ctx, name) : null;
  return row && blob ? { row, ...blob } : null;
}

/**
 * Inside the read transaction: one session by id — live rows (current or earlier window), a cold archive, or a
 * deleted/reset archive by its `archive_name`. `prev` = the decoded rows of an earlier load of the same
 * session of the same database (incremental read).
 */
export function readSession(
  ctx: Q.ReadCtx,
  sessionId: string,
  prev: SqliteEventsState | null,
  dbPath: string,
): SessionRead {
  const tables = ctx.tables;
  const meta = Q.readSchemaMeta(ctx);
  const verdict = checkSchema(meta, tables);
  const read: SessionRead = {
    tables,
    meta,
    verdict,
    issues: ctx.issues,
    rows: null,
    keyWindows: [],
    transcript: { kind: "not-found" },
    trajectory: [],
  };
  if (!verdict.ok) return read;
  const { rows, ownWindow } = readKeyRows(ctx, sessionId);
  read.rows = rows;
  read.keyWindows = rows.windows ?? [];
  const coldRow = rows.cold?.[0] ?? null;
  const hasRows = (rows.stats[0]?.count ?? 0) > 0;
  if (hasRows || (coldRow === null && (rows.nodes.length > 0 || ownWindow.length > 0))) {
    read.transcript = readLiveEvents(ctx, sessionId, prev, dbPath);
    read.trajectory = Q.readTrajectory(ctx, sessionId);
    if (coldRow !== null) {
      ctx.issues.push({
        source: `${ctx.dbRel}#session_transcript_cold_archives`,
        code: "cold-and-live",
        message: `session ${sessionId} has live transcript rows and a cold archive; the live rows are shown`,
        severity: "warning",
      });
    }
    return read;
  }
  if (coldRow !== null) {
    const blob = coldRow.storage === "sqlite" ? Q.readColdBlob(ctx, sessionId) : null;
    read.transcript = { kind: "cold", row: coldRow, blob };
    read.trajectory = Q.readTrajectory(ctx, sessionId);
    return read;
  }
  const archive = readArchive(ctx, sessionId);
  if (archive) {
    read.transcript = { kind: "archive", archive };
    read.rows = { nodes: [], windows: [], stats: [], archives: [archive.row], cold: [] };
  }
  return read;
}
