// The turn scrubber (issue 16): a call slider on the map tab — `?call=N` in the URL, keys `[` / `]` for the
// previous / next call, Home / End for the first / last — with the call's sent counts (the request's messages
// as reconstructed, reports/sent) beside its billed usage. Without `?call` the map shows the latest state.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { fmtInt } from "../../../shared/format.ts";
import type { SentCallDTO } from "../../../shared/sent.ts";
import { sentQuery } from "../../api/sent-queries.ts";
import { setParams } from "../../router.ts";
import { isTyping } from "../../ui/shortcuts.tsx";
import type { SessionTabProps } from "../session-tab.ts";

/** `?call=N`: a positive call number, else null (the latest state). */
export function parseCallParam(v: string | null): number | null {
  if (v === null) return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** `[` / `]` / Home / End move the call (never while typing or with a dialog open). */
function useScrubKeys(count: number, current: number, go: (call: number) => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || count === 0) return;
      if (isTyping(e.target) || document.querySelector("dialog[open]")) return;
      const next =
        e.key === "["
          ? Math.max(1, current - 1)
          : e.key === "]"
            ? Math.min(count, current + 1)
            : e.key === "Home"
              ? 1
              : e.key === "End"
                ? count
                : null;
      if (next === null) return;
      e.preventDefault();
      go(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [count, current, go]);
}

function CallFacts({ row }: { row: SentCallDTO }) {
  const u = row.usage;
  const billed = u.input + u.cacheRead + u.cacheWrite;
  return (
    <span className="sent-facts">
      <span
        data-testid="sent-counts"
        title="The request's messages as OpenClaw built them (reconstructed), counted as a capture counts them"
      >
        sent: {fmtInt(row.sent.messages)} messages, {fmtInt(row.sent.messageChars)} chars
      </span>
      <span data-testid="sent-billed" title="The call's usage as recorded">
        billed prompt: {fmtInt(billed)} tokens ({fmtInt(u.cacheRead)} cache read, {fmtInt(u.cacheWrite)} cache
        write, {fmtInt(u.input)} uncached), {fmtInt(u.output)} out
      </span>
      {row.estimated.length > 0 ? (
        <span className="badge warn" title={row.estimated.join("\n")} data-testid="sent-estimated">
          estimated
        </span>
      ) : null}
    </span>
  );
}

export function SentScrubber({ agentId, sessionId, params }: SessionTabProps) {
  const q = useQuery(sentQuery(agentId, sessionId));
  const calls = q.data?.calls ?? [];
  const count = calls.length;
  const asked = parseCallParam(params.get("call"));
  const call = asked === null ? null : Math.min(asked, Math.max(1, count));
  const current = call ?? count;
  const go = useCallback(
    (c: number | null) => setParams({ call: c === null ? null : String(c) }, { replace: true }),
    [],
  );
  useScrubKeys(count, current, go);
  if (q.isError) return <div className="sent-scrubber muted small">Calls as sent: {q.error.message}</div>;
  if (count === 0) return null;
  const row = calls[current - 1];
  return (
    <div className="sent-scrubber" data-testid="sent-scrubber">
      <button
        type="button"
        onClick={() => go(Math.max(1, current - 1))}
        disabled={current <= 1}
        aria-label="Previous call ([)"
        title="Previous call ([)"
      >
        ‹
      </button>
      <input
        type="range"
        min={1}
        max={count}
        value={current}
        aria-label="Agent call"
        data-testid="sent-slider"
        onChange={(e) => go(Number(e.target.value))}
      />
      <button
        type="button"
        onClick={() => go(Math.min(count, current + 1))}
        disabled={current >= count}
        aria-label="Next call (])"
        title="Next call (])"
      >
        ›
      </button>
      <span className="sent-call" data-testid="sent-call-label">
        {call === null
          ? `latest · call ${fmtInt(count)} of ${fmtInt(count)}`
          : `call ${fmtInt(call)} of ${fmtInt(count)}`}
        {row?.timestamp ? ` · ${row.timestamp.replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : ""}
      </span>
      {row ? <CallFacts row={row} /> : null}
      {call !== null ? (
        <button type="button" onClick={() => go(null)} data-testid="sent-latest">
          Latest
        </button>
      ) : null}
    </div>
  );
}
