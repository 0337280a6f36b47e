// Cost / cache report DTOs (CLI `cost --session REF --json`, `cost --all --json`, API, web).
// The first-level names of CostCallDTO / CostTotalsDTO are a fixed contract; everything else is extra.
// Semantics: spec cache-and-cost.md §4–§7, transcript.md §4 and §8.

import type { PriceOrigin } from "./pricing.ts";

/**
 * Cache verdict of one model call (cache-and-cost.md §6, first matching cause):
 * - `cold-start`: no earlier call in this session (or after a `reset`)
 * - `hit`: read ≈ the prefix the previous call of the same lineage cached
 * - `ttl-expired`: idle gap to the previous call of the lineage longer than the cache lifetime
 * - `prefix-changed`: read stopped early and the write is much larger than the new suffix
 *   (compaction, pruning round, merged user messages, thinking change, bootstrap/system edits …; see `cause`)
 * - `model-switch`: first call of this provider/model after calls of another one
 * - `below-minimum`: prompt shorter than the model's minimum cacheable length, nothing read or written
 * - `unexplained`: a miss none of the signals explains (provider eviction/routing)
 * - `not-cached`: this provider/model never reported a cache read or write in the session so far
 *   (caching off — `cacheRetention: none` — unsupported, or not reported by the provider)
 * - `no-usage`: all-zero usage (error/aborted call, transcript.md §4); not part of any cache lineage
 */
export type CacheVerdict =
  | "cold-start"
  | "hit"
  | "ttl-expired"
  | "prefix-changed"
  | "model-switch"
  | "below-minimum"
  | "unexplained"
  | "not-cached"
  | "no-usage";

/** Sub-cause of `prefix-changed` (and secondary signals of other verdicts). */
export type PrefixChangeCause =
  | "compaction"
  | "pruning-round"
  | "unpruned-after-round"
  | "merged-user-messages"
  | "thinking-level-change"
  | "unknown";

/**
 * Where a call's money went (issue 14 §2): one cause per call, so the breakdown by cause adds up to the session's
 * spend. The list, plus three extras for calls that are no cache miss at all: `not-cached` (the provider
 * never cached in this session), `merged-user-messages` (OpenClaw re-sent two merged user messages differently,
 * cache-and-cost.md §6) and `no-usage` (error/aborted call with all-zero usage).
 */
export type SpendCause =
  | "hit"
  | "cold-start"
  | "ttl-expired"
  | "compaction"
  | "pruning"
  | "system-prompt-changed"
  | "bootstrap-edited"
  | "model-switch"
  | "thinking-change"
  | "reset"
  | "below-min-cacheable"
  | "date-rollover"
  | "channel-switch"
  | "images-pruned"
  | "tool-result-resent"
  | "provider-dropped"
  | "reasoning-dropped"
  | "merged-user-messages"
  | "not-cached"
  | "no-usage"
  | "unknown";

/** The cause of one call with the evidence that decided it. */
export interface CallCauseDTO {
  cause: SpendCause;
  /** One line: which signal, naming the file / tool call / report / date it comes from. */
  detail: string;
  /** Transcript rows that are the evidence (entry id, else `#index`). */
  entryIds: string[];
  /**
   * `channel-switch` only: `chat` when both runs' messages name a chat / sender (DMs from several chats sharing one
   * session), `internal` when one of them carries no chat metadata (sub-agent results, webchat, system runs).
   */
  channelSwitch?: "chat" | "internal";
}

/** One row of `cost --session REF --json` `breakdown` (the first four names are the contract). */
export interface CostBreakdownRowDTO {
  cause: SpendCause;
  calls: number;
  /** Σ input + output + cacheRead + cacheWrite of the calls. */
  tokens: number;
  /** Σ known call costs (USD); Σ over the rows = totals.costUsd. */
  costUsd: number;
  // ---- extras ----
  unpricedCalls: number;
  /** Σ missCostUsd: what the misses paid over reading the expected prefix. */
  missCostUsd: number;
  /** costUsd / totals.costUsd (null when nothing is priced). */
  shareOfSpend: number | null;
}

/** How much of the miss cost is still `unknown`, and what would decide it. */
export interface UnknownMissDTO {
  missCostUsd: number;
  /** Of the session's Σ missCostUsd (null without a priced miss). */
  shareOfMissCost: number | null;
  /** What evidence would decide the unknown calls (from what they look like). */
  wouldDecide: string[];
}

export interface VerdictEvidence {
  /** One-line human explanation with the numbers used. */
  summary: string;
  /** Entry id of the previous call of the same lineage (provider + model), if any. */
  previousCallEntryId: string | null;
  /** Gap (ms) between the previous lineage call's start and this call's start. */
  lineageGapMs: number | null;
  /** Cache lifetime used for this call (ms) and where it came from. */
  cacheTtlMs: number | null;
  cacheTtlSource: string;
  /** `P(m) − input(m)` of the previous lineage call (its cached prefix), when known. */
  expectedRead: number | null;
  /** `max(0, expectedRead − cacheRead)`. */
  missDeficit: number | null;
  /** `P(n) − expectedRead`: what is new since the previous call. */
  newSuffix: number | null;
  /** Deficits up to this are still a hit (token rounding, lookback). */
  toleranceTokens: number | null;
  /** Minimum cacheable tokens for the model, when known. */
  minCacheableTokens: number | null;
  cause: PrefixChangeCause | null;
  /** Entry ids of the transcript rows that are the signal (compaction, snapshot, user messages …). */
  signalEntryIds: string[];
  /** Other causes that also match (e.g. a pruning round on a TTL-expired call). */
  alsoMatched: string[];
  /** Provider without a cache-write counter: `cacheWrite 0` means unknown, not "nothing written" (§3). */
  writeCounterMissing: boolean;
}

export type WriteTier = "5m" | "1h" | "mixed" | "none";

export interface WriteTierInfo {
  tier: WriteTier;
  /** Tokens of `cacheWrite` in the 1-hour tier (usage `cacheWrite1h`, or all writes when config says `long`). */
  cacheWrite1h: number;
  source: "usage" | "config" | "default";
}

export type CostSource = "recorded" | "provider-billed" | "pricing-table" | "unpriced";

/**
 * Which layer a call's cost came from, in precedence order (issue 14 §3): the recorded `usage.cost`, a `--pricing`
 * file, the config's `models.providers.*.models[].cost`, the agent's models.json, the price library, the in-app
 * editor; null = unpriced.
 */
export type PriceOriginDTO = "recorded" | PriceOrigin | null;

export interface CostCallDTO {
  entryId: string | null;
  responseId: string | null;
  /** ISO request start (assistant `message.timestamp` when numeric, else the envelope timestamp). */
  timestamp: string | null;
  provider: string | null;
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD; null when no recorded cost and no price is known. */
  costUsd: number | null;
  costSource: CostSource;
  /** cacheRead / (input + cacheRead + cacheWrite); null for an empty prompt. */
  hitRate: number | null;
  verdict: CacheVerdict;
  /** Idle gap (ms) since the previous model call of the session (any model); null for the first. */
  gapMs: number | null;
  /** Set when gapMs is negative: "clock went back 11 d" (shared/clock-labels.ts; the view shows it, not the gap). */
  clockBack?: string;
  // ---- extras ----
  /** Index in the transcript's entries (append order). */
  entryIndex: number;
  onActiveBranch: boolean;
  api: string | null;
  stopReason: string | null;
  promptTokens: number;
  /** Spec write-aware hit rate `(1 − r)/0.9` (cache-and-cost.md §5). */
  writeAwareHitRate: number | null;
  writeTier: WriteTierInfo;
  /** Where the price came from (library row, config key, file) or why there is none. */
  priceSource: string | null;
  priceOrigin: PriceOriginDTO;
  /** The recorded `usage.cost.total` (may be 0 for unpriced models). */
  recordedCostUsd: number | null;
  /** Cost recomputed from the pricing table (when a price is known), for comparison. */
  computedCostUsd: number | null;
  /** The price's split of the call's cost by bucket (USD, of computedCostUsd; null when no price is known). */
  costByBucket: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  /** ≤ 2026.3 data with `cacheRetention: long`: OpenClaw priced every write at the 5-minute rate (§4). */
  oneHourWriteCorrectionUsd: number | null;
  evidence: VerdictEvidence;
  /** Extra cost of the miss deficit: `deficit × (writePrice − readPrice) / 1e6` (null when unpriced). */
  missCostUsd: number | null;
  /** Where the call's money went (issue 14 §2, reports/cost/breakdown.ts). */
  cause: CallCauseDTO;
  heartbeat: boolean;
  heartbeatSignals: string[];
}

export interface CostTotalsDTO {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Sum of known call costs (USD); see `unpricedCalls`. */
  costUsd: number;
  /** Aggregate: buckets summed first, then cacheRead / (input + cacheRead + cacheWrite). */
  hitRate: number | null;
  // ---- extras ----
  calls: number;
  unpricedCalls: number;
  cacheWrite1h: number;
  writeAwareHitRate: number | null;
  /** Assistant messages left out as transcript-only (delivery mirrors, gateway-injected replies). */
  transcriptOnlyExcluded: number;
}

export interface GapCostDTO {
  callEntryId: string | null;
  gapMs: number;
  cacheTtlMs: number;
  /** Tokens re-written because the cache had expired. */
  rewrittenTokens: number;
  /** Premium paid over reading them: tokens × (write − read price). */
  premiumUsd: number | null;
}

export interface PruningRoundCostDTO {
  callEntryId: string;
  charsRemoved: number | null;
  /** Where the round came from: the caller's replay (`input`) or a 2026.9.x projection snapshot. */
  origin: "input" | "snapshot";
  /** Cache rewrite attributable to the round (0 when the cache had expired anyway). */
  rewriteTokens: number;
  rewriteCostUsd: number | null;
  /** ESTIMATE: charsRemoved / 4 tokens not re-sent on every later call of the lineage. */
  estTokensSavedPerCall: number | null;
  laterCalls: number;
  estSavedUsd: number | null;
  note: string;
}

export interface CounterfactualDTO {
  id: "as-run" | "no-caching" | "retention-1h" | "pruning-off" | "pruning-on" | "bootstrap-trimmed";
  label: string;
  costUsd: number | null;
  /** costUsd − as-run costUsd. */
  deltaUsd: number | null;
  assumptions: string[];
}

export type HeartbeatFlagKind =
  | "heartbeat-off"
  | "heartbeat-keeps-cache-warm"
  | "cost-trap-rewrite-every-heartbeat"
  | "pruning-ttl-mismatch"
  | "heartbeat-unknown";

export interface HeartbeatFlag {
  kind: HeartbeatFlagKind;
  severity: "info" | "warning";
  message: string;
}

export interface HeartbeatInfo {
  /** Session key contains `:cron:` (cron/scheduled run). */
  cronSession: boolean;
  heartbeatCalls: number;
  heartbeatCostUsd: number;
  /** Heartbeat calls that found the cache expired and re-wrote the prompt (the §7 cost trap, as it happened). */
  heartbeatRewrites: number;
  /** Their re-write premium over reading (USD; priced calls only). */
  heartbeatRewritePremiumUsd: number;
  /** How heartbeat calls were detected (documented signals). */
  signals: string[];
  heartbeatEveryMs: number | null;
  heartbeatEverySource: string;
  cacheTtlMs: number | null;
  pruningMode: string | null;
  pruningTtlMs: number | null;
  flags: HeartbeatFlag[];
}

/**
 * The provider's effective cache lifetime read off the session: every full miss (nothing read, not even the
 * stable system prefix) came after a longer idle gap than every hit. Used instead of the configured TTL
 * when full misses happen well inside it (e.g. a proxy or the fixtures' mock with a 20 s cache).
 */
export interface ObservedTtlDTO {
  /** Longest lineage gap after which the previous prefix was still read (null: no hit at all). */
  maxHitGapMs: number | null;
  /** Shortest lineage gap after which nothing at all was read. */
  minFullMissGapMs: number;
  fullMisses: number;
  hits: number;
  /** Threshold used for verdicts: gaps ≥ minFullMissGapMs count as expired. */
  ttlMs: number;
}

export interface CostReportDTO {
  calls: CostCallDTO[];
  totals: CostTotalsDTO;
  // ---- extras ----
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  /** Totals of the calls on the active branch only (what the context displays describe). */
  activeBranchTotals: CostTotalsDTO;
  /** Effective cache retention and TTL used for verdicts. */
  retention: {
    value: "none" | "short" | "long" | null;
    source: string;
    cacheTtlMs: number | null;
    ttlSource: string;
    /** Cache lifetime observed in this session's own usage, when it contradicts the configured one. */
    observedTtl: ObservedTtlDTO | null;
  };
  gapCosts: GapCostDTO[];
  pruningRounds: PruningRoundCostDTO[];
  counterfactuals: CounterfactualDTO[];
  heartbeat: HeartbeatInfo;
  notes: string[];
  /** The spend by cause (issue 14 §2), costliest first; Σ costUsd = totals.costUsd. */
  breakdown: CostBreakdownRowDTO[];
  breakdownUnknown: UnknownMissDTO;
}

export interface CostTotalsRowDTO extends CostTotalsDTO {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  archived: string | null;
  cronSession: boolean;
  heartbeatCalls: number;
  /** Σ missCostUsd of the calls (the miss $ the session list and the overview show). */
  missCostUsd: number;
  /** Prompt tokens (input + cacheRead + cacheWrite) of the last call on the active branch; null without one. */
  lastPromptTokens: number | null;
  missing?: never;
}

/**
 * A session whose transcript file does not exist (a sessions.json entry pointing nowhere: `location` is the path
 * looked for). It has no numbers — not $0 and 0 calls — and adds nothing to the totals.
 */
export interface MissingTranscriptRowDTO {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  archived: string | null;
  cronSession: boolean;
  missing: true;
  location: string;
}

/** A backup / checkpoint copy left out of the totals: its calls are another transcript's (`copyOf`). */
export interface LeftOutCopyDTO {
  agentId: string;
  sessionId: string;
  kind: "backup" | "checkpoint";
  location: string;
  /** The transcript file name whose entries the copy duplicates. */
  copyOf: string;
  reason: string;
}

export interface CostAllDTO {
  sessions: (CostTotalsRowDTO | MissingTranscriptRowDTO)[];
  /** Sum over every session row (archived included); buckets summed before rates. */
  totals: CostTotalsDTO;
  /** Copies of other transcripts listed by `sessions` but never counted (with the archived switch on). */
  leftOut: LeftOutCopyDTO[];
}
