// OpenClaw's in-memory message shape between the stored transcript and the provider request ("AgentMessage",
// packages/agent-core of openclaw@2026.9.6 / pi of 2026.7.1), decoded once per stored message: the wire rules
// in this folder read these typed records instead of walking raw JSON. Roles as OpenClaw has them: `user`,
// `assistant`, `toolResult`, `custom` (custom_message rows), `compactionSummary`, `branchSummary`. A user
// message keeps a string `content` as a string (it stays a string on the wire, wire-format.md §2 step 15).
//
// Texts stay lazy: a tool-result text cut out of memory (model/lazy-text.ts) keeps its same-length placeholder
// in `text` and the cut text in `lazy`, so every count is exact without reading it back; only a caller that
// needs the bytes (a byte-exact comparison, a preview) resolves it. Image `data` may be an elided same-length
// placeholder (sources/elide-image-data.ts): images are never counted as text. Pure.

import { isObject, type JsonObject, type JsonValue, num, obj, str } from "../../../shared/json.ts";
import { type LazyText, lazyTextOf } from "../../model/lazy-text.ts";
import type { ContextMessage } from "../../model/session.ts";
import { isTranscriptOnlyAssistant } from "../transcript-only.ts";

export interface TextPart {
  readonly type: "text";
  /** The text, or a same-length placeholder when the real text was not kept in memory. */
  readonly text: string;
  /** The cut text behind a placeholder `text` (model/lazy-text.ts), when it was not kept in memory. */
  readonly lazy?: LazyText;
  /** For a text derived from cut texts (a soft-trim of one): computes the real text. */
  readonly resolve?: () => string;
}
export interface ImagePart {
  readonly type: "image";
  readonly data: string;
  readonly mimeType: string | undefined;
}
/** `thinking` blocks; `redacted` ones carry their opaque payload in `signature` (OpenClaw's shape). */
export interface ThinkingPart {
  readonly type: "thinking";
  readonly thinking: string;
  readonly signature: string | undefined;
  readonly redacted: boolean;
}
export interface ToolCallPart {
  readonly type: "toolCall";
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonValue | undefined;
}
/** Any other block (audio, video, attachment, …): display-only, never text on the wire. */
export interface OtherPart {
  readonly type: "other";
  readonly blockType: string | undefined;
}
export type Part = TextPart | ImagePart | ThinkingPart | ToolCallPart | OtherPart;

/** A persisted inbound media fact (`message.__openclaw.media[]`, 2026.9.x). */
export interface MediaFact {
  readonly url: string | undefined;
  readonly path: string | undefined;
  readonly contentType: string | undefined;
  readonly kind: string | undefined;
}

export interface AgentMessage {
  readonly role: string;
  readonly content: string | readonly Part[];
  /** Epoch ms; stored user/assistant/toolResult messages carry one, summaries take their row's time. */
  readonly timestamp: number | undefined;
  /** The entry it came from (Transcript.entries index); -1 for messages OpenClaw synthesises. */
  readonly entryIndex: number;
  readonly stopReason?: string;
  readonly provider?: string;
  readonly api?: string;
  readonly model?: string;
  /** Gateway-injected replies and delivery mirrors (transcript.md §8). */
  readonly transcriptOnly?: boolean;
  /** An assistant whose recorded usage is all zeros (OpenClaw's hasZeroTokenUsageSnapshot). */
  readonly zeroUsage?: boolean;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly isError?: boolean;
  readonly media?: readonly MediaFact[];
  /** 2026.9.x: the history-image prune already replaced this message's media (`__openclaw.mediaImagePruned`). */
  readonly mediaImagePruned?: boolean;
  /** The 2026.9.x runtime-context carrier (custom message with `details.runtimeContextCarrier`). */
  readonly carrier?: boolean;
}

function decodePart(block: JsonValue): Part | null {
  if (!isObject(block)) return null;
  const type = str(block, "type");
  switch (type) {
    case "text": {
      const lazy = lazyTextOf(block);
      const text = str(block, "text") ?? "";
      return lazy ? { type: "text", text, lazy } : { type: "text", text };
    }
    case "image":
      return { type: "image", data: str(block, "data") ?? "", mimeType: str(block, "mimeType") };
    case "thinking":
      return {
        type: "thinking",
        thinking: str(block, "thinking") ?? "",
        signature: str(block, "thinkingSignature"),
        redacted: block.redacted === true,
      };
    case "redacted_thinking":
      return {
        type: "thinking",
        thinking: "",
        signature: str(block, "data") ?? str(block, "thinkingSignature"),
        redacted: true,
      };
    case "toolCall":
      return {
        type: "toolCall",
        id: str(block, "id") ?? "",
        name: str(block, "name") ?? "",
        arguments: block.arguments,
      };
    default:
      return { type: "other", blockType: type };
  }
}

export function decodeParts(content: JsonValue | undefined): readonly Part[] {
  if (!Array.isArray(content)) return [];
  const parts: Part[] = [];
  for (const b of content) {
    const p = decodePart(b);
    if (p) parts.push(p);
  }
  return parts;
}

function decodeMedia(message: JsonObject): readonly MediaFact[] | undefined {
  const media = obj(message, "__openclaw")?.media;
  if (!Array.isArray(media) || media.length === 0) return undefined;
  const facts: MediaFact[] = [];
  for (const f of media) {
    if (!isObject(f)) continue;
    facts.push({
      url: str(f, "url"),
      path: str(f, "path"),
      contentType: str(f, "contentType"),
      kind: str(f, "kind"),
    });
  }
  return facts.length ? facts : undefined;
}

function timeOf(value: JsonValue | undefined): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return t;
  }
  return undefined;
}

/** replay-history.ts hasZeroTokenUsageSnapshot: some of input/output/cacheRead/cacheWrite recorded, all zero. */
function hasZeroUsage(usage: JsonObject | undefined): boolean {
  if (!usage) return false;
  const parts = ["input", "output", "cacheRead", "cacheWrite"].map((k) => num(usage, k));
  const total = num(usage, "totalTokens");
  if (total !== undefined && total !== 0) return false;
  const present = parts.filter((v) => v !== undefined);
  return present.length > 0 && present.every((v) => v === 0);
}

function decodeStored(m: ContextMessage): AgentMessage {
  const raw = m.message;
  const role = m.role;
  const content: string | readonly Part[] =
    typeof raw.content === "string" ? raw.content : decodeParts(raw.content);
  const base = { role, content, timestamp: timeOf(raw.timestamp), entryIndex: m.entryIndex };
  if (role === "assistant") {
    const out: { -readonly [K in keyof AgentMessage]: AgentMessage[K] } = { ...base };
    const stop = str(raw, "stopReason");
    if (stop !== undefined) out.stopReason = stop;
    const provider = str(raw, "provider");
    if (provider !== undefined) out.provider = provider;
    const api = str(raw, "api");
    if (api !== undefined) out.api = api;
    const model = str(raw, "model");
    if (model !== undefined) out.model = model;
    if (isTranscriptOnlyAssistant(raw)) out.transcriptOnly = true;
    if (hasZeroUsage(obj(raw, "usage"))) out.zeroUsage = true;
    return out;
  }
  if (role === "toolResult") {
    return {
      ...base,
      toolCallId: str(raw, "toolCallId") ?? "",
      toolName: str(raw, "toolName") ?? "",
      isError: raw.isError === true,
    };
  }
  if (role === "user") {
    const media = decodeMedia(raw);
    const pruned = obj(raw, "__openclaw")?.mediaImagePruned === true;
    return { ...base, ...(media ? { media } : {}), ...(pruned ? { mediaImagePruned: true } : {}) };
  }
  if (role === "custom") {
    const carrier = obj(raw, "details")?.runtimeContextCarrier === true;
    return carrier ? { ...base, carrier } : base;
  }
  // compactionSummary / branchSummary: model/context-messages.ts already holds the wire text as content.
  return base;
}

const decoded = new WeakMap<JsonObject, AgentMessage>();

/** The AgentMessage of one model-context message (memoised per stored message object). */
export function agentMessageOf(m: ContextMessage): AgentMessage {
  const hit = decoded.get(m.message);
  if (hit && hit.entryIndex === m.entryIndex) return hit;
  const a = decodeStored(m);
  decoded.set(m.message, a);
  return a;
}

/** A message's content as a list of parts (a string content is one text part). */
export function partsOf(m: Pick<AgentMessage, "content">): readonly Part[] {
  return typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
}
