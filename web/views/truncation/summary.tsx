// The head of the truncation view: the totals, whose report the numbers come from, what-if and notes.

import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type { TruncationReportDTO } from "../../../shared/truncation.ts";
import { Stat } from "../../ui/stat.tsx";
import { useRedactor } from "../../ui/use-redact.ts";

export function TruncationSummary({ dto }: { dto: TruncationReportDTO }) {
  const red = useRedactor();
  const t = dto.totals;
  return (
    <>
      <div className="card stats" data-testid="truncation-totals">
        <Stat
          label="mode"
          value={dto.mode}
          title="recorded: the stored report; recomputed: re-run on the current files"
          testId="truncation-mode"
        />
        <Stat label="rules" value={dto.family} />
        <Stat label="max / file" value={fmtInt(dto.maxPerFile)} />
        <Stat label="max / total" value={fmtInt(dto.maxTotal)} />
        <Stat label="raw total" value={fmtInt(t.rawChars)} />
        <Stat label="injected total" value={t.injectedChars === null ? "?" : fmtInt(t.injectedChars)} />
        <Stat label="share of total cap" value={fmtPct(t.shareOfTotal)} />
        <Stat label="truncated files" value={fmtInt(t.truncatedFiles)} testId="truncation-truncated-count" />
        <Stat label="near-limit files" value={fmtInt(t.nearLimitFiles)} />
        <Stat label="budget left" value={fmtInt(t.budgetRemaining)} />
      </div>
      {!dto.storedReport.available ? (
        <p className="warn-note" data-testid="truncation-no-report">
          Nothing recorded: this session has no stored run report. The table shows the workspace files as they
          are now and what OpenClaw's caps would inject from them.
        </p>
      ) : null}
      {dto.storedReport.owner ? (
        <p className="warn-note" data-testid="truncation-report-owner">
          {red.sentence(dto.storedReport.owner.note)}
        </p>
      ) : null}
      {dto.whatIf && dto.storedReport.available ? (
        <p className="warn-note" data-testid="truncation-whatif-note">
          What-if: caps / rules differ from the recorded report (recorded: {fmtInt(dto.recorded.maxPerFile)}{" "}
          per file, {fmtInt(dto.recorded.maxTotal)} total, {dto.recorded.family}).
        </p>
      ) : null}
      {[...dto.warnings, ...dto.notes].length > 0 ? (
        <ul className="note small" data-testid="truncation-notes">
          {dto.warnings.map((w) => (
            <li key={`w-${w}`} className="error-text">
              {red.sentence(w)}
            </li>
          ))}
          {dto.notes.map((n) => (
            <li key={`n-${n}`}>{red.sentence(n)}</li>
          ))}
        </ul>
      ) : null}
      {dto.changes.length > 0 ? (
        <p className="warn-note small" data-testid="truncation-changes">
          Workspace changed since the report:{" "}
          {dto.changes
            .map((c) => `${c.name} (${c.kind}: ${fmtInt(c.recordedRawChars)} → ${fmtInt(c.currentRawChars)})`)
            .join(", ")}
        </p>
      ) : null}
    </>
  );
}
