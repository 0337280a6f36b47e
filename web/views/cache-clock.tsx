// Session header widget: is the provider's prompt cache still warm, and when does OpenClaw's pruning TTL
// run out? The server evaluates the clock (shared/live.ts CacheClockDTO); the widget counts down locally
// between refreshes. Hidden when the server has no clock for this session.

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { clockQuery } from "../api/queries.ts";
import { fmtDuration, fmtInt, fmtUsd } from "../ui/format.ts";

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

export function CacheClock({ agentId, sessionId }: { agentId: string; sessionId: string }) {
  const q = useQuery(clockQuery(agentId, sessionId));
  const now = useNow(1000);
  const c = q.data;
  if (!c) return null;
  // Count down from the server's evaluation time using the browser clock's elapsed time since the fetch.
  const elapsed = Math.max(0, now - q.dataUpdatedAt);
  const left = c.msLeft === null ? null : c.msLeft - elapsed;
  const pruneLeft = c.pruneMsLeft === null ? null : c.pruneMsLeft - elapsed;
  const warm = left !== null && left > 0;
  return (
    <div
      className={`cache-clock ${warm ? "warm" : "cold"}`}
      data-testid="cache-clock"
      title={`cache lifetime ${fmtDuration(c.cacheTtlMs)} (${c.cacheTtlSource})`}
    >
      <span data-testid="cache-clock-state">
        Prompt cache:{" "}
        {left === null
          ? "unknown"
          : warm
            ? `warm, ${fmtDuration(left)} left`
            : `expired ${fmtDuration(-left)} ago`}
      </span>
      {c.rewriteTokens !== null ? (
        <span className="muted">
          {" "}
          · a cold call re-writes ~{fmtInt(c.rewriteTokens)} tok
          {c.rewriteUsd !== null
            ? ` (${fmtUsd(c.rewriteUsd)}${c.rewritePremiumUsd !== null ? `, +${fmtUsd(c.rewritePremiumUsd)} over a warm read` : ""})`
            : ""}
        </span>
      ) : null}
      {pruneLeft !== null ? (
        <span data-testid="cache-clock-prune">
          {" "}
          · Pruning TTL: {pruneLeft > 0 ? `${fmtDuration(pruneLeft)} left` : "expired"}
          {c.pruneCount !== null && c.pruneCount > 0
            ? ` — the next call after it trims/clears ${c.pruneCount} tool result${c.pruneCount === 1 ? "" : "s"}`
            : ""}
        </span>
      ) : null}
    </div>
  );
}
