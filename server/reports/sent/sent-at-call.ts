// The context as sent at ONE agent call (issue 16, `map --call N` and the turn scrubber): the call's sent counts
// and billed usage, and the context map as it stood at that call — the model-context list before the call plus
// its reply, tool results in the call's pruning state. The map keeps its ids (entry-based), so a tile keeps its
// place between neighbouring calls. Tile chars are the map's (stored text as sent; no per-message stamps or
// carrier — those are in `sent.messageChars`). Built from the memoised per-call counts and one walk to the call,
// never the whole reconstruction again. Pure.

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import { isObject, obj, str } from "../../../shared/json.ts";
import type {
  SentAtCallDTO,
  SentCallDTO,
  SentCallsDTO,
  SentTileDTO,
  SentTileState,
  SentToolResultCharsDTO,
  SentViewDTO,
} from "../../../shared/sent.ts";
import { buildContextMessages } from "../../model/context-messages.ts";
import { modelCallsOf } from "../../model/model-calls.ts";
import type { ContextMessage } from "../../model/session.ts";
import { agentMessageOf } from "../../openclaw/wire/agent-message.ts";
import { projectToolResult, type ToolResultWire } from "../../openclaw/wire/tool-result-projection.ts";
import { contentParts } from "../context-map/content-parts.ts";
import { buildContextMap } from "../context-map/context-map.ts";
import type { SentInput } from "./sent-calls.ts";
import { ReplayProjections } from "./sent-projections.ts";

function leaves(node: MapNode, out: MapNode[]): MapNode[] {
  if (!node.children?.length) {
    if (node.id) out.push(node);
    return out;
  }
  for (const c of node.children) leaves(c, out);
  return out;
}

/** Tool-result texts as sent at the call (placeholders of cut texts keep their length: chars are exact). */
function sentTexts(
  context: readonly ContextMessage[],
  states: ReadonlyMap<number, ToolResultWire>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const cm of context) {
    if (cm.role !== "toolResult") continue;
    const w = states.get(cm.entryIndex);
    if (!w) continue;
    const a = projectToolResult(agentMessageOf(cm), w);
    const text =
      typeof a.content === "string"
        ? a.content
        : a.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
    out.set(a.toolCallId ?? "", text);
  }
  return out;
}

/** The map at call index `index` (0-based) and, per tool result in it, its size stored vs as sent; or null. */
function mapAndChars(
  input: SentInput,
  index: number,
): { map: ContextMapDTO; chars: Record<string, SentToolResultCharsDTO> } | null {
  const call = input.replay.calls[index];
  if (!call) return null;
  const transcript = input.session.transcript;
  const context = buildContextMessages(transcript, { beforeIndex: call.entryIndex });
  const reply = transcript.entries[call.entryIndex]?.raw.message;
  if (isObject(reply)) context.push({ role: "assistant", message: reply, entryIndex: call.entryIndex });
  const states = new ReplayProjections(transcript, input.replay).at(index).byEntry;
  const usage = modelCallsOf(transcript).at(call.entryIndex)?.usage ?? null;
  const sent = sentTexts(context, states);
  const map = buildContextMap({
    session: input.session,
    report: obj(input.session.entry, "systemPromptReport") ?? null,
    contextMessages: context,
    lastCallUsage: usage
      ? { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite }
      : null,
    windowTokens: null,
    sentToolResultText: sent,
  });
  return { map, chars: toolResultChars(context, sent) };
}

/**
 * Each tool result's size in the map's measure (text length + OpenClaw's estimate of non-text parts): as stored
 * in the transcript, and as sent at the call (the projected text; unchanged results are sent as stored).
 */
function toolResultChars(
  context: readonly ContextMessage[],
  sent: ReadonlyMap<string, string>,
): Record<string, SentToolResultCharsDTO> {
  const out: Record<string, SentToolResultCharsDTO> = {};
  for (const cm of context) {
    if (cm.role !== "toolResult") continue;
    const id = str(cm.message, "toolCallId");
    if (id === undefined) continue;
    const parts = contentParts(cm.message.content);
    const stored = parts.text.length + parts.nonText;
    out[id] = { stored, sent: sent.get(id)?.length ?? stored };
  }
  return out;
}

/** The context map at call index `index` (0-based), or null. */
export function sentMapAtCall(input: SentInput, index: number): ContextMapDTO | null {
  return mapAndChars(input, index)?.map ?? null;
}

/** The scrubber's view of call row `row` (its replay index is `row.call - 1`), or null. */
export function sentViewAtCall(input: SentInput, row: SentCallDTO): SentViewDTO | null {
  const index = row.call - 1;
  const at = mapAndChars(input, index);
  if (!at) return null;
  const toolResults = input.replay.statesAt(index)?.toolResults ?? {};
  return { call: row, map: at.map, toolResults, toolResultChars: at.chars };
}

/** `map --call N --json` (N 1-based) from the session's per-call counts; null when there is no call N. */
export function sentAtCall(input: SentInput, calls: SentCallsDTO, call: number): SentAtCallDTO | null {
  const index = call - 1;
  const row = calls.calls[index];
  const map = sentMapAtCall(input, index);
  if (!row || !map) return null;
  const stateByCall = new Map<string, SentTileState>();
  for (const d of input.replay.statesAt(index)?.details ?? []) stateByCall.set(d.toolCallId, d.state);
  const tiles: SentTileDTO[] = leaves(map.root, []).map((n) => {
    const id = n.id.startsWith("conversation/tool-results/")
      ? decodeURIComponent(n.id.slice(n.id.lastIndexOf("/") + 1))
      : null;
    return { path: n.id, chars: n.chars, state: id === null ? null : (stateByCall.get(id) ?? "full") };
  });
  return { ...row, tiles, basis: calls.basis };
}
