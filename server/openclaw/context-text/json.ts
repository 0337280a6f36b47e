// `/context json` — spec context-report.md §5.3: the stored report object as stored (key order preserved) and the
// session's token fields per family. Pure.

import type { JsonObject, JsonValue } from "../../../shared/json.ts";
import { freshTotalTokens } from "./session-tokens.ts";
import type { ContextFamily } from "./types.ts";

/** `{report, session}` of `/context json` (spec §5.3). */
export function contextJsonText(
  report: JsonObject,
  entry: JsonObject,
  family: ContextFamily,
  contextTokens: number | null,
): string {
  const orNull = (v: JsonValue | undefined): JsonValue => v ?? null;
  let session: JsonObject;
  if (family === "2026.3") {
    session = {
      totalTokens: orNull(entry.totalTokens),
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  } else if (family === "2026.7") {
    session = {
      totalTokens: orNull(entry.totalTokens),
      totalTokensFresh: orNull(entry.totalTokensFresh),
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  } else {
    // 9.x: totalTokensFresh is computed (fresh total known), not copied.
    const fresh = freshTotalTokens(entry, family);
    session = {
      totalTokens: fresh ?? null,
      totalTokensFresh: fresh !== undefined,
      inputTokens: orNull(entry.inputTokens),
      outputTokens: orNull(entry.outputTokens),
      contextTokens,
    };
  }
  return JSON.stringify({ report, session }, null, 2);
}
