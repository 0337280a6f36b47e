// Tile colours. Group base colours come from the map DTO (OpenClaw's own colours, spec context-report.md §5.4);
// group and leaf shading follow OpenClaw's renderer so the map reads the same as `/context map`:
// group fill = mix(base, rgb(18,22,27), 0.16); leaf shade = (leafIndex mod 7)/10 + (groupIndex mod 2)·0.08,
// leaf fill = mix(base, white, shade); label text dark when 0.299R+0.587G+0.114B > 150.

import type { CacheState } from "../../shared/map.ts";

export type Rgb = readonly [number, number, number];

const FALLBACK: Rgb[] = [
  [201, 82, 96],
  [58, 145, 91],
  [222, 138, 46],
  [59, 118, 184],
  [132, 91, 173],
  [72, 135, 197],
  [120, 130, 140],
];

export function parseRgb(s: string | undefined): Rgb | null {
  if (!s) return null;
  const m = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(s.trim());
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  const h = /^#([0-9a-f]{6})$/i.exec(s.trim());
  if (h?.[1]) {
    const v = Number.parseInt(h[1], 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  return null;
}

/** Channel-wise a + (b − a)·t, t clamped to 0..1, truncated to 8 bits (as OpenClaw's canvas does). */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  const k = Math.min(1, Math.max(0, t));
  return [
    Math.trunc(a[0] + (b[0] - a[0]) * k),
    Math.trunc(a[1] + (b[1] - a[1]) * k),
    Math.trunc(a[2] + (b[2] - a[2]) * k),
  ];
}

export function css(c: Rgb): string {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

const WHITE: Rgb = [255, 255, 255];
const GROUP_DARK: Rgb = [18, 22, 27];

export function groupFill(base: Rgb): Rgb {
  return mix(base, GROUP_DARK, 0.16);
}

export function leafFill(base: Rgb, leafIndex: number, groupIndex: number): Rgb {
  return mix(base, WHITE, (leafIndex % 7) / 10 + (groupIndex % 2) * 0.08);
}

/** OpenClaw's label colour rule. */
export function textOn(fill: Rgb): string {
  return 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 150 ? "rgb(16,23,31)" : "rgb(248,250,252)";
}

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
