// newlyCutImages: which images a run cuts first, per placement, and no claim when the look-back window was too
// short to know the earlier run's cut.
import { describe, expect, it } from "vitest";
import { type HistoryMessage, newlyCutImages } from "../../server/openclaw/cache/history-image-cut.ts";

const msg = (role: HistoryMessage["role"], label: string, images = 0): HistoryMessage => ({
  role,
  label,
  images,
});

describe("history image cut", () => {
  // u1 (image) a1 | u2 — the run of u2 cuts u1's image under 2026.3.2's rule (answered user turns)
  const before = [msg("user", "u1", 1)];
  const now = [msg("user", "u1", 1), msg("assistant", "a1"), msg("user", "u2")];

  it("2026.3: the run after the image's turn cuts it", () => {
    expect(newlyCutImages(before, now, "2026.3")).toEqual({
      labels: ["u1"],
      images: 1,
      rule: "2026.3.2: images of answered user turns",
    });
  });

  it("claims nothing when a shortened window leaves the earlier run's cut unknown", () => {
    expect(newlyCutImages(before, now, "2026.3", false)).toBeNull();
  });

  it("2026.9 keeps the 3 latest completed turns: nothing is cut one turn later", () => {
    expect(newlyCutImages(before, now, "2026.9")).toBeNull();
  });
});
