// The context map as a tree table (issue 15: "no table/tree alternative to the treemap"): the same MapNode tree
// the treemap draws, flattened into the rows an expandable treegrid shows — each row's chars, tokens in the size
// mode and share of the map's total, children sorted by size as the layout sorts them, with the map's search
// filtering the rows and opening the groups on the way to a match. Sizes are shared/treemap-layout.ts's subtreeSize,
// so a row's number is its tile's data-value. Pure (the table view and tests share it).

import type { MapNode, SizeMode } from "./context-map.ts";
import { subtreeSize } from "./treemap-layout.ts";

/** The token count the table shows beside chars: the size mode's, OpenClaw's estimate in the chars mode. */
export function tokenModeOf(mode: SizeMode): Exclude<SizeMode, "chars"> {
  return mode === "chars" ? "estTokens" : mode;
}

/** Per node id: its chars, its tokens (tokenModeOf) and its size in the mode (what the treemap sizes it by). */
export interface NodeSizes {
  chars: number;
  tokens: number;
  size: number;
}

/** Sizes of every node under `root`, in one post-order pass (a 10,000-leaf tree is not re-summed per row). */
export function sizeTree(root: MapNode, mode: SizeMode): Map<string, NodeSizes> {
  const out = new Map<string, NodeSizes>();
  const tokenMode = tokenModeOf(mode);
  const walk = (n: MapNode): NodeSizes => {
    const kids = n.children ?? [];
    let s: NodeSizes;
    if (kids.length === 0) {
      s = { chars: subtreeSize(n, "chars"), tokens: subtreeSize(n, tokenMode), size: subtreeSize(n, mode) };
    } else {
      s = { chars: 0, tokens: 0, size: 0 };
      for (const c of kids) {
        const k = walk(c);
        s.chars += k.chars;
        s.tokens += k.tokens;
        s.size += k.size;
      }
    }
    out.set(n.id, s);
    return s;
  };
  walk(root);
  return out;
}

export interface MapTableRow {
  kind: "node";
  node: MapNode;
  sizes: NodeSizes;
  /** aria-level: 1 for the view root's children. */
  level: number;
  parentId: string | null;
  /** 1-based position among the siblings shown, and their count (aria-posinset / aria-setsize). */
  posInSet: number;
  setSize: number;
  hasChildren: boolean;
  expanded: boolean;
  /** The node's name or id matches the search. */
  match: boolean;
}

/** A row standing for the children of `parentId` not listed yet (the rest of a very long group). */
export interface MapTableMore {
  kind: "more";
  parentId: string;
  level: number;
  hidden: number;
}

export interface MapTableOptions {
  mode: SizeMode;
  /** Sizes from sizeTree(viewRoot, mode). */
  sizes: ReadonlyMap<string, NodeSizes>;
  /** Explicit expand (true) / collapse (false) by the user; otherwise a group is open iff a match lies below it. */
  toggled: ReadonlyMap<string, boolean>;
  /** The map's search (shared/treemap-layout.ts searchTree), null when none is active. */
  search: { matches: ReadonlySet<string>; withAncestors: ReadonlySet<string> } | null;
  /** Children listed per group before a "more" row; groups in `showAll` list all of them. */
  limit: number;
  showAll: ReadonlySet<string>;
}

const sizeIn = (sizes: ReadonlyMap<string, NodeSizes>, n: MapNode): number => sizes.get(n.id)?.size ?? 0;

/**
 * The visible rows of the tree under `viewRoot` (itself not a row), depth first, each group's children by size
 * descending (ties in the tree's order, as the layout). With a search, a subtree is shown only where it holds a
 * match or lies inside one, and the groups above a match start open.
 */
export function mapTableRows(viewRoot: MapNode, opts: MapTableOptions): (MapTableRow | MapTableMore)[] {
  const out: (MapTableRow | MapTableMore)[] = [];
  const search = opts.search;
  const visit = (parent: MapNode, level: number, insideMatch: boolean): void => {
    const kids = (parent.children ?? [])
      .filter((c) => search === null || insideMatch || search.withAncestors.has(c.id))
      .map((c, i) => ({ c, i, size: sizeIn(opts.sizes, c) }))
      .sort((a, b) => b.size - a.size || a.i - b.i);
    const shown = opts.showAll.has(parent.id) ? kids : kids.slice(0, opts.limit);
    shown.forEach(({ c }, i) => {
      const hasChildren = (c.children?.length ?? 0) > 0;
      const match = search?.matches.has(c.id) ?? false;
      const leadsToMatch =
        search !== null && !insideMatch && (c.children ?? []).some((k) => search.withAncestors.has(k.id));
      const expanded = hasChildren && (opts.toggled.get(c.id) ?? leadsToMatch);
      out.push({
        kind: "node",
        node: c,
        sizes: opts.sizes.get(c.id) ?? { chars: 0, tokens: 0, size: 0 },
        level,
        parentId: parent.id,
        posInSet: i + 1,
        setSize: kids.length,
        hasChildren,
        expanded,
        match,
      });
      if (expanded) visit(c, level + 1, insideMatch || match);
    });
    if (shown.length < kids.length)
      out.push({ kind: "more", parentId: parent.id, level, hidden: kids.length - shown.length });
  };
  visit(viewRoot, 1, false);
  return out;
}
