// Labels for numbers that real transcripts make odd (issue 13): time that runs backwards and a write-aware hit
// rate below 0. One wording for the server's DTO flags, the CLI and the web views. Pure.

import { fmtPct } from "./format.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A negative gap between two calls: the transcript's clock jumped back (a reset on another machine, a clock
 * fixed in between — real transcripts go back days). "clock went back 11 d"; null for a gap that is not negative.
 */
export function clockBackLabel(gapMs: number | null): string | null {
  if (gapMs === null || !Number.isFinite(gapMs) || gapMs >= 0) return null;
  const back = -gapMs;
  let size: string;
  if (back >= DAY) size = `${Math.round(back / DAY)} d`;
  else if (back >= HOUR) size = `${Math.round(back / HOUR)} h`;
  else if (back >= MINUTE) size = `${Math.round(back / MINUTE)} min`;
  else size = `${Math.max(1, Math.round(back / 1000))} s`;
  return `clock went back ${size}`;
}

/**
 * A duration, or the clock-back label when it is negative — never a negative gap.
 * `format` is the view's own duration formatter.
 */
export function gapText(ms: number | null, format: (ms: number | null) => string): string {
  return clockBackLabel(ms) ?? format(ms);
}

/**
 * The write-aware hit rate `(1 − r)/0.9` as a percentage; below 0 (the cache writes cost more than the reads saved
 * — one call that only wrote: "write-only call") with its own label, never a negative percentage.
 */
export function writeAwareText(rate: number | null, scope: "call" | "total"): string {
  if (rate !== null && rate < 0) return scope === "call" ? "write-only call" : "writes > savings";
  return fmtPct(rate);
}
