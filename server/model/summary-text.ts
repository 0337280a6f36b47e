// The wire texts of the summary messages in the model-context list (context-messages.ts; spec transcript.md §6,
// the same in pi's buildSessionContext and 2026.9.6): a compaction's summary and a branch summary are sent as a
// text wrapped in these prefixes/suffixes. Pure.

export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** The text a summary is sent as. */
export function summaryWireText(role: "compactionSummary" | "branchSummary", summary: string): string {
  return role === "compactionSummary"
    ? `${COMPACTION_SUMMARY_PREFIX}${summary}${COMPACTION_SUMMARY_SUFFIX}`
    : `${BRANCH_SUMMARY_PREFIX}${summary}${BRANCH_SUMMARY_SUFFIX}`;
}
