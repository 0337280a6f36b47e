import { describe, expect, it } from "vitest";
import { maxOf, minOf, pushAll } from "../../shared/big-lists.ts";

describe("big lists", () => {
  it("appends 500,000 items, where a spread into push throws", () => {
    const big = Array.from({ length: 500_000 }, (_, i) => i);
    const into = [-1];
    pushAll(into, big);
    expect(into.length).toBe(500_001);
    expect(into[500_000]).toBe(499_999);
    expect(() => [-1].push(...big)).toThrow(RangeError);
  });

  it("maxOf / minOf over 500,000 numbers, with a floor / ceiling that also answers an empty list", () => {
    const big = Array.from({ length: 500_000 }, (_, i) => (i * 7919) % 500_000);
    expect(maxOf(big)).toBe(499_999);
    expect(minOf(big)).toBe(0);
    expect(maxOf([], 3)).toBe(3);
    expect(minOf([], 1000)).toBe(1000);
    expect(maxOf([1, 2], 5)).toBe(5);
    expect(() => Math.max(...big)).toThrow(RangeError);
  });
});
