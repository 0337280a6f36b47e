// A totals card: cost, calls, both hit rates and the token buckets (session or active branch).

import { writeAwareText } from "../../../shared/clock-labels.ts";
import type { CostTotalsDTO } from "../../../shared/cost.ts";
import { fmtInt, fmtPct, fmtUsd } from "../../../shared/format.ts";
import { Stat } from "../../ui/stat.tsx";

export function Totals({ t, label, testId }: { t: CostTotalsDTO; label: string; testId: string }) {
  return (
    <div className="card" data-testid={testId}>
      <h3>{label}</h3>
      <div className="stats">
        <Stat
          label="cost"
          value={
            t.calls > 0 && t.unpricedCalls === t.calls
              ? `unpriced (${fmtInt(t.calls)} calls)`
              : `${fmtUsd(t.costUsd)}${t.unpricedCalls > 0 ? ` + ${fmtInt(t.unpricedCalls)} unpriced` : ""}`
          }
          title={t.unpricedCalls > 0 ? `${t.unpricedCalls} call(s) unpriced (not included)` : undefined}
        />
        <Stat label="calls" value={fmtInt(t.calls)} />
        <Stat
          label="read hit rate"
          value={fmtPct(t.hitRate)}
          title="cacheRead / (input + cacheRead + cacheWrite), buckets summed first"
        />
        <Stat
          label="write-aware hit rate"
          value={writeAwareText(t.writeAwareHitRate, "total")}
          title="(1 − r) / 0.9 — 1 = all read, 0 = no caching; below 0 the cache writes cost more than the reads saved (shown as a label, not a negative percentage)"
        />
        <Stat label="input" value={fmtInt(t.input)} />
        <Stat label="cache read" value={fmtInt(t.cacheRead)} />
        <Stat
          label="cache write"
          value={fmtInt(t.cacheWrite)}
          title={`${fmtInt(t.cacheWrite1h)} in the 1-hour tier`}
        />
        <Stat label="output" value={fmtInt(t.output)} />
        {t.unpricedCalls > 0 ? <Stat label="unpriced calls" value={fmtInt(t.unpricedCalls)} /> : null}
        {t.transcriptOnlyExcluded > 0 ? (
          <Stat label="transcript-only excluded" value={fmtInt(t.transcriptOnlyExcluded)} />
        ) : null}
      </div>
    </div>
  );
}
