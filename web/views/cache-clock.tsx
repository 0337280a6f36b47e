// Session header widget: is the provider's prompt cache still warm, and what does the next call cost when it
// is not? The server evaluates the clock once (shared/live.ts CacheClockDTO); the widget ticks every second
// locally from `msLeft` − time elapsed since the fetch (cache-clock-text.ts). The DTO is re-fetched only when
// the session changes (live.ts invalidates it) or when a countdown crosses zero — never on a timer.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { fmtDuration, fmtInt, fmtUsd } from "../../shared/format.ts";
import { clockQuery } from "../api/queries.ts";
import { crossedZero, useAskAgainOnCrossing, useNow } from "../ui/use-now.ts";
import { clockText } from "./cache-clock-text.ts";

export function CacheClock({
  agentId,
  sessionId,
  archived = false,
  prices = "",
}: {
  agentId: string;
  sessionId: string;
  /** An archived transcript never gets a next call: no "the next call will re-write" line. */
  archived?: boolean;
  /** The price editor's list (cost/price-editor.tsx): the re-write line prices what the Cache & cost tab does. */
  prices?: string;
}) {
  const client = useQueryClient();
  const options = clockQuery(agentId, sessionId, prices);
  const q = useQuery(options);
  const now = useNow(1000);
  const c = q.data;
  const t = c ? clockText(c, now - q.dataUpdatedAt, archived) : null;

  // Crossing zero changes what the server says (the pruning count is evaluated after its TTL): ask once per
  // crossing.
  const crossed =
    c !== undefined &&
    t !== null &&
    (crossedZero(c.msLeft, t.msLeft) || crossedZero(c.pruneMsLeft, t.pruneMsLeft));
  const { queryKey } = options;
  const askAgain = useCallback(
    () => void client.invalidateQueries({ queryKey, exact: true }),
    [client, queryKey],
  );
  useAskAgainOnCrossing(crossed, q.dataUpdatedAt, askAgain);

  if (!c || !t) return null;
  const title = [
    `Prompt cache lifetime ${fmtDuration(c.cacheTtlMs)} (${c.cacheTtlSource}).`,
    // ux-notes: the clock is OpenClaw's, not the provider's — a call that read the whole cache moves it only once
    // OpenClaw writes its next marker
    "Counted from OpenClaw's own cache clock (its newest openclaw.cache-ttl marker, else the last model call's start), not from the provider's reported usage.",
    c.rewriteTokens !== null
      ? `A cold call re-writes ~${fmtInt(c.rewriteTokens)} prompt tokens (estimate: the last call's prompt)${
          c.rewritePremiumUsd !== null ? `, ${fmtUsd(c.rewritePremiumUsd)} more than a warm read` : ""
        }.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      className={`cache-clock ${t.state === "warm" ? "warm" : "cold"}`}
      data-testid="cache-clock"
      title={title}
    >
      <span className="cache-clock-dot" aria-hidden="true" />
      <span data-testid="cache-clock-state">{t.text}</span>
      {t.state === "warm" && t.pruneMsLeft !== null ? (
        <span className="muted" data-testid="cache-clock-prune">
          {" "}
          · pruning TTL {t.pruneMsLeft > 0 ? `${fmtDuration(t.pruneMsLeft)} left` : "expired"}
        </span>
      ) : t.state === "warm" ? (
        <span className="muted" data-testid="cache-clock-prune">
          {" "}
          · pruning is off
        </span>
      ) : null}
    </div>
  );
}
