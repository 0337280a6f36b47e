// Images OpenClaw cuts from replayed history at the start of a run (`pruneProcessedHistoryImages`, called once per
// run on the in-memory messages; the transcript on disk keeps the images): each image block of an older message is
// replaced by `[image data removed - already processed by model]`, so the first run that cuts an image changes the
// prompt at that message and every cache breakpoint after it misses. Where the cut falls, per release:
//  * 2026.3.2: user messages before the last assistant message — the run after the one that got the image;
//  * 2026.3.22 – 2026.4.1: the same, tool results too (a screenshot a tool returned);
//  * 2026.4.9 on (PRESERVE_RECENT_COMPLETED_TURNS = 3; 2026.7.1, 2026.9.6): messages before the 3rd most recent
//    completed turn (wire/history-images.ts imagePruneBeforeIndex; its textual media references are not claimed here).
// The 2026.3 rule family spans 2026.3.2 – 2026.4.x, so for it both placements are tried (said in the detail).

import { isObject, type JsonObject, str } from "../../../shared/json.ts";
import type { RuleFamily } from "../bootstrap/files-and-limits.ts";
import { imagePruneBeforeIndex } from "../wire/history-images.ts";

/** One context message of a run's replayed history, oldest first. */
export interface HistoryMessage {
  role: "user" | "assistant" | "toolResult";
  /** Entry label (id or `#index`). */
  label: string;
  /** Image blocks the cut would replace. */
  images: number;
}

/** The cut's inputs of one raw transcript message, or null when it is no context message. */
export function historyMessage(message: JsonObject, label: string): HistoryMessage | null {
  const role = str(message, "role");
  if (role !== "user" && role !== "assistant" && role !== "toolResult") return null;
  let images = 0;
  const content = message.content;
  if (role !== "assistant" && Array.isArray(content))
    for (const b of content) if (isObject(b) && str(b, "type") === "image") images++;
  return { role, label, images };
}

type Placement = "before-last-reply" | "keep-3-turns";

/** Index before which a run's request replaces images, for its history ending with the run's own prompt. */
function cutIndex(history: readonly HistoryMessage[], placement: Placement, family: RuleFamily): number {
  if (placement === "keep-3-turns")
    return imagePruneBeforeIndex([history], family === "2026.9" ? "2026.9" : "2026.7");
  for (let i = history.length - 1; i >= 0; i--) if (history[i]?.role === "assistant") return i;
  return -1;
}

/**
 * Only image blocks are claimed: a textual media reference is kept when 2026.9's media facts or prune flag say so
 * (wire/history-images.ts pruneMessageImages), which the raw row alone does not decide.
 */
function cuttable(m: HistoryMessage, toolResults: boolean): boolean {
  if (m.role === "toolResult" && !toolResults) return false;
  return m.images > 0;
}

export interface ImageCut {
  /** The messages whose images this run cut first (oldest first). */
  labels: string[];
  images: number;
  rule: string;
}

/**
 * The images the run with history `now` cuts that the run with history `before` (a prefix of it) still sent,
 * or null. Each history ends with its run's prompt (as wire-run.ts passes it to imagePruneBeforeIndex).
 */
export function newlyCutImages(
  before: readonly HistoryMessage[],
  now: readonly HistoryMessage[],
  family: RuleFamily,
  /** False when the histories are the last turns only: an earlier run's "no cut yet" is then unknown, not −1. */
  complete = true,
): ImageCut | null {
  const tries: { placement: Placement; toolResults: boolean; rule: string }[] =
    family === "2026.3"
      ? [
          {
            placement: "before-last-reply",
            toolResults: false,
            rule: "2026.3.2: images of answered user turns",
          },
          {
            placement: "before-last-reply",
            toolResults: true,
            rule: "2026.3.22 – 2026.4.1: images of answered turns, tool results too",
          },
          {
            placement: "keep-3-turns",
            toolResults: true,
            rule: "2026.4.9+: images older than the 3 latest turns",
          },
        ]
      : [
          {
            placement: "keep-3-turns",
            toolResults: true,
            rule: "images older than the 3 latest completed turns",
          },
        ];
  for (const t of tries) {
    const was = cutIndex(before, t.placement, family);
    if (was < 0 && !complete) continue;
    const from = Math.max(0, was);
    const to = cutIndex(now, t.placement, family);
    const hit = now.slice(from, Math.max(from, to)).filter((m) => cuttable(m, t.toolResults));
    if (hit.length > 0)
      return {
        labels: hit.map((m) => m.label),
        images: hit.reduce((s, m) => s + m.images, 0),
        rule: t.rule,
      };
  }
  return null;
}
