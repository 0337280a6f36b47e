// The per-call tables name the cause the breakdown card names (shared/spend-causes.ts verdictWithCause): the
// verdict alone where its cause is its own name, verdict + the attributed cause where that says more.
import { describe, expect, it } from "vitest";
import type { CacheVerdict, SpendCause } from "../../shared/cost.ts";
import { SPEND_CAUSE_TEXT, verdictWithCause } from "../../shared/spend-causes.ts";

describe("verdictWithCause", () => {
  it("adds nothing where the cause restates the verdict", () => {
    const own: [CacheVerdict, SpendCause][] = [
      ["hit", "hit"],
      ["cold-start", "cold-start"],
      ["ttl-expired", "ttl-expired"],
      ["model-switch", "model-switch"],
      ["below-minimum", "below-min-cacheable"],
      ["no-usage", "no-usage"],
      ["not-cached", "not-cached"],
    ];
    for (const [v, c] of own) expect(verdictWithCause(v, c)).toBe(v);
  });

  it("names the attributed cause where it says more than the verdict", () => {
    expect(verdictWithCause("prefix-changed", "tool-result-resent")).toBe(
      "prefix-changed: tool-result-resent",
    );
    expect(verdictWithCause("prefix-changed", "compaction")).toBe("prefix-changed: compaction");
    expect(verdictWithCause("unexplained", "provider-dropped")).toBe("unexplained: provider-dropped");
    expect(verdictWithCause("cold-start", "reset")).toBe("cold-start: reset");
    expect(verdictWithCause("prefix-changed", "unknown")).toBe("prefix-changed: unknown");
  });

  it("every cause has its words", () => {
    for (const text of Object.values(SPEND_CAUSE_TEXT)) expect(text.length).toBeGreaterThan(10);
  });
});
