// Prompt-cache miss attribution per model call (spec cache-and-cost.md §5–§6). Pure: transcript + calls in,
// one verdict with evidence per call out.
//
// Lineage: the previous call m of call n is the latest earlier call (append order, every branch) with the
// same provider and model — the provider keeps a separate cache per model (§1 "Invalidation").
// Expected read of n ≈ the prefix m left cached = P(m) − input(m) (§5 "expected read of call n").
// The classifier keeps its lineage state in fields and takes the calls one by one, in append order, so a
// session that grows can be classified further without starting again.

import type { CacheVerdict, PrefixChangeCause, VerdictEvidence } from "../../../shared/cost.ts";
import { fmtDuration, fmtInt } from "../../../shared/format.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript } from "../../model/session.ts";
import { hitTolerance, lacksWriteCounter, lineageKey } from "./lineage.ts";
import { entryLabel, type PrefixSignal, PrefixSignals } from "./prefix-signals.ts";
import type { CacheTtl } from "./ttl.ts";

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
  /**
   * Pruning rounds persist (sticky projections, 2026.9.2+: pruning/generation.ts); else a round applies to its
   * own call only and the next call is sent unpruned again (§6).
   */
  stickyRounds: boolean;
}

export interface CallVerdict {
  verdict: CacheVerdict;
  evidence: VerdictEvidence;
  /** Every prefix-change signal seen since the previous lineage call (whatever the verdict). */
  signals: PrefixChangeCause[];
}

/** A call's verdict as it is being decided: its evidence fills in cause by cause. */
interface Case {
  n: ModelCall;
  /** The previous call of n's lineage. */
  m: ModelCall;
  ev: VerdictEvidence;
  noWriteCounter: boolean;
}

function verdictOf(
  verdict: CacheVerdict,
  ev: VerdictEvidence,
  summary: string,
  signals: PrefixChangeCause[] = [],
) {
  ev.summary = summary;
  return { verdict, evidence: ev, signals };
}

function who(c: ModelCall): string {
  return `${c.provider ?? "?"}/${c.model ?? "?"}`;
}

export class CacheClassifier {
  private readonly signals: PrefixSignals;
  private readonly lastOfLineage = new Map<string, ModelCall>();
  private readonly lineageWrites = new Set<string>();
  private readonly lineageCached = new Set<string>();
  /** The previous call classified (any lineage). */
  private previous: ModelCall | undefined;

  constructor(private readonly input: Omit<ClassifyInput, "calls">) {
    this.signals = new PrefixSignals(
      input.transcript,
      input.pruningRoundCallIds ?? new Set(),
      input.stickyRounds,
    );
  }

  /** The transcript grew by appended entries (PrefixSignals.extendTo); the calls so far stay classified. */
  extendTo(transcript: Transcript, byId: ReadonlyMap<string, number>): void {
    this.signals.extendTo(transcript, byId);
  }

  /** Classify the next call (spec §6, first matching cause; a matching read is a hit whatever else happened). */
  classify(n: ModelCall): CallVerdict {
    const other = this.previous;
    this.previous = n;
    const lk = lineageKey(n);
    const m = this.lastOfLineage.get(lk);
    const zeroUsage = n.promptTokens === 0 && n.usage.output === 0;
    // Error/aborted calls with all-zero usage never touched the cache: keep them out of the lineage.
    if (!zeroUsage) this.lastOfLineage.set(lk, n);
    if (n.usage.cacheWrite > 0) this.lineageWrites.add(lk);
    if (n.usage.cacheWrite > 0 || n.usage.cacheRead > 0) this.lineageCached.add(lk);
    const noWriteCounter = lacksWriteCounter(n, this.lineageWrites.has(lk));
    const min = this.input.minCacheableFor(n);
    const ev = this.evidence(n, m, min, noWriteCounter);
    if (zeroUsage)
      return verdictOf("no-usage", ev, "all-zero usage (error or aborted call): no cache effect recorded");
    // Below minimum: a marked prefix shorter than the model minimum is simply not cached (§1).
    if (min !== null && n.promptTokens < min && n.usage.cacheRead === 0 && n.usage.cacheWrite === 0) {
      return verdictOf(
        "below-minimum",
        ev,
        `prompt ${n.promptTokens} tokens < model minimum ${min}: nothing read or written`,
      );
    }
    if (!m) return this.firstOfLineage(n, other, ev);
    if (!this.lineageCached.has(lk)) {
      return verdictOf(
        "not-cached",
        ev,
        `no cache read or write reported for ${who(n)} in this session so far: caching off (cacheRetention none), unsupported or not reported`,
      );
    }
    return this.againstPrevious({ n, m, ev, noWriteCounter });
  }

  private evidence(
    n: ModelCall,
    m: ModelCall | undefined,
    min: number | null,
    noWriteCounter: boolean,
  ): VerdictEvidence {
    return {
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
  }

  /** The first call of a lineage: a model switch after another model's call, else the session's cold start. */
  private firstOfLineage(n: ModelCall, other: ModelCall | undefined, ev: VerdictEvidence): CallVerdict {
    if (other) {
      ev.previousCallEntryId = other.entryId;
      return verdictOf(
        "model-switch",
        ev,
        `first call of ${who(n)} after ${who(other)}: separate cache per model, write ${fmtInt(n.usage.cacheWrite)}`,
      );
    }
    return verdictOf(
      "cold-start",
      ev,
      n.usage.cacheRead > 0
        ? `first call of the session; read ${fmtInt(n.usage.cacheRead)} (a prefix still warm from another session with identical bytes)`
        : `first call of the session: write ${fmtInt(n.usage.cacheWrite)}, nothing to read`,
    );
  }

  /** n against the prefix m left cached: reset, nothing cached, hit, else a miss to explain. */
  private againstPrevious(c: Case): CallVerdict {
    const { n, m, ev } = c;
    const { between, mOnPath } = this.signals.scanPath(n, m.entryIndex);
    const reset = between.filter((e) => e.type === "reset");
    if (reset.length > 0) {
      ev.signalEntryIds = reset.map(entryLabel);
      return verdictOf(
        "cold-start",
        ev,
        `reset entry since the previous call: the history starts over (write ${fmtInt(n.usage.cacheWrite)})`,
      );
    }
    const ttl = this.input.ttlFor(n, m);
    ev.cacheTtlMs = ttl.ms;
    ev.cacheTtlSource = ttl.source;
    const expected = c.noWriteCounter ? m.promptTokens : m.promptTokens - m.usage.input;
    const deficit = Math.max(0, expected - n.usage.cacheRead);
    const tol = hitTolerance(expected);
    ev.expectedRead = expected;
    ev.missDeficit = deficit;
    ev.newSuffix = n.promptTokens - expected;
    ev.toleranceTokens = tol;
    if (expected <= 0 && n.usage.cacheRead === 0) {
      return verdictOf(
        "cold-start",
        ev,
        `previous call ${m.entryId ?? `#${m.entryIndex}`} cached nothing (caching off or unsupported): nothing to read`,
      );
    }
    if (n.usage.cacheRead > 0 && deficit <= tol) {
      return verdictOf(
        "hit",
        ev,
        `read ${fmtInt(n.usage.cacheRead)} of the expected ${fmtInt(expected)} (deficit ${fmtInt(deficit)} ≤ tolerance ${fmtInt(tol)}); write ${fmtInt(n.usage.cacheWrite)} for the new suffix of ${fmtInt(Math.max(0, ev.newSuffix))}`,
      );
    }
    const signals = this.signals.signals(n, m, between);
    if (!mOnPath) ev.alsoMatched.push("branch: the previous call is not an ancestor of this one");
    return this.miss(c, ttl, expected, tol, signals);
  }

  /** A miss: the TTL ran out, a signalled prefix change, an unsignalled early change, or nothing explains it. */
  private miss(c: Case, ttl: CacheTtl, expected: number, tol: number, signals: PrefixSignal[]): CallVerdict {
    const { n, ev } = c;
    const causes = signals.map((s) => s.cause);
    const suffix = Math.max(0, ev.newSuffix ?? 0);
    const gap = ev.lineageGapMs;
    if (ttl.ms !== null && gap !== null && gap > ttl.ms) {
      ev.alsoMatched.push(...signals.map((s) => `${s.cause}: ${s.text}`));
      ev.signalEntryIds = signals.flatMap((s) => s.ids);
      return verdictOf(
        "ttl-expired",
        ev,
        `gap ${fmtDuration(gap)} > cache TTL ${fmtDuration(ttl.ms)} (${ttl.source}): read ${fmtInt(n.usage.cacheRead)} of the expected ${fmtInt(expected)}, re-wrote ${fmtInt(n.usage.cacheWrite)}`,
        causes,
      );
    }
    const first = signals[0];
    if (first) {
      ev.cause = first.cause;
      ev.signalEntryIds = first.ids;
      ev.alsoMatched.push(...signals.slice(1).map((s) => `${s.cause}: ${s.text}`));
      const summary = `${first.text}: read ${fmtInt(n.usage.cacheRead)} of the expected ${fmtInt(expected)}, write ${fmtInt(n.usage.cacheWrite)} vs new suffix ${fmtInt(suffix)}`;
      return verdictOf("prefix-changed", ev, summary, causes);
    }
    if (!c.noWriteCounter && n.usage.cacheWrite > suffix + tol) {
      ev.cause = "unknown";
      return verdictOf(
        "prefix-changed",
        ev,
        n.usage.cacheRead === 0
          ? `write ${fmtInt(n.usage.cacheWrite)} ≫ new suffix ${fmtInt(suffix)} and nothing read, not even the stable system prefix: system prompt / tools / bootstrap files changed, or the provider dropped the cache early`
          : `write ${fmtInt(n.usage.cacheWrite)} ≫ new suffix ${fmtInt(suffix)} and read ${fmtInt(n.usage.cacheRead)} < expected ${fmtInt(expected)}: something early changed (bootstrap files, system prompt, tools, an edited or merged message)`,
        causes,
      );
    }
    return verdictOf(
      "unexplained",
      ev,
      `read ${fmtInt(n.usage.cacheRead)} < expected ${fmtInt(expected)} within the TTL and no transcript signal: provider eviction or routing`,
      causes,
    );
  }
}

/** Classify every call of a session, in append order. */
export function classifyCacheCalls(input: ClassifyInput): CallVerdict[] {
  const classifier = new CacheClassifier(input);
  return input.calls.map((n) => classifier.classify(n));
}
