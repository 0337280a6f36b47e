// The append fast path of jsonl/tail.ts: OpenClaw's usual append (new entries, each the child of the previous
// leaf) extends the active branch without walking the tree again. Pure; anything unusual returns null and
// tree.ts decides in full.

import type { ParseIssue, Transcript, TranscriptEntry } from "../../model/session.ts";

/**
 * The assembled transcript of the complete lines plus what extending its tree needs: the entry ids
 * (shared and extended in place — a stale extra id only ever forces the full path) and the parent ids no
 * entry has (an appended entry with such an id would end a missing-parent warning).
 */
export interface TreeMemo {
  transcript: Transcript;
  byId: Map<string, number>;
  danglingParents: Set<string>;
}

/** A TreeMemo for a transcript assembled in full. */
export function treeMemo(transcript: Transcript): TreeMemo {
  const byId = new Map<string, number>();
  for (const e of transcript.entries) if (e.type !== "session" && e.id !== null) byId.set(e.id, e.index);
  const danglingParents = new Set<string>();
  for (const e of transcript.entries) {
    if (e.type !== "session" && e.parentId !== null && !byId.has(e.parentId)) danglingParents.add(e.parentId);
  }
  return { transcript, byId, danglingParents };
}

/**
 * The append fast path (OpenClaw's usual append: new entries, each the child of the previous leaf): the
 * active branch grows by the new entries and every tree issue stays as it was, so nothing is walked again.
 * Null when any new entry could change the tree otherwise — a header, a `leaf` row, a side append, a
 * missing, repeated or awaited id, or a parent other than the current leaf — and tree.ts decides in full.
 */
export function extendTree(
  memo: TreeMemo,
  entries: TranscriptEntry[],
  from: number,
  newLineIssues: ParseIssue[],
): TreeMemo | null {
  const prev = memo.transcript;
  if (prev.leafIndex === null || prev.entries.length !== from) return null;
  // A leaf row pointing at an id nobody had yet: an appended entry with that id would end its warning.
  if (prev.issues.some((i) => i.code === "unknown-leaf-target")) return null;
  let leafId = entries[prev.leafIndex]?.id ?? null;
  // The parent walk resolves ids through byId: the leaf's id must name the leaf itself (not a later
  // side-appended entry that reused it).
  if (leafId === null || memo.byId.get(leafId) !== prev.leafIndex) return null;
  const added = entries.slice(from);
  const addedIds = new Set<string>();
  for (const e of added) {
    if (e.type === "session" || e.type === "leaf" || e.id === null) return null;
    if (typeof e.raw.appendMode === "string" && e.raw.appendMode === "side") return null;
    if (memo.byId.has(e.id) || addedIds.has(e.id) || memo.danglingParents.has(e.id)) return null;
    if (e.parentId !== leafId) return null;
    addedIds.add(e.id);
    leafId = e.id;
  }
  if (added.length === 0 && newLineIssues.length === 0) return memo;
  for (const e of added) if (e.id !== null) memo.byId.set(e.id, e.index);
  const last = added[added.length - 1];
  const transcript: Transcript = {
    header: prev.header,
    version: prev.version,
    entries,
    activeBranch: prev.activeBranch.concat(added.map((e) => e.index)),
    leafIndex: last ? last.index : prev.leafIndex,
    // new line issues are on later lines than every earlier issue: the line order of a full assembly holds
    issues: prev.issues.concat(newLineIssues),
  };
  return { transcript, byId: memo.byId, danglingParents: memo.danglingParents };
}
