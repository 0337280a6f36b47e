// Transcript-only assistants (spec transcript.md §8): assistant rows OpenClaw writes into the transcript but
// never sends to a model — gateway-injected command replies and delivery mirrors. They stay out of the
// model-context list (keeping them would shift the keep-last-assistants cutoff), out of usage, cost and
// cache statistics, and out of "the last model call" everywhere (session list, reports).
//
// Reproduces 2026.9.6 `src/shared/transcript-only-openclaw-assistant.ts`
// (isTranscriptOnlyOpenClawAssistantMessage, isOpenClawMessageToolMirrorAssistantMessage), plus the
// pre-rename `clawdbot` delivery mirror seen in real data (../shared/corpus). Pure.

import { type JsonObject, obj, str } from "../../shared/json.ts";

/** `provider: "openclaw"` models that are transcript artifacts (OpenClaw's TRANSCRIPT_ONLY_OPENCLAW_ASSISTANT_MODELS). */
const TRANSCRIPT_ONLY_MODELS = new Set(["delivery-mirror", "gateway-injected"]);
/** `openclawDeliveryMirror.kind` values that mark a mirror whose provider/model were stripped (OPENCLAW_DELIVERY_MIRROR_KINDS). */
const DELIVERY_MIRROR_KINDS = new Set([
  "channel-final",
  "channel-final-suppressed",
  "message-tool-source-reply",
  "cron-direct-delivery-context",
]);

/**
 * An assistant message that was never sent to a model: `openclaw` delivery-mirror / gateway-injected, a
 * mirror marker of a known kind, or the pre-rename `clawdbot` delivery mirror. Only `role: "assistant"` rows
 * qualify, as in OpenClaw.
 */
export function isTranscriptOnlyAssistant(message: JsonObject): boolean {
  if (str(message, "role") !== "assistant") return false;
  const provider = str(message, "provider");
  const model = str(message, "model") ?? "";
  if (provider === "openclaw" && TRANSCRIPT_ONLY_MODELS.has(model)) return true;
  if (provider === "clawdbot" && model === "delivery-mirror") return true;
  const kind = str(obj(message, "openclawDeliveryMirror"), "kind");
  return kind !== undefined && DELIVERY_MIRROR_KINDS.has(kind);
}

/** Usage/cost exclusion additionally drops message-tool mirrors (transcript.md §8; their context effect is UNVERIFIED). */
export function isUsageExcludedAssistant(message: JsonObject): boolean {
  if (isTranscriptOnlyAssistant(message)) return true;
  return str(message, "role") === "assistant" && message.openclawMessageToolMirror !== undefined;
}
