// shared/call-numbering.ts: the map tab's `?call=N` (1-based) and the Pruning tab's `?call=i` (0-based row) name
// the same call N = i + 1; a tab switch converts between them, other tabs keep the Pruning numbering.
import { describe, expect, it } from "vitest";
import { carryCallParam } from "../../shared/call-numbering.ts";

describe("carryCallParam", () => {
  it("map call N ↔ pruning row N−1, both ways", () => {
    expect(carryCallParam("map", "pruning", "60")).toBe("59");
    expect(carryCallParam("pruning", "map", "59")).toBe("60");
    expect(carryCallParam("pruning", "map", "0")).toBe("1");
  });

  it("keeps the Pruning numbering across the other tabs, converts on the way back to the map", () => {
    const onCost = carryCallParam("map", "cost", "12");
    expect(onCost).toBe("11");
    expect(carryCallParam("cost", "pruning", onCost)).toBe("11");
    expect(carryCallParam("truncation", "map", onCost)).toBe("12");
    expect(carryCallParam("map", "map", "12")).toBe("12");
  });

  it("drops a value that is no call, and keeps an absent one absent", () => {
    expect(carryCallParam("map", "pruning", "0")).toBeNull();
    expect(carryCallParam("map", "pruning", "x")).toBeNull();
    expect(carryCallParam("pruning", "map", "-1")).toBeNull();
    expect(carryCallParam("pruning", "map", "1.5")).toBeNull();
    expect(carryCallParam("map", "pruning", null)).toBeNull();
  });
});
