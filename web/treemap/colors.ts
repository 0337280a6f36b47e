// Tile colours of clawscope's treemap. Group base colours come from the map DTO (OpenClaw's own colours where
// OpenClaw has the group); group and leaf shading and the label colour are OpenClaw's rules
// (shared/openclaw-colors.ts), so the map reads the same as `/context map`. This file adds only what is
// clawscope's own: fallback colours and the cache-state palette.

import type { CacheState } from "../../shared/map.ts";
import { OPENCLAW_GROUP_COLORS, type Rgb } from "../../shared/openclaw-colors.ts";

/** For a group the DTO gives no usable colour: OpenClaw's palette in its group order, then slate. */
const FALLBACK: readonly Rgb[] = [...Object.values(OPENCLAW_GROUP_COLORS), [120, 130, 140]];

export function fallbackColor(index: number): Rgb {
  return FALLBACK[index % FALLBACK.length] ?? [120, 130, 140];
}

export const CACHE_STATES: readonly CacheState[] = ["read", "write", "uncached", "unknown"];

/** Cache size mode: tiles coloured by their prompt-cache state at the last call. */
export const CACHE_COLORS: Record<CacheState, Rgb> = {
  read: [46, 150, 80],
  write: [214, 120, 40],
  uncached: [196, 64, 64],
  unknown: [140, 148, 160],
};

export const CACHE_LABELS: Record<CacheState, string> = {
  read: "cache read",
  write: "cache write",
  uncached: "not cached",
  unknown: "unknown / not history",
};
