// OpenClaw's `/context map` colours: the group base colours, the group and leaf shading and the label colour
// rule of `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6) — spec context-report.md §5.4 (group table and
// "drawing details"). One module for the server's picture (server/openclaw/context-map/picture.ts) and the web
// treemap's tile shading (web/treemap/colors.ts), so both read the same as OpenClaw's PNG.

/** An 8-bit colour, channels 0..255. */
export type Rgb = readonly [number, number, number];

/** Group base colours (spec §5.4 group table). */
export const OPENCLAW_GROUP_COLORS = {
  conversation: [201, 82, 96],
  workspace: [58, 145, 91],
  system: [222, 138, 46],
  tools: [59, 118, 184],
  skills: [132, 91, 173],
  /** 2026.7.1 `Current turn` / `Room event` group. */
  currentTurn: [72, 135, 197],
} as const satisfies Record<string, Rgb>;

export const WHITE: Rgb = [255, 255, 255];
/** What a group fill is darkened toward. */
export const GROUP_DARK: Rgb = [18, 22, 27];
/** Label colours: dark on light fills, light on dark ones. */
export const TEXT_DARK = "rgb(16,23,31)";
export const TEXT_LIGHT = "rgb(248,250,252)";

/** `rgb(r,g,b)`, the form every fill in the picture DTO and the map DTO is written in. */
export function css(c: Rgb): string {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** Reads `rgb(r,g,b)` or `#rrggbb`; null for anything else. */
export function parseRgb(s: string | undefined): Rgb | null {
  if (!s) return null;
  const m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(s.trim());
  if (m) return [channel(Number(m[1])), channel(Number(m[2])), channel(Number(m[3]))];
  const h = /^#([0-9a-f]{6})$/i.exec(s.trim());
  if (h?.[1]) {
    const v = Number.parseInt(h[1], 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  return null;
}

/** A channel as OpenClaw's canvas writes it: truncated and clamped to 0..255. */
function channel(x: number): number {
  return Math.min(255, Math.max(0, Math.trunc(x)));
}

/** Channel-wise `a + (b − a)·t`, t clamped to 0..1, written into 8-bit channels (truncated, spec §5.4). */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  const k = Math.min(1, Math.max(0, t));
  return [
    channel(a[0] + (b[0] - a[0]) * k),
    channel(a[1] + (b[1] - a[1]) * k),
    channel(a[2] + (b[2] - a[2]) * k),
  ];
}

/** Group fill = mix(base, rgb(18,22,27), 0.16). */
export function groupFill(base: Rgb): Rgb {
  return mix(base, GROUP_DARK, 0.16);
}

/** Leaf shade = (leafIndex mod 7)/10 + (groupIndex mod 2)·0.08, indexes in layout order. */
export function leafShade(leafIndex: number, groupIndex: number): number {
  return (leafIndex % 7) / 10 + (groupIndex % 2) * 0.08;
}

/** Leaf fill = mix(base, white, shade). */
export function leafFill(base: Rgb, leafIndex: number, groupIndex: number): Rgb {
  return mix(base, WHITE, leafShade(leafIndex, groupIndex));
}

/** Perceived brightness 0.299R + 0.587G + 0.114B (OpenClaw's label rule). */
export function luminance(c: Rgb): number {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}

/** Label colour on a fill: dark when the fill's luminance exceeds 150. */
export function textOn(fill: Rgb): string {
  return luminance(fill) > 150 ? TEXT_DARK : TEXT_LIGHT;
}
