// The cache-state palette of the treemap's "Cache state" size mode (UI only). Group colours, OpenClaw's
// shading and label colours live in shared/openclaw-colors.ts and shared/treemap-style.ts.

import type { CacheState } from "../../shared/context-map.ts";
import type { Rgb } from "../../shared/openclaw-colors.ts";

export const CACHE_STATES: readonly CacheState[] = ["read", "write", "uncached", "unknown"];

/** Cache size mode: tiles coloured by their prompt-cache state at the last call. */
export const CACHE_COLORS: Record<CacheState, Rgb> = {
  read: [46, 150, 80],
  write: [214, 120, 40],
  uncached: [196, 64, 64],
  unknown: [140, 148, 160],
};

/** Cache mode: groups are a neutral frame, only leaves carry a state. */
export const CACHE_GROUP_FILL: Rgb = [90, 98, 110];

export const CACHE_LABELS: Record<CacheState, string> = {
  read: "cache read",
  write: "cache write",
  uncached: "not cached",
  unknown: "unknown / not history",
};
