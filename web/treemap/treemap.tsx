// SVG treemap of a laid-out MapNode tree. Every tile is a <rect> with data-id / data-value and a <title>
// (so tests and the browser's find see it); labels are <text>. Styles are presentation attributes, not CSS,
// so the PNG export can serialise the SVG as it is. Hover uses one delegated handler (no per-tile state) so a
// 10,000-leaf map does not re-render its tiles on every mouse move.

import { type MouseEvent, memo, type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import type { SizeMode } from "../../shared/context-map.ts";
import { fmtInt } from "../../shared/format.ts";
import { css, type Rgb, textOn } from "../../shared/openclaw-colors.ts";
import type { TilePruning } from "../../shared/tile-pruning.ts";
import type { TileRect, TreemapLayout } from "../../shared/treemap-layout.ts";
import { TILE_FONT, type TileLabel, tileFill, tileLabel, tileStroke } from "../../shared/treemap-style.ts";
import { FloatingTooltip } from "../ui/tooltip.tsx";
import { CACHE_COLORS, CACHE_GROUP_FILL } from "./colors.ts";
import { PruneHatch, PruneHatchDefs } from "./prune-hatch.tsx";
import { PinnedDetails, TileDetails } from "./tile-details.tsx";
import { useTileFocus } from "./use-tile-focus.ts";

export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

export function formatSize(value: number, mode: SizeMode, exact: boolean): string {
  switch (mode) {
    case "chars":
      return `${fmtInt(value)} chars`;
    case "estTokens":
    case "cache":
      return `~${fmtInt(value)} tok`;
    case "tiktoken":
      return exact ? `${fmtInt(value)} tok` : `~${fmtInt(value)} tok`;
  }
}

export interface TreemapProps {
  layout: TreemapLayout;
  mode: SizeMode;
  /** Base colour per top-level group key. */
  colors: Map<string, Rgb>;
  /** Σ of the whole tree (not just the zoomed view) in this size mode, for "share of total". */
  grandTotal: number;
  /** Search: matching ids and their ancestors; null when no search is active. */
  search: { matches: Set<string>; withAncestors: Set<string> } | null;
  onZoom: (id: string) => void;
  /** Id of the current view root (zoom). */
  viewRootId: string;
  title: string;
  /** Exact tokenizer counts available (tiktoken mode). */
  exact: boolean;
  /** Tool-result tiles' pruning state at the call shown, by tile id (hatched, and in their details). */
  pruning?: ReadonlyMap<string, TilePruning>;
  /** false: the map cannot zoom (the turn scrubber's fixed layout): a click on a leaf pins its details. */
  zoomable?: boolean;
}

function fillOf(r: TileRect, mode: SizeMode, colors: Map<string, Rgb>): Rgb {
  if (mode === "cache") return r.isGroup ? CACHE_GROUP_FILL : CACHE_COLORS[r.node.cache ?? "unknown"];
  return tileFill(r, colors);
}

/** Cache mode: a leaf with cacheTokens is split into read / write / uncached bands along its longer side. */
function cacheParts(r: TileRect): ReactNode {
  const ct = r.node.cacheTokens;
  if (!ct) return null;
  const total = ct.read + ct.write + ct.uncached;
  if (total <= 0) return null;
  const out: ReactNode[] = [];
  let off = 0;
  const horizontal = r.w >= r.h;
  for (const state of ["read", "write", "uncached"] as const) {
    const v = ct[state];
    if (v <= 0) continue;
    const f = v / total;
    const x = horizontal ? r.x + off * r.w : r.x;
    const y = horizontal ? r.y : r.y + off * r.h;
    out.push(
      <rect
        key={state}
        x={x}
        y={y}
        width={horizontal ? f * r.w : r.w}
        height={horizontal ? r.h : f * r.h}
        fill={css(CACHE_COLORS[state])}
        stroke="rgb(8,12,16)"
        strokeWidth={0.5}
        data-id={r.id}
        data-cache={state}
        data-value={v}
      />,
    );
    off += f;
  }
  return out;
}

/** A tile's label (shared/treemap-style.ts decides what fits; the export draws the same). */
function TileText({ r, label, color }: { r: TileRect; label: NonNullable<TileLabel>; color: string }) {
  const x = r.x + 4;
  const y = r.y + TILE_FONT.baseline;
  if (label.kind === "group")
    return (
      <text
        x={x}
        y={y}
        fontSize={TILE_FONT.name}
        fontWeight={600}
        fill={color}
        fontFamily={FONT}
        pointerEvents="none"
      >
        {label.text}
      </text>
    );
  return (
    <text x={x} y={y} fontSize={TILE_FONT.name} fill={color} fontFamily={FONT} pointerEvents="none">
      {label.name}
      {label.size ? (
        <tspan x={x} dy={TILE_FONT.lineGap} fontSize={TILE_FONT.size} opacity={0.85}>
          {label.size}
        </tspan>
      ) : null}
    </text>
  );
}

const Tiles = memo(function Tiles({
  layout,
  mode,
  colors,
  exact,
  activeId,
  pruning,
}: Pick<TreemapProps, "layout" | "mode" | "colors" | "exact" | "pruning"> & { activeId: string | null }) {
  const out: ReactNode[] = [];
  for (const r of layout.rects) {
    const fill = fillOf(r, mode, colors);
    const size = formatSize(r.value, mode, exact);
    const label = `${r.name} — ${size}`;
    const spec = tileLabel(r, size);
    const text = spec ? <TileText r={r} label={spec} color={textOn(fill)} /> : null;
    const parts = mode === "cache" && !r.isGroup ? cacheParts(r) : null;
    const pruned = r.isGroup ? undefined : pruning?.get(r.id);
    const hatch =
      pruned && pruned.state !== "full" ? <PruneHatch r={r} p={pruned} labelColor={textOn(fill)} /> : null;
    const bare = parts === null && text === null && hatch === null;
    const rect = (
      // biome-ignore lint/a11y/useSemanticElements: an SVG tile cannot be a <button>; it has role, roving tabIndex and Enter.
      <rect
        key={r.id}
        {...box(r)}
        fill={css(fill)}
        stroke={tileStroke(r).color}
        strokeWidth={tileStroke(r).width}
        data-id={r.id}
        data-value={r.value}
        data-group={r.isGroup ? "1" : undefined}
        data-testid={r.isGroup ? "treemap-group" : "treemap-leaf"}
        tabIndex={r.id === activeId ? 0 : -1}
        role="button"
        aria-label={r.isGroup ? `${label}, group (Enter zooms in)` : label}
        aria-haspopup={r.isGroup ? undefined : "dialog"}
      >
        <title>{label}</title>
      </rect>
    );
    // Most tiles are a bare <rect>: a wrapping <g> only where there is a label or cache bands (DOM size
    // matters with 10,000 leaves).
    if (bare) {
      out.push(rect);
      continue;
    }
    out.push(
      <g key={r.id}>
        {rect}
        {parts}
        {hatch}
        {text}
      </g>,
    );
  }
  return <>{out}</>;
});

/**
 * Search highlight without re-rendering the tiles: a veil dims everything, then the matching leaves are
 * drawn again above it with a yellow outline (matching groups get the outline only), their labels drawn again too
 * so a hit keeps its name and size (issue 15).
 */
const SearchOverlay = memo(function SearchOverlay({
  layout,
  mode,
  colors,
  exact,
  matches,
}: Pick<TreemapProps, "layout" | "mode" | "colors" | "exact"> & { matches: Set<string> }) {
  const hits = layout.rects.filter((r) => matches.has(r.id));
  return (
    <g data-testid="treemap-search-overlay">
      <rect
        x={0}
        y={0}
        width={layout.width}
        height={layout.height}
        fill="rgb(238,241,245)"
        opacity={0.72}
        pointerEvents="none"
      />
      {hits.map((r) => (
        <SearchHit key={r.id} r={r} fill={fillOf(r, mode, colors)} size={formatSize(r.value, mode, exact)} />
      ))}
    </g>
  );
});

/** A tile's rectangle as SVG attributes. */
const box = (r: TileRect) => ({ x: r.x, y: r.y, width: r.w, height: r.h });

function SearchHit({ r, fill, size }: { r: TileRect; fill: Rgb; size: string }) {
  const spec = tileLabel(r, size);
  return (
    <>
      <rect
        {...box(r)}
        fill={r.isGroup ? "none" : css(fill)}
        stroke="rgb(255,190,0)"
        strokeWidth={2.5}
        pointerEvents={r.isGroup ? "none" : undefined}
        data-id={r.id}
        data-testid="treemap-match"
      >
        <title>{r.name}</title>
      </rect>
      {spec ? <TileText r={r} label={spec} color={r.isGroup ? "rgb(17,24,39)" : textOn(fill)} /> : null}
    </>
  );
}

/** Tile lookup from an event target, and the tile a click zooms into (the view root's child that holds it). */
function useTileLookup(layout: TreemapLayout, viewRootId: string) {
  const byId = useMemo(() => new Map(layout.rects.map((r) => [r.id, r])), [layout]);
  const tileAt = useCallback(
    (target: EventTarget | null): TileRect | null => {
      if (!(target instanceof Element)) return null;
      const el = target.closest("[data-id]");
      const id = el?.getAttribute("data-id");
      return id === null || id === undefined ? null : (byId.get(id) ?? null);
    },
    [byId],
  );
  // Click drills one level: into the direct child of the view root that contains the tile.
  const zoomTarget = useCallback(
    (r: TileRect): string | null => {
      let cur: TileRect | undefined = r;
      while (cur && cur.parentId !== null && cur.parentId !== viewRootId) cur = byId.get(cur.parentId);
      if (!cur) return r.isGroup ? r.id : r.parentId;
      return cur.isGroup ? cur.id : null;
    },
    [byId, viewRootId],
  );
  return { byId, tileAt, zoomTarget };
}

function HoverOutline({ r }: { r: TileRect }) {
  return (
    <rect
      {...box(r)}
      fill="none"
      stroke="rgb(255,255,255)"
      strokeWidth={2}
      pointerEvents="none"
      data-export-skip="1"
    />
  );
}

export function Treemap(props: TreemapProps) {
  const { layout, mode, colors, grandTotal, search, onZoom, viewRootId, title, exact, pruning } = props;
  const { byId, tileAt, zoomTarget } = useTileLookup(layout, viewRootId);
  const [hover, setHover] = useState<{ r: TileRect; x: number; y: number } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const focus = useTileFocus({ svgRef, layout, byId, viewRootId, tileAt, onZoom });

  const onMove = (e: MouseEvent<SVGSVGElement>) => {
    const r = tileAt(e.target);
    setHover(r ? { r, x: e.clientX, y: e.clientY } : null);
  };
  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const r = tileAt(e.target);
    if (!r) return;
    if (props.zoomable === false) {
      if (!r.isGroup) focus.pin(r.id);
      return;
    }
    const z = zoomTarget(r);
    if (z !== null && z !== viewRootId) onZoom(z);
    // A leaf of the view opens its details (and, from there, the view it leads into: issue 15).
    else if (z === null && !r.isGroup) focus.pin(r.id);
  };
  const details = { mode, viewTotal: layout.total, grandTotal };

  return (
    <div className="treemap" data-testid="treemap">
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; it groups the focusable tiles. */}
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        ref={svgRef}
        role="group"
        aria-label={title}
        aria-describedby="treemap-keys"
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
        onClick={onClick}
        onKeyDown={focus.onKeyDown}
        onFocus={(e) => focus.onFocus(e.target)}
        onPointerDown={focus.onPointerDown}
        data-testid="treemap-svg"
        data-culled={layout.culled}
        fontFamily={FONT}
      >
        {pruning?.size ? <PruneHatchDefs /> : null}
        <Tiles {...{ layout, mode, colors, exact, pruning }} activeId={focus.activeId} />
        {search ? (
          <SearchOverlay layout={layout} mode={mode} colors={colors} exact={exact} matches={search.matches} />
        ) : null}
        {hover ? <HoverOutline r={hover.r} /> : null}
      </svg>
      <p id="treemap-keys" className="sr-only">
        Arrow keys move between tiles; Enter zooms into a group or opens a tile's details; Escape closes them
        or zooms out.
      </p>
      {focus.pinned ? (
        <PinnedDetails
          key={focus.pinned.id}
          r={focus.pinned}
          {...details}
          mapWidth={layout.width}
          pruning={pruning?.get(focus.pinned.id)}
          onClose={focus.closePinned}
        />
      ) : null}
      {hover ? (
        <FloatingTooltip x={hover.x} y={hover.y} testId="treemap-tooltip">
          <TileDetails r={hover.r} {...details} pruning={pruning?.get(hover.r.id)} />
        </FloatingTooltip>
      ) : null}
    </div>
  );
}
