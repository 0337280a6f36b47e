// The smaller cost tables: cache expiries (idle gap > lifetime), pruning rounds (rewrite cost vs savings) and
// the counterfactuals ("what if…").

import { COUNTERFACTUAL_WHATIFS } from "../../../shared/compare-params.ts";
import type { CounterfactualDTO } from "../../../shared/cost.ts";
import type { CostReportPageDTO } from "../../../shared/cost-page.ts";
import { fmtDuration, fmtInt, fmtUsd } from "../../../shared/format.ts";
import { Table } from "../../ui/table.tsx";
import { CompareWithAsRun } from "../compare/compare-with-as-run.tsx";

type Linked = CostReportPageDTO["linkedCalls"];
type OpenCall = (c: { entryIndex: number }) => void;

/** The call a row names, as a button that opens its evidence in the calls table (issue 15: rows link to calls). */
function CallLink({ entryId, linked, onOpen }: { entryId: string | null; linked: Linked; onOpen: OpenCall }) {
  const call = entryId === null ? undefined : linked[entryId];
  if (!call) return <span className="muted">—</span>;
  return (
    <button
      type="button"
      className="link"
      data-testid={`cost-link-call-${call.entryIndex}`}
      title="Open this call's evidence in the calls table"
      onClick={() => onOpen(call)}
    >
      call #{call.n}
    </button>
  );
}

export function GapCosts({
  dto,
  onOpen,
}: {
  dto: Pick<CostReportPageDTO, "gapCosts" | "linkedCalls">;
  onOpen: OpenCall;
}) {
  return dto.gapCosts.length > 0 ? (
    <Table
      testId="cost-gap-table"
      caption="Cache expiries (idle gap > lifetime)"
      columns={[
        {
          key: "call",
          label: "Call",
          render: (g) => <CallLink entryId={g.callEntryId} linked={dto.linkedCalls} onOpen={onOpen} />,
        },
        {
          key: "gap",
          label: "Gap",
          align: "right",
          render: (g) => fmtDuration(g.gapMs),
          sortValue: (g) => g.gapMs,
        },
        { key: "ttl", label: "Lifetime", align: "right", render: (g) => fmtDuration(g.cacheTtlMs) },
        {
          key: "tok",
          label: "Rewritten tok",
          align: "right",
          render: (g) => fmtInt(g.rewrittenTokens),
          sortValue: (g) => g.rewrittenTokens,
        },
        {
          key: "usd",
          label: "Premium",
          align: "right",
          render: (g) => fmtUsd(g.premiumUsd),
          sortValue: (g) => g.premiumUsd,
        },
      ]}
      rows={dto.gapCosts}
      rowKey={(g) => `${g.callEntryId}-${g.gapMs}`}
    />
  ) : null;
}

export function PruningRoundCosts({
  dto,
  onOpen,
}: {
  dto: Pick<CostReportPageDTO, "pruningRounds" | "linkedCalls">;
  onOpen: OpenCall;
}) {
  return dto.pruningRounds.length > 0 ? (
    <Table
      testId="cost-pruning-table"
      caption="Pruning rounds: rewrite cost vs estimated savings"
      columns={[
        {
          key: "call",
          label: "Call",
          render: (r) => <CallLink entryId={r.callEntryId} linked={dto.linkedCalls} onOpen={onOpen} />,
        },
        { key: "chars", label: "Chars removed", align: "right", render: (r) => fmtInt(r.charsRemoved) },
        { key: "rw", label: "Rewrite tok", align: "right", render: (r) => fmtInt(r.rewriteTokens) },
        {
          key: "rwusd",
          label: "Rewrite cost",
          align: "right",
          render: (r) => fmtUsd(r.rewriteCostUsd),
        },
        {
          key: "saved",
          label: "Est. saved",
          align: "right",
          render: (r) => (
            <span title={r.note}>
              {fmtUsd(r.estSavedUsd)} over {r.laterCalls} calls
            </span>
          ),
        },
      ]}
      rows={dto.pruningRounds}
      rowKey={(r) => r.callEntryId}
    />
  ) : null;
}

export function Counterfactuals({ rows }: { rows: CounterfactualDTO[] }) {
  if (rows.length === 0) return null;
  return (
    <Table
      testId="cost-counterfactuals"
      caption="What if…"
      columns={[
        { key: "label", label: "Scenario", render: (r) => r.label },
        { key: "cost", label: "Cost", align: "right", render: (r) => fmtUsd(r.costUsd) },
        {
          key: "delta",
          label: "Δ vs as run",
          align: "right",
          render: (r) =>
            r.deltaUsd === null ? (
              "—"
            ) : (
              <span
                className={r.deltaUsd > 0 ? "error-text" : "badge-ok"}
              >{`${r.deltaUsd > 0 ? "+" : ""}${fmtUsd(r.deltaUsd)}`}</span>
            ),
        },
        {
          key: "assume",
          label: "Assumptions",
          render: (r) => <span className="small muted">{r.assumptions.join(" · ")}</span>,
        },
        {
          key: "compare",
          label: "",
          render: (r) => {
            const values = COUNTERFACTUAL_WHATIFS[r.id];
            return values ? <CompareWithAsRun values={values} /> : null;
          },
        },
      ]}
      rows={rows}
      rowKey={(r) => r.id}
      rowTestId={(r) => `counterfactual-${r.id}`}
    />
  );
}
