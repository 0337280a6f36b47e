// The "next call" card: would the next model call prune, and why — at a time the user can pick (`at`), else now.
// "now" is the wall clock (issue 15): without an `at` in the URL the card asks the server for a prediction at its
// clock (GET …/prune/next), refetched by the "now" button, on every live change and when its TTL countdown —
// ticking locally between fetches — crosses zero. The replay itself (timeline,
// table) ends at the session's last entry then; an `at` in the URL is the replay's own and moves its axis too.

import { useQuery } from "@tanstack/react-query";
import { fmtDate, fmtDuration, fmtInt, fmtPct } from "../../../shared/format.ts";
import type { PruneNextDTO, PruneReplayDTO } from "../../../shared/prune.ts";
import { ttlSentence } from "../../../shared/prune-next-text.ts";
import type { PruneParams } from "../../../shared/prune-params.ts";
import { pruneNextQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { Stat } from "../../ui/stat.tsx";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { useAskAgainOnCrossing, useNow } from "../../ui/use-now.ts";
import { expiredSinceFetch, ttlLeft } from "./next-call-clock.ts";

/** Where the prediction comes from: the replay (for a picked `at`) and the what-if query. */
export interface NextCallSource {
  dto: PruneReplayDTO;
  agentId: string;
  sessionId: string;
  p: PruneParams;
}

/** The prediction the card and the timeline's "next" mark show, and where its time comes from. */
export interface NextCallView {
  /** No `at` in the URL: the prediction is at the wall clock. */
  wallClock: boolean;
  /** Undefined while the wall-clock prediction loads (or when it failed: `error`). */
  next: PruneNextDTO | undefined;
  error: Error | null;
  /** Ask again at the current wall clock. */
  refresh: () => void;
  /** When the wall-clock prediction was fetched (ms; 0 before it arrives or for a picked time). */
  fetchedAt: number;
}

/**
 * Called where the prediction is shown (the card, the timeline's mark): one request (React Query shares it), and
 * its answer re-renders only those, not the timeline's thousands of marks or the calls table.
 */
export function useNextCall({ dto, agentId, sessionId, p }: NextCallSource): NextCallView {
  const wallClock = p.at === undefined;
  const q = useQuery({ ...pruneNextQuery(agentId, sessionId, p), enabled: wallClock });
  return {
    wallClock,
    next: wallClock ? q.data : dto.next,
    error: wallClock ? q.error : null,
    refresh: () => void q.refetch(),
    fetchedAt: wallClock ? q.dataUpdatedAt : 0,
  };
}

/**
 * The card's "TTL expires in", ticking from the wall-clock prediction (next-call-clock.ts); when it crosses zero
 * the prediction is asked for again, once per fetch (a still-expired answer does not loop).
 */
function useTtlCountdown(view: NextCallView): number | null {
  const now = useNow(1000);
  const n = view.next;
  const elapsed = view.wallClock && view.fetchedAt > 0 ? now - view.fetchedAt : 0;
  useAskAgainOnCrossing(
    n !== undefined && view.wallClock && expiredSinceFetch(n, elapsed),
    view.fetchedAt,
    view.refresh,
  );
  return n ? ttlLeft(n, elapsed) : null;
}

export function NextCall({ source }: { source: NextCallSource }) {
  const view = useNextCall(source);
  const n = view.next;
  const msLeft = useTtlCountdown(view);
  return (
    <div className={`card ${n?.wouldPrune ? "warn-note" : ""}`} data-testid="prune-next">
      <div className="toolbar">
        <h3>Next call</h3>
        <label className="small">
          at{" "}
          <input
            type="datetime-local"
            step={1}
            aria-label="Next call time"
            data-testid="prune-at"
            value={n ? toLocalInput(n.at) : ""}
            onChange={(e) => {
              const ms = new Date(e.target.value).getTime();
              setParams({ at: Number.isFinite(ms) ? String(ms) : null }, { replace: true });
            }}
          />
        </label>
        <button
          type="button"
          data-testid="prune-at-now"
          aria-pressed={view.wallClock}
          title="Predict for a message sent now (the wall clock)"
          onClick={() => (view.wallClock ? view.refresh() : setParams({ at: null }, { replace: true }))}
        >
          now
        </button>
        <span className="muted small" data-testid="prune-at-source">
          {view.wallClock
            ? "now: the wall clock — the replay below ends at the session's last entry"
            : "the time picked — the replay below runs up to it"}
        </span>
      </div>
      {n ? (
        <NextCallBody n={n} msLeft={msLeft} />
      ) : view.error ? (
        <ErrorPanel error={view.error} title="Could not predict the next call" retry={view.refresh} />
      ) : (
        <Loading label="Predicting the next call at the wall clock…" />
      )}
    </div>
  );
}

function NextCallBody({ n, msLeft }: { n: PruneNextDTO; msLeft: number | null }) {
  // The clock's sentence is said again from the ticking countdown (the server's own wording), so the sentence
  // and the "TTL expires in" beside it never disagree between fetches.
  const sentence = n.ttlEffect !== null && msLeft !== null ? ttlSentence(msLeft, n.ttlEffect) : n.prediction;
  return (
    <>
      <p data-testid="prune-next-prediction">
        <strong>{n.wouldPrune ? `Would prune (${n.round})` : "Would not prune"}</strong> — {sentence}
      </p>
      <div className="stats">
        <Stat
          label={msLeft !== null && msLeft < 0 ? "TTL expired" : "TTL expires in"}
          testId="prune-next-ttl"
          value={msLeft === null ? "—" : msLeft < 0 ? `${fmtDuration(-msLeft)} ago` : fmtDuration(msLeft)}
        />
        <Stat label="last cache touch" value={fmtDate(n.lastCacheTouchAt)} />
        <Stat label="gate" value={n.gate} />
        <Stat label="chars / window" value={`${fmtInt(n.totalChars)} (${fmtPct(n.ratio)})`} />
        <Stat label="after" value={`${fmtInt(n.totalCharsAfter)} (${fmtPct(n.ratioAfter)})`} />
      </div>
    </>
  );
}

function toLocalInput(ms: number): string {
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
