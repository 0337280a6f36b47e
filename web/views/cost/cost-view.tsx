// Cache & cost: totals and hit rates, per-call table with the cache verdict and its evidence, gap and
// pruning-round costs, counterfactuals, heartbeat flags. URL state: ccall=<entry index> (selected row).
// The tab loads the paged report (one slim row per call, issue 18); a row's evidence is fetched when it opens.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { CostTotalsDTO } from "../../../shared/cost.ts";
import type { CostReportPageDTO } from "../../../shared/cost-page.ts";
import { fmtDuration } from "../../../shared/format.ts";
import { costCallQuery, costPageQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { QueryPanel } from "../../ui/status.tsx";
import { AgentAdviceCards } from "../overview/advice-cards.tsx";
import type { SessionTabProps } from "../session-tab.ts";
import { BreakdownCard } from "./breakdown-card.tsx";
import { CostCallsTable, callKey } from "./calls-table.tsx";
import { Counterfactuals, GapCosts, PruningRoundCosts } from "./cost-tables.tsx";
import { Evidence } from "./evidence.tsx";
import { editorPrices, PriceEditor, storeEditorPrices } from "./price-editor.tsx";
import { Totals } from "./totals.tsx";

export function CostView({ agentId, sessionId, params }: SessionTabProps) {
  const inUrl = params.get("prices");
  const prices = editorPrices(inUrl);
  // Prices kept in this browser go into the URL too, so *Copy link* shares them (issue 14 §3).
  useEffect(() => {
    if (inUrl === null && prices !== "") setParams({ prices }, { replace: true });
  }, [inUrl, prices]);
  const query = useQuery(costPageQuery(agentId, sessionId, prices));
  const sel = params.get("ccall");
  const applyPrices = (text: string) => {
    storeEditorPrices(text);
    setParams({ prices: text === "" ? null : text }, { replace: true });
  };
  return (
    <QueryPanel query={query} label="the cost report">
      {(dto) => (
        <CostPanel
          dto={dto}
          session={{ agentId, sessionId }}
          selected={sel}
          prices={prices}
          onPrices={applyPrices}
        />
      )}
    </QueryPanel>
  );
}

interface SessionRef {
  agentId: string;
  sessionId: string;
}

/**
 * The opened row's full record (evidence, cause, tiers), fetched on demand. `reveal`: opened from the breakdown
 * card, far from its row — once the record is drawn it scrolls into view and takes focus, then `onRevealed`.
 */
function CallEvidence({
  session,
  prices,
  entryIndex,
  reveal,
  onRevealed,
}: {
  session: SessionRef;
  prices: string;
  entryIndex: number;
  reveal: boolean;
  onRevealed: () => void;
}) {
  const query = useQuery(costCallQuery(session.agentId, session.sessionId, prices, entryIndex));
  const box = useRef<HTMLDivElement>(null);
  const shown = query.data !== undefined;
  useEffect(() => {
    if (!reveal || !shown || !box.current) return;
    box.current.scrollIntoView({ block: "center" });
    box.current.focus({ preventScroll: true });
    onRevealed();
  }, [reveal, shown, onRevealed]);
  return (
    <QueryPanel query={query} label="the call's evidence">
      {(call) => <Evidence call={call} ref={box} />}
    </QueryPanel>
  );
}

function CostPanel({
  dto,
  session,
  selected,
  prices,
  onPrices,
}: {
  dto: CostReportPageDTO;
  session: SessionRef;
  selected: string | null;
  prices: string;
  onPrices: (text: string) => void;
}) {
  // A call opened from the breakdown card: its evidence scrolls into view and takes focus once drawn.
  const [reveal, setReveal] = useState<string | null>(null);
  const revealed = useCallback(() => setReveal(null), []);
  const open = (c: { entryIndex: number }) => {
    setParams({ ccall: callKey(c) }, { replace: true });
    setReveal(callKey(c));
  };
  return (
    <div className="cost-view">
      <BreakdownCard dto={dto} selected={selected} onOpen={open} />
      <PriceEditor key={prices} dto={dto} text={prices} onApply={onPrices} />
      {sameTotals(dto.totals, dto.activeBranchTotals) ? (
        // Every call is on the active branch: one card, not two identical ones (issue 15).
        <Totals t={dto.totals} label="Totals (every call is on the active branch)" testId="cost-totals" />
      ) : (
        <div className="grid-2">
          <Totals t={dto.totals} label="Session totals (every branch)" testId="cost-totals" />
          <Totals t={dto.activeBranchTotals} label="Active branch" testId="cost-branch-totals" />
        </div>
      )}
      <p className="muted small" data-testid="cost-retention">
        Cache retention: {dto.retention.value ?? "unknown"} ({dto.retention.source}); lifetime{" "}
        {fmtDuration(dto.retention.cacheTtlMs)} ({dto.retention.ttlSource})
      </p>
      {dto.heartbeat.flags.length > 0 ? (
        <ul className="warn-note small" data-testid="cost-heartbeat-flags">
          {dto.heartbeat.flags.map((f) => (
            <li key={f.kind} className={f.severity === "warning" ? "error-text" : undefined}>
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <AgentAdviceCards agentId={dto.agentId} />
      {dto.notes.length > 0 ? (
        <ul className="note small" data-testid="cost-notes">
          {dto.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <CostCallsTable
        dto={dto}
        selected={selected}
        detail={(c) => (
          <CallEvidence
            session={session}
            prices={prices}
            entryIndex={c.entryIndex}
            reveal={reveal === callKey(c)}
            onRevealed={revealed}
          />
        )}
      />
      <Counterfactuals rows={dto.counterfactuals} />
      <div className="grid-2 align-start">
        <GapCosts dto={dto} onOpen={open} />
        <PruningRoundCosts dto={dto} onOpen={open} />
      </div>
    </div>
  );
}

/** The active branch's totals are the session's (no call off the active branch). */
function sameTotals(a: CostTotalsDTO, b: CostTotalsDTO): boolean {
  return (
    a.calls === b.calls &&
    a.input === b.input &&
    a.output === b.output &&
    a.cacheRead === b.cacheRead &&
    a.cacheWrite === b.cacheWrite &&
    a.costUsd === b.costUsd &&
    a.unpricedCalls === b.unpricedCalls
  );
}
