// The cache-TTL gate of a pruning round (spec pruning.md §1.8, §2.4 steps 1–4, §2.2): whether a request may
// prune at all — mode, eligibility / server-side path, TTL disabled, no cache-touch marker yet, TTL not yet
// expired since the last touch — and which cache-touch marker is "the last touch" for a provider/model.
// The pruner's own reasons (no window, too few assistants, …) come from the round itself. Pure.

import type { PruneAlgorithm, PruneGate, PruneSettingsDTO } from "../../../shared/prune.ts";
import type { Eligibility } from "./eligibility.ts";

export const GATE_TEXT: Record<PruneGate, string> = {
  "mode-off": "contextPruning.mode is not cache-ttl: no new rounds",
  "not-eligible": "provider/model not cache-TTL eligible: no rounds",
  "server-side": "direct Anthropic API: server-side clearing instead of local rounds",
  "ttl-disabled": "ttl is 0: rounds disabled",
  "no-cache-touch": "no cache-touch marker yet (first run of the session never prunes)",
  "ttl-not-expired": "TTL not expired since the last cache touch",
  "no-window": "no positive context window",
  "too-few-assistants": "fewer assistant messages than keepLastAssistants",
  "no-user-message": "no user message in the context list",
  "below-soft-trim-ratio": "gate open, but the context is below the soft-trim ratio",
  open: "gate open: pruning round ran",
};

export interface GateResult {
  gate: PruneGate;
  ttlExpired: boolean;
  /** Time since the last cache touch, null without one. */
  idleMs: number | null;
}

/** The gate for a request at `t` whose last cache touch was `touch` (ms, null = none). */
export function ttlGate(
  settings: Pick<PruneSettingsDTO, "mode" | "ttlMs">,
  t: number,
  touch: number | null,
  eligibility: Eligibility,
): GateResult {
  const idleMs = touch === null ? null : t - touch;
  const ttlExpired = touch !== null && settings.ttlMs > 0 && t - touch >= settings.ttlMs;
  let gate: PruneGate = "open";
  if (settings.mode !== "cache-ttl") gate = "mode-off";
  else if (eligibility.path === "none") gate = "not-eligible";
  else if (eligibility.path === "server-side") gate = "server-side";
  else if (settings.ttlMs <= 0) gate = "ttl-disabled";
  else if (touch === null) gate = "no-cache-touch";
  else if (!ttlExpired) gate = "ttl-not-expired";
  return { gate, ttlExpired, idleMs };
}

/** Newest cache-touch times seen so far: any marker, and per provider/model (transcript.md §9.1). */
export interface TouchMarkers {
  any: number | null;
  byKey: Map<string, number>;
}

/** Key of a marker's provider/model: 2026.7.1+ match them case-insensitively. */
export function markerKey(provider: string | null, modelId: string | null): string {
  return `${(provider ?? "").toLowerCase()}/${(modelId ?? "").toLowerCase()}`;
}

/** The last cache touch for a request to provider/model: 2026.3.2 ignores provider/model, 2026.7.1+ match them. */
export function lastTouchFor(
  markers: TouchMarkers,
  algorithm: PruneAlgorithm,
  provider: string | null,
  modelId: string | null,
): number | null {
  return algorithm === "2026.3" ? markers.any : (markers.byKey.get(markerKey(provider, modelId)) ?? null);
}
