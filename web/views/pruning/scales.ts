// Scales of the pruning timeline (d3-scale). Pure: calls in, scales out.

import { scaleLinear, scaleLog, scaleTime } from "d3-scale";
import type { PruneCallDTO } from "../../../shared/prune.ts";

export type AxisMode = "time" | "index";

export interface TimelineScales {
  /** x position of call i (and of the "next call" point, index = calls.length). */
  xOf: (i: number) => number;
  ticks: { x: number; label: string }[];
  gapY: (ms: number) => number;
  gapTicks: number[];
  charsY: (chars: number) => number;
  charsMax: number;
}

export const FIVE_MIN = 5 * 60_000;
export const ONE_HOUR = 60 * 60_000;

export function buildScales(
  calls: PruneCallDTO[],
  nextAt: number | null,
  opts: {
    axis: AxisMode;
    x0: number;
    x1: number;
    gapTop: number;
    gapBottom: number;
    charsTop: number;
    charsBottom: number;
    charWindow: number;
    ttlMs: number;
  },
): TimelineScales {
  const times = calls.map((c) => c.timestamp);
  if (nextAt !== null) times.push(nextAt);
  let xOf: (i: number) => number;
  let ticks: { x: number; label: string }[];
  if (opts.axis === "time" && times.length > 0) {
    const lo = Math.min(...times);
    const hi = Math.max(...times);
    const s = scaleTime()
      .domain([new Date(lo), new Date(hi === lo ? lo + 1000 : hi)])
      .range([opts.x0, opts.x1]);
    xOf = (i) => s(new Date(times[i] ?? lo));
    const fmt = s.tickFormat();
    ticks = s.ticks(8).map((d) => ({ x: s(d), label: fmt(d) }));
  } else {
    const n = Math.max(1, times.length - 1);
    const s = scaleLinear().domain([0, n]).range([opts.x0, opts.x1]);
    xOf = (i) => s(i);
    ticks = s
      .ticks(Math.min(10, n))
      .filter((t) => Number.isInteger(t))
      .map((t) => ({ x: s(t), label: t === calls.length ? "next" : `#${t}` }));
  }
  const gaps = calls.map((c) => c.idleMs ?? 0).filter((g) => g > 0);
  const gapMax = Math.max(ONE_HOUR * 1.5, opts.ttlMs * 1.5, ...gaps);
  const gapMin = Math.min(1000, ...gaps.map((g) => Math.max(g, 100)));
  const gs = scaleLog().domain([gapMin, gapMax]).range([opts.gapBottom, opts.gapTop]).clamp(true);
  const gapTicks = [1000, 10_000, 60_000, FIVE_MIN, ONE_HOUR, 6 * ONE_HOUR, 24 * ONE_HOUR].filter(
    (t) => t >= gapMin && t <= gapMax,
  );
  const charsMax = Math.max(
    opts.charWindow * 0.55,
    ...calls.map((c) => Math.max(c.totalCharsBefore, c.messageChars)),
    1,
  );
  const cs = scaleLinear().domain([0, charsMax]).range([opts.charsBottom, opts.charsTop]);
  return { xOf, ticks, gapY: (ms) => gs(Math.max(ms, gapMin)), gapTicks, charsY: (c) => cs(c), charsMax };
}
