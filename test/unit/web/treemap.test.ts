// Pure parts of the web map: squarified layout (d3-hierarchy) and the URL router's path parsing. OpenClaw's own
// map (binary split, labels) is laid out by the server only: test/unit/context-map.test.ts.

import { describe, expect, it } from "vitest";
import { indexTree, layoutTreemap, pathTo, searchTree, sizeOf } from "../../../shared/treemap-layout.ts";
import { parseRoute } from "../../../web/router.ts";
import { group, leaf } from "../../helpers/map-tree.ts";

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

describe("parseRoute", () => {
  it("parses the session list and session paths, decoding ids", () => {
    expect(parseRoute("/")).toEqual({ kind: "overview" }); // issue 14 §1: the overview is the landing page
    expect(parseRoute("/sessions")).toEqual({ kind: "sessions" });
    expect(parseRoute("/sessions/main/a%2Fb%20c")).toEqual({
      kind: "session",
      agentId: "main",
      sessionId: "a/b c",
    });
    expect(parseRoute("/other/x")).toEqual({ kind: "not-found", path: "/other/x" });
  });
});
