// The Anthropic Messages request shapes clawscope reconstructs (the `messages` array of a request), with the
// wire's key order: serialised, a reconstruction reads byte for byte like the recorded body. Types only.

import type { JsonValue } from "../../../shared/json.ts";

export interface CacheControl {
  type: "ephemeral";
}
export interface WireText {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}
export interface WireImage {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
  cache_control?: CacheControl;
}
export interface WireThinking {
  type: "thinking";
  thinking: string;
  signature: string;
}
export interface WireRedactedThinking {
  type: "redacted_thinking";
  data: string;
}
export interface WireToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: JsonValue;
}
export interface WireToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string | (WireText | WireImage)[];
  is_error: boolean;
  cache_control?: CacheControl;
}
export type WireBlock =
  | WireText
  | WireImage
  | WireThinking
  | WireRedactedThinking
  | WireToolUse
  | WireToolResult;
export interface WireMessage {
  role: "user" | "assistant";
  content: string | WireBlock[];
}
