// The replay's TTL clock (pruning.md §1.8, §2.4 steps 8–9; transcript.md §9.1): cache-touch markers read over
// the full entry list in append order; at each attempt start (a new user run) the clock is taken from the
// newest markers, as OpenClaw reads them when the attempt begins.

import { str } from "../../../shared/json.ts";
import type { PruneAlgorithm } from "../../../shared/prune.ts";
import type { TranscriptEntry } from "../../model/session.ts";
import { lastTouchFor, markerKey, type TouchMarkers } from "../../openclaw/pruning/gate.ts";
import { cacheTouchOf } from "../../openclaw/pruning/sticky-2026-9.ts";

export class TtlClock {
  /** Entries (append order) whose markers have been read. */
  private read = 0;
  private newestAny: number | null = null;
  private readonly newestByKey = new Map<string, number>();
  /** Copy of the newest markers for attempt starts, reused until a new marker arrives. */
  private attemptCopy: TouchMarkers | null = null;
  /** The markers as they were when the current attempt started. */
  private attemptMarkers: TouchMarkers | null = null;
  private attemptPending = false;
  private currentRunId: string | null = null;
  /** The last cache touch the gate compares against (OpenClaw's lastCacheTouchAt). */
  lastTouch: number | null = null;

  constructor(private readonly algorithm: PruneAlgorithm) {}

  /** Read the markers of every entry up to `uptoIndex` (inclusive). */
  advance(entries: readonly TranscriptEntry[], uptoIndex: number): void {
    for (; this.read <= uptoIndex && this.read < entries.length; this.read++) {
      const e = entries[this.read];
      if (e?.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") continue;
      const touch = cacheTouchOf(e.raw.data);
      if (!touch) continue;
      this.newestAny = touch.timestamp;
      this.newestByKey.set(markerKey(touch.provider, touch.modelId), touch.timestamp);
      this.attemptCopy = null;
    }
  }

  /**
   * A user message of run `runId` (its idempotency key without `:user`; null = unknown). A different run is
   * a new attempt: the clock will start from the markers as they are now. True when an attempt started.
   */
  userMessage(runId: string | null): boolean {
    if (runId !== null && runId === this.currentRunId) return false;
    this.currentRunId = runId;
    this.attemptCopy ??= { any: this.newestAny, byKey: new Map(this.newestByKey) };
    this.attemptMarkers = this.attemptCopy;
    this.attemptPending = true;
    return true;
  }

  /** At the first request of a new attempt: set the clock from the attempt's markers. True when it did. */
  startAttempt(provider: string | null, modelId: string | null): boolean {
    if (!this.attemptPending) return false;
    this.attemptPending = false;
    this.lastTouch = this.attemptMarkers
      ? lastTouchFor(this.attemptMarkers, this.algorithm, provider, modelId)
      : null;
    return true;
  }

  /** The newest cache touch for provider/model over every marker read (the next request's clock). */
  newestFor(provider: string | null, modelId: string | null): number | null {
    return lastTouchFor({ any: this.newestAny, byKey: this.newestByKey }, this.algorithm, provider, modelId);
  }
}
