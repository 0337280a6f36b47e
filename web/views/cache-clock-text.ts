// The cache clock's words (issue 8: "cache warm for 3m12s" → "expired: the next call will re-write ~N tokens
// (≈ $X) and pruning will trim K tool results"). PURE: the server's CacheClockDTO plus the browser time elapsed
// since it was fetched in, the texts out — so the header can tick every second without asking the server.

import { fmtDuration, fmtInt, fmtUsd } from "../../shared/format.ts";
import type { CacheClockDTO } from "../../shared/live.ts";

/** A countdown in whole seconds, rounded up so it reaches 0s only at expiry: `45s`, `3m12s`, `1h02m05s`. */
export function fmtCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  if (h > 0) return `${h}h${String(m).padStart(2, "0")}m${ss}s`;
  if (m > 0) return `${m}m${ss}s`;
  return `${s}s`;
}

export interface ClockText {
  state: "warm" | "expired" | "unknown";
  /** The headline, e.g. "cache warm for 3m12s". */
  text: string;
  /** Cache lifetime left now (ms), null when unknown. */
  msLeft: number | null;
  /** Pruning TTL left now (ms), null when pruning has no clock. */
  pruneMsLeft: number | null;
}

function pruneClause(c: CacheClockDTO, pruneLeft: number | null): string {
  if (pruneLeft === null) return "pruning is off";
  if (c.pruneCount === null) return "what pruning trims is unknown";
  const k = `${fmtInt(c.pruneCount)} tool result${c.pruneCount === 1 ? "" : "s"}`;
  if (pruneLeft > 0) return `pruning will trim ${k} once its TTL runs out (in ${fmtCountdown(pruneLeft)})`;
  return `pruning will trim ${k}`;
}

/** Past this idle time the headline says how long the session has been idle: the cache is long cold. */
export const LONG_IDLE_MS = 3_600_000;

/**
 * The clock `elapsedMs` after the DTO was fetched, against the wall clock (the countdowns run from now, not from
 * the session's last entry). `archived`: the transcript is an archive — it never gets a next call.
 */
export function clockText(c: CacheClockDTO, elapsedMs: number, archived = false): ClockText {
  const elapsed = Math.max(0, elapsedMs);
  const msLeft = c.msLeft === null ? null : c.msLeft - elapsed;
  const pruneMsLeft = c.pruneMsLeft === null ? null : c.pruneMsLeft - elapsed;
  if (msLeft === null) {
    return {
      state: "unknown",
      text:
        c.lastCallAt === null
          ? "cache state unknown: no model call yet"
          : "cache state unknown: no cache lifetime known",
      msLeft,
      pruneMsLeft,
    };
  }
  if (msLeft > 0)
    return { state: "warm", text: `cache warm for ${fmtCountdown(msLeft)}`, msLeft, pruneMsLeft };
  const tokens = c.rewriteTokens === null ? "the whole prompt" : `~${fmtInt(c.rewriteTokens)} tokens`;
  const price =
    c.rewriteTokens === null
      ? ""
      : c.rewriteUsd === null
        ? " (no price known)"
        : ` (≈ ${fmtUsd(c.rewriteUsd)})`;
  const idle = c.lastCallAt === null ? null : c.now + elapsed - c.lastCallAt;
  const since = idle === null ? "" : ` (idle for ${fmtDuration(idle)})`;
  if (archived)
    return {
      state: "expired",
      text: `expired${since}: an archived transcript gets no next call`,
      msLeft,
      pruneMsLeft,
    };
  const head =
    idle !== null && idle >= LONG_IDLE_MS ? `idle for ${fmtDuration(idle)} — the cache is cold` : "expired";
  return {
    state: "expired",
    text: `${head}: the next call will re-write ${tokens}${price} and ${pruneClause(c, pruneMsLeft)}`,
    msLeft,
    pruneMsLeft,
  };
}
