// How a laid-out tile of clawscope's treemap looks: base colour per group, OpenClaw's group / leaf shading
// (shared/openclaw-colors.ts), borders and which label fits. One module for the app (web/treemap/treemap.tsx)
// and the HTML export (server/export/treemap-svg.ts), so an exported map looks like the one on screen.

import type { MapGroupInfo } from "./context-map.ts";
import { groupFill, leafFill, OPENCLAW_GROUP_COLORS, parseRgb, type Rgb } from "./openclaw-colors.ts";
import type { TileRect } from "./treemap-layout.ts";

/** For a group the DTO gives no usable colour: OpenClaw's palette in its group order, then slate. */
const FALLBACK: readonly Rgb[] = [...Object.values(OPENCLAW_GROUP_COLORS), [120, 130, 140]];

export function fallbackColor(index: number): Rgb {
  return FALLBACK[index % FALLBACK.length] ?? [120, 130, 140];
}

/** Base colour per top-level group key, from the map DTO's groups. */
export function groupColors(groups: readonly MapGroupInfo[]): Map<string, Rgb> {
  const m = new Map<string, Rgb>();
  groups.forEach((g, i) => {
    m.set(g.key, parseRgb(g.color) ?? fallbackColor(i));
  });
  return m;
}

/** A tile's fill: OpenClaw's group shade, or its leaf shade by sibling and group index. */
export function tileFill(r: TileRect, colors: ReadonlyMap<string, Rgb>): Rgb {
  const base = colors.get(r.group) ?? fallbackColor(r.groupIndex);
  return r.isGroup ? groupFill(base) : leafFill(base, r.index, r.groupIndex);
}

/** Border of a tile (OpenClaw's group / leaf border colours). */
export function tileStroke(r: TileRect): { color: string; width: number } {
  return r.isGroup ? { color: "rgb(14,18,22)", width: 1 } : { color: "rgb(8,12,16)", width: 0.5 };
}

/** Text cut to fit `width` px at `px` font size (average glyph ≈ 0.6 em); null when not even 3 chars fit. */
export function fitTileText(text: string, width: number, px: number): string | null {
  const max = Math.floor((width - 6) / (px * 0.6));
  if (max < 3) return null;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The label lines a tile has room for: a group's header line, or a leaf's name (and size when tall enough). */
export type TileLabel =
  | { kind: "group"; text: string }
  | { kind: "leaf"; name: string; size: string | null }
  | null;

/** Label font sizes (px) and the baseline offset of the first line from the tile's top. */
export const TILE_FONT = { name: 11, size: 10, baseline: 13, lineGap: 13 } as const;

export function tileLabel(r: TileRect, sizeText: string): TileLabel {
  if (r.isGroup) {
    if (r.header <= 0) return null;
    const t = fitTileText(`${r.name} · ${sizeText}`, r.w, TILE_FONT.name);
    return t ? { kind: "group", text: t } : null;
  }
  if (r.w <= 30 || r.h <= 14) return null;
  const name = fitTileText(r.name, r.w, TILE_FONT.name);
  if (!name) return null;
  return { kind: "leaf", name, size: r.h > 30 ? fitTileText(sizeText, r.w, TILE_FONT.size) : null };
}
