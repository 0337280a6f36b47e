// Geometry of the pruning timeline (d3-scale): its lanes, colours and scales. Pure: calls in, scales out. One
// module for the app (web/views/pruning/timeline.tsx) and the HTML export (server/export/timeline-svg.ts), so
// both draw the same timeline.

import { scaleLinear, scaleLog, scaleTime, scaleUtc } from "d3-scale";
import { maxOf, minOf } from "./big-lists.ts";
import type { PruneCallDTO } from "./prune.ts";

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

/**
 * Lanes (px from the top): call marks and rounds; the idle gap before each call (log scale) against the pruning
 * TTL and the 5 m / 1 h cache lifetimes; estimated message chars against the soft-trim / hard-clear lines.
 */
export const TIMELINE_LANES = {
  calls: { top: 14, bottom: 54 },
  gap: { top: 74, bottom: 184 },
  chars: { top: 204, bottom: 334 },
} as const;
/** y of a call's mark in the calls lane. */
export const CALL_MARK_Y = 34;
export const TIMELINE_HEIGHT = 362;
/** Room for the lane and axis labels left of the plot, and for the reference-line labels right of it. */
export const TIMELINE_MARGIN = { left: 124, right: 24 } as const;

export const ROUND_COLOR = {
  none: "rgb(130,140,152)",
  "soft-trim": "rgb(214,140,40)",
  "hard-clear": "rgb(196,64,64)",
} as const;

/** Reference lines: the two cache lifetimes, the pruning TTL and the two window ratios. */
export const REF_COLOR = {
  fiveMin: "rgb(59,118,184)",
  oneHour: "rgb(132,91,173)",
  ttl: "rgb(196,64,64)",
  softTrim: "rgb(214,140,40)",
  hardClear: "rgb(196,64,64)",
  /** The chars-sent series and its dots. */
  sent: "rgb(59,118,184)",
} as const;

/** The idle-gap bar's colour: red past the TTL, amber past the 5-minute cache, green otherwise. */
export function gapColor(call: Pick<PruneCallDTO, "idleMs" | "ttlExpired">): string {
  if (call.idleMs === null) return "transparent";
  if (call.ttlExpired) return "rgb(196,64,64)";
  return call.idleMs > FIVE_MIN ? "rgb(214,140,40)" : "rgb(58,145,91)";
}

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
    /** Time axis in UTC (the export, read anywhere) instead of the viewer's local time (the app). */
    utc?: boolean;
  },
): TimelineScales {
  const times = calls.map((c) => c.timestamp);
  if (nextAt !== null) times.push(nextAt);
  let xOf: (i: number) => number;
  let ticks: { x: number; label: string }[];
  if (opts.axis === "time" && times.length > 0) {
    const lo = minOf(times);
    const hi = maxOf(times);
    const s = (opts.utc ? scaleUtc() : scaleTime())
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
  const gapMax = maxOf(gaps, Math.max(ONE_HOUR * 1.5, opts.ttlMs * 1.5));
  const gapMin = minOf(
    gaps.map((g) => Math.max(g, 100)),
    1000,
  );
  const gs = scaleLog().domain([gapMin, gapMax]).range([opts.gapBottom, opts.gapTop]).clamp(true);
  const gapTicks = [1000, 10_000, 60_000, FIVE_MIN, ONE_HOUR, 6 * ONE_HOUR, 24 * ONE_HOUR].filter(
    (t) => t >= gapMin && t <= gapMax,
  );
  const charsMax = maxOf(
    calls.map((c) => Math.max(c.totalCharsBefore, c.messageChars)),
    Math.max(opts.charWindow * 0.55, 1),
  );
  const cs = scaleLinear().domain([0, charsMax]).range([opts.charsBottom, opts.charsTop]);
  return { xOf, ticks, gapY: (ms) => gs(Math.max(ms, gapMin)), gapTicks, charsY: (c) => cs(c), charsMax };
}

/** The scales of a timeline `width` px wide, on the standard lanes and margins (app and export). */
export function timelineScales(
  calls: PruneCallDTO[],
  nextAt: number | null,
  opts: { axis: AxisMode; width: number; charWindow: number; ttlMs: number; utc?: boolean },
): TimelineScales {
  return buildScales(calls, nextAt, {
    axis: opts.axis,
    x0: TIMELINE_MARGIN.left,
    x1: opts.width - TIMELINE_MARGIN.right,
    gapTop: TIMELINE_LANES.gap.top,
    gapBottom: TIMELINE_LANES.gap.bottom,
    charsTop: TIMELINE_LANES.chars.top,
    charsBottom: TIMELINE_LANES.chars.bottom,
    charWindow: opts.charWindow,
    ttlMs: opts.ttlMs,
    ...(opts.utc ? { utc: true } : {}),
  });
}

/** Compaction / reset marks (issue 15): a dashed line in the kind's colour, a letter as the non-colour cue. */
export const EVENT_STYLE = {
  compaction: { color: "rgb(132,91,173)", letter: "C", name: "compaction" },
  reset: { color: "rgb(71,85,105)", letter: "R", name: "reset" },
} as const;

/**
 * x of a compaction / reset that happened before call `beforeCall` (0-based; = callCount after the last call):
 * half-way between the calls around it, or 6 px outside the first / last call.
 */
export function eventX(xOf: (i: number) => number, beforeCall: number, callCount: number): number {
  const a = beforeCall > 0 && callCount > 0 ? xOf(Math.min(beforeCall, callCount) - 1) : null;
  const b = beforeCall < callCount ? xOf(beforeCall) : null;
  if (a !== null && b !== null) return (a + b) / 2;
  if (a !== null) return a + 6;
  return (b ?? xOf(0)) - 6;
}

/**
 * The calls whose expired-gap $ gets a text label on the timeline: in call order, each at least `spacing` px
 * right of the previous label (the rest say it in their mark's title and in the list under the timeline).
 */
export function labelledGaps(
  gaps: readonly { call: number }[],
  xOf: (i: number) => number,
  spacing = 44,
): Set<number> {
  const out = new Set<number>();
  let last = Number.NEGATIVE_INFINITY;
  for (const g of [...gaps].sort((p, q) => p.call - q.call)) {
    const x = xOf(g.call);
    if (x - last < spacing) continue;
    out.add(g.call);
    last = x;
  }
  return out;
}
