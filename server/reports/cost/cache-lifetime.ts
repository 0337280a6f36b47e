// How long each call's cached prefix lived (spec cache-and-cost.md §2.1, §3): the configured retention per
// provider/model, the 1 h tier a previous write recorded, an override, or — when the session's own usage
// contradicts the configuration — the lifetime observed in the session (openclaw/cache/observed-ttl.ts).

import { fmtDuration } from "../../../shared/format.ts";
import type { JsonObject } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript } from "../../model/session.ts";
import { CacheTtlObserver, type ObservedTtl } from "../../openclaw/cache/observed-ttl.ts";
import { type CacheTtl, cacheTtlForRetention } from "../../openclaw/cache/ttl.ts";
import {
  type CacheRetention,
  type ConfigFamily,
  resolveCacheRetention,
} from "../../openclaw/config/agent-settings.ts";

export interface Retention {
  value: CacheRetention | null;
  source: string;
}

/** Calls per provider/model, counted as calls come (a continued cost run counts only its new calls). */
export class ModelCounts {
  private readonly counts = new Map<string, { provider: string | null; model: string | null; n: number }>();
  private last: { provider: string | null; model: string | null; n: number } | null = null;

  add(c: ModelCall): void {
    const last = this.last;
    // runs of one model: no key string per call
    if (last && last.provider === c.provider && last.model === c.model) {
      last.n++;
      return;
    }
    const k = `${c.provider}/${c.model}`;
    const v = this.counts.get(k) ?? { provider: c.provider, model: c.model, n: 0 };
    v.n++;
    this.counts.set(k, v);
    this.last = v;
  }

  /** The provider/model with the most calls (the first counted among equals). */
  best(): { provider: string | null; model: string | null } {
    let best: { provider: string | null; model: string | null; n: number } | null = null;
    for (const v of this.counts.values()) if (!best || v.n > best.n) best = v;
    return best ? { provider: best.provider, model: best.model } : { provider: null, model: null };
  }
}

/** The provider/model with the most calls (the session's main model). */
export function mostUsedModel(calls: readonly ModelCall[]): {
  provider: string | null;
  model: string | null;
} {
  const counts = new ModelCounts();
  for (const c of calls) counts.add(c);
  return counts.best();
}

function observedText(observed: ObservedTtl): string {
  const hits =
    observed.maxHitGapMs !== null
      ? `prefix still read after gaps ≤ ${fmtDuration(observed.maxHitGapMs)}, `
      : "no hit at all, ";
  return `observed in this session: ${hits}nothing read after gaps ≥ ${fmtDuration(observed.minFullMissGapMs)} (${observed.fullMisses} full misses) — shorter than the configured lifetime`;
}

export class CacheLifetimes {
  /** The lifetime observed in the session when it contradicts the configuration (null: it does not). */
  readonly observed: ObservedTtl | null;
  /** What observed the lifetime, kept to continue over appended calls (CostRun.extend). */
  readonly observer: CacheTtlObserver;
  private readonly observedSource: string;
  private readonly retentions = new Map<string, Retention>();

  constructor(
    private readonly config: JsonObject | null,
    private readonly agentId: string,
    /** The session's family and release (which config layers its OpenClaw reads). */
    private readonly release: { family: ConfigFamily; appVersion: string | null },
    /** Cache lifetime override (ms), e.g. the fixtures' mock TTL. */
    private readonly overrideMs: number | undefined,
    transcript: Transcript,
    calls: readonly ModelCall[],
    /** The observer of the lifetimes this continues (same config; `transcript` continues what it saw). */
    observer?: CacheTtlObserver,
  ) {
    this.observer = observer ?? new CacheTtlObserver((c) => this.configuredTtl(c, c).ms);
    this.observed = overrideMs === undefined ? this.observer.extendTo(transcript, calls) : null;
    this.observedSource = this.observed ? observedText(this.observed) : "";
  }

  /** A note for the report when the observed lifetime is used. */
  get note(): string | null {
    return this.observed ? `cache TTL ${this.observedSource}` : null;
  }

  retentionOf(provider: string | null, model: string | null): Retention {
    const k = `${provider}/${model}`;
    let r = this.retentions.get(k);
    if (!r) {
      r = resolveCacheRetention(this.config, this.agentId, provider, model, this.release);
      this.retentions.set(k, r);
    }
    return r;
  }

  /** The prefix `previous` cached lives as long as the tier it was written/refreshed with. */
  private configuredTtl(c: ModelCall, previous: ModelCall): CacheTtl {
    if (previous.usage.cacheWrite1h !== null && previous.usage.cacheWrite1h > 0) {
      return { ms: 3_600_000, source: "usage cacheWrite1h" };
    }
    const r = this.retentionOf(c.provider, c.model);
    return cacheTtlForRetention(r.value, r.source);
  }

  /** The lifetime of the prefix `previous` (the lineage call before `c`) left cached. */
  ttlFor(c: ModelCall, previous: ModelCall): CacheTtl {
    if (this.overrideMs !== undefined) return { ms: this.overrideMs, source: "override" };
    if (this.observed) return { ms: this.observed.ttlMs, source: this.observedSource };
    return this.configuredTtl(c, previous);
  }

  /** The session's effective lifetime for its main model's retention. */
  sessionTtl(main: Retention): CacheTtl {
    if (this.overrideMs !== undefined) return { ms: this.overrideMs, source: "override" };
    if (this.observed) return { ms: this.observed.ttlMs, source: this.observedSource };
    return cacheTtlForRetention(main.value, main.source);
  }
}
