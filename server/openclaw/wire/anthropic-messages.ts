// The Anthropic Messages `messages` array of a request (wire-format.md §2 steps 15–16): @openclaw/ai@2026.9.6
// packages/ai/src/transports/anthropic-messages.ts `convertAnthropicMessages` / `convertContentBlocks` on the
// agent ("transport") profile, and anthropic-stream-reducer `applyAnthropicCacheControlToMessages`
// (2026.7.1: OpenClaw's own agents/anthropic-transport-stream.ts, same shapes). Key order is the wire's, so a
// reconstruction serialises byte for byte like the recorded request. Pure.

import type { JsonObject, JsonValue } from "../../../shared/json.ts";
import { resolveLazyText } from "../../model/lazy-text.ts";
import type { AgentMessage, Part, TextPart } from "./agent-message.ts";
import { OMITTED_REASONING_TEXT } from "./replay-history.ts";
import { blockChars, messageChars } from "./wire-count.ts";
import type {
  CacheControl,
  WireBlock,
  WireImage,
  WireMessage,
  WireText,
  WireToolResult,
} from "./wire-message.ts";

export const NON_VISION_IMAGE_TEXT = "(image omitted: model does not support images)";
const EMPTY_TOOL_RESULT_TEXT = "(no output)";
const SEE_IMAGE_TEXT = "(see attached image)";

export interface ConvertOptions {
  /** The model takes image input (`models.providers.*.models[].input` has "image"). */
  imageInput: boolean;
  /** Thinking is replayed (thinking level not off, or a model that requires adaptive thinking). */
  replayThinking: boolean;
  /** Without replay, the assistant before the list's trailing tool results keeps its thinking. */
  findActiveToolTurn: boolean;
  /** Read cut tool-result texts back (byte-exact output); counts never need it. */
  resolveText: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** sanitizeSurrogates: unpaired surrogates are removed from every text sent. */
export function sanitizeSurrogates(text: string): string {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(text)) return text;
  LONE_SURROGATE.lastIndex = 0;
  return text.replace(LONE_SURROGATE, "");
}

/** The text of a part; with `resolve`, cut texts are read back (a placeholder has the same length). */
export function partText(p: TextPart, resolve: boolean): string {
  if (!resolve) return p.text;
  if (p.resolve) return p.resolve();
  return p.lazy ? resolveLazyText(p.lazy) : p.text;
}

function imageBlock(p: Extract<Part, { type: "image" }>): WireImage {
  return { type: "image", source: { type: "base64", media_type: p.mimeType ?? "image/png", data: p.data } };
}

function convertUser(m: AgentMessage, o: ConvertOptions): WireMessage | null {
  if (typeof m.content === "string") {
    return m.content.trim().length > 0 ? { role: "user", content: sanitizeSurrogates(m.content) } : null;
  }
  const blocks: (WireText | WireImage)[] = [];
  for (const p of m.content) {
    if (p.type === "image") {
      blocks.push(o.imageInput ? imageBlock(p) : { type: "text", text: NON_VISION_IMAGE_TEXT });
      continue;
    }
    // Only text and images reach a user message; anything else has no text on the wire.
    const text = p.type === "text" ? sanitizeSurrogates(partText(p, o.resolveText)) : "";
    if (text.trim().length > 0) blocks.push({ type: "text", text });
  }
  return blocks.length ? { role: "user", content: blocks } : null;
}

/** findActiveAnthropicToolTurnAssistantIndex: the assistant right before the trailing run of tool results. */
export function activeToolTurnAssistant(messages: readonly AgentMessage[]): number {
  const ids = new Set<string>();
  let i = messages.length - 1;
  for (; i >= 0 && messages[i]?.role === "toolResult"; i--) ids.add(messages[i]?.toolCallId ?? "");
  const a = messages[i];
  if (!ids.size || a?.role !== "assistant" || typeof a.content === "string") return -1;
  const calls = new Set(a.content.flatMap((p) => (p.type === "toolCall" ? [p.id] : [])));
  for (const id of ids) if (!calls.has(id)) return -1;
  return i;
}

function toolInput(args: JsonValue | undefined): JsonValue {
  if (args !== null && typeof args === "object" && !Array.isArray(args)) return args;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        const out: JsonObject = {};
        for (const [k, v] of Object.entries(parsed)) out[k] = toJsonValue(v);
        return out;
      }
    } catch {
      // coerceTransportToolCallArguments: unparsable arguments become {}
    }
  }
  return {};
}

function toJsonValue(v: unknown): JsonValue {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (typeof v === "object") {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = toJsonValue(x);
    return out;
  }
  return null;
}

function convertAssistant(m: AgentMessage, keepThinking: boolean, o: ConvertOptions): WireMessage | null {
  const blocks: WireBlock[] = [];
  let omitted = false;
  for (const p of typeof m.content === "string" ? [] : m.content) {
    if (p.type === "text") {
      if (p.text.trim().length > 0)
        blocks.push({ type: "text", text: sanitizeSurrogates(partText(p, o.resolveText)) });
    } else if (p.type === "thinking") {
      if (!keepThinking && p.signature?.trim() !== "reasoning_content") {
        omitted = true;
        continue;
      }
      const sig = p.signature?.trim();
      if (p.redacted) {
        blocks.push({ type: "redacted_thinking", data: p.signature ?? "" });
        continue;
      }
      if (sig === "reasoning_content") continue;
      if (!p.thinking.trim() && !sig) continue;
      blocks.push(
        sig
          ? { type: "thinking", thinking: p.thinking, signature: sig }
          : { type: "text", text: sanitizeSurrogates(p.thinking) },
      );
    } else if (p.type === "toolCall") {
      blocks.push({ type: "tool_use", id: p.id, name: p.name, input: toolInput(p.arguments) });
    }
  }
  if (!blocks.length && omitted) blocks.push({ type: "text", text: OMITTED_REASONING_TEXT });
  return blocks.length ? { role: "assistant", content: blocks } : null;
}

/** convertContentBlocks (transport profile): the joined text, or text + image blocks for image models. */
function toolResultContent(m: AgentMessage, o: ConvertOptions): WireToolResult["content"] {
  const parts = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
  const hasImage = parts.some((p) => p.type === "image" && p.data.trim().length > 0);
  if (!(o.imageInput && hasImage)) {
    const texts: string[] = [];
    for (const p of parts)
      if (p.type === "text" && p.text) texts.push(sanitizeSurrogates(partText(p, o.resolveText)));
    const joined = texts.join("\n");
    return joined.trim().length > 0 ? joined : hasImage ? SEE_IMAGE_TEXT : EMPTY_TOOL_RESULT_TEXT;
  }
  const blocks: (WireText | WireImage)[] = [];
  let hasText = false;
  for (const p of parts) {
    if (p.type === "text" && p.text) {
      blocks.push({ type: "text", text: sanitizeSurrogates(partText(p, o.resolveText)) });
      hasText = true;
    } else if (p.type === "image" && p.data.trim().length > 0) blocks.push(imageBlock(p));
  }
  if (!hasText) blocks.unshift({ type: "text", text: SEE_IMAGE_TEXT });
  return blocks;
}

export function toolResultBlock(m: AgentMessage, o: ConvertOptions): WireToolResult {
  return {
    type: "tool_result",
    tool_use_id: m.toolCallId ?? "",
    content: toolResultContent(m, o),
    is_error: m.isError === true,
  };
}

interface Converted {
  wire: WireMessage | null;
  chars: number;
}
const convertedUser = new WeakMap<AgentMessage, Map<string, Converted>>();
const convertedAssistant = new WeakMap<AgentMessage, Map<string, Converted>>();
const convertedResult = new WeakMap<AgentMessage, Map<string, { block: WireToolResult; chars: number }>>();

function memo<T>(
  cache: WeakMap<AgentMessage, Map<string, T>>,
  m: AgentMessage,
  key: string,
  make: () => T,
): T {
  let perKey = cache.get(m);
  const hit = perKey?.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (!perKey) {
    perKey = new Map();
    cache.set(m, perKey);
  }
  perKey.set(key, value);
  return value;
}

function converted(wire: WireMessage | null): Converted {
  return { wire, chars: wire ? messageChars(wire) : 0 };
}

/**
 * convertAnthropicMessages: the messages, which of them are the carrier (no cache breakpoint), and their counted
 * chars. Conversions are memoised per message object and options: a session's calls share most messages.
 */
export function convertAnthropicMessages(
  messages: readonly AgentMessage[],
  o: ConvertOptions,
): { params: WireMessage[]; carrierIndexes: Set<number>; chars: number } {
  const params: WireMessage[] = [];
  const carrierIndexes = new Set<number>();
  let chars = 0;
  const activeToolTurn = o.replayThinking || !o.findActiveToolTurn ? -1 : activeToolTurnAssistant(messages);
  const userKey = `${o.imageInput}|${o.resolveText}`;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!m) continue;
    if (m.role === "user") {
      const c = memo(convertedUser, m, userKey, () => converted(convertUser(m, o)));
      if (!c.wire) continue;
      if (m.carrier) carrierIndexes.add(params.length);
      params.push(c.wire);
      chars += c.chars;
    } else if (m.role === "assistant") {
      const keep = o.replayThinking || i === activeToolTurn;
      const c = memo(convertedAssistant, m, `${keep}|${o.resolveText}`, () =>
        converted(convertAssistant(m, keep, o)),
      );
      if (!c.wire) continue;
      params.push(c.wire);
      chars += c.chars;
    } else if (m.role === "toolResult") {
      const results: WireToolResult[] = [];
      let j = i;
      for (; j < messages.length; j++) {
        const r = messages[j];
        if (r?.role !== "toolResult") break;
        const c = memo(convertedResult, r, userKey, () => {
          const block = toolResultBlock(r, o);
          return { block, chars: blockChars(block) };
        });
        results.push(c.block);
        chars += c.chars;
      }
      i = j - 1;
      params.push({ role: "user", content: results });
    }
  }
  return { params, carrierIndexes, chars };
}

/**
 * applyAnthropicCacheControlToMessages: the deepest user message that is not the carrier gets the breakpoint
 * on its last text/image block (a string content becomes one text block for it); reached through tool results,
 * the newest tool_result gets one too when the marker limit allows (4 − system − tools markers; the agent path
 * leaves 3). Mutates `params`.
 */
export function applyCacheControl(
  params: WireMessage[],
  carrierIndexes: ReadonlySet<number>,
  markerLimit = 3,
): void {
  if (markerLimit <= 0) return;
  const cc: CacheControl = { type: "ephemeral" };
  let fallback: WireToolResult | undefined;
  for (let i = params.length - 1; i >= 0; i--) {
    const m = params[i];
    if (m?.role !== "user" || carrierIndexes.has(i)) continue;
    if (typeof m.content === "string") {
      if (fallback && markerLimit === 1) {
        fallback.cache_control = cc;
        return;
      }
      m.content = [{ type: "text", text: m.content, cache_control: cc }];
      if (fallback && markerLimit > 1) fallback.cache_control = cc;
      return;
    }
    for (let j = m.content.length - 1; j >= 0; j--) {
      const b = m.content[j];
      if (!b) continue;
      if (b.type === "text" || b.type === "image") {
        if (fallback && markerLimit === 1) {
          fallback.cache_control = cc;
          return;
        }
        b.cache_control = cc;
        if (fallback && markerLimit > 1) fallback.cache_control = cc;
        return;
      }
      if (b.type === "tool_result" && fallback === undefined) fallback = b;
    }
  }
  if (fallback) fallback.cache_control = cc;
}
