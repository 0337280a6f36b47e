// The context as sent at a model call (issue 16): the request `messages` clawscope reconstructs from the stored
// transcript the way OpenClaw built them, counted as the capture tooling counts a request (spec fixtures.md
// `calls.json`), next to the call's billed usage. `map --call N|all --json`, GET /api/sessions/…/sent.

import type { ContextMapDTO } from "./context-map.ts";
import type { ToolResultWireState } from "./prune.ts";

/** The request's `messages`: how many, and their wire text chars (text, tool_use input JSON, tool_result text). */
export interface SentCountDTO {
  messages: number;
  messageChars: number;
}

/** The call's billed usage as recorded (Anthropic semantics: `input` is the uncached part). */
export interface SentUsageDTO {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface SentCallDTO {
  /** 1-based index among the session's agent model calls (the pruning replay's numbering). */
  call: number;
  responseId: string | null;
  entryId: string | null;
  /** ISO request start. */
  timestamp: string | null;
  sent: SentCountDTO;
  usage: SentUsageDTO;
  /** Why this call's reconstruction may differ from what was sent (empty: determined by the stored data). */
  estimated: string[];
}

/** How the reconstruction was made, for every call of the session. */
export interface SentBasisDTO {
  /** OpenClaw rule family used: "2026.9" or "2026.7" (2026.3 data is read with the 2026.7 rules). */
  family: "2026.9" | "2026.7";
  timeZone: string;
  /** `userTimezone` from the config, or clawscope's host zone (OpenClaw used its Gateway host's; not stored). */
  timeZoneSource: "userTimezone" | "host";
  notes: string[];
}

export interface SentCallsDTO {
  calls: SentCallDTO[];
  basis: SentBasisDTO;
}

export type SentTileState = "full" | "soft-trim" | "hard-clear" | "changed" | null;

/** One leaf of the context map as sent at the call. */
export interface SentTileDTO {
  path: string;
  chars: number;
  /** Tool results: their pruning state at this call; other tiles: null. */
  state: SentTileState;
}

/**
 * A tool result's size at a call in the map's measure (text length + OpenClaw's estimate of non-text parts):
 * `stored` as in the transcript, `sent` as projected at the call (= the tile's chars; = stored when sent in full).
 */
export interface SentToolResultCharsDTO {
  stored: number;
  sent: number;
}

/** The scrubber's view of one call: its row and the context map as it stood at that call. */
export interface SentViewDTO {
  call: SentCallDTO;
  map: ContextMapDTO;
  /** Each tool result's pruning state at the call, by toolCallId. */
  toolResults: Record<string, ToolResultWireState>;
  /** Each tool result in the call's context list: its size stored vs as sent, by toolCallId. */
  toolResultChars: Record<string, SentToolResultCharsDTO>;
}

export interface SentAtCallDTO extends SentCallDTO {
  tiles: SentTileDTO[];
  basis: SentBasisDTO;
}
