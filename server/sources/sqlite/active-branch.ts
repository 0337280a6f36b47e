// Active branch of a SQLite transcript (spec storage.md §4.2, transcript.md §5 "E5").
// OpenClaw materialises the branch in `session_transcript_active_events` (ordered by `active_position`,
// with `context_eligible`). It is trusted only when `session_transcript_index_state` says the index is
// current (`needs_rebuild = 0` and `indexed_seq` ≥ the newest seq) and every row resolves to a decoded
// event; otherwise the branch is recomputed from the parentId tree (server/model/tree.ts).
// Pure: rows in, branch + located issues out.

import { bool, obj } from "../../../shared/json.ts";
import type { ParseIssue, TranscriptEntry } from "../../model/session.ts";
import { computeActiveBranch } from "../../model/tree.ts";

export interface ActiveRow {
  activePosition: number;
  eventSeq: number;
  contextEligible: number | null;
}

export interface IndexStateRow {
  indexedSeq: number;
  leafEventId: string | null;
  needsRebuild: number;
}

export interface ActiveBranch {
  activeBranch: number[];
  leafIndex: number | null;
  contextEligible: Map<number, boolean>;
  /** Where the branch came from. */
  source: "active-events-table" | "tree-fallback";
  issues: ParseIssue[];
}

/**
 * Context eligibility when the table cannot be used: OpenClaw flags the context-free commands and their
 * replies (`message.excludeFromContext: true`) as ineligible and every other active row — custom and
 * thinking_level_change rows included — as eligible (storage.md §4.2; matches every 2026.9.6 fixture).
 */
export function derivedEligibility(entry: TranscriptEntry): boolean {
  return bool(obj(entry.raw, "message"), "excludeFromContext") !== true;
}

function fromTree(entries: TranscriptEntry[], source: string, why: string): ActiveBranch {
  const tree = computeActiveBranch(entries, source);
  const contextEligible = new Map<number, boolean>();
  for (const i of tree.activeBranch) {
    const e = entries[i];
    if (e) contextEligible.set(i, derivedEligibility(e));
  }
  const note: ParseIssue = {
    source,
    code: "active-index-untrusted",
    message: `${why}; active branch recomputed from the parentId tree, context eligibility derived from excludeFromContext`,
    severity: "warning",
  };
  return { ...tree, contextEligible, source: "tree-fallback", issues: [note, ...tree.issues] };
}

/**
 * `activeRows` null = the table is missing; `indexState` null = no index-state row (or table) for the session.
 * `maxSeq` = the newest `transcript_events.seq` of the session (decoded or not).
 */
export function resolveActiveBranch(
  entries: TranscriptEntry[],
  activeRows: ActiveRow[] | null,
  indexState: IndexStateRow | null,
  maxSeq: number | null,
  source: string,
): ActiveBranch {
  if (entries.length === 0) {
    return {
      activeBranch: [],
      leafIndex: null,
      contextEligible: new Map(),
      source: "tree-fallback",
      issues: [],
    };
  }
  if (activeRows === null) return fromTree(entries, source, "session_transcript_active_events is missing");
  if (indexState === null)
    return fromTree(entries, source, "no session_transcript_index_state row for the session");
  if (indexState.needsRebuild !== 0) {
    return fromTree(entries, source, "session_transcript_index_state.needs_rebuild = 1");
  }
  if (maxSeq !== null && indexState.indexedSeq < maxSeq) {
    return fromTree(
      entries,
      source,
      `index is behind: indexed_seq ${indexState.indexedSeq} < newest seq ${maxSeq}`,
    );
  }
  const bySeq = new Map<number, number>();
  for (const e of entries) if (e.seq !== undefined) bySeq.set(e.seq, e.index);
  const activeBranch: number[] = [];
  const contextEligible = new Map<number, boolean>();
  let expected = 0;
  for (const row of activeRows) {
    if (row.activePosition !== expected) {
      return fromTree(
        entries,
        source,
        `active_position ${row.activePosition} where ${expected} was expected`,
      );
    }
    expected += 1;
    const index = bySeq.get(row.eventSeq);
    if (index === undefined) {
      return fromTree(
        entries,
        source,
        `active row ${row.activePosition} names seq ${row.eventSeq}, which was not decoded`,
      );
    }
    activeBranch.push(index);
    // NULL context_eligible = not recorded; left out of the map rather than guessed.
    if (row.contextEligible !== null) contextEligible.set(index, row.contextEligible !== 0);
  }
  const leafIndex = activeBranch.length > 0 ? (activeBranch[activeBranch.length - 1] ?? null) : null;
  const leaf = leafIndex === null ? undefined : entries[leafIndex];
  if (indexState.leafEventId !== null && leaf && leaf.id !== indexState.leafEventId) {
    return fromTree(
      entries,
      source,
      `last active row is ${leaf.id ?? "?"} but index state names leaf ${indexState.leafEventId}`,
    );
  }
  return { activeBranch, leafIndex, contextEligible, source: "active-events-table", issues: [] };
}
