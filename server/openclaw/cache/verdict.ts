// Prompt-cache miss attribution per model call (spec cache-and-cost.md §5–§6) and the cache lifetime
// OpenClaw asks for (§2.1 `cacheRetention`). Pure: transcript + calls in, one verdict with evidence per call out.
//
// Lineage: the previous call m of call n is the latest earlier call (append order, every branch) with the
// same provider and model — the provider keeps a separate cache per model (§1 "Invalidation").
// Expected read of n ≈ the prefix m left cached = P(m) − input(m) (§5 "expected read of call n").

import type { CacheVerdict, PrefixChangeCause, VerdictEvidence } from "../../../shared/cost.ts";
import { arr, isObject, type JsonObject, obj, str } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";
import { indexById } from "../../model/tree.ts";
import type { CacheRetention } from "../config/agent-settings.ts";
import { isTranscriptOnlyAssistant } from "../transcript-only.ts";

export interface CacheTtl {
  /** Cache lifetime in ms; null = no caching requested (`cacheRetention: none`). */
  ms: number | null;
  source: string;
}

/** §1/§2.1: `short` = 5-minute ephemeral cache, `long` = 1 hour (Anthropic `ttl:"1h"`). */
export const CACHE_TTL_MS: Record<CacheRetention, number | null> = {
  none: null,
  short: 5 * 60_000,
  long: 60 * 60_000,
};

export interface ClassifyInput {
  transcript: Transcript;
  /** Billed calls in append order (model/model-calls.ts `billed`). */
  calls: readonly ModelCall[];
  /** Cache lifetime that applied to the prefix cached by `previous` (the lineage call before `call`). */
  ttlFor: (call: ModelCall, previous: ModelCall) => CacheTtl;
  /** Minimum cacheable prompt tokens for a call's model, when known. */
  minCacheableFor: (call: ModelCall) => number | null;
  /** Calls (entry ids) at which a pruning round changed the request (caller's replay, pruning.md §5). */
  pruningRoundCallIds?: ReadonlySet<string>;
  /** Rule family: ≤ 2026.7 rounds apply to one call only, so the next call is sent unpruned (§6). */
  family: "2026.3" | "2026.7" | "2026.9";
}

export interface CallVerdict {
  verdict: CacheVerdict;
  evidence: VerdictEvidence;
  /** Every prefix-change signal seen since the previous lineage call (whatever the verdict). */
  signals: PrefixChangeCause[];
}

/**
 * Deficits up to this count as a hit: Anthropic's lookback and OpenAI's 1,024/128-token read steps make
 * the read differ slightly from the previous prefix (§3). Heuristic, not an OpenClaw number.
 */
export function hitTolerance(expectedRead: number): number {
  return Math.max(1024, Math.round(expectedRead * 0.05));
}

function lineageKey(c: ModelCall): string {
  return `${(c.provider ?? "").toLowerCase()}\u0000${(c.model ?? "").toLowerCase()}`;
}

/** Providers whose usage has no write counter: `cacheWrite 0` means unknown (§3). */
function lacksWriteCounter(call: ModelCall, lineageWrote: boolean): boolean {
  if (call.api === "anthropic-messages" || call.api === "bedrock-converse-stream") return false;
  return !lineageWrote;
}

function message(e: TranscriptEntry): JsonObject | undefined {
  return e.type === "message" ? obj(e.raw, "message") : undefined;
}

/** Key set of `prunedToolResults` of an E5 projection snapshot (transcript.md §9.1), or null when not one. */
function snapshotPrunedKeys(e: TranscriptEntry): Set<string> | null {
  if (e.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") return null;
  const pruned = arr(obj(e.raw, "data"), "prunedToolResults");
  if (!pruned) return null;
  const keys = new Set<string>();
  for (const p of pruned) {
    if (isObject(p)) keys.add(`${str(p, "key") ?? "?"}|${str(p, "mode") ?? "?"}`);
  }
  return keys;
}

/** Snapshot entries whose pruned set gained a key or changed a mode vs the previous snapshot (append order). */
function changedSnapshots(entries: TranscriptEntry[]): Map<number, number> {
  const changed = new Map<number, number>();
  let prev = new Set<string>();
  for (const e of entries) {
    if (e.type === "reset") prev = new Set();
    const keys = snapshotPrunedKeys(e);
    if (!keys) continue;
    let added = 0;
    for (const k of keys) if (!prev.has(k)) added++;
    if (added > 0) changed.set(e.index, added);
    prev = keys;
  }
  return changed;
}

interface PathScan {
  /** Entries on n's ancestor path appended after m (append order). */
  between: TranscriptEntry[];
  /** Whether m is an ancestor of n. */
  mOnPath: boolean;
}

function entryLabel(e: TranscriptEntry): string {
  return e.id ?? `#${e.index}`;
}

export function formatMs(ms: number): string {
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}

/** Classify every call (spec §6, first matching cause; a matching read is a hit whatever else happened). */
export function classifyCacheCalls(input: ClassifyInput): CallVerdict[] {
  const { transcript, calls } = input;
  const entries = transcript.entries;
  const { byId } = indexById(entries, "transcript");
  const parentOf = (e: TranscriptEntry): TranscriptEntry | undefined => {
    if (e.parentId === null) return undefined;
    const i = byId.get(e.parentId);
    return i === undefined ? undefined : entries[i];
  };
  const snapshots = changedSnapshots(entries);
  const roundIds = input.pruningRoundCallIds ?? new Set<string>();

  const scanPath = (n: ModelCall, mIndex: number): PathScan => {
    const between: TranscriptEntry[] = [];
    let mOnPath = false;
    const seen = new Set<number>();
    let cur = entries[n.entryIndex];
    cur = cur ? parentOf(cur) : undefined;
    while (cur && !seen.has(cur.index)) {
      seen.add(cur.index);
      if (cur.index === mIndex) {
        mOnPath = true;
        break;
      }
      if (cur.index < mIndex) break;
      between.push(cur);
      cur = parentOf(cur);
    }
    between.reverse();
    return { between, mOnPath };
  };

  /** The user message that started m's run and the context message just before it, on m's path. */
  const mergedUserPair = (m: ModelCall): { first: TranscriptEntry; prompt: TranscriptEntry } | null => {
    const seen = new Set<number>();
    let cur = entries[m.entryIndex];
    cur = cur ? parentOf(cur) : undefined;
    let prompt: TranscriptEntry | undefined;
    while (cur && !seen.has(cur.index)) {
      seen.add(cur.index);
      const msg = message(cur);
      if (cur.type === "compaction" || cur.type === "reset") return null;
      if (msg) {
        const role = str(msg, "role");
        // Transcript-only replies (transcript.md §8) sit between merged user messages without separating them.
        const skip = isTranscriptOnlyAssistant(msg) || msg.excludeFromContext === true;
        if (!skip) {
          if (!prompt) {
            // Skip m's own run (assistant / toolResult rows of a tool loop) up to the prompt that started it.
            if (role === "user") prompt = cur;
          } else {
            return role === "user" ? { first: cur, prompt } : null;
          }
        }
      }
      cur = parentOf(cur);
    }
    return null;
  };

  const lastOfLineage = new Map<string, ModelCall>();
  const lineageWrites = new Set<string>();
  const lineageCached = new Set<string>();
  const out: CallVerdict[] = [];
  for (let i = 0; i < calls.length; i++) {
    const n = calls[i];
    if (!n) continue;
    const P = n.promptTokens;
    const min = input.minCacheableFor(n);
    const lk = lineageKey(n);
    const m = lastOfLineage.get(lk);
    const zeroUsage = P === 0 && n.usage.output === 0;
    // Error/aborted calls with all-zero usage never touched the cache: keep them out of the lineage.
    if (!zeroUsage) lastOfLineage.set(lk, n);
    if (n.usage.cacheWrite > 0) lineageWrites.add(lk);
    if (n.usage.cacheWrite > 0 || n.usage.cacheRead > 0) lineageCached.add(lk);
    const noWriteCounter = lacksWriteCounter(n, lineageWrites.has(lk));
    const ev: VerdictEvidence = {
      summary: "",
      previousCallEntryId: m?.entryId ?? null,
      lineageGapMs: m && m.atMs !== null && n.atMs !== null ? n.atMs - m.atMs : null,
      cacheTtlMs: null,
      cacheTtlSource: "",
      expectedRead: null,
      missDeficit: null,
      newSuffix: null,
      toleranceTokens: null,
      minCacheableTokens: min,
      cause: null,
      signalEntryIds: [],
      alsoMatched: [],
      writeCounterMissing: noWriteCounter,
    };
    let signalCauses: PrefixChangeCause[] = [];
    const done = (verdict: CacheVerdict, summary: string): void => {
      ev.summary = summary;
      out.push({ verdict, evidence: ev, signals: signalCauses });
    };

    if (zeroUsage) {
      done("no-usage", "all-zero usage (error or aborted call): no cache effect recorded");
      continue;
    }
    // Below minimum: a marked prefix shorter than the model minimum is simply not cached (§1).
    if (min !== null && P < min && n.usage.cacheRead === 0 && n.usage.cacheWrite === 0) {
      done("below-minimum", `prompt ${P} tokens < model minimum ${min}: nothing read or written`);
      continue;
    }

    if (!m) {
      const other = i > 0 ? calls[i - 1] : undefined;
      if (other) {
        ev.previousCallEntryId = other.entryId;
        done(
          "model-switch",
          `first call of ${n.provider ?? "?"}/${n.model ?? "?"} after ${other.provider ?? "?"}/${other.model ?? "?"}: separate cache per model, write ${n.usage.cacheWrite}`,
        );
      } else {
        done(
          "cold-start",
          n.usage.cacheRead > 0
            ? `first call of the session; read ${n.usage.cacheRead} (a prefix still warm from another session with identical bytes)`
            : `first call of the session: write ${n.usage.cacheWrite}, nothing to read`,
        );
      }
      continue;
    }

    if (!lineageCached.has(lk)) {
      done(
        "not-cached",
        `no cache read or write reported for ${n.provider ?? "?"}/${n.model ?? "?"} in this session so far: caching off (cacheRetention none), unsupported or not reported`,
      );
      continue;
    }
    const { between, mOnPath } = scanPath(n, m.entryIndex);
    const reset = between.filter((e) => e.type === "reset");
    if (reset.length > 0) {
      ev.signalEntryIds = reset.map(entryLabel);
      done(
        "cold-start",
        `reset entry since the previous call: the history starts over (write ${n.usage.cacheWrite})`,
      );
      continue;
    }

    const ttl = input.ttlFor(n, m);
    ev.cacheTtlMs = ttl.ms;
    ev.cacheTtlSource = ttl.source;
    const expected = noWriteCounter ? m.promptTokens : m.promptTokens - m.usage.input;
    ev.expectedRead = expected;
    ev.missDeficit = Math.max(0, expected - n.usage.cacheRead);
    ev.newSuffix = P - expected;
    const tol = hitTolerance(expected);
    ev.toleranceTokens = tol;

    if (expected <= 0 && n.usage.cacheRead === 0) {
      done(
        "cold-start",
        `previous call ${m.entryId ?? `#${m.entryIndex}`} cached nothing (caching off or unsupported): nothing to read`,
      );
      continue;
    }
    if (n.usage.cacheRead > 0 && ev.missDeficit <= tol) {
      done(
        "hit",
        `read ${n.usage.cacheRead} of the expected ${expected} (deficit ${ev.missDeficit} ≤ tolerance ${tol}); write ${n.usage.cacheWrite} for the new suffix of ${Math.max(0, ev.newSuffix)}`,
      );
      continue;
    }

    // Signals of a prefix change between m and n (on n's path).
    const signals: { cause: PrefixChangeCause; ids: string[]; text: string }[] = [];
    const compactions = between.filter((e) => e.type === "compaction");
    if (compactions.length > 0) {
      signals.push({
        cause: "compaction",
        ids: compactions.map(entryLabel),
        text: "compaction since the previous call rewrote the history",
      });
    }
    const snaps = between.filter((e) => snapshots.has(e.index));
    const inputRound = n.entryId !== null && roundIds.has(n.entryId);
    if (snaps.length > 0 || inputRound) {
      const added = snaps.reduce((s, e) => s + (snapshots.get(e.index) ?? 0), 0);
      signals.push({
        cause: "pruning-round",
        ids: snaps.map(entryLabel),
        text:
          snaps.length > 0
            ? `pruning round: projection snapshot marks ${added} more tool result(s) pruned`
            : "pruning round on this call (replay)",
      });
    }
    if (input.family !== "2026.9" && m.entryId !== null && roundIds.has(m.entryId)) {
      signals.push({
        cause: "unpruned-after-round",
        ids: [m.entryId],
        text: "the previous call was pruned; ≤ 2026.7 sends this one unpruned again",
      });
    }
    const pair = mergedUserPair(m);
    const newRun = between.some((e) => {
      const msg = message(e);
      return msg !== undefined && str(msg, "role") === "user" && msg.excludeFromContext !== true;
    });
    if (pair && newRun) {
      signals.push({
        cause: "merged-user-messages",
        ids: [entryLabel(pair.first), entryLabel(pair.prompt)],
        text: "two consecutive user messages were merged for the previous call and the earlier one took the newer timestamp prefix; re-sent as history they differ",
      });
    }
    const thinking = between.filter((e) => e.type === "thinking_level_change");
    if (thinking.length > 0) {
      signals.push({
        cause: "thinking-level-change",
        ids: thinking.map(entryLabel),
        text: "thinking level changed",
      });
    }
    signalCauses = signals.map((s) => s.cause);
    if (!mOnPath) {
      ev.alsoMatched.push("branch: the previous call is not an ancestor of this one");
    }

    const gap = ev.lineageGapMs;
    if (ttl.ms !== null && gap !== null && gap > ttl.ms) {
      ev.alsoMatched.push(...signals.map((s) => `${s.cause}: ${s.text}`));
      ev.signalEntryIds = signals.flatMap((s) => s.ids);
      done(
        "ttl-expired",
        `gap ${formatMs(gap)} > cache TTL ${formatMs(ttl.ms)} (${ttl.source}): read ${n.usage.cacheRead} of the expected ${expected}, re-wrote ${n.usage.cacheWrite}`,
      );
      continue;
    }

    const first = signals[0];
    if (first) {
      ev.cause = first.cause;
      ev.signalEntryIds = first.ids;
      ev.alsoMatched.push(...signals.slice(1).map((s) => `${s.cause}: ${s.text}`));
      done(
        "prefix-changed",
        `${first.text}: read ${n.usage.cacheRead} of the expected ${expected}, write ${n.usage.cacheWrite} vs new suffix ${Math.max(0, ev.newSuffix)}`,
      );
      continue;
    }
    if (!noWriteCounter && n.usage.cacheWrite > Math.max(0, ev.newSuffix) + tol) {
      ev.cause = "unknown";
      done(
        "prefix-changed",
        n.usage.cacheRead === 0
          ? `write ${n.usage.cacheWrite} ≫ new suffix ${Math.max(0, ev.newSuffix)} and nothing read, not even the stable system prefix: system prompt / tools / bootstrap files changed, or the provider dropped the cache early`
          : `write ${n.usage.cacheWrite} ≫ new suffix ${Math.max(0, ev.newSuffix)} and read ${n.usage.cacheRead} < expected ${expected}: something early changed (bootstrap files, system prompt, tools, an edited or merged message)`,
      );
      continue;
    }
    done(
      "unexplained",
      `read ${n.usage.cacheRead} < expected ${expected} within the TTL and no transcript signal: provider eviction or routing`,
    );
  }
  return out;
}

// ---- effective TTL observed in the session ----

export interface ObservedTtl {
  maxHitGapMs: number | null;
  minFullMissGapMs: number;
  fullMisses: number;
  hits: number;
  ttlMs: number;
}

/**
 * Infer the provider's effective cache lifetime from the session's own usage. A full miss (cacheRead 0
 * although the previous call of the lineage cached a prefix) cannot come from a message edit or a pruning
 * round — the stable system block has its own breakpoint (§2.2) — so it means the cache was gone.
 * When ≥ 2 full misses exist, every hit gap is shorter than every full-miss gap, and the shortest full-miss
 * gap is shorter than the configured TTL, the configured TTL is contradicted by the data (a proxy, a shorter
 * provider TTL, the fixtures' mock): return the observed bound. Pairs with a reset between them and
 * zero-usage calls are left out. Heuristic, labelled as observed wherever it is used.
 */
export function observeCacheTtl(
  transcript: Transcript,
  calls: readonly ModelCall[],
  configuredTtlMs: (call: ModelCall) => number | null,
): ObservedTtl | null {
  // A compaction keeps the stable system block (its breakpoint still reads, j1 call 10); a reset may not.
  const rewrites: number[] = [];
  for (const e of transcript.entries) if (e.type === "reset") rewrites.push(e.index);
  const last = new Map<string, ModelCall>();
  let maxHit: number | null = null;
  let minMiss = Number.POSITIVE_INFINITY;
  let fullMisses = 0;
  let hits = 0;
  let below = false;
  for (const n of calls) {
    const P = n.promptTokens;
    if (P === 0 && n.usage.output === 0) continue;
    const k = lineageKey(n);
    const m = last.get(k);
    last.set(k, n);
    if (!m || m.atMs === null || n.atMs === null) continue;
    if (rewrites.some((i) => i > m.entryIndex && i < n.entryIndex)) continue;
    const expected = m.promptTokens - m.usage.input;
    if (expected <= 0 || m.usage.cacheWrite + m.usage.cacheRead === 0) continue;
    const gap = n.atMs - m.atMs;
    if (n.usage.cacheRead === 0 && n.usage.cacheWrite > 0) {
      fullMisses++;
      minMiss = Math.min(minMiss, gap);
      const conf = configuredTtlMs(n);
      if (conf !== null && gap <= conf) below = true;
    } else if (n.usage.cacheRead > 0 && expected - n.usage.cacheRead <= hitTolerance(expected)) {
      hits++;
      maxHit = maxHit === null ? gap : Math.max(maxHit, gap);
    }
  }
  if (fullMisses < 2 || !below || !Number.isFinite(minMiss)) return null;
  if (maxHit !== null && maxHit >= minMiss) return null;
  return { maxHitGapMs: maxHit, minFullMissGapMs: minMiss, fullMisses, hits, ttlMs: minMiss - 1 };
}

/** Cache lifetime for a retention value; unknown → 5 minutes (labelled as assumed). */
export function cacheTtlForRetention(retention: CacheRetention | null, source: string): CacheTtl {
  if (retention === null) return { ms: CACHE_TTL_MS.short, source };
  const ms = CACHE_TTL_MS[retention];
  return {
    ms,
    source: `${retention === "long" ? "1 h" : retention === "short" ? "5 min" : "no cache"} (${source})`,
  };
}
