// shared/format.ts: clawscope's one formatter per kind (views, CLI text, exports, DTO prose).

import { describe, expect, it } from "vitest";
import {
  fmtBytes,
  fmtDuration,
  fmtInt,
  fmtIsoSeconds,
  fmtPct,
  fmtRelTime,
  fmtUsd,
  NONE,
} from "../../shared/format.ts";

describe("shared/format.ts", () => {
  it("absent and non-finite values print the placeholder, never 0", () => {
    for (const f of [fmtInt, fmtUsd, fmtBytes, fmtDuration, fmtIsoSeconds]) {
      expect(f(null)).toBe(NONE);
      expect(f(undefined)).toBe(NONE);
      expect(f(Number.NaN)).toBe(NONE);
      expect(f(Number.POSITIVE_INFINITY, "n/a")).toBe("n/a");
    }
    expect(fmtPct(null, 1, "-")).toBe("-");
  });

  it("integers are rounded and en-US grouped", () => {
    expect(fmtInt(12_345.6)).toBe("12,346");
    expect(fmtInt(-1_000)).toBe("-1,000");
    expect(fmtInt(0)).toBe("0");
    // the grouping is hand-written (Intl is ~3× slower per number): every group length, and Intl's own answer
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    for (const n of [
      7,
      42,
      999,
      1_000,
      12_345,
      123_456,
      1_234_567,
      -987_654_321,
      2 ** 53,
      123_456_789_012_345,
    ])
      expect(fmtInt(n)).toBe(intl.format(n));
    expect(fmtInt(-0.4)).toBe("0");
    expect(fmtInt(1e21)).toBe(intl.format(1e21));
  });

  it("percentages", () => {
    expect(fmtPct(0.4567)).toBe("45.7%");
    expect(fmtPct(0.5, 0)).toBe("50%");
  });

  it("dollars: cents, and four decimals only for a non-zero amount under one cent", () => {
    expect(fmtUsd(147.6116)).toBe("$147.61");
    expect(fmtUsd(0.17)).toBe("$0.17");
    expect(fmtUsd(0.004)).toBe("$0.0040");
    expect(fmtUsd(-0.004)).toBe("$-0.0040");
    expect(fmtUsd(0)).toBe("$0.00");
  });

  it("bytes", () => {
    expect(fmtBytes(512)).toBe("512 B");
    expect(fmtBytes(1536)).toBe("1.5 KB");
    expect(fmtBytes(12.3 * 1024 * 1024)).toBe("12.3 MB");
  });

  it("durations", () => {
    expect(fmtDuration(850)).toBe("850ms");
    expect(fmtDuration(2_500)).toBe("2.5s");
    expect(fmtDuration(20_000)).toBe("20s");
    expect(fmtDuration(200_000)).toBe("3m 20s");
    expect(fmtDuration(3_720_000)).toBe("1h 02m");
    expect(fmtDuration(36 * 3_600_000)).toBe("1d 12h");
    expect(fmtDuration(-5 * 60_000)).toBe("−5m 00s");
  });

  it("ISO seconds (UTC) and relative time", () => {
    expect(fmtIsoSeconds(Date.UTC(2026, 2, 14, 19, 52, 43, 739))).toBe("2026-03-14T19:52:43Z");
    expect(fmtIsoSeconds(9e15)).toBe(NONE);
    const now = Date.UTC(2026, 0, 10);
    expect(fmtRelTime(now - 30_000, now)).toBe("just now");
    expect(fmtRelTime(now - 12 * 60_000, now)).toBe("12 min ago");
    expect(fmtRelTime(now - 3 * 3_600_000, now)).toBe("3 h ago");
    expect(fmtRelTime(now - 2 * 86_400_000, now)).toBe("2 d ago");
  });
});
