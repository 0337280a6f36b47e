// The Next call card's local countdown (web/views/pruning/next-call-clock.ts): from the wall-clock prediction,
// ticking between fetches; crossing zero is what makes the card ask the server again.

import { describe, expect, it } from "vitest";
import type { PruneNextDTO } from "../../../shared/prune.ts";
import { expiredSinceFetch, ttlLeft } from "../../../web/views/pruning/next-call-clock.ts";

function next(msUntilTtlExpiry: number | null): PruneNextDTO {
  return {
    at: 1_800_000_000_000,
    ttlExpired: msUntilTtlExpiry !== null && msUntilTtlExpiry <= 0,
    wouldPrune: false,
    toolResults: {},
    lastCacheTouchAt: msUntilTtlExpiry === null ? null : 1_800_000_000_000 - 300_000 + msUntilTtlExpiry,
    msUntilTtlExpiry,
    gate: "ttl-not-expired",
    round: "none",
    totalChars: 0,
    ratio: 0,
    totalCharsAfter: 0,
    ratioAfter: 0,
    prediction: "",
    ttlEffect: null,
  };
}

describe("ttlLeft", () => {
  it("counts down from the fetched answer; an expired TTL keeps growing its 'ago'; no clock stays null", () => {
    expect(ttlLeft(next(90_000), 0)).toBe(90_000);
    expect(ttlLeft(next(90_000), 30_000)).toBe(60_000);
    expect(ttlLeft(next(-5_000), 10_000)).toBe(-15_000);
    expect(ttlLeft(next(null), 10_000)).toBeNull();
  });
});

describe("expiredSinceFetch", () => {
  it("true once the countdown of an answer that had time left reaches zero, and only then", () => {
    expect(expiredSinceFetch(next(90_000), 89_999)).toBe(false);
    expect(expiredSinceFetch(next(90_000), 90_000)).toBe(true);
    expect(expiredSinceFetch(next(90_000), 500_000)).toBe(true);
  });

  it("never for an answer that was already expired (asking again would say the same) or has no clock", () => {
    expect(expiredSinceFetch(next(0), 1_000)).toBe(false);
    expect(expiredSinceFetch(next(-5_000), 1_000)).toBe(false);
    expect(expiredSinceFetch(next(null), 1_000)).toBe(false);
  });
});
