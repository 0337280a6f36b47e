// The conversation leaves of clawscope's map: one per user message, assistant text / thinking / tool call, tool
// result (as sent at the last call where the caller knows the wire text), summary and other message, in
// message order — from the model-context list (transcript.md §7) through model/message-blocks.ts. One function
// per role. Ids are handed out in message order whether or not a leaf is kept (0-char leaves are dropped after),
// so the tokenizer texts (token-texts.ts) get the same ids from a fresh allocator.

import { fmtInt } from "../../../shared/format.ts";
import { isObject, type JsonObject, str } from "../../../shared/json.ts";
import { blocksOf } from "../../model/message-blocks.ts";
import type { ContextMessage, LoadedSession } from "../../model/session.ts";
import { summaryWireText } from "../../model/summary-text.ts";
import { bashExecutionText } from "../../openclaw/bash-execution.ts";
import { type ContentParts, contentParts, partsSource, textParts } from "./content-parts.ts";
import { type IdAllocator, idSegment, type LeafSpec, preview } from "./leaf-spec.ts";

/** Where a message sits, for ids, names and source sentences. */
interface MessageAt {
  message: JsonObject;
  role: string;
  entryId: string;
  /** Position in the context list (0-based) and its 1-based number. */
  pos: number;
  n: number;
  where: string;
}

/** A conversation leaf of `chars` from `parts` (text to tokenise, non-text chars counted as chars/4). */
function partsLeaf(at: MessageAt, id: string, name: string, parts: ContentParts, source: string): LeafSpec {
  return {
    id,
    name,
    group: "conversation",
    chars: parts.text.length + parts.nonText,
    source: partsSource(source, parts),
    text: parts.text,
    ...(parts.lazy ? { lazy: parts.lazy } : {}),
    nonTextChars: parts.nonText,
    ...(parts.images > 0 ? { images: parts.images } : {}),
    messagePos: at.pos,
  };
}

function userLeaf(at: MessageAt, ids: IdAllocator): LeafSpec[] {
  const parts = contentParts(at.message.content);
  const id = ids.take(`conversation/user/${idSegment(at.entryId)}`);
  return [
    partsLeaf(at, id, `#${at.n} ${preview(parts.text) || "(no text)"}`, parts, `text length of ${at.where}`),
  ];
}

/** Text (+ other blocks as JSON), thinking (no signatures, as OpenClaw's estimate) and one leaf per tool call. */
function assistantLeaves(at: MessageAt, ids: IdAllocator): LeafSpec[] {
  const texts: string[] = [];
  const thinking: string[] = [];
  let other = 0;
  const calls: { id: string; name: string; args: string }[] = [];
  for (const b of blocksOf(at.message.content)) {
    if (b.kind === "text") texts.push(b.text ?? "");
    else if (b.kind === "thinking") thinking.push(b.text ?? "");
    else if (b.kind === "redactedThinking") thinking.push(b.data ?? "");
    else if (b.kind === "toolCall")
      calls.push({ id: b.id ?? "", name: b.name ?? "(unknown)", args: b.argsJson ?? "" });
    else other += b.jsonLength ?? 0;
  }
  const text = texts.join("");
  const think = thinking.join("");
  const leaf = (
    id: string,
    name: string,
    chars: number,
    t: string,
    source: string,
    nonTextChars = 0,
  ): LeafSpec => ({
    id,
    name,
    group: "conversation",
    chars,
    source,
    text: t,
    nonTextChars,
    messagePos: at.pos,
  });
  return [
    leaf(
      ids.take(`conversation/assistant/text/${idSegment(at.entryId)}`),
      `#${at.n} ${preview(text)}`,
      text.length + other,
      text,
      other > 0
        ? `text blocks of ${at.where} + ${fmtInt(other)} chars of other blocks as JSON`
        : `text blocks of ${at.where}`,
      other,
    ),
    leaf(
      ids.take(`conversation/assistant/thinking/${idSegment(at.entryId)}`),
      `#${at.n} thinking`,
      think.length,
      think,
      `thinking text of ${at.where} (signatures not counted, as OpenClaw's estimate)`,
    ),
    ...calls.map((c) =>
      leaf(
        ids.take(`conversation/assistant/tool-calls/${idSegment(c.id || `${at.entryId}-${c.name}`)}`),
        `${c.name} ${preview(c.args, 40)}`,
        c.args.length,
        c.args,
        `JSON.stringify(arguments) of tool call ${c.id || "(no id)"} in ${at.where} (name and id not counted)`,
      ),
    ),
  ];
}

function toolResultLeaf(at: MessageAt, ids: IdAllocator, sent?: ReadonlyMap<string, string>): LeafSpec[] {
  const tool = str(at.message, "toolName") ?? "(unknown tool)";
  const callId = str(at.message, "toolCallId") ?? at.entryId;
  // The wire form at the last call when the caller knows it (pruning projection: soft-trim / hard-clear).
  const wire = sent?.get(callId);
  const parts = wire !== undefined ? textParts(wire) : contentParts(at.message.content);
  const how =
    wire !== undefined
      ? `text length of the ${tool} result ${callId} as sent at the last call (after pruning), ${at.where}`
      : `text length of the ${tool} result ${callId} in the context list, ${at.where}`;
  const id = ids.take(`conversation/tool-results/${idSegment(tool)}/${idSegment(callId)}`);
  return [partsLeaf(at, id, `${tool} ${preview(parts.head, 40)}`, parts, how)];
}

/** Summary text of a compactionSummary / branchSummary message (`summary` field, else its text content). */
function summaryText(message: JsonObject): string {
  const s = str(message, "summary");
  if (s !== undefined) return s;
  let out = "";
  for (const b of blocksOf(message.content)) {
    if (b.kind === "text") out += b.text ?? "";
    else if (b.kind !== "other") out += str(b.block, "text") ?? "";
    else if (isObject(b.raw)) out += str(b.raw, "text") ?? "";
  }
  return out;
}

/** The wire text of a summary (prefix + summary + suffix, transcript.md §6). */
function summaryLeaf(
  at: MessageAt,
  ids: IdAllocator,
  role: "compactionSummary" | "branchSummary",
): LeafSpec[] {
  const summary = summaryText(at.message);
  const compaction = role === "compactionSummary";
  const id = ids.take(
    compaction ? "conversation/compaction-summary" : `conversation/branch-summaries/${idSegment(at.entryId)}`,
  );
  const name = compaction ? "Compaction summary" : `#${at.n} ${preview(summary)}`;
  const what = compaction ? "compaction summary" : "branch summary";
  return [
    partsLeaf(
      at,
      id,
      name,
      textParts(summaryWireText(role, summary)),
      `wire text of the ${what} (prefix + summary + suffix, transcript.md §6), ${at.where}`,
    ),
  ];
}

/** custom / bashExecution (its wire text) / any other role: its content as sent. */
function otherLeaf(at: MessageAt, ids: IdAllocator): LeafSpec[] {
  const parts =
    at.role === "bashExecution" ? textParts(bashExecutionText(at.message)) : contentParts(at.message.content);
  const id = ids.take(`conversation/other/${idSegment(at.entryId)}`);
  return [
    partsLeaf(
      at,
      id,
      `#${at.n} ${at.role}: ${preview(parts.text, 40)}`,
      parts,
      `content length of the ${at.role} message ${at.where}`,
    ),
  ];
}

function messageLeaves(at: MessageAt, ids: IdAllocator, sent?: ReadonlyMap<string, string>): LeafSpec[] {
  switch (at.role) {
    case "user":
      return userLeaf(at, ids);
    case "assistant":
      return assistantLeaves(at, ids);
    case "toolResult":
      return toolResultLeaf(at, ids, sent);
    case "compactionSummary":
    case "branchSummary":
      return summaryLeaf(at, ids, at.role);
    default:
      return otherLeaf(at, ids);
  }
}

/** Conversation leaves, in message order (one per user message, assistant part, tool call, tool result, summary). */
export function conversationLeaves(
  session: LoadedSession,
  messages: readonly ContextMessage[],
  ids: IdAllocator,
  sentToolResultText?: ReadonlyMap<string, string>,
): LeafSpec[] {
  const out: LeafSpec[] = [];
  messages.forEach((cm, pos) => {
    const entryId = session.transcript.entries[cm.entryIndex]?.id ?? `e${cm.entryIndex}`;
    const n = pos + 1;
    const at: MessageAt = {
      message: cm.message,
      role: cm.role,
      entryId,
      pos,
      n,
      where: `context message #${n} (transcript entry ${entryId})`,
    };
    for (const leaf of messageLeaves(at, ids, sentToolResultText)) if (leaf.chars > 0) out.push(leaf);
  });
  return out;
}
