// The context as sent at ONE agent call (issue 16, `map --call N`): the call's sent counts and billed usage, and
// the context map's leaves as they stood at that call — the model-context list before the call plus its reply,
// tool results in the call's pruning state. Tiles keep the map's ids (entry-based), so a tile keeps its place
// between neighbouring calls. Tile chars are the map's (stored text as sent; no per-message stamps or carrier —
// those are in `sent.messageChars`). Pure.

import type { MapNode } from "../../../shared/context-map.ts";
import { obj } from "../../../shared/json.ts";
import type { SentAtCallDTO, SentTileDTO, SentTileState } from "../../../shared/sent.ts";
import { modelCallsOf } from "../../model/model-calls.ts";
import type { ContextMessage } from "../../model/session.ts";
import { agentMessageOf } from "../../openclaw/wire/agent-message.ts";
import { projectToolResult, type ToolResultWire } from "../../openclaw/wire/tool-result-projection.ts";
import { buildContextMap } from "../context-map/context-map.ts";
import { type SentInput, sentCallsAndWire } from "./sent-calls.ts";

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

/** `map --call N --json` (N 1-based); null when the session has no call N. */
export function sentAtCall(input: SentInput, call: number): SentAtCallDTO | null {
  const index = call - 1;
  const { dto: all, calls } = sentCallsAndWire(input, (i) => i === index);
  const row = all.calls[index];
  if (!row) return null;
  const wire = calls[index];
  const states = wire?.projections ?? new Map<number, ToolResultWire>();
  const transcript = input.session.transcript;
  const reply = transcript.entries[wire?.entryIndex ?? -1];
  const context: ContextMessage[] = [...(wire?.context ?? [])];
  const replyMessage = reply?.raw.message;
  if (reply && replyMessage && typeof replyMessage === "object" && !Array.isArray(replyMessage))
    context.push({ role: "assistant", message: replyMessage, entryIndex: reply.index });
  const usage = modelCallsOf(transcript).at(wire?.entryIndex ?? -1)?.usage ?? null;
  const map = buildContextMap({
    session: input.session,
    report: obj(input.session.entry, "systemPromptReport") ?? null,
    contextMessages: context,
    lastCallUsage: usage
      ? { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite }
      : null,
    windowTokens: null,
    sentToolResultText: sentTexts(context, states),
  });
  const stateByCall = new Map<string, SentTileState>();
  for (const d of input.replay.statesAt(index)?.details ?? []) stateByCall.set(d.toolCallId, d.state);
  const tiles: SentTileDTO[] = leaves(map.root, []).map((n) => {
    const id = n.id.startsWith("conversation/tool-results/")
      ? decodeURIComponent(n.id.slice(n.id.lastIndexOf("/") + 1))
      : null;
    return { path: n.id, chars: n.chars, state: id === null ? null : (stateByCall.get(id) ?? "full") };
  });
  return { ...row, tiles, basis: all.basis };
}
