// How the capture tooling counts a request's messages (spec fixtures.md `calls.json`; wire-format.md §1, verified
// on every agent call of the six fixtures): `messages` = `body.messages.length`; `messageChars` = Σ string
// content length, text-block text, `JSON.stringify(tool_use.input)` and tool_result text (its string, or Σ its
// text blocks). `cache_control`, ids, names, roles, images and thinking blocks are not counted (the last two are
// UNVERIFIED: never in a fixture, residual R8). Pure.

import type { WireBlock, WireMessage } from "./wire-message.ts";

export interface WireCount {
  messages: number;
  messageChars: number;
}

export function blockChars(b: WireBlock): number {
  switch (b.type) {
    case "text":
      return b.text.length;
    case "tool_use":
      return JSON.stringify(b.input ?? {}).length;
    case "tool_result": {
      if (typeof b.content === "string") return b.content.length;
      let n = 0;
      for (const x of b.content) if (x.type === "text") n += x.text.length;
      return n;
    }
    default:
      return 0;
  }
}

export function messageChars(m: WireMessage): number {
  if (typeof m.content === "string") return m.content.length;
  let n = 0;
  for (const b of m.content) n += blockChars(b);
  return n;
}

export function countWire(messages: readonly WireMessage[]): WireCount {
  let chars = 0;
  for (const m of messages) chars += messageChars(m);
  return { messages: messages.length, messageChars: chars };
}
