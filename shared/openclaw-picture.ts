// OpenClaw's `/context map` picture (1280×860) as data: rects, fills and text runs computed by
// server/openclaw/context-map/picture.ts (spec context-report.md §5.4) and drawn as sent by the web app
// (web/treemap/openclaw-picture-view.tsx): the browser lays nothing out and computes no OpenClaw number.

/** OpenClaw's map group keys (spec context-report.md §5.4). */
export type OpenClawMapGroupKey =
  | "conversation"
  | "currentTurn"
  | "workspace"
  | "system"
  | "tools"
  | "skills";

export type MapFamily = "2026.7" | "2026.9";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A text run in the 5×7 bitmap font: glyph cells 5×7 at `scale` px per dot, advance 6·scale, starting at
 * (floor(x), floor(y)); characters outside FONT_CHARS are blank cells.
 */
export interface DrawText {
  /** Text origin (top-left of the first glyph cell), px. */
  x: number;
  y: number;
  /** Glyph scale; advance 6·scale, line height 9·scale. */
  scale: number;
  /** The characters drawn (upper-cased; characters outside the font render blank). */
  text: string;
  color: string;
}

export interface OpenClawMapLeafTile {
  name: string;
  /** Chars (OpenClaw's estimate for this leaf). */
  value: number;
  /** OpenClaw's token estimate of `value` (ceil(chars / 4), spec §3), as its labels print it. */
  tokens: number;
  /** Layout rect inside the group's children area. */
  rect: Rect;
  /** Rect actually filled: the layout rect inset by 1.5 px. */
  fillRect: Rect;
  fill: string;
  /** Border colour: 1-px bands drawn INSIDE `fillRect` (top, bottom, left, right). */
  border: string;
  shade: number;
  /** Label lines (name, size) at scale 1 in `fillRect`, only when its area exceeds 5,200 px². */
  labelLines: DrawText[];
}

export interface OpenClawMapGroupTile {
  key: OpenClawMapGroupKey;
  name: string;
  /** Base colour. */
  color: string;
  /** Group fill = mix(base, rgb(18,22,27), 0.16). */
  fill: string;
  /** Border colour: 3-px bands drawn INSIDE `rect`, over the fill. */
  border: string;
  value: number;
  rect: Rect;
  labelBox: Rect;
  labelLines: DrawText[];
  childrenArea: Rect;
  leaves: OpenClawMapLeafTile[];
}

export interface OpenClawMapLegendItem {
  name: string;
  color: string;
  value: number;
  pct: number;
  swatch: Rect;
  swatchBorder: string;
  labelBox: Rect;
  labelLines: DrawText[];
}

export interface OpenClawMapPicture {
  family: MapFamily;
  width: number;
  height: number;
  background: string;
  header: { rect: Rect; fill: string; title: DrawText; subtitle: DrawText };
  area: Rect;
  /** Groups in layout order (value-descending); `legend.items` keeps OpenClaw's group order. */
  groups: OpenClawMapGroupTile[];
  /** Panel and swatch borders: 1-px bands inside their rects. */
  legend: { panel: Rect; fill: string; border: string; title: DrawText; items: OpenClawMapLegendItem[] };
  footer: DrawText;
  /** Σ group values. */
  trackedChars: number;
  /** The reply text that accompanies the PNG. */
  caption: string;
}
