// Small MapNode trees for the pure map tests (layout, search, tree table): a leaf's estimate is ceil(chars / 4)
// as OpenClaw's, a group's sizes are Σ of its children as the server builds them.

import type { MapNode } from "../../shared/context-map.ts";

export function leaf(id: string, chars: number, group = id.split("/")[0] ?? ""): MapNode {
  return {
    id,
    name: id.split("/").pop() ?? id,
    group,
    chars,
    estTokens: Math.ceil(chars / 4),
    tiktokenTokens: null,
    source: "test",
  };
}

export function group(id: string, children: MapNode[]): MapNode {
  const chars = children.reduce((s, c) => s + c.chars, 0);
  return {
    id,
    name: id,
    group: id.split("/")[0] ?? id,
    chars,
    estTokens: children.reduce((s, c) => s + c.estTokens, 0),
    tiktokenTokens: null,
    source: "test",
    children,
  };
}
