// The map's legend, pure: one row per top-level group (map modes) or per cache state (cache mode), each with its
// size in the current mode, the total its share is taken of, and the group a row zooms into.

import type { ContextMapDTO, MapNode, SizeMode } from "../../../shared/context-map.ts";
import { css, type Rgb } from "../../../shared/openclaw-colors.ts";
import { sizeOf, subtreeSize } from "../../../shared/treemap-layout.ts";
import { fallbackColor } from "../../../shared/treemap-style.ts";
import { CACHE_COLORS, CACHE_LABELS, CACHE_STATES } from "../../treemap/colors.ts";

export interface LegendItem {
  key: string;
  label: string;
  color: string;
  value: number;
}

export interface Legend {
  items: LegendItem[];
  /** What the rows' shares are of: the whole map (groups), or the zoomed view (cache states). */
  total: number;
}

/** Cache mode: tokens of the view per cache state (a leaf split at the boundaries counts in each part). */
function cacheLegend(viewRoot: MapNode): Legend {
  const sums = new Map<string, number>();
  const add = (k: string, v: number) => sums.set(k, (sums.get(k) ?? 0) + v);
  const walk = (n: MapNode) => {
    if (n.children && n.children.length > 0) n.children.forEach(walk);
    else if (n.cacheTokens) {
      add("read", n.cacheTokens.read);
      add("write", n.cacheTokens.write);
      add("uncached", n.cacheTokens.uncached);
    } else add(n.cache ?? "unknown", sizeOf(n, "cache"));
  };
  walk(viewRoot);
  return {
    items: CACHE_STATES.map((k) => ({
      key: k,
      label: CACHE_LABELS[k],
      color: css(CACHE_COLORS[k]),
      value: sums.get(k) ?? 0,
    })),
    total: subtreeSize(viewRoot, "cache"),
  };
}

export function mapLegend(
  dto: ContextMapDTO,
  mode: SizeMode,
  viewRoot: MapNode,
  colors: ReadonlyMap<string, Rgb>,
): Legend {
  if (mode === "cache") return cacheLegend(viewRoot);
  return {
    items: dto.groups.map((g, i) => {
      let value = 0;
      for (const c of dto.root.children ?? []) if (c.group === g.key) value += subtreeSize(c, mode);
      return { key: g.key, label: g.name, color: css(colors.get(g.key) ?? fallbackColor(i)), value };
    }),
    total: subtreeSize(dto.root, mode),
  };
}

/** The group node a legend row zooms into (map modes only; cache-mode rows are states, not groups). */
export function legendTarget(
  dto: ContextMapDTO,
  mode: SizeMode,
  viewRootId: string,
  key: string,
): string | null {
  if (mode === "cache") return null;
  const n = dto.root.children?.find(
    (c) => c.group === key && c.children !== undefined && c.children.length > 0,
  );
  return n && n.id !== viewRootId ? n.id : null;
}
