// When a new Transcript of a session only continues an older one (issue 9, 18: append → report): it keeps every
// entry object of the old one and continues the old active branch with appended entries only. What a report
// derived from the old entries then holds for the new transcript too — the resumable pruning replay, the cost
// run, the decoded model calls continue instead of starting over.

import type { Transcript, TranscriptEntry } from "./session.ts";

export function continuesTranscript(old: Transcript | GrowthMark, next: Transcript): boolean {
  const mark = "entries" in old ? growthMark(old) : old;
  const n = mark.length;
  const b = mark.branchLength;
  if (next.entries.length < n || next.activeBranch.length < b) return false;
  if (n > 0 && next.entries[n - 1] !== mark.last) return false;
  // a path from the root is unique: the same entry at the old leaf's position means the same prefix
  if (b > 0 && next.activeBranch[b - 1] !== mark.branchLast) return false;
  // only appended entries continue the branch (an older side entry joining it changes what was on it)
  for (let i = b; i < next.activeBranch.length; i++) if ((next.activeBranch[i] ?? -1) < n) return false;
  return true;
}

/** What continuesTranscript needs of the old transcript — kept instead of the Transcript, which holds every entry. */
export interface GrowthMark {
  length: number;
  last: TranscriptEntry | undefined;
  branchLength: number;
  branchLast: number | undefined;
}

export function growthMark(t: Transcript): GrowthMark {
  return {
    length: t.entries.length,
    last: t.entries[t.entries.length - 1],
    branchLength: t.activeBranch.length,
    branchLast: t.activeBranch[t.activeBranch.length - 1],
  };
}
