// Which cache-TTL pruner a session's OpenClaw release runs. Read from the pruning code of each release's npm
// build (docs/openclaw-facts.md §8; `npm pack openclaw@R`, dist/):
// - ≤ 2026.7.x (2026.7.1, 2026.7.2-beta.1, 2026.7.35): `agent-hooks/context-pruning/` — configurable knobs,
//   stateless rounds ("2026.7"; 2026.3.2 has its own image and estimate rules, "2026.3").
// - 2026.8.1 – 2026.9.1: `embedded-agent-runner/tool-result-truncation.ts` `pruneExpiredCacheTtlToolResults` —
//   the thresholds fixed at the old defaults (the knobs left the config schema), the weighted estimate and
//   UTF-16-safe soft-trim of 2026.9.6, but still stateless: nothing is persisted, every request whose TTL gate
//   opens recomputes its round from the unpruned list, and no server-side clearing path ("2026.8").
// - 2026.9.2: sticky projections restored from the `prunedToolResults` of the attempt-end cache-touch marker,
//   but no `frozenToolResults` / source hashes and no `recordCacheTouch`: a successful request does not move
//   the TTL clock, only a round does ("2026.9", refreshOnSuccess false).
// - 2026.9.3 – 2026.9.6: sticky projections with frozen source hashes and pre-request snapshots; every
//   successful request refreshes the clock (`recordCacheTouch` on `onSucceeded`) ("2026.9").
// Pure.

import type { PruneAlgorithm } from "../../../shared/prune.ts";
import { hasChangeFrom, type Release } from "../../../shared/release-order.ts";
import type { VersionInfo } from "../../../shared/session.ts";
import type { EstimateFlavor } from "../estimate.ts";

/** First release of each pruner change inside the 2026.9 rule family (which starts at 2026.8.1). */
const STICKY_FROM: Release = [2026, 9, 2];
const REFRESH_ON_SUCCESS_FROM: Release = [2026, 9, 3];
/** 2026.9.6 `isCacheTtlEligibleProvider(…, route)` passes the route the OpenAI provider hook reads. */
const OPENAI_HOOK_FROM: Release = [2026, 9, 6];

export interface PruningGeneration {
  algorithm: PruneAlgorithm;
  /** The bundled OpenAI plugin makes `openai` cache-TTL eligible (its `isCacheTtlEligible` hook: 2026.9.6+). */
  openaiHook: boolean;
  /** Every successful request refreshes the TTL clock (2026.9.3+); otherwise only a round does. */
  refreshOnSuccess: boolean;
  /** Why, for the replay's "algorithm" line. */
  note: string;
}

/** The pruner of the release that wrote a session (its family, refined by its version where recorded). */
export function pruningGeneration(version: Pick<VersionInfo, "family" | "appVersion">): PruningGeneration {
  if (version.family !== "2026.9") {
    return { algorithm: version.family, refreshOnSuccess: false, openaiHook: false, note: "" };
  }
  const app = version.appVersion;
  if (!hasChangeFrom(app, STICKY_FROM)) {
    return {
      algorithm: "2026.8",
      refreshOnSuccess: false,
      openaiHook: false,
      note: `OpenClaw ${app} (2026.8.1–2026.9.1) prunes with the fixed thresholds but persists no projection: each round applies to its own request only`,
    };
  }
  if (!hasChangeFrom(app, REFRESH_ON_SUCCESS_FROM)) {
    return {
      algorithm: "2026.9",
      refreshOnSuccess: false,
      openaiHook: false,
      note: `OpenClaw ${app} keeps projections sticky but refreshes the TTL clock only when a round prunes (recordCacheTouch arrived in 2026.9.3)`,
    };
  }
  return {
    algorithm: "2026.9",
    refreshOnSuccess: true,
    openaiHook: hasChangeFrom(app, OPENAI_HOOK_FROM),
    note: "",
  };
}

/** The estimate and soft-trim rules of an algorithm: 2026.8.1 brought in 2026.9.6's (weighted CJK, UTF-16-safe). */
export function estimateFlavorOf(algorithm: PruneAlgorithm): EstimateFlavor {
  return algorithm === "2026.8" ? "2026.9" : algorithm;
}

/** Whether an algorithm replays its projections on later requests (else each round is one request's). */
export function isSticky(algorithm: PruneAlgorithm): boolean {
  return algorithm === "2026.9";
}
