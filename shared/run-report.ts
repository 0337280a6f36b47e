// The run-report DTO (issue 2, "The run report"): OpenClaw's own `/context` view of a session — the stored
// `systemPromptReport` and the byte-identical `/context list|detail|json` texts — plus what OpenClaw does not
// show: the conversation actually sent (by role, by tool, summaries) and the billed prompt size of the last call,
// so the UI can reconcile tracked vs actual. Built by server/reports/run-report.ts; shared with the web.

import type { ContextNumbersDTO } from "./context-numbers.ts";
import type { JsonObject } from "./json.ts";
import type { SessionSummary, VersionInfo } from "./session.ts";

/** A size in chars (JS string length) with OpenClaw's token estimate `ceil(chars / 4)`. */
export interface CharsAndTokens {
  chars: number;
  /** OpenClaw's chars/4 estimate (`ceil(chars / 4)`), not a tokenizer count. */
  estTokens: number;
}

/** The stored `systemPromptReport`, or why there is none usable. */
export type StoredReport =
  | { available: true; report: JsonObject }
  /** `report` is the stored object when it exists but is not a `source:"run"` report. */
  | { available: false; report: JsonObject | null; reason: string };

/**
 * The stored report belongs to another session id than the session shown (issue 13): a session key's entry keeps
 * the report of the key's last embedded run. Shown wherever the report's numbers are (/context, map, truncation).
 */
export interface ReportOwnerDTO {
  /** `systemPromptReport.sessionId`. */
  reportSessionId: string;
  /** The session shown. */
  sessionId: string;
  /** The report's session is the key's current session (the SessionEntry's `sessionId`). */
  currentOfKey: boolean;
  /** "This is the run report of session 56c4…, the current session of this key, not of the session shown (…)." */
  note: string;
}

/** `/context` replies for the session's rule family. */
export type ContextTexts =
  | {
      available: true;
      /** Byte-identical to OpenClaw's reply for this family (what the command would print now). */
      list: string;
      detail: string;
      json: string;
      help: string;
      /**
       * What the detail's "Compactable transcript" counts are taken before: `now` (as if the command were
       * sent now) or the latest `/context detail` invocation when no model call came after it — the run
       * report is unchanged since, so that invocation's reply is OpenClaw's own answer for this state.
       */
      detailAsOf:
        | { kind: "now" }
        | { kind: "last-invocation"; entryId: string | null; timestamp: string | null };
      /**
       * For each mode, whether our text equals the reply OpenClaw stored in the transcript for the latest
       * `/context <mode>` invocation with no model call after it (null: no such invocation to compare with).
       */
      matchesStoredReply: { list: boolean | null; detail: boolean | null; json: boolean | null };
      /**
       * The same replies rendered from the entry with paths and free text masked (the export's rule table):
       * what Redact mode and a redacted export show. Numbers, tool/skill names and file basenames stay.
       */
      redacted?: { list: string; detail: string; json: string };
    }
  | {
      available: false;
      /** clawscope's notice (OpenClaw would print an on-the-fly estimate that cannot be reproduced offline). */
      notice: string;
      /**
       * `clawscope context --mode json` in this state: `{"available": false, "reason": "no stored run report",
       * "sessionKey", "sessionId"}` (the CLI exits 3), so json mode always prints JSON.
       */
      json: string;
      /** OpenClaw's exact `/context map` reply in this state (2026.3.2: its unknown-mode reply). */
      mapUnavailable: string;
      help: string;
    };

export type BootstrapFileStatus = "OK" | "TRUNCATED" | "MISSING" | "NATIVE/UNVERIFIED";

export interface RunReportFile {
  name: string;
  path: string;
  status: BootstrapFileStatus;
  raw: CharsAndTokens;
  injected: CharsAndTokens;
}

/** Sizes from the stored report (all `chars` are the report's numbers). */
export interface RunReportTotals {
  systemPrompt: CharsAndTokens;
  projectContext: CharsAndTokens;
  nonProjectContext: CharsAndTokens;
  skills: CharsAndTokens & { count: number };
  toolList: CharsAndTokens;
  toolSchemas: CharsAndTokens & { count: number };
  files: RunReportFile[];
  /** Σ injected chars over non-missing files. */
  filesInjected: CharsAndTokens;
  /** `currentTurn` parts (7.1+): the turn prompt (persisted as the last user message) and unpersisted parts. */
  currentTurn: { prompt: number; runtimeContext: number; modelOnlyPrompt: number } | null;
  /**
   * OpenClaw's "Tracked prompt estimate" of `/context detail` (7.1+):
   * systemPrompt.chars + tools.schemaChars + currentTurn.promptChars + currentTurn.runtimeContextChars.
   */
  openclawTracked: CharsAndTokens;
}

/** One bucket of the conversation actually sent. `chars` counts text as sent (see `basis`); images separately. */
export interface ConversationBucket extends CharsAndTokens {
  count: number;
  images: number;
}

export interface ConversationBreakdown {
  /** How the chars were counted (clawscope's rule, stated for the UI). */
  basis: string;
  /** Messages of the model-context list (transcript.md §7) by role. */
  byRole: Record<string, ConversationBucket>;
  /** Tool results by tool name (largest first). */
  toolResultsByTool: ({ toolName: string } & ConversationBucket)[];
  /** The compaction summary message in context (at most one), or null. */
  compactionSummary: ConversationBucket | null;
  branchSummaries: ConversationBucket;
  total: ConversationBucket;
  /** Transcript messages left out of the model context (transcript-only assistants, `excludeFromContext`, pre-window). */
  notSent: { count: number };
}

/** Billed usage of the last model call on the active branch (transcript-only assistants skipped). */
export interface LastCallUsageDTO {
  /** Index into the transcript entries, and the entry id. */
  entryIndex: number;
  entryId: string | null;
  timestamp: string | null;
  provider: string | null;
  model: string | null;
  stopReason: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + cacheRead + cacheWrite: the prompt the provider billed for that call. */
  promptTokens: number;
}

export interface Reconciliation {
  /** Billed prompt tokens of the last call (null when no call is recorded). */
  actualTokens: number | null;
  /** The SessionEntry's `totalTokens` as `/context` trusts it for this family (null when not fresh). */
  entryTotalTokens: number | null;
  /** OpenClaw's view: actual − ceil(openclawTracked / 4), as `/context detail` prints it (null when unknown). */
  openclawUntrackedTokens: number | null;
  /**
   * clawscope's view (= numbers.trackedChars / trackedTokens): the tiles of the last call's prompt — report groups
   * and the conversation as sent at that call — with estTokens the Σ of the tiles' chars/4 estimates.
   */
  clawscopeTracked: CharsAndTokens;
  /** actual − clawscopeTracked.estTokens (= numbers.untrackedTokens); negative = the estimate overshoots. */
  clawscopeUntrackedTokens: number | null;
  notes: string[];
}

export interface RunReportDTO {
  session: SessionSummary;
  version: VersionInfo;
  systemPromptReport: StoredReport;
  /** Set when the stored report belongs to another session id than this session (issue 13). */
  reportOwner: ReportOwnerDTO | null;
  texts: ContextTexts;
  /** Null without a stored run report. */
  totals: RunReportTotals | null;
  conversation: ConversationBreakdown;
  lastCall: LastCallUsageDTO | null;
  /** The session's context window (= numbers.contextWindow), null when only OpenClaw's default is assumed. */
  contextWindowTokens: number | null;
  reconciliation: Reconciliation;
  /** The headline numbers every view prints (server/reports/context-numbers.ts), the map's own. */
  numbers: ContextNumbersDTO;
}
