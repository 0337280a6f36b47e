// Reasoning items of the previous turn, re-sent by OpenClaw and removed by OpenAI (the OpenAI Responses APIs).
//
// What OpenClaw sends: every assistant message of the same provider, api and model keeps its `thinking` blocks
// with their `thinkingSignature` (pi-ai 0.51–0.55, the library OpenClaw 2026.2.x pins: transform-messages.js
// "For same model: keep thinking blocks with signatures (needed for replay)"), and the Responses conversion puts
// each signature back on the wire as the reasoning item it was (openai-responses-shared.js
// `convertResponsesMessages`: `output.push(JSON.parse(block.thinkingSignature))`), whatever turn it belongs to;
// a message of another model gets its thinking as plain text instead. OpenClaw's own fork (`@openclaw/ai`,
// 2026.7.35 and 2026.9.6) still replays them (`replayReasoningItems ?? true`).
//
// What OpenAI does with them: "In turn 2, any reasoning items from turn 1 are ignored and removed, since the
// model does not reuse reasoning items from previous turns. As a result, the fourth API call in the diagram
// cannot achieve a full cache hit, because those reasoning items are missing from the prompt" (OpenAI cookbook,
// "Better performance from reasoning models using the Responses API", Caching;
// https://cookbook.openai.com/examples/responses_api/reasoning_items). So the first call of a new run renders
// a prompt without the previous run's reasoning: the prompt is shorter than the previous call's, and it matches
// what the cache holds only up to the previous run's first reasoning item — the prompt of the call that wrote it.
// Inside a run (the tool loop, no new user message) the items stay and the cache is read whole.
//
// A real Feb 2026 session (openai / gpt-5.1-codex, openai-responses) shows exactly that on every new run after
// a tool loop: e.g. the previous call's prompt 94,373 tokens, this one's 89,225, read 29,440 — the previous run
// had started at 29,792. Pure.

import type { CallCauseDTO } from "../../../shared/cost.ts";
import { fmtInt } from "../../../shared/format.ts";
import { obj } from "../../../shared/json.ts";
import { blocksOf } from "../../model/message-blocks.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import { hitTolerance } from "./lineage.ts";

/** The OpenAI Responses transports (`openai-responses`, `azure-openai-responses`, the ChatGPT / Codex ones, …). */
export function isResponsesApi(api: string | null): boolean {
  return api !== null && /(^|-)responses(-transport)?$/u.test(api);
}

/**
 * How many reasoning items the call's assistant message makes OpenClaw re-send to `target`'s model: its
 * `thinking` blocks with a signature (each goes back as its own item), when written by the same provider, api
 * and model; 0 otherwise.
 */
export function replayedReasoningItems(
  entry: TranscriptEntry | undefined,
  call: ModelCall,
  target: ModelCall,
): number {
  if (!entry || !isResponsesApi(call.api)) return 0;
  if (call.provider !== target.provider || call.api !== target.api || call.model !== target.model) return 0;
  const message = entry.type === "message" ? obj(entry.raw, "message") : undefined;
  if (!message) return 0;
  return blocksOf(message.content).filter(
    (b) => b.kind === "thinking" && b.signature !== undefined && b.signature !== "",
  ).length;
}

/** OpenAI caches prompts in blocks of 128 tokens: a read may end up to one block past a boundary. */
const CACHE_BLOCK_TOKENS = 128;

/**
 * Whether a new run's read stops where the previous run's first reasoning item was, `readableTokens` (the prompt
 * of the call that wrote it): nothing after it can match, so the read ends there (one cache block's slack), and
 * it reaches it within the cache's hit tolerance (lineage.ts). A read far below is something earlier in the
 * prompt changing, which the removed reasoning does not explain; a read of nothing is not a stop at all.
 */
export function readStopsAtDroppedReasoning(n: ModelCall, readableTokens: number): boolean {
  const read = n.usage.cacheRead;
  if (readableTokens <= 0 || read <= 0) return false;
  return read <= readableTokens + CACHE_BLOCK_TOKENS && read >= readableTokens - hitTolerance(readableTokens);
}

/** One call of a run with its assistant entry. */
export interface RunCall {
  call: ModelCall;
  entry: TranscriptEntry | undefined;
}

/**
 * The cause `reasoning-dropped` for n, the first call of a new run, when the previous run (`run`: m's run, newest
 * call first) carried reasoning items OpenClaw re-sent and n's read stops where the first of them began; else null.
 */
export function reasoningDropped(n: ModelCall, m: ModelCall, run: readonly RunCall[]): CallCauseDTO | null {
  let first: ModelCall | undefined;
  let items = 0;
  for (const c of run) {
    const k = replayedReasoningItems(c.entry, c.call, n);
    if (k === 0) continue;
    items += k;
    first = c.call; // the run is newest first: the last one found is the earliest
  }
  if (!first || !readStopsAtDroppedReasoning(n, first.promptTokens)) return null;
  const label = first.entryId ?? `#${first.entryIndex}`;
  return {
    cause: "reasoning-dropped",
    detail: `first call of a new run: it read ${fmtInt(n.usage.cacheRead)} of its ${fmtInt(n.promptTokens)} prompt tokens (the previous call's prompt: ${fmtInt(m.promptTokens)}), up to where the previous run's first reasoning item began (after the ${fmtInt(first.promptTokens)}-token prompt of ${label}): OpenClaw re-sends that run's ${fmtInt(items)} reasoning item${items === 1 ? "" : "s"} of ${n.model ?? "this model"}, and OpenAI removes a previous turn's reasoning items once a new user message arrives, so everything after the first of them is sent again uncached, at the full input price`,
    entryIds: [label],
  };
}
