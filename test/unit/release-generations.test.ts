// Rules that changed inside the 2026.9 family (2026.8.1 on), by the release a SQLite store records
// (docs/openclaw-facts.md §8): which pruner runs, and which wire rules the release has.

import { describe, expect, it } from "vitest";
import { pruningGeneration } from "../../server/openclaw/pruning/generation.ts";
import { wireReleaseRules } from "../../server/openclaw/wire/wire-release.ts";
import type { VersionInfo } from "../../shared/session.ts";

const v = (family: VersionInfo["family"], appVersion: string | null) => ({ family, appVersion });

describe("pruningGeneration", () => {
  it.each([
    ["2026.3", null, "2026.3", false],
    ["2026.7", "2026.7.35", "2026.7", false],
    ["2026.9", "2026.8.1", "2026.8", false],
    ["2026.9", "2026.8.2", "2026.8", false],
    ["2026.9", "2026.9.1", "2026.8", false],
    ["2026.9", "2026.9.2", "2026.9", false],
    ["2026.9", "2026.9.2-beta.1", "2026.9", false],
    ["2026.9", "2026.9.3", "2026.9", true],
    ["2026.9", "2026.9.6", "2026.9", true],
    ["2026.9", "2026.10.1", "2026.9", true],
    ["2026.9", null, "2026.9", true],
    ["2026.9", "nightly", "2026.9", true],
  ] as const)("%s %s → %s (refresh on success %s)", (family, app, algorithm, refresh) => {
    const g = pruningGeneration(v(family, app));
    expect(g).toMatchObject({ algorithm, refreshOnSuccess: refresh });
    expect(g.note === "").toBe(algorithm !== "2026.8" && (refresh || family !== "2026.9"));
  });
});

describe("wireReleaseRules", () => {
  it("2026.8.x – 2026.9.2: no runtime-context carrier, 2026.7.1's image cut, no session notices", () => {
    for (const app of ["2026.8.1", "2026.8.2", "2026.9.1", "2026.9.2"]) {
      expect(wireReleaseRules(v("2026.9", app))).toEqual({
        runtimeCarrier: false,
        imageCut: "2026.7",
        sessionNotices: false,
        approximated: null,
      });
    }
  });
  it("2026.9.3 – 2026.9.4: a carrier, built as 2026.9.5+ builds it (said so)", () => {
    const r = wireReleaseRules(v("2026.9", "2026.9.4"));
    expect(r).toMatchObject({ runtimeCarrier: true, imageCut: "2026.7", sessionNotices: false });
    expect(r.approximated).toContain("2026.9.4");
  });
  it("2026.9.5: 2026.9.6's image cut and carrier, no notices; 2026.9.6 and unknown releases: all of 2026.9.6", () => {
    expect(wireReleaseRules(v("2026.9", "2026.9.5"))).toEqual({
      runtimeCarrier: true,
      imageCut: "2026.9",
      sessionNotices: false,
      approximated: null,
    });
    for (const app of ["2026.9.6", null]) {
      expect(wireReleaseRules(v("2026.9", app))).toEqual({
        runtimeCarrier: true,
        imageCut: "2026.9",
        sessionNotices: true,
        approximated: null,
      });
    }
  });
  it("the 2026.7 family has none of them", () => {
    expect(wireReleaseRules(v("2026.7", "2026.7.1"))).toMatchObject({
      runtimeCarrier: false,
      imageCut: "2026.7",
    });
  });
});
