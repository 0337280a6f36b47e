// Cache-TTL pruning replay DTOs, shared by the server (server/reports/prune-replay/ builds them), the CLI
// (`prune --json` prints the linear one, `--full` the complete one) and the web UI. The first fields of each object are the stable JSON
// contract; the rest are extras for the UI. Spec: ../shared/spec/pruning.md §5.

/**
 * Which OpenClaw pruning generation is replayed (pruning.md; server/openclaw/pruning/generation.ts): ≤2026.3.2,
 * 2026.7.x (knobs, stateless), 2026.8.1–2026.9.1 (fixed thresholds, stateless), 2026.9.2+ (sticky projections).
 */
export type PruneAlgorithm = "2026.3" | "2026.7" | "2026.8" | "2026.9";

/** Every algorithm, oldest first (CLI `--algorithm`, the UI's choice). */
export const PRUNE_ALGORITHMS: readonly PruneAlgorithm[] = ["2026.3", "2026.7", "2026.8", "2026.9"];

/** The releases whose code each algorithm was read from, as the UI names them. */
export const PRUNE_ALGORITHM_RELEASES: Readonly<Record<PruneAlgorithm, string>> = {
  "2026.3": "2026.3.x",
  "2026.7": "2026.7.x",
  "2026.8": "2026.8.1 – 2026.9.1",
  "2026.9": "2026.9.2 +",
};

/** What one tool result looked like on the wire at one call. */
export type ToolResultWireState = "full" | "soft-trim" | "hard-clear";

/** Strongest change of a call: a round that hard-cleared anything is "hard-clear". */
export type PruneRound = "none" | "soft-trim" | "hard-clear";

/** Every CLI flag of `clawscope prune` (what-if knobs). Absent = as configured. */
export interface PruneOverrides {
  algorithm?: "auto" | PruneAlgorithm;
  /** Duration string (`5m`, `1h30m`, `20s`; bare number = minutes; `0` disables rounds). */
  ttl?: string;
  mode?: "off" | "cache-ttl";
  keepLastAssistants?: number;
  softTrimRatio?: number;
  hardClearRatio?: number;
  minPrunableToolChars?: number;
  softTrimMaxChars?: number;
  softTrimHeadChars?: number;
  softTrimTailChars?: number;
  hardClear?: boolean;
  placeholder?: string;
  allow?: string[];
  deny?: string[];
  /** Context window in tokens (W). */
  contextWindow?: number;
}

/** Where a setting's value came from. */
export type SettingSource = "config" | "default" | "override" | "fixed" | "smart-default";

/** The effective pruning settings used by the replay. */
export interface PruneSettingsDTO {
  mode: "off" | "cache-ttl";
  /** TTL in ms (0 disables rounds). */
  ttlMs: number;
  /** The raw ttl text that produced ttlMs, or null when defaulted. */
  ttlRaw: string | null;
  keepLastAssistants: number;
  softTrimRatio: number;
  hardClearRatio: number;
  minPrunableToolChars: number;
  softTrim: { maxChars: number; headChars: number; tailChars: number };
  hardClear: { enabled: boolean; placeholder: string };
  tools: { allow: string[]; deny: string[] };
  /** Per setting key (`mode`, `ttl`, `keepLastAssistants`, … `tools.allow`) where its value came from. */
  sources: Record<string, SettingSource>;
  /** Problems met while parsing the config (unparseable ttl, out-of-range ratio, …). */
  warnings: string[];
}

/** Why a call did or did not open a pruning round. */
export type PruneGate =
  | "mode-off"
  | "not-eligible"
  | "server-side"
  | "ttl-disabled"
  | "no-cache-touch"
  | "ttl-not-expired"
  | "no-window"
  | "too-few-assistants"
  | "no-user-message"
  | "below-soft-trim-ratio"
  | "open";

export interface PruneToolResultDTO {
  toolCallId: string;
  toolName: string;
  /** Index (Transcript.entries) of the toolResult entry. */
  entryIndex: number;
  state: ToolResultWireState;
  /** Estimated chars of the stored (full) result. */
  charsFull: number;
  /** Estimated chars as sent at this call. */
  charsSent: number;
  /** The state changed at this call (a round acted on it). */
  changedThisCall: boolean;
  /** Between the first user message and the keep-last-assistants cutoff at this call. */
  inPrunableRange: boolean;
  /** Tool name passes allow/deny. */
  toolAllowed: boolean;
  /** 2026.7: a `read` result capped live — its first wire form can differ from the stored text. */
  liveFormMayDiffer?: boolean;
}

export interface SnapshotMismatchDTO {
  key: string;
  toolCallId: string | null;
  replay: "none" | "soft" | "hard";
  snapshot: "none" | "soft" | "hard";
}

export interface PruneCallDTO {
  // --- stable contract ---
  entryId: string | null;
  responseId: string | null;
  /** Request start (assistant `timestamp`, ms). */
  timestamp: number;
  lastCacheTouchAt: number | null;
  idleMs: number | null;
  /** Set when idleMs is negative: "clock went back 11 d" (shared/clock-labels.ts; the view shows it, not the gap). */
  clockBack?: string;
  ttlExpired: boolean;
  round: PruneRound;
  /** Estimated chars (OpenClaw's weighting) of the message list as sent. Wire chars also count timestamp prefixes. */
  messageChars: number;
  /** toolCallId → state on the wire at this call. */
  toolResults: Record<string, ToolResultWireState>;
  // --- extras for the UI ---
  entryIndex: number;
  gate: PruneGate;
  gateText: string;
  messageCount: number;
  /** Estimated chars of the list before this call's round (after replaying earlier projections). */
  totalCharsBefore: number;
  totalCharsAfter: number;
  charWindow: number;
  ratioBefore: number;
  ratioAfter: number;
  charsRemoved: number;
  softTrimmedNow: number;
  hardClearedNow: number;
  /**
   * One row per tool result in the context list at this call (same order as the list). Built lazily
   * on first access (the replay itself stays linear); for very large sessions an API may send the
   * rows of the selected call only.
   */
  details: PruneToolResultDTO[];
  /** 2026.9: comparison with the persisted `openclaw.cache-ttl` snapshot written before this request. */
  snapshotCheck: {
    status: "match" | "mismatch" | "no-snapshot" | "not-applicable";
    mismatches: SnapshotMismatchDTO[];
  };
  /** Human-readable flags (snapshot disagreement, live-form difference, server-side clearing, …). */
  flags: string[];
}

export interface PruneNextDTO {
  // --- stable contract ---
  at: number;
  ttlExpired: boolean;
  wouldPrune: boolean;
  toolResults: Record<string, ToolResultWireState>;
  // --- extras ---
  lastCacheTouchAt: number | null;
  /** lastCacheTouchAt + ttl − at (negative = expired), null without a clock. */
  msUntilTtlExpiry: number | null;
  gate: PruneGate;
  round: PruneRound;
  totalChars: number;
  ratio: number;
  totalCharsAfter: number;
  ratioAfter: number;
  prediction: string;
  /**
   * What a message after the TTL would do, when the cache-ttl clock decides the prediction (then `prediction` is
   * shared/prune-next-text.ts ttlSentence(msUntilTtlExpiry, ttlEffect)); null when it does not.
   */
  ttlEffect: string | null;
}

/** A compaction or reset on the active branch: it rebuilt the model-context list between two calls. */
export interface PruneTimelineEventDTO {
  kind: "compaction" | "reset";
  /** The row's timestamp (ms), null when it has none. */
  at: number | null;
  /** Index into `calls` of the first call after it (= calls.length when no call follows). */
  beforeCall: number;
}

/** An expired cache gap's cost (the Cache & cost report's gap costs, one definition), at call index `call`. */
export interface PruneGapCostDTO {
  /** Index into `calls` (the call the expiry made re-write the prefix). */
  call: number;
  gapMs: number;
  cacheTtlMs: number;
  rewrittenTokens: number;
  /** Premium over reading those tokens (USD), null when the model is unpriced. */
  premiumUsd: number | null;
}

/** What the timeline marks besides the calls (issue 15): compactions / resets, and each expired gap's $. */
export interface PruneMarksDTO {
  events: PruneTimelineEventDTO[];
  gaps: PruneGapCostDTO[];
}

export interface PruneReplayDTO {
  // --- stable contract ---
  algorithm: PruneAlgorithm;
  settings: PruneSettingsDTO;
  contextWindowTokens: number;
  calls: PruneCallDTO[];
  next: PruneNextDTO;
  // --- extras ---
  algorithmSource: "auto" | "override";
  algorithmReason: string;
  contextWindowSource: string;
  charWindow: number;
  eligibility: { path: "client" | "server-side" | "none"; reason: string };
  /** Calls whose replay disagrees with a persisted snapshot. */
  snapshotMismatchCalls: number;
  rounds: number;
  warnings: string[];
  /**
   * `"summary"` (`GET …/prune?calls=summary`, what the UI asks for): every call's `toolResults` and `details`
   * are left empty — O(calls × tool results), tens of MB for a long session — and one call's are fetched with
   * `GET …/prune/call?call=N` (PruneCallDetailDTO). Absent: complete (`prune --full`, quadratic;
   * `prune --json` prints the linear PruneLinearReplayDTO).
   */
  callsDetail?: "summary";
  /**
   * `GET …/prune` and `prune --full` (the app, the export): compactions / resets between the calls and the $ of
   * each expired cache gap (server reports/prune-replay/timeline-marks.ts). Not in the linear `prune --json`.
   */
  marks?: PruneMarksDTO;
}

/**
 * One call of `clawscope prune --json` (issue 18): the call's fields without the per-call maps, and only what
 * changed at this call. O(calls + tool results) in all; `--call N` prints one call's complete maps and `--full`
 * every call's (the old, quadratic shape: PruneReplayDTO).
 */
export interface PruneLinearCallDTO extends Omit<PruneCallDTO, "toolResults" | "details"> {
  /** 1-based, in `calls[]` order (the numbering `firstCall`, `transitions[].call` and `--call N` use). */
  call: number;
  /** toolCallId → state from this call on, for each tool result whose wire state changed at this call. */
  changes: Record<string, ToolResultWireState>;
  /** Tool results in the context list at this call, by wire state. */
  toolResultStates: Record<ToolResultWireState, number>;
}

/**
 * A tool result's stay in the context list: `full` from `firstCall` until its first transition, then each
 * transition's state until the next, up to `lastCall` (after it, a compaction or reset left it out). A result
 * that leaves the list and comes back has one row per stay.
 */
export interface PruneToolResultHistoryDTO {
  toolCallId: string;
  tool: string;
  /** Estimated chars of the stored (full) result. */
  chars: number;
  firstCall: number;
  transitions: { call: number; state: ToolResultWireState }[];
  // --- extras ---
  lastCall: number;
  /** Index (Transcript.entries) of the toolResult entry. */
  entryIndex: number;
  /** 2026.7: a `read` result capped live — its first wire form can differ from the stored text. */
  liveFormMayDiffer?: boolean;
}

/** `clawscope prune --json`: the replay with per-call changes and per-result transitions (`callsDetail: "linear"`). */
export interface PruneLinearReplayDTO extends Omit<PruneReplayDTO, "calls" | "callsDetail"> {
  calls: PruneLinearCallDTO[];
  toolResults: PruneToolResultHistoryDTO[];
  callsDetail: "linear";
}

/** One replayed call's tool results (`GET …/prune/call?call=N`, same what-if query as …/prune). */
export interface PruneCallDetailDTO {
  index: number;
  toolResults: Record<string, ToolResultWireState>;
  details: PruneToolResultDTO[];
}

/** Before/after text of one tool result at one replayed call (`GET …/prune/preview`). */
export interface ToolResultPreviewDTO {
  toolCallId: string;
  toolName: string;
  state: ToolResultWireState;
  /** Stored (full) text: text blocks joined with `\n` (images as markers in 2026.7+). */
  before: string;
  /** Text as sent at that call (soft-trim: head … tail + the trim note; hard-clear: the placeholder). */
  after: string;
  note: string;
}
