// Keyboard path through the treemap (issue 15): a roving tabindex over the drawn tiles (one tile is in the Tab
// order; the arrow keys move between tiles in layout order — a group, then what is inside it), Enter / Space
// zooms into a group or pins a leaf's details, Escape closes the details (focus back on the tile) or, with
// nothing pinned, zooms out (map-view.tsx's handler) and focus lands on the group just left.

import { type KeyboardEvent, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TileRect, TreemapLayout } from "../../shared/treemap-layout.ts";

export interface TileFocus {
  /** The tile in the Tab order (tabindex 0); every other tile has -1. */
  activeId: string | null;
  /** The leaf whose details are pinned open, if any. */
  pinned: TileRect | null;
  /** Pin a leaf's details open (a click on it). */
  pin: (id: string) => void;
  onKeyDown: (e: KeyboardEvent<SVGSVGElement>) => void;
  onFocus: (target: EventTarget | null) => void;
  onPointerDown: () => void;
  closePinned: () => void;
}

/** The focusable <rect> of a tile (cache bands and search overlays carry the same data-id but no tabindex). */
function focusTile(svg: SVGSVGElement | null, id: string): void {
  const el = svg?.querySelector(`[data-id="${CSS.escape(id)}"][tabindex]`);
  if (el instanceof SVGElement) el.focus();
}

const STEP: Readonly<Record<string, number>> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export function useTileFocus(opts: {
  svgRef: RefObject<SVGSVGElement | null>;
  layout: TreemapLayout;
  byId: Map<string, TileRect>;
  viewRootId: string;
  tileAt: (target: EventTarget | null) => TileRect | null;
  onZoom: (id: string) => void;
}): TileFocus {
  const { svgRef, layout, byId, viewRootId, tileAt, onZoom } = opts;
  const [active, setActive] = useState<string | null>(null);
  const [pinnedId, setPinnedId] = useState<string | null>(null);
  // Whether the user is on the keyboard: only then does a zoom move focus into the new view.
  const keyboard = useRef(false);
  const order = useMemo(() => new Map(layout.rects.map((r, i) => [r.id, i])), [layout]);
  const activeId = active !== null && byId.has(active) ? active : (layout.rects[0]?.id ?? null);

  // After a zoom the focused tile is gone: focus the group just zoomed out of, or the first tile of the view.
  const prevRoot = useRef(viewRootId);
  useEffect(() => {
    const from = prevRoot.current;
    prevRoot.current = viewRootId;
    const svg = svgRef.current;
    if (!keyboard.current || svg === null) return;
    const zoomedOut = from !== viewRootId && byId.has(from);
    if (!zoomedOut && svg.contains(document.activeElement)) return;
    const id = zoomedOut ? from : layout.rects[0]?.id;
    if (id === undefined) return;
    setActive(id);
    focusTile(svg, id);
  }, [viewRootId, layout, byId, svgRef]);

  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    keyboard.current = true;
    const r = tileAt(e.target);
    if (!r) return;
    const step = STEP[e.key];
    if (step !== undefined) {
      const next = layout.rects[(order.get(r.id) ?? 0) + step];
      e.preventDefault();
      if (next) focusTile(svgRef.current, next.id);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (r.isGroup) onZoom(r.id);
      else setPinnedId(r.id);
    }
  };
  const onFocus = (target: EventTarget | null) => {
    const r = tileAt(target);
    if (r) setActive(r.id);
  };
  const closePinned = useCallback(() => {
    const id = pinnedId;
    setPinnedId(null);
    if (id !== null) focusTile(svgRef.current, id);
  }, [pinnedId, svgRef]);

  return {
    activeId,
    pinned: pinnedId === null ? null : (byId.get(pinnedId) ?? null),
    onKeyDown,
    onFocus,
    onPointerDown: () => {
      keyboard.current = false;
    },
    closePinned,
    pin: setPinnedId,
  };
}
