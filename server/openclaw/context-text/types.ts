// The inputs of the `/context` renderers (context-text/). Types only.

import type { JsonObject } from "../../../shared/json.ts";

export type ContextFamily = "2026.3" | "2026.7" | "2026.9";
export type ContextTextMode = "list" | "detail" | "json" | "help" | "map-unavailable" | "unknown";
export type TranscriptCounts = { messages: number; real: number } | { unavailable: string };

export interface ContextTextInput {
  mode: ContextTextMode;
  family: ContextFamily;
  /** The SessionEntry (sessions.json value / session_nodes.entry_json). */
  entry: JsonObject;
  /** `M` / `R` for `detail` in 2026.7+ (see compactable-count.ts). */
  transcriptCounts?: TranscriptCounts;
  /**
   * The session's OpenClaw release when known (VersionInfo.appVersion): releases up to 2026.6.5 print no
   * `Compactable transcript` line at all (docs/openclaw-facts.md §1.6).
   */
  appVersion?: string | null;
  /**
   * Context window resolved when the command runs. OpenClaw resolves it from config/catalog at command time;
   * offline the entry's `contextTokens` is the best value (spec §4) and is the default.
   */
  contextTokens?: number | null;
  /** Config fallbacks used by 2026.7+ when the report lacks its caps (defaults 20000 / 60000). */
  bootstrapDefaults?: { bootstrapMaxChars?: number; bootstrapTotalMaxChars?: number };
  /** Current workspace, printed only when the report has no `workspaceDir`. */
  workspaceDir?: string;
}
