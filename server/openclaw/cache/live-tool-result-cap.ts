// A context-capped tool result goes out live in one form and is replayed from the transcript in another
// (OpenClaw 2026.7.1, `src/agents/embedded-agent-runner/tool-result-truncation.ts` in dist
// `tool-result-truncation-*.js`): a tool result longer than the live cap (min(30 % of the context window × 4
// chars, 16k / 32k at ≥ 100k tokens / 64k at ≥ 200k), or `toolResultMaxChars`) is cut on the request path by
// `truncateOversizedToolResultsInMessages`, and the session copy by `truncateOversizedToolResultsInSession`, each
// ending in `[... N more characters truncated; rerun with narrower args if needed]`. The two cuts need not agree:
// in the j1 capture (2026.7.1) a capped `read` went out as 31,869 chars on the request that first carried it and
// as the stored 31,935 chars on every request after (FINDINGS §14), so the next call read only the prefix before
// it. A later call's miss that stops before such a result is explained by it; 2026.9.6 captures show no such
// re-send, so only the 2026.7 family is judged. Pure.

import { arr, isObject, obj, str } from "../../../shared/json.ts";
import { escapeRegExp, letterShape as shape } from "../../../shared/text-match.ts";
import { readBlockText } from "../../model/lazy-text.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import type { RuleFamily } from "../bootstrap/files-and-limits.ts";

/** `formatContextLimitTruncationNotice`'s words after the count, by letter shape. */
const NOTICE_TAIL = shape(" more characters truncated; rerun with narrower args if needed]");
const NOTICE = new RegExp(`\\[\\.\\.\\. [0-9]+${escapeRegExp(NOTICE_TAIL)}`, "u");

/** Whether the family's live tool-result cap can send a result in another form than it stores. */
export function liveCapMayDiffer(family: RuleFamily): boolean {
  return family === "2026.7";
}

/**
 * The tool result's text carries the context-cap notice (it was cut to the live cap). A long text is read back
 * from where it is stored (model/lazy-text.ts); one that cannot be read back counts as not carrying it.
 */
export function carriesContextCapNotice(e: TranscriptEntry): boolean {
  const message = e.type === "message" ? obj(e.raw, "message") : undefined;
  if (!message || str(message, "role") !== "toolResult") return false;
  for (const block of arr(message, "content") ?? []) {
    if (!isObject(block) || str(block, "type") !== "text") continue;
    const text = readBlockText(block);
    if (text !== null && text.length > NOTICE_TAIL.length && NOTICE.test(shape(text))) return true;
  }
  return false;
}
