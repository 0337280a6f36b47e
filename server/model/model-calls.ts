// The model calls of a transcript, decoded once: every assistant message as a small typed record, so no
// report digs `message.usage` out of raw JSON again (the shape of ccusage's OpenClaw usage entry).
// Spec: transcript.md §3–§4 (assistant message fields, usage and cost), §8 (transcript-only assistants).
//
// One rule each for "when was this call" (`atMs`) and "how big was its prompt" (`promptTokens`). The list is
// memoised per Transcript (a Transcript is immutable once loaded; the reader replaces it when the file grows):
// every report of one transcript shares one decode. (Sharing decodes across the Transcripts of an append
// through a per-entry WeakMap was measured slower than decoding again: ephemeron lookups and object spreads
// over ~30k entries cost more than the field reads. What an append does share is the whole prefix:
// continueModelCalls copies the old arrays and decodes only the appended entries, ~30 → ~1 ms per append of
// the 100 MB session.)

import { type JsonObject, num, obj, str } from "../../shared/json.ts";
import { promptTokensOf } from "../../shared/pricing.ts";
import { isTranscriptOnlyAssistant, isUsageExcludedAssistant } from "../openclaw/transcript-only.ts";
import type { Transcript, TranscriptEntry } from "./session.ts";
import { continuesTranscript } from "./transcript-growth.ts";

/** The usage buckets of one call (transcript.md §4); absent counters are 0. */
export interface CallUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** `usage.cacheWrite1h` when recorded (E5, Anthropic `ephemeral_1h_input_tokens`), else null. */
  cacheWrite1h: number | null;
}

/** One assistant message of a transcript. Immutable. */
export interface ModelCall {
  /** Index into Transcript.entries. */
  entryIndex: number;
  entryId: string | null;
  /**
   * When the request started, in ms: the assistant's numeric `message.timestamp` (written when the request
   * was sent), else the envelope timestamp (written when the reply was appended), else null.
   */
  atMs: number | null;
  provider: string | null;
  model: string | null;
  api: string | null;
  usage: CallUsage;
  /** The message carries a `usage` object (without one the buckets are zeros, not a measurement). */
  hasUsage: boolean;
  /** Prompt size as billed: `input + cacheRead + cacheWrite` (transcript.md §4). */
  promptTokens: number;
  stopReason: string | null;
  responseId: string | null;
  /** `usage.cost.total` as recorded (0 for models OpenClaw could not price), else null. */
  recordedCost: number | null;
  /** `usage.cost.totalOrigin === "provider-billed"`. */
  providerBilled: boolean;
  onActiveBranch: boolean;
  /** Never sent to a model (transcript.md §8): not in the context list, not a pruning-replay call. */
  transcriptOnly: boolean;
  /** Excluded from usage, cost and cache statistics: transcript-only or a message-tool mirror (§8). */
  excluded: boolean;
  /** The message itself carries `excludeFromContext: true` (context-free command replies). */
  excludeFromContext: boolean;
}

/** The request start of an assistant message (see ModelCall.atMs). */
export function callStartMs(entry: TranscriptEntry, message: JsonObject): number | null {
  const t = num(message, "timestamp");
  if (t !== undefined) return t;
  if (entry.timestamp !== null) {
    const parsed = Date.parse(entry.timestamp);
    if (Number.isFinite(parsed)) return parsed;
  }
  return null;
}

function decode(entry: TranscriptEntry, onActiveBranch: boolean): ModelCall | null {
  const m = entry.type === "message" ? obj(entry.raw, "message") : undefined;
  if (!m || str(m, "role") !== "assistant") return null;
  const usageObj = obj(m, "usage");
  const cost = obj(usageObj, "cost");
  const usage: CallUsage = {
    input: num(usageObj, "input") ?? 0,
    output: num(usageObj, "output") ?? 0,
    cacheRead: num(usageObj, "cacheRead") ?? 0,
    cacheWrite: num(usageObj, "cacheWrite") ?? 0,
    cacheWrite1h: num(usageObj, "cacheWrite1h") ?? null,
  };
  return {
    entryIndex: entry.index,
    entryId: entry.id,
    atMs: callStartMs(entry, m),
    provider: str(m, "provider") ?? null,
    model: str(m, "model") ?? null,
    api: str(m, "api") ?? null,
    usage,
    hasUsage: usageObj !== undefined,
    promptTokens: promptTokensOf(usage),
    stopReason: str(m, "stopReason") ?? null,
    responseId: str(m, "responseId") ?? null,
    recordedCost: num(cost, "total") ?? null,
    providerBilled: str(cost, "totalOrigin") === "provider-billed",
    onActiveBranch,
    transcriptOnly: isTranscriptOnlyAssistant(m),
    excluded: isUsageExcludedAssistant(m),
    excludeFromContext: m.excludeFromContext === true,
  };
}

/** The assistant messages of one transcript, decoded. */
export interface TranscriptCalls {
  /** Every assistant message in append order (every branch), transcript-only ones included and flagged. */
  readonly all: readonly ModelCall[];
  /** The billed calls: `all` without the excluded ones (cost, cache verdicts). */
  readonly billed: readonly ModelCall[];
  /** How many assistant messages are excluded from usage (transcript-only and message-tool mirrors). */
  readonly excludedCount: number;
  /** The assistant message at an entry index, if that entry is one. */
  at(entryIndex: number): ModelCall | undefined;
  /** The last billed call on the active branch (optionally: that also passes `pred`), or null. */
  lastOnActiveBranch(pred?: (c: ModelCall) => boolean): ModelCall | null;
  /** The last billed call of any branch (append order), or null. */
  readonly lastBilled: ModelCall | null;
}

class DecodedCalls implements TranscriptCalls {
  readonly all: ModelCall[];
  readonly billed: ModelCall[];
  excludedCount = 0;
  /**
   * Calls by entry index. A continuation shares its predecessor's map (it only adds indexes at or after the
   * predecessor's length, which `at` never reads for the predecessor): no copy of every call per append. A
   * second continuation of the same predecessor (a fork) copies the predecessor's own part instead.
   */
  private readonly byEntry: Map<number, ModelCall>;
  private readonly length: number;
  private handedOn = false;

  /** Decode `transcript`'s calls; with `prev` (the calls of a transcript it continues), only the appended ones. */
  constructor(
    private readonly transcript: Transcript,
    prev?: DecodedCalls,
  ) {
    this.length = transcript.entries.length;
    this.all = prev ? prev.all.slice() : [];
    this.billed = prev ? prev.billed.slice() : [];
    this.byEntry = prev ? prev.takeMap() : new Map();
    this.excludedCount = prev?.excludedCount ?? 0;
    const from = prev ? prev.transcript.entries.length : 0;
    const entries = transcript.entries;
    // which of the entries from `from` on are on the active branch: a continuation appended them at the
    // branch's end (continuesTranscript), so the walk back stops at the first older entry
    const active = new Uint8Array(entries.length - from);
    const branch = transcript.activeBranch;
    for (let k = branch.length - 1; k >= 0; k--) {
      const i = branch[k];
      if (i === undefined || i < from) break;
      active[i - from] = 1;
    }
    for (let i = from; i < entries.length; i++) {
      const entry = entries[i];
      const call = entry ? decode(entry, active[entry.index - from] === 1) : null;
      if (!call) continue;
      this.all.push(call);
      this.byEntry.set(entry?.index ?? i, call);
      if (call.excluded) this.excludedCount++;
      else this.billed.push(call);
    }
  }

  /** The map a continuation extends: this one's the first time, else a copy of this one's own entries. */
  private takeMap(): Map<number, ModelCall> {
    if (!this.handedOn) {
      this.handedOn = true;
      return this.byEntry;
    }
    const own = new Map<number, ModelCall>();
    for (const [i, c] of this.byEntry) if (i < this.length) own.set(i, c);
    return own;
  }

  at(entryIndex: number): ModelCall | undefined {
    return entryIndex < this.length ? this.byEntry.get(entryIndex) : undefined;
  }

  lastOnActiveBranch(pred?: (c: ModelCall) => boolean): ModelCall | null {
    const branch = this.transcript.activeBranch;
    for (let k = branch.length - 1; k >= 0; k--) {
      const c = this.byEntry.get(branch[k] ?? -1);
      if (c && !c.excluded && (!pred || pred(c))) return c;
    }
    return null;
  }

  get lastBilled(): ModelCall | null {
    return this.billed.at(-1) ?? null;
  }
}

/**
 * Memo per Transcript, checked against the transcript's shape: a Transcript is replaced when its file grows,
 * but one assembled in place by a live tail must not be served stale calls.
 */
const memo = new WeakMap<Transcript, { shape: string; calls: TranscriptCalls }>();

/**
 * Seed the memo of `next` from `prev`'s decoded calls when `next` continues `prev` (model/transcript-growth.ts:
 * same entry objects, active branch continued by appended entries, so every old call decodes the same, its
 * `onActiveBranch` included): only the appended entries are decoded. Does nothing otherwise.
 */
export function continueModelCalls(prev: Transcript, next: Transcript): void {
  if (prev === next || memo.has(next)) return;
  const old = memo.get(prev);
  if (!old || old.shape !== shapeOf(prev) || !(old.calls instanceof DecodedCalls)) return;
  if (!continuesTranscript(prev, next)) return;
  memo.set(next, { shape: shapeOf(next), calls: new DecodedCalls(next, old.calls) });
}

const shapeOf = (t: Transcript): string => `${t.entries.length}:${t.activeBranch.length}:${t.leafIndex}`;

/** The decoded assistant messages of a transcript (memoised per Transcript). */
export function modelCallsOf(transcript: Transcript): TranscriptCalls {
  const shape = shapeOf(transcript);
  const hit = memo.get(transcript);
  if (hit && hit.shape === shape) return hit.calls;
  const calls = new DecodedCalls(transcript);
  memo.set(transcript, { shape, calls });
  return calls;
}
