// Transcript tree: id/parentId links, leaf selection, active branch.
// Reproduces pi's session manager (E1–E2) and the 2026.7.1 leaf rules (E3); see spec transcript.md §5.
// Pure: takes parsed entries, returns indexes and located issues. Never throws.

import { str } from "../../shared/json.ts";
import type { ParseIssue, TranscriptEntry } from "./session.ts";

export interface BranchResult {
  leafIndex: number | null;
  /** Indexes of the active branch, root → leaf (header excluded). */
  activeBranch: number[];
  issues: ParseIssue[];
}

function locate(entry: TranscriptEntry): { line?: number; seq?: number } {
  const loc: { line?: number; seq?: number } = {};
  if (entry.line !== undefined) loc.line = entry.line;
  if (entry.seq !== undefined) loc.seq = entry.seq;
  return loc;
}

/**
 * The last id index built per entries array: the reader builds it for the tree, and the reports that walk
 * parent links (cost verdicts, heartbeats) reuse it instead of building their own. Transcripts are replaced,
 * not mutated, when a file grows; the length check guards against an in-place append anyway.
 */
const built = new WeakMap<
  readonly TranscriptEntry[],
  { length: number; byId: ReadonlyMap<string, number> }
>();

/** Map id → entry index (indexById's), built once per entries array. */
export function entryIndexById(entries: TranscriptEntry[], source: string): ReadonlyMap<string, number> {
  const hit = built.get(entries);
  if (hit && hit.length === entries.length) return hit.byId;
  return indexById(entries, source).byId;
}

const parentsBuilt = new WeakMap<readonly TranscriptEntry[], Int32Array>();

/**
 * Per entry, the index of its parent (−1: a root, or a parent id not in the transcript), built once per
 * entries array: walks up the tree become array reads.
 */
export function parentIndexes(entries: TranscriptEntry[], source: string): Int32Array {
  const hit = parentsBuilt.get(entries);
  if (hit && hit.length === entries.length) return hit;
  const byId = entryIndexById(entries, source);
  const parents = new Int32Array(entries.length).fill(-1);
  for (const e of entries) {
    if (e.parentId !== null) parents[e.index] = byId.get(e.parentId) ?? -1;
  }
  parentsBuilt.set(entries, parents);
  return parents;
}

/**
 * parentIndexes of `entries` from those of its first `prev.length` entries (an append: the old entries and
 * their parent links are unchanged); `byId` = the id index of all of `entries`.
 */
export function extendParentIndexes(
  prev: Int32Array,
  entries: readonly TranscriptEntry[],
  byId: ReadonlyMap<string, number>,
): Int32Array {
  const parents = new Int32Array(entries.length).fill(-1);
  parents.set(prev.subarray(0, Math.min(prev.length, entries.length)));
  for (let i = prev.length; i < entries.length; i++) {
    const e = entries[i];
    if (e && e.parentId !== null) parents[i] = byId.get(e.parentId) ?? -1;
  }
  return parents;
}

/** Map id → entry index. Later duplicates win (pi keeps the last one it read); duplicates are reported. */
export function indexById(
  entries: TranscriptEntry[],
  source: string,
): { byId: Map<string, number>; issues: ParseIssue[] } {
  const byId = new Map<string, number>();
  const issues: ParseIssue[] = [];
  for (const e of entries) {
    if (e.type === "session" || e.id === null) continue;
    // one hash lookup per entry (30k ids on a 100 MB session): a set that does not grow the map met a duplicate
    const size = byId.size;
    byId.set(e.id, e.index);
    if (byId.size === size) {
      issues.push({
        source,
        ...locate(e),
        code: "duplicate-id",
        message: `entry id ${e.id} appears more than once; the later entry is used`,
        severity: "warning",
      });
    }
  }
  built.set(entries, { length: entries.length, byId });
  return { byId, issues };
}

/**
 * Leaf by scanning in append order (transcript.md §5):
 * - every entry (header excluded) becomes the leaf, except those appended with `appendMode: "side"` (E3);
 * - a `leaf` row moves the leaf to its `targetId` (null → empty branch); an unknown target is reported and skipped.
 * For E1–E2 files (no `leaf` rows, no side appends) this is simply the last entry in file order.
 */
export function selectLeaf(
  entries: TranscriptEntry[],
  byId: Map<string, number>,
  source: string,
): { leafIndex: number | null; issues: ParseIssue[] } {
  let leaf: number | null = null;
  const issues: ParseIssue[] = [];
  for (const e of entries) {
    if (e.type === "session") continue;
    if (e.type === "leaf") {
      const target = e.raw.targetId;
      if (target === null || target === undefined) {
        leaf = null;
      } else if (typeof target === "string" && byId.has(target)) {
        leaf = byId.get(target) ?? null;
      } else {
        issues.push({
          source,
          ...locate(e),
          code: "unknown-leaf-target",
          message: `leaf row points to unknown entry ${String(target)}; ignored`,
          severity: "warning",
        });
      }
      continue;
    }
    if (str(e.raw, "appendMode") === "side") continue;
    if (e.id === null) continue;
    leaf = e.index;
  }
  return { leafIndex: leaf, issues };
}

/**
 * Visit the ancestors of `start` (its parent first, then up the chain) until `visit` returns false, the chain ends,
 * or it comes back to an entry it saw (a parent cycle in stored data ends the walk). The one cycle-guarded upward
 * walk of the reports that look back from a call (reports/cost/breakdown.ts, openclaw/cache/prefix-signals.ts).
 */
export function visitAncestors(
  start: TranscriptEntry | undefined,
  parentOf: (e: TranscriptEntry) => TranscriptEntry | undefined,
  visit: (e: TranscriptEntry) => boolean,
): void {
  const seen = new Set<number>();
  let cur = start ? parentOf(start) : undefined;
  while (cur && !seen.has(cur.index)) {
    seen.add(cur.index);
    if (!visit(cur)) return;
    cur = parentOf(cur);
  }
}

/** Walk parentId from the leaf to the root. Missing parents and cycles end the walk with an issue. */
export function walkBranch(
  entries: TranscriptEntry[],
  byId: Map<string, number>,
  leafIndex: number | null,
  source: string,
): { activeBranch: number[]; issues: ParseIssue[] } {
  const issues: ParseIssue[] = [];
  const path: number[] = [];
  // entry indexes are < entries.length: a byte per entry instead of a Set of the whole branch
  const seen = new Uint8Array(entries.length);
  let cur = leafIndex;
  while (cur !== null) {
    const e = entries[cur];
    if (!e) break;
    if (seen[cur] === 1) {
      issues.push({
        source,
        ...locate(e),
        code: "parent-cycle",
        message: `parent links form a cycle at entry ${e.id ?? "?"}; branch cut here`,
        severity: "error",
      });
      break;
    }
    seen[cur] = 1;
    path.push(cur);
    const parentId = e.parentId;
    if (parentId === null) break;
    const parent = byId.get(parentId);
    if (parent === undefined) {
      issues.push({
        source,
        ...locate(e),
        code: "missing-parent",
        message: `entry ${e.id ?? "?"} names parent ${parentId}, which is not in the transcript; branch starts here`,
        severity: "error",
      });
      break;
    }
    cur = parent;
  }
  path.reverse();
  return { activeBranch: path, issues };
}

/** Leaf + active branch for a JSONL transcript (or a SQLite one whose active table cannot be trusted). */
export function computeActiveBranch(entries: TranscriptEntry[], source: string): BranchResult {
  const { byId, issues: idIssues } = indexById(entries, source);
  const { leafIndex, issues: leafIssues } = selectLeaf(entries, byId, source);
  const { activeBranch, issues: walkIssues } = walkBranch(entries, byId, leafIndex, source);
  return { leafIndex, activeBranch, issues: [...idIssues, ...leafIssues, ...walkIssues] };
}
