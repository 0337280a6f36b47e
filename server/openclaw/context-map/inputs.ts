// What OpenClaw's `/context map` reads from the session besides the stored report: the fresh cached total of the
// caption/footer and the transcript messages the 2026.9.x Conversation group sums (spec context-report.md §4,
// §5.4). Pure.

import { type JsonObject, num, obj, str } from "../../../shared/json.ts";
import type { MapFamily } from "../../../shared/openclaw-picture.ts";

/** The `Session tokens` freshness rule (spec §4) that decides the caption's/footer's actual context. */
export function mapFreshTotalTokens(entry: JsonObject | null, family: MapFamily): number | null {
  const total = num(entry, "totalTokens");
  if (total === undefined || total < 0) return null;
  if (family === "2026.9") {
    return entry?.totalTokensFresh === true && entry?.totalTokensVersion === 1 ? total : null;
  }
  return entry?.totalTokensFresh === false ? null : total;
}

/**
 * The transcript messages the 2026.9.x map sums: every `message` entry on the active branch (pre-compaction ones
 * and transcript-only assistants included — OpenClaw reads the whole session; UNVERIFIED, spec §5.4), plus the
 * compaction summaries, non-empty branch summaries and `custom_message` rows on the branch.
 */
export function openClawMapMessages(
  entries: readonly { type: string; raw: JsonObject }[],
  branch: readonly number[],
): JsonObject[] {
  const out: JsonObject[] = [];
  for (const i of branch) {
    const e = entries[i];
    if (!e) continue;
    if (e.type === "message") {
      const m = obj(e.raw, "message");
      if (m) out.push(m);
    } else if (e.type === "compaction") {
      out.push({ role: "compactionSummary", summary: str(e.raw, "summary") ?? "" });
    } else if (e.type === "branch_summary") {
      const s = str(e.raw, "summary") ?? "";
      if (s !== "") out.push({ role: "branchSummary", summary: s });
    } else if (e.type === "custom_message") {
      out.push({ role: "custom", content: e.raw.content ?? "" });
    }
  }
  return out;
}
