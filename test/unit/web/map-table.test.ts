// The map's tree table (shared/map-table.ts, issue 15): rows of the same MapNode tree the treemap draws, sized
// as its tiles, sorted by size, expandable, filtered and opened by the map's search; and the search's matched
// total (shared/treemap-layout.ts matchedSize).

import { describe, expect, it } from "vitest";
import { type MapTableOptions, type MapTableRow, mapTableRows, sizeTree } from "../../../shared/map-table.ts";
import {
  indexTree,
  layoutTreemap,
  matchedSize,
  searchTree,
  subtreeSize,
} from "../../../shared/treemap-layout.ts";
import { group, leaf } from "../../helpers/map-tree.ts";

const tree = group("", [
  group("workspace", [leaf("workspace/AGENTS.md", 16640), leaf("workspace/SOUL.md", 1468)]),
  group("conversation", [
    {
      ...group("conversation/tools", [
        leaf("conversation/tools/exec", 40001),
        leaf("conversation/tools/read", 100000),
      ]),
      name: "Tool results",
    },
    leaf("conversation/user", 1123),
  ]),
  leaf("system", 16249),
  { ...leaf("untracked", 0), estTokens: 900 },
]);

function opts(over: Partial<MapTableOptions> = {}): MapTableOptions {
  const mode = over.mode ?? "chars";
  return {
    mode,
    sizes: sizeTree(tree, mode),
    toggled: new Map(),
    search: null,
    limit: 200,
    showAll: new Set(),
    ...over,
  };
}
const nodeRows = (rows: ReturnType<typeof mapTableRows>): MapTableRow[] =>
  rows.filter((r): r is MapTableRow => r.kind === "node");
const ids = (rows: ReturnType<typeof mapTableRows>) => nodeRows(rows).map((r) => `${r.level}:${r.node.id}`);

describe("mapTableRows", () => {
  it("lists the top-level groups collapsed, by size, and they add up to the map's total in every mode", () => {
    for (const mode of ["chars", "estTokens", "tiktoken", "cache"] as const) {
      const rows = nodeRows(mapTableRows(tree, opts({ mode })));
      expect(rows.every((r) => r.level === 1 && !r.expanded)).toBe(true);
      const sizes = rows.map((r) => r.sizes.size);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      expect(sizes.reduce((s, x) => s + x, 0)).toBe(subtreeSize(tree, mode));
      // the treemap's own total for the same tree and mode
      expect(sizes.reduce((s, x) => s + x, 0)).toBe(
        layoutTreemap(tree, { width: 800, height: 500, mode }).total,
      );
    }
    const est = nodeRows(mapTableRows(tree, opts({ mode: "estTokens" })));
    expect(est.map((r) => r.node.id)).toEqual(["conversation", "workspace", "system", "untracked"]);
    // chars beside the mode's tokens: the untracked tile has tokens but no chars
    expect(est.find((r) => r.node.id === "untracked")?.sizes).toEqual({ chars: 0, tokens: 900, size: 900 });
  });

  it("a row's size is its tile's value in the layout", () => {
    const layout = layoutTreemap(tree, { width: 1000, height: 700, mode: "chars", minArea: 0 });
    const all = new Map([...new Set(layout.rects.map((r) => r.id))].map((id) => [id, true]));
    const rows = nodeRows(mapTableRows(tree, opts({ toggled: new Map(all) }))).filter(
      (r) => r.sizes.size > 0,
    );
    for (const r of rows) expect(r.sizes.size).toBe(layout.rects.find((t) => t.id === r.node.id)?.value);
    // every drawn tile is a row (the table also lists the 0-size ones the treemap cannot draw)
    expect(rows.length).toBe(layout.rects.length);
  });

  it("opens a toggled group in place, children by size, with their level, position and set size", () => {
    const rows = nodeRows(mapTableRows(tree, opts({ toggled: new Map([["conversation", true]]) })));
    expect(rows.map((r) => `${r.level}:${r.node.id}`)).toEqual([
      "1:conversation",
      "2:conversation/tools",
      "2:conversation/user",
      "1:workspace",
      "1:system",
      "1:untracked",
    ]);
    const tools = rows[1];
    expect([tools?.posInSet, tools?.setSize, tools?.parentId, tools?.hasChildren, tools?.expanded]).toEqual([
      1,
      2,
      "conversation",
      true,
      false,
    ]);
    expect(rows[5]?.hasChildren).toBe(false);
  });

  it("a search keeps the rows on the way to a match, opens them, and shows a matched group's children", () => {
    const idx = indexTree(tree);
    const exec = mapTableRows(tree, opts({ search: searchTree(idx, "exec") }));
    expect(ids(exec)).toEqual(["1:conversation", "2:conversation/tools", "3:conversation/tools/exec"]);
    expect(nodeRows(exec).map((r) => r.match)).toEqual([false, false, true]);
    // a user's collapse wins over the search's opening
    const closed = mapTableRows(
      tree,
      opts({ search: searchTree(idx, "exec"), toggled: new Map([["conversation", false]]) }),
    );
    expect(ids(closed)).toEqual(["1:conversation"]);
    // a matched group starts closed; opened, all its children show (they are inside the match)
    const tools = searchTree(idx, "result");
    expect(ids(mapTableRows(tree, opts({ search: tools })))).toEqual([
      "1:conversation",
      "2:conversation/tools",
    ]);
    expect(
      ids(mapTableRows(tree, opts({ search: tools, toggled: new Map([["conversation/tools", true]]) }))),
    ).toEqual([
      "1:conversation",
      "2:conversation/tools",
      "3:conversation/tools/read",
      "3:conversation/tools/exec",
    ]);
  });

  it("lists a long group's first children and a 'more' row for the rest, all of them once asked", () => {
    const toggled = new Map([["workspace", true]]);
    const cut = mapTableRows(tree, opts({ toggled, limit: 1 }));
    const more = cut.filter((r) => r.kind === "more");
    expect(more).toEqual([{ kind: "more", parentId: "", level: 1, hidden: 3 }]);
    expect(ids(cut)).toEqual(["1:conversation"]);
    const all = mapTableRows(tree, opts({ toggled, limit: 1, showAll: new Set([""]) }));
    expect(ids(all)).toEqual([
      "1:conversation",
      "1:workspace",
      "2:workspace/AGENTS.md",
      "1:system",
      "1:untracked",
    ]);
    expect(all.filter((r) => r.kind === "more")).toEqual([
      { kind: "more", parentId: "workspace", level: 2, hidden: 1 },
    ]);
  });
});

describe("matchedSize (the search's matched total)", () => {
  const idx = indexTree(tree);
  it("counts a matched group once, not again through its matched leaves", () => {
    // "conversation/tools" matches the group and both its leaves (their ids start with it)
    const s = searchTree(idx, "conversation/tools");
    expect([...s.matches].sort()).toEqual([
      "conversation/tools",
      "conversation/tools/exec",
      "conversation/tools/read",
    ]);
    expect(matchedSize(idx, s.matches, "chars")).toBe(140_001);
    expect(matchedSize(idx, s.matches, "estTokens")).toBe(10_001 + 25_000);
  });
  it("adds up separate matches, and a leaf under an unmatched group", () => {
    const s = searchTree(idx, "md");
    expect([...s.matches].sort()).toEqual(["workspace/AGENTS.md", "workspace/SOUL.md"]);
    expect(matchedSize(idx, s.matches, "chars")).toBe(16_640 + 1468);
    // a group matched by name only ("Tool results"), not through its leaves' ids
    expect(matchedSize(idx, searchTree(idx, "result").matches, "chars")).toBe(140_001);
    // the whole map matched: its total
    const all = new Set(tree.children?.map((c) => c.id));
    expect(matchedSize(idx, all, "estTokens")).toBe(subtreeSize(tree, "estTokens"));
    expect(matchedSize(idx, new Set(), "chars")).toBe(0);
  });
});
