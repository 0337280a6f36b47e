// When a new Transcript of a session only continues an older one (issue 9, 18: append → report): it keeps every
// entry object of the old one and continues the old active branch with appended entries only. What a report
// derived from the old entries then holds for the new transcript too — the resumable pruning replay, the cost
// run, the decoded model calls continue instead of starting over.

import type { Transcript } from "./session.ts";

export function continuesTranscript(old: Transcript, next: Transcript): boolean {
  const n = old.entries.length;
  const b = old.activeBranch.length;
  if (next.entries.length < n || next.activeBranch.length < b) return false;
  if (n > 0 && next.entries[n - 1] !== old.entries[n - 1]) return false;
  // a path from the root is unique: the same entry at the old leaf's position means the same prefix
  if (b > 0 && next.activeBranch[b - 1] !== old.activeBranch[b - 1]) return false;
  // only appended entries continue the branch (an older side entry joining it changes what was on it)
  for (let i = b; i < next.activeBranch.length; i++) if ((next.activeBranch[i] ?? -1) < n) return false;
  return true;
}
