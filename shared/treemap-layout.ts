// Pure squarified layout of a MapNode tree (d3-hierarchy), the one layout of clawscope's map: the app
// (web/views/map), the HTML export (server/export/treemap-svg.ts) and the benchmark use it. Each group gets a
// header band for its label; leaves fill the rest. Results are memoised per (tree object, size mode, zoom, size)
// because the map re-renders on hover/search and must stay responsive with 10,000 leaves. Tiles below a minimum
// area are culled (counted, not returned): they would be sub-pixel anyway.

import { type HierarchyRectangularNode, hierarchy, treemap, treemapSquarify } from "d3-hierarchy";
import type { MapNode, SizeMode } from "./context-map.ts";

export interface TileRect {
  id: string;
  name: string;
  /** Top-level group key (MapNode.group). */
  group: string;
  /** Depth below the view root (1 = direct child of the zoomed node). */
  depth: number;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Size in the layout's size mode. */
  value: number;
  isGroup: boolean;
  /** Header band height for groups (0 when the group is too small for one). */
  header: number;
  node: MapNode;
  parentId: string | null;
  /** Value of the parent (for "share of group"). */
  parentValue: number;
  /** Index among its siblings in layout order (value descending) — OpenClaw's leaf shade index. */
  index: number;
  /** Index of its depth-1 ancestor among the view root's children. */
  groupIndex: number;
}

export interface TreemapLayout {
  rects: TileRect[];
  /** Σ of the view root's value. */
  total: number;
  width: number;
  height: number;
  /** Number of tiles not returned because they are too small to draw. */
  culled: number;
}

export interface LayoutOptions {
  width: number;
  height: number;
  mode: SizeMode;
  /** Header band height for groups with room for a label. */
  headerHeight?: number;
  /** Tiles whose area is below this (px²) are culled with their descendants. */
  minArea?: number;
}

/**
 * The number a tile is sized by. `tiktoken` falls back to OpenClaw's estimate until the tokenizer count
 * exists (the UI says so); `cache` sizes by the estimated tokens split at the last call's cache boundaries (cacheTokens).
 */
export function sizeOf(node: MapNode, mode: SizeMode): number {
  switch (mode) {
    case "chars":
      return node.chars;
    case "estTokens":
      return node.estTokens;
    case "cache":
      return node.cacheTokens
        ? node.cacheTokens.read + node.cacheTokens.write + node.cacheTokens.uncached
        : node.estTokens;
    case "tiktoken":
      return node.tiktokenTokens ?? node.estTokens;
  }
}

function isLeaf(n: MapNode): boolean {
  return !n.children || n.children.length === 0;
}

/** Σ of a subtree's leaf sizes in a mode (what the layout gives the node; legends and shares use it). */
export function subtreeSize(n: MapNode, mode: SizeMode): number {
  if (isLeaf(n)) return Math.max(0, sizeOf(n, mode));
  let s = 0;
  for (const c of n.children ?? []) s += subtreeSize(c, mode);
  return s;
}

const cache = new WeakMap<MapNode, Map<string, TreemapLayout>>();

export function layoutTreemap(root: MapNode, opts: LayoutOptions): TreemapLayout {
  const header = opts.headerHeight ?? 18;
  const minArea = opts.minArea ?? 2;
  const key = `${opts.mode}|${Math.round(opts.width)}|${Math.round(opts.height)}|${header}|${minArea}`;
  let perRoot = cache.get(root);
  if (!perRoot) {
    perRoot = new Map();
    cache.set(root, perRoot);
  }
  const hit = perRoot.get(key);
  if (hit) return hit;
  const result = computeLayout(root, opts.width, opts.height, opts.mode, header, minArea);
  if (perRoot.size > 12) perRoot.clear();
  perRoot.set(key, result);
  return result;
}

function computeLayout(
  root: MapNode,
  width: number,
  height: number,
  mode: SizeMode,
  header: number,
  minArea: number,
): TreemapLayout {
  const h = hierarchy(root, (n) => (n.children && n.children.length > 0 ? n.children : null))
    .sum((n) => (isLeaf(n) ? Math.max(0, sizeOf(n, mode)) : 0))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const total = h.value ?? 0;
  const w = Math.max(0, width);
  const ht = Math.max(0, height);
  if (total <= 0 || w <= 0 || ht <= 0) return { rects: [], total, width: w, height: ht, culled: 0 };

  const laid = treemap<MapNode>()
    .size([w, ht])
    .tile(treemapSquarify)
    .paddingOuter((n) => (n.depth === 0 ? 0 : 2))
    // A header band only where there is room for a label; otherwise a thin frame.
    .paddingTop((n) => (n.depth === 0 ? 0 : n.y1 - n.y0 > header * 2.5 && n.x1 - n.x0 > 40 ? header : 2))
    .paddingInner(1)
    .round(false)(h);

  const rects: TileRect[] = [];
  let culled = 0;
  const groupIndexOf = new Map<HierarchyRectangularNode<MapNode>, number>();
  laid.children?.forEach((c, i) => {
    groupIndexOf.set(c, i);
  });

  const visit = (n: HierarchyRectangularNode<MapNode>, groupIndex: number, index: number) => {
    const rw = n.x1 - n.x0;
    const rh = n.y1 - n.y0;
    const value = n.value ?? 0;
    if (value <= 0) return;
    if (rw * rh < minArea || rw <= 0 || rh <= 0) {
      culled += n.descendants().length;
      return;
    }
    const group = n.children !== undefined;
    rects.push({
      id: n.data.id,
      name: n.data.name,
      group: n.data.group,
      depth: n.depth,
      x: n.x0,
      y: n.y0,
      w: rw,
      h: rh,
      value,
      isGroup: group,
      header: group && rh > header * 2.5 && rw > 40 ? header : 0,
      node: n.data,
      parentId: n.parent ? n.parent.data.id : null,
      parentValue: n.parent?.value ?? value,
      index,
      groupIndex,
    });
    n.children?.forEach((c, i) => {
      visit(c, groupIndex, i);
    });
  };
  laid.children?.forEach((c, i) => {
    visit(c, groupIndexOf.get(c) ?? i, i);
  });
  return { rects, total, width: w, height: ht, culled };
}

/** id → node and id → parent id, for zoom paths and breadcrumbs. */
export interface NodeIndex {
  byId: Map<string, MapNode>;
  parentOf: Map<string, string | null>;
}

const indexCache = new WeakMap<MapNode, NodeIndex>();

export function indexTree(root: MapNode): NodeIndex {
  const hit = indexCache.get(root);
  if (hit) return hit;
  const byId = new Map<string, MapNode>();
  const parentOf = new Map<string, string | null>();
  const stack: [MapNode, string | null][] = [[root, null]];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const [n, parent] = item;
    byId.set(n.id, n);
    parentOf.set(n.id, parent);
    for (const c of n.children ?? []) stack.push([c, n.id]);
  }
  const idx = { byId, parentOf };
  indexCache.set(root, idx);
  return idx;
}

/** Root → node chain (inclusive) for breadcrumbs; [root] when the id is unknown. */
export function pathTo(index: NodeIndex, root: MapNode, id: string): MapNode[] {
  const out: MapNode[] = [];
  let cur: string | null | undefined = index.byId.has(id) ? id : root.id;
  while (cur !== null && cur !== undefined) {
    const n = index.byId.get(cur);
    if (!n) break;
    out.unshift(n);
    cur = index.parentOf.get(cur);
  }
  return out;
}

/** Ids of nodes whose name or id contains the query (case-insensitive), plus all their ancestors. */
export function searchTree(
  index: NodeIndex,
  q: string,
): { matches: Set<string>; withAncestors: Set<string> } {
  const matches = new Set<string>();
  const withAncestors = new Set<string>();
  const needle = q.trim().toLowerCase();
  if (needle === "") return { matches, withAncestors };
  for (const [id, n] of index.byId) {
    if (id === "") continue;
    if (n.name.toLowerCase().includes(needle) || id.toLowerCase().includes(needle)) {
      matches.add(id);
      let cur: string | null | undefined = id;
      while (cur !== null && cur !== undefined && !withAncestors.has(cur)) {
        withAncestors.add(cur);
        cur = index.parentOf.get(cur);
      }
    }
  }
  return { matches, withAncestors };
}

/**
 * The size of what a search matched, in a mode: Σ of the matched nodes' subtree sizes, each match counted once —
 * a match inside a matched group is already in the group's size (a group's id is its leaves' id prefix, so a
 * query that matches a group usually matches its leaves too), so only the outermost matches add up.
 */
export function matchedSize(index: NodeIndex, matches: ReadonlySet<string>, mode: SizeMode): number {
  let total = 0;
  for (const id of matches) {
    let up = index.parentOf.get(id);
    let inside = false;
    while (up !== null && up !== undefined && !inside) {
      inside = matches.has(up);
      up = index.parentOf.get(up);
    }
    const n = index.byId.get(id);
    if (!inside && n) total += subtreeSize(n, mode);
  }
  return total;
}
