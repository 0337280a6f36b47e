// The "next call" card: would the next model call prune, and why — at a time the user can pick (`at`).

import { fmtDate, fmtDuration, fmtInt, fmtPct } from "../../../shared/format.ts";
import type { PruneReplayDTO } from "../../../shared/prune.ts";
import { setParams } from "../../router.ts";
import { Stat } from "../../ui/stat.tsx";

export function NextCall({ dto }: { dto: PruneReplayDTO }) {
  const n = dto.next;
  return (
    <div className={`card ${n.wouldPrune ? "warn-note" : ""}`} data-testid="prune-next">
      <div className="toolbar">
        <h3>Next call</h3>
        <label className="small">
          at{" "}
          <input
            type="datetime-local"
            step={1}
            aria-label="Next call time"
            data-testid="prune-at"
            value={toLocalInput(n.at)}
            onChange={(e) => {
              const ms = new Date(e.target.value).getTime();
              setParams({ at: Number.isFinite(ms) ? String(ms) : null }, { replace: true });
            }}
          />
        </label>
        <button
          type="button"
          data-testid="prune-at-now"
          onClick={() => setParams({ at: null }, { replace: true })}
        >
          now
        </button>
      </div>
      <p data-testid="prune-next-prediction">
        <strong>{n.wouldPrune ? `Would prune (${n.round})` : "Would not prune"}</strong> — {n.prediction}
      </p>
      <div className="stats">
        <Stat
          label="TTL expires in"
          value={
            n.msUntilTtlExpiry === null
              ? "—"
              : n.msUntilTtlExpiry < 0
                ? `expired ${fmtDuration(-n.msUntilTtlExpiry)} ago`
                : fmtDuration(n.msUntilTtlExpiry)
          }
        />
        <Stat label="last cache touch" value={fmtDate(n.lastCacheTouchAt)} />
        <Stat label="gate" value={n.gate} />
        <Stat label="chars / window" value={`${fmtInt(n.totalChars)} (${fmtPct(n.ratio)})`} />
        <Stat label="after" value={`${fmtInt(n.totalCharsAfter)} (${fmtPct(n.ratioAfter)})`} />
      </div>
    </div>
  );
}

function toLocalInput(ms: number): string {
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
