// Pure parts of the web map: squarified layout (d3-hierarchy), OpenClaw's binary split and label rules
// (spec context-report.md §5.4), and the URL router's path parsing.

import { describe, expect, it } from "vitest";
import { binarySplitLayout } from "../../../server/openclaw/context-map.ts";
import type { MapNode } from "../../../shared/map.ts";
import { parseRoute } from "../../../web/router.ts";
import { indexTree, layoutTreemap, pathTo, searchTree, sizeOf } from "../../../web/treemap/layout.ts";
import { binarySplit, fitLabel, sanitizeLabel } from "../../../web/treemap/openclaw-map.ts";

function leaf(id: string, chars: number, group = id.split("/")[0] ?? ""): MapNode {
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

function group(id: string, children: MapNode[]): MapNode {
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

const tree = group("", [
  group("workspace", [
    leaf("workspace/AGENTS.md", 16640),
    leaf("workspace/SOUL.md", 1468),
    leaf("workspace/EMPTY.md", 0),
  ]),
  group("conversation", [
    group("conversation/tools", [
      leaf("conversation/tools/exec", 40000),
      leaf("conversation/tools/read", 100000),
    ]),
    leaf("conversation/user", 1123),
  ]),
  leaf("system", 16249),
]);

describe("layoutTreemap", () => {
  const l = layoutTreemap(tree, { width: 1000, height: 600, mode: "chars" });

  it("sums leaf values and drops zero-size tiles", () => {
    expect(l.total).toBe(16640 + 1468 + 40000 + 100000 + 1123 + 16249);
    expect(l.rects.find((r) => r.id === "workspace/EMPTY.md")).toBeUndefined();
    expect(
      l.rects
        .filter((r) => !r.isGroup)
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      [
        "conversation/tools/exec",
        "conversation/tools/read",
        "conversation/user",
        "system",
        "workspace/AGENTS.md",
        "workspace/SOUL.md",
      ].sort(),
    );
  });

  it("keeps every tile inside its parent and inside the view", () => {
    const byId = new Map(l.rects.map((r) => [r.id, r]));
    for (const r of l.rects) {
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.y).toBeGreaterThanOrEqual(0);
      expect(r.x + r.w).toBeLessThanOrEqual(1000 + 1e-6);
      expect(r.y + r.h).toBeLessThanOrEqual(600 + 1e-6);
      const p = r.parentId === null || r.parentId === "" ? null : byId.get(r.parentId);
      if (p) {
        expect(r.x).toBeGreaterThanOrEqual(p.x - 1e-6);
        expect(r.y).toBeGreaterThanOrEqual(p.y + p.header - 1e-6);
        expect(r.x + r.w).toBeLessThanOrEqual(p.x + p.w + 1e-6);
        expect(r.y + r.h).toBeLessThanOrEqual(p.y + p.h + 1e-6);
      }
    }
  });

  it("gives larger values larger areas", () => {
    const area = (id: string) => {
      const r = l.rects.find((x) => x.id === id);
      return r ? r.w * r.h : 0;
    };
    expect(area("conversation/tools/read")).toBeGreaterThan(area("conversation/tools/exec"));
    expect(area("conversation/tools/exec")).toBeGreaterThan(area("system"));
    expect(area("system")).toBeGreaterThan(area("workspace/SOUL.md"));
  });

  it("memoises per tree, mode and size", () => {
    expect(layoutTreemap(tree, { width: 1000, height: 600, mode: "chars" })).toBe(l);
    expect(layoutTreemap(tree, { width: 1000, height: 600, mode: "estTokens" })).not.toBe(l);
  });

  it("culls tiles below the minimum area and counts them", () => {
    const tiny = group("", [leaf("a/big", 1_000_000, "a"), leaf("a/tiny", 1, "a")]);
    const c = layoutTreemap(tiny, { width: 100, height: 100, mode: "chars", minArea: 2 });
    expect(c.rects.map((r) => r.id)).toEqual(["a/big"]);
    expect(c.culled).toBe(1);
  });

  it("lays out 10,000 leaves", () => {
    const big = group(
      "",
      Array.from({ length: 10 }, (_, g) =>
        group(
          `g${g}`,
          Array.from({ length: 1000 }, (_, i) => leaf(`g${g}/l${i}`, 10 + ((i * 7919) % 997))),
        ),
      ),
    );
    const t0 = performance.now();
    const r = layoutTreemap(big, { width: 1200, height: 700, mode: "chars" });
    const ms = performance.now() - t0;
    expect(r.rects.length + r.culled).toBe(10_010);
    expect(ms).toBeLessThan(5000);
  });
});

describe("sizeOf", () => {
  it("falls back to OpenClaw's estimate until tokenizer counts exist, and sizes cache mode by cacheTokens", () => {
    const n = leaf("x", 401);
    expect(sizeOf(n, "chars")).toBe(401);
    expect(sizeOf(n, "estTokens")).toBe(101);
    expect(sizeOf(n, "tiktoken")).toBe(101);
    expect(sizeOf({ ...n, tiktokenTokens: 90 }, "tiktoken")).toBe(90);
    expect(sizeOf({ ...n, cacheTokens: { read: 10, write: 20, uncached: 3 } }, "cache")).toBe(33);
  });
});

describe("tree index, breadcrumbs and search", () => {
  const idx = indexTree(tree);
  it("builds the root → node path", () => {
    expect(pathTo(idx, tree, "conversation/tools/exec").map((n) => n.id)).toEqual([
      "",
      "conversation",
      "conversation/tools",
      "conversation/tools/exec",
    ]);
    expect(pathTo(idx, tree, "nope").map((n) => n.id)).toEqual([""]);
  });
  it("matches names and ids case-insensitively and keeps ancestors", () => {
    const s = searchTree(idx, "EXEC");
    expect([...s.matches]).toEqual(["conversation/tools/exec"]);
    expect(s.withAncestors.has("conversation")).toBe(true);
    expect(s.withAncestors.has("workspace")).toBe(false);
  });
});

describe("OpenClaw binary split (spec §5.4)", () => {
  it("splits by the rules, worked example", () => {
    const items = [6, 4, 3, 2, 1].map((value) => ({ value }));
    const out = binarySplit(items, { x: 0, y: 0, w: 100, h: 50 });
    const rect = (v: number) => out.find((o) => o.item.value === v)?.rect;
    // total 16: first part {6,4} (adding 4 keeps |10−8| = |6−8|), ratio 10/16 → left 62.5 px
    expect(rect(6)).toEqual({ x: 0, y: 0, w: 37.5, h: 50 });
    expect(rect(4)).toEqual({ x: 37.5, y: 0, w: 25, h: 50 });
    // {3,2,1} in 37.5 × 50 (taller): first part {3} = half → top 25 px
    expect(rect(3)).toEqual({ x: 62.5, y: 0, w: 37.5, h: 25 });
    expect(rect(2)).toEqual({ x: 62.5, y: 25, w: 25, h: 25 });
    expect(rect(1)).toEqual({ x: 87.5, y: 25, w: 12.5, h: 25 });
  });

  it("agrees with the server's implementation on random inputs", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let t = 0; t < 50; t++) {
      const items = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => ({
        value: Math.floor(rnd() * 5000) - 200,
      }));
      const area = { x: 22, y: 110, w: 940, h: 674 };
      const mine = binarySplit(items, area).map((o) => [
        o.item.value,
        o.rect.x,
        o.rect.y,
        o.rect.w,
        o.rect.h,
      ]);
      const theirs = binarySplitLayout(items, { x: 22, y: 110, width: 940, height: 674 }).map((o) => [
        o.item.value,
        o.rect.x,
        o.rect.y,
        o.rect.width,
        o.rect.height,
      ]);
      const sort = (a: number[][]) =>
        [...a].sort((p, q) => (p[1] ?? 0) - (q[1] ?? 0) || (p[2] ?? 0) - (q[2] ?? 0));
      expect(sort(mine)).toEqual(sort(theirs));
    }
  });

  it("sanitises and fits labels", () => {
    expect(sanitizeLabel("  Tool results (exec) ✓ ")).toBe("TOOL RESULTS EXEC");
    // w 60 → max chars floor(48/6) = 8, a too-long line keeps max−1 chars; h 30 → max lines floor(18/9) = 2
    const l = fitLabel(["Workspace files", "123 CH", "third"], { x: 10, y: 20, w: 60, h: 30 }, 1, "c");
    expect(l.map((d) => d.text)).toEqual(["WORKSPA", "123 CH"]);
    expect(l.map((d) => [d.x, d.y])).toEqual([
      [17, 27],
      [17, 36],
    ]);
    expect(fitLabel(["x"], { x: 0, y: 0, w: 30, h: 30 }, 1, "c")).toEqual([]);
  });
});

describe("parseRoute", () => {
  it("parses the session list and session paths, decoding ids", () => {
    expect(parseRoute("/")).toEqual({ kind: "sessions" });
    expect(parseRoute("/sessions")).toEqual({ kind: "sessions" });
    expect(parseRoute("/sessions/main/a%2Fb%20c")).toEqual({
      kind: "session",
      agentId: "main",
      sessionId: "a/b c",
    });
    expect(parseRoute("/other/x")).toEqual({ kind: "not-found", path: "/other/x" });
  });
});
