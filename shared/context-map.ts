// The context map DTO: a tree of tiles (groups → leaves), shared by the server (which builds it from the
// run report + the conversation actually sent) and the web treemap (which only lays it out and draws it).

import type { ContextNumbersDTO } from "./context-numbers.ts";
import type { OpenClawMapPicture } from "./openclaw-picture.ts";
import type { ReportOwnerDTO } from "./run-report.ts";

/** Size modes the treemap can use. */
export type SizeMode = "chars" | "estTokens" | "tiktoken" | "cache";

/** Prompt-cache state of a tile at the last call, where known (history items only). */
export type CacheState = "read" | "write" | "uncached" | "unknown";

export interface MapNode {
  /** Stable path id, e.g. `workspace/AGENTS.md`, `conversation/tool-results/exec`. Used in URLs (zoom path). */
  id: string;
  name: string;
  /** Top-level group key this node belongs to (e.g. `workspace`, `system`, `tools`, `skills`, `conversation`). */
  group: string;
  /** JS string length (UTF-16 code units). For groups: Σ children. */
  chars: number;
  /** OpenClaw's estimate: ceil(chars / 4). For groups: Σ children's estimates. */
  estTokens: number;
  /** Tokenizer count (js-tiktoken, cl100k_base / o200k_base), null until computed or when not computable. */
  tiktokenTokens: number | null;
  /** Where the number comes from, in words (e.g. "systemPromptReport.injectedWorkspaceFiles[0].injectedChars"). */
  source: string;
  /** Cache state at the last call (conversation leaves), when known. */
  cache?: CacheState;
  /** Tokens of this node at the given cache state (cache mode sizes): estimated tokens split at the last call's
   * cache-read / cache-write boundaries (see ContextMapDTO.cacheBasis). Groups: Σ children. */
  cacheTokens?: { read: number; write: number; uncached: number };
  children?: MapNode[];
}

export interface MapGroupInfo {
  key: string;
  name: string;
  /** Base colour `rgb(r,g,b)`; OpenClaw's colours for its groups (spec context-report.md §5.4). */
  color: string;
}

export interface ContextMapDTO {
  /** Root node (id ""), children are the groups in display order. */
  root: MapNode;
  groups: MapGroupInfo[];
  /** Σ of every tracked tile, chars (= numbers.trackedChars). */
  trackedChars: number;
  /** Σ of the tracked tiles' estimates, each ceil(chars / 4) (= numbers.trackedTokens; the footer's "~N tok"). */
  trackedTokens: number;
  /** Billed prompt tokens of the last call (input + cacheRead + cacheWrite), null when unknown. */
  actualTokens: number | null;
  /** Context window (tokens), null when only OpenClaw's default is assumed (numbers.contextWindow). */
  windowTokens: number | null;
  /**
   * The untracked tile: billed prompt tokens of the last call minus the Σ of the tiles' estimates, when ≥ 0;
   * otherwise null with a reason ("not observed …").
   */
  untracked: { tokens: number | null; reason: string };
  /** The headline numbers every view prints (server/reports/context-numbers.ts). */
  numbers: ContextNumbersDTO;
  /** Tokenizer state for the tiktoken size mode. */
  tokenizer: {
    state: "pending" | "ready" | "unavailable";
    encoding: string | null;
    progress: number;
    /**
     * Names of the groups (MAP_GROUPS order) whose tiles are still OpenClaw's chars/4 estimate, in whole or in
     * part, in the Tokenizer size mode: leaves with no text to count (the run report stores sizes, not the system
     * prompt's or the tool schemas' text) and non-text parts (images). Empty: every tile is counted.
     */
    estimatedGroups: string[];
  };
  /** How the cache states / cacheTokens were derived (an estimate), or why they are unknown. */
  cacheBasis?: string;
  /** OpenClaw's own `/context map` picture for side-by-side trust, or its exact "unavailable" reply. */
  openclaw?: { available: true; picture: OpenClawMapPicture } | { available: false; text: string };
  /** Set when the stored report the system-prompt tiles come from is another session's (reports/report-owner.ts). */
  reportOwner?: ReportOwnerDTO;
}
