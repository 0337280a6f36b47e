// The replay at a glance: algorithm and eligibility path, settings in effect, call and round counts, and the
// replay's warnings.

import { fmtDuration, fmtInt } from "../../../shared/format.ts";
import type { PruneReplayDTO } from "../../../shared/prune.ts";
import { Stat } from "../../ui/stat.tsx";
import { useRedactor } from "../../ui/use-redact.ts";

export function PruneSummary({ dto }: { dto: PruneReplayDTO }) {
  const red = useRedactor();
  const expired = dto.calls.filter((c) => c.ttlExpired).length;
  const warnings = [...dto.warnings, ...dto.settings.warnings];
  return (
    <>
      <div className="card stats" data-testid="prune-summary">
        <Stat
          label="algorithm"
          value={dto.algorithm}
          title={dto.algorithmReason}
          testId="prune-algorithm-used"
        />
        <Stat label="path" value={dto.eligibility.path} title={dto.eligibility.reason} />
        <Stat label="mode" value={dto.settings.mode} />
        <Stat label="TTL" value={dto.settings.ttlMs > 0 ? fmtDuration(dto.settings.ttlMs) : "off"} />
        <Stat
          label="window"
          value={`${fmtInt(dto.contextWindowTokens)} tok`}
          title={dto.contextWindowSource}
        />
        <Stat label="char window" value={fmtInt(dto.charWindow)} />
        <Stat label="model calls" value={fmtInt(dto.calls.length)} />
        <Stat label="TTL-expired calls" value={fmtInt(expired)} />
        <Stat label="pruning rounds" value={fmtInt(dto.rounds)} testId="prune-rounds" />
        <Stat label="snapshot mismatches" value={fmtInt(dto.snapshotMismatchCalls)} />
      </div>
      <p className="muted small">{red.sentence(dto.eligibility.reason)}</p>
      {warnings.length > 0 ? (
        <ul className="warn-note small" data-testid="prune-warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
