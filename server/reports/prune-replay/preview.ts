// Before/after text of one tool result at one replayed call (UI): the stored text and the text as sent —
// soft-trim: head … tail + the trim note; hard-clear: the placeholder (pruning.md §1.7, §2.5).

import { isObject, type JsonObject, str } from "../../../shared/json.ts";
import type {
  PruneAlgorithm,
  PruneSettingsDTO,
  ToolResultPreviewDTO,
  ToolResultWireState,
} from "../../../shared/prune.ts";
import type { LoadedSession } from "../../model/session.ts";
import { estimateFlavorOf } from "../../openclaw/pruning/generation.ts";
import { joinToolResultText, softTrimRulesOf, softTrimText } from "../../openclaw/pruning/soft-trim.ts";
import type { ReplayResult } from "./replay-result.ts";

/** Wire text of a tool result message in a state (soft-trim: head … tail + note; hard-clear: placeholder). */
export function toolResultWireText(
  message: JsonObject,
  state: ToolResultWireState,
  settings: PruneSettingsDTO,
  algorithm: PruneAlgorithm,
): string {
  if (state === "hard-clear") return settings.hardClear.placeholder;
  const joined = joinToolResultText(message.content, algorithm !== "2026.3", true);
  if (state === "soft-trim") {
    return (
      softTrimText(joined, settings.softTrim, softTrimRulesOf(estimateFlavorOf(algorithm))) ?? joined.text
    );
  }
  return joined.text;
}

/** Before/after text of one tool result at one replayed call (index into the replay's calls). */
export function previewToolResultAtCall(input: {
  session: LoadedSession;
  replay: ReplayResult;
  callIndex: number;
  toolCallId: string;
}): ToolResultPreviewDTO | null {
  const state = input.replay.statesAt(input.callIndex)?.toolResults[input.toolCallId];
  if (!state) return null;
  const transcript = input.session.transcript;
  let message: JsonObject | null = null;
  for (const idx of transcript.activeBranch) {
    const m = transcript.entries[idx]?.raw.message;
    if (isObject(m) && m.role === "toolResult" && m.toolCallId === input.toolCallId) message = m;
  }
  if (!message) return null;
  const { algorithm, settings } = input.replay.summary();
  const before = joinToolResultText(message.content, algorithm !== "2026.3", true).text;
  const after = toolResultWireText(message, state, settings, algorithm);
  const note =
    state === "full"
      ? "sent in full"
      : state === "soft-trim"
        ? `soft-trimmed: ${before.length} → ${after.length} chars`
        : `hard-cleared: replaced by the placeholder (${after.length} chars)`;
  return {
    toolCallId: input.toolCallId,
    toolName: str(message, "toolName") ?? "",
    state,
    before,
    after,
    note,
  };
}
