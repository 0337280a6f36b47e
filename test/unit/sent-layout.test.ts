// The turn scrubber's layout (shared/sent-layout.ts): each call's tiles sit in the slots of one fixed layout —
// a tile never moves between calls (its top-left corner is its slot's), its area follows its size at the call,
// a tile the call does not have is not drawn, and groups show the call's totals.

import { describe, expect, it } from "vitest";
import type { MapNode } from "../../shared/context-map.ts";
import { layoutAtCall } from "../../shared/sent-layout.ts";
import { layoutTreemap } from "../../shared/treemap-layout.ts";

function leaf(id: string, chars: number): MapNode {
  return {
    id,
    name: id,
    group: id.split("/")[0] ?? "",
    chars,
    estTokens: Math.ceil(chars / 4),
    tiktokenTokens: null,
    source: "test",
  };
}
function group(id: string, children: MapNode[]): MapNode {
  const chars = children.reduce((s, c) => s + c.chars, 0);
  const estTokens = children.reduce((s, c) => s + c.estTokens, 0);
  return { id, name: id, group: id, chars, estTokens, tiktokenTokens: null, source: "test", children };
}
const tree = (sizes: Record<string, number>) =>
  group("", [
    group("system", [leaf("system/base", sizes["system/base"] ?? 0)]),
    group(
      "conversation",
      ["conversation/a", "conversation/b", "conversation/c"]
        .filter((id) => sizes[id] !== undefined)
        .map((id) => leaf(id, sizes[id] ?? 0)),
    ),
  ]);

describe("layoutAtCall", () => {
  const slots = layoutTreemap(
    tree({ "system/base": 4000, "conversation/a": 8000, "conversation/b": 2000, "conversation/c": 6000 }),
    {
      width: 800,
      height: 500,
      mode: "chars",
    },
  );
  const slotOf = new Map(slots.rects.map((r) => [r.id, r]));

  it("keeps every tile at its slot's corner and scales its area to its size at the call", () => {
    const early = layoutAtCall(slots, tree({ "system/base": 4000, "conversation/a": 2000 }), "chars");
    const later = layoutAtCall(
      slots,
      tree({ "system/base": 4000, "conversation/a": 8000, "conversation/b": 500 }),
      "chars",
    );
    for (const at of [early, later])
      for (const r of at.rects) {
        const s = slotOf.get(r.id);
        expect(s, r.id).toBeDefined();
        expect([r.x, r.y]).toEqual([s?.x, s?.y]);
      }
    const a0 = early.rects.find((r) => r.id === "conversation/a");
    const a1 = later.rects.find((r) => r.id === "conversation/a");
    const s = slotOf.get("conversation/a");
    expect(a0 && s ? (a0.w * a0.h) / (s.w * s.h) : 0).toBeCloseTo(0.25, 6);
    expect(a1?.w).toBeCloseTo(s?.w ?? 0, 6);
  });

  it("draws only the tiles the call has, and groups with the call's totals", () => {
    const at = layoutAtCall(slots, tree({ "system/base": 4000, "conversation/a": 2000 }), "chars");
    expect(at.rects.map((r) => r.id).sort()).toEqual([
      "conversation",
      "conversation/a",
      "system",
      "system/base",
    ]);
    expect(at.rects.find((r) => r.id === "conversation")?.value).toBe(2000);
    expect(at.total).toBe(6000);
  });
});
