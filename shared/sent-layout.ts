// The turn scrubber's layout (issue 16): the slot map (every tile any call had, at its largest; server
// reports/sent/sent-slots.ts) is laid out once with the map's one layout (treemap-layout.ts); each call's tiles
// are drawn inside their slots, anchored at the slot's top-left corner with area ∝ their size at that call. So a
// tile keeps its place between calls and only grows, shrinks, appears or goes — scrubbing reads like an
// animation. Groups keep their slot frames. Pure (app, export and tests share it).

import type { MapNode, SizeMode } from "./context-map.ts";
import { indexTree, sizeOf, subtreeSize, type TileRect, type TreemapLayout } from "./treemap-layout.ts";

/** `slots` (a layout of the slot map) with each leaf resized to its size in `callRoot`; absent leaves dropped. */
export function layoutAtCall(slots: TreemapLayout, callRoot: MapNode, mode: SizeMode): TreemapLayout {
  const byId = indexTree(callRoot).byId;
  const rects: TileRect[] = [];
  let total = 0;
  for (const r of slots.rects) {
    const node = byId.get(r.id);
    if (r.isGroup) {
      const value = node ? subtreeSize(node, mode) : 0;
      if (node && value > 0) rects.push({ ...r, node, value });
      continue;
    }
    if (!node) continue;
    const value = Math.max(0, sizeOf(node, mode));
    if (value <= 0) continue;
    const share = r.value > 0 ? Math.min(1, value / r.value) : 1;
    const k = Math.sqrt(share);
    rects.push({ ...r, node, value, w: r.w * k, h: r.h * k });
    total += value;
  }
  return { rects, total, width: slots.width, height: slots.height, culled: slots.culled };
}
