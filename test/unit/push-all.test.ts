import { describe, expect, it } from "vitest";
import { pushAll } from "../../shared/push-all.ts";

describe("pushAll", () => {
  it("appends 500,000 items, where a spread into push throws", () => {
    const big = Array.from({ length: 500_000 }, (_, i) => i);
    const into = [-1];
    pushAll(into, big);
    expect(into.length).toBe(500_001);
    expect(into[500_000]).toBe(499_999);
    expect(() => [-1].push(...big)).toThrow(RangeError);
  });
});
