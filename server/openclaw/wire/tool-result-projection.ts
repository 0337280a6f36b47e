// A tool result as sent at one call (wire-format.md §4, spec pruning.md §1.7 / §2.5): the cache-TTL pruning
// state the call was built with, applied to the stored message — soft-trim re-derives head … tail + note from
// the joined text (images as `[image removed during context pruning]`; 2026.9.x UTF-16-safe, fixed 4000/1500/1500;
// 2026.7.1 the configured knobs, plain cut), hard-clear sends the placeholder as one text block, a recorded
// non-TTL projection (2026.9 aggregate tool-result budget, `frozenToolResults[].texts`) sends its texts. WHICH
// state applies at a call is the pruning replay's answer (reports/prune-replay), not this module's. Pure.

import { DEFAULT_PLACEHOLDER } from "../pruning/settings.ts";
import { IMAGE_REMOVED_MARKER, type SoftTrimConfig, softTrimText } from "../pruning/soft-trim.ts";
import type { AgentMessage, Part, TextPart } from "./agent-message.ts";
import { partText } from "./anthropic-messages.ts";

export type ToolResultWire =
  | { readonly state: "soft-trim"; readonly softTrim: SoftTrimConfig; readonly utf16Safe: boolean }
  | { readonly state: "hard-clear"; readonly placeholder: string }
  | { readonly state: "changed"; readonly texts: readonly string[] };

function joined(parts: readonly Part[], resolve: boolean): { text: string; hasImage: boolean } {
  const texts: string[] = [];
  let hasImage = false;
  for (const p of parts) {
    if (p.type === "text") texts.push(partText(p, resolve));
    else if (p.type === "image") {
      hasImage = true;
      texts.push(IMAGE_REMOVED_MARKER);
    }
  }
  return { text: texts.join("\n"), hasImage };
}

function softTrimmed(m: AgentMessage, w: Extract<ToolResultWire, { state: "soft-trim" }>): AgentMessage {
  const parts = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
  const opts = { utf16Safe: w.utf16Safe, imagesForceRewrite: true };
  const text = softTrimText(joined(parts, false), w.softTrim, opts);
  if (text === null) return m;
  const lazy = parts.some((p) => p.type === "text" && (p.lazy !== undefined || p.resolve !== undefined));
  const part: TextPart = lazy
    ? { type: "text", text, resolve: () => softTrimText(joined(parts, true), w.softTrim, opts) ?? text }
    : { type: "text", text };
  return { ...m, content: [part] };
}

function project(m: AgentMessage, w: ToolResultWire): AgentMessage {
  switch (w.state) {
    case "soft-trim":
      return softTrimmed(m, w);
    case "hard-clear":
      return { ...m, content: [{ type: "text", text: w.placeholder.trim() || DEFAULT_PLACEHOLDER }] };
    case "changed":
      return { ...m, content: w.texts.map((text): Part => ({ type: "text", text })) };
  }
}

const memo = new WeakMap<AgentMessage, WeakMap<ToolResultWire, AgentMessage>>();

/** The tool result `m` as sent in state `w` (undefined = full). Memoised per message and state object. */
export function projectToolResult(m: AgentMessage, w: ToolResultWire | undefined): AgentMessage {
  if (!w || m.role !== "toolResult") return m;
  let perState = memo.get(m);
  const hit = perState?.get(w);
  if (hit) return hit;
  const out = project(m, w);
  if (!perState) {
    perState = new WeakMap();
    memo.set(m, perState);
  }
  perState.set(w, out);
  return out;
}
