// The evidence behind one call's cache verdict: lineage, gap vs lifetime, expected vs actual read, tiers and
// where the cost came from.

import type { Ref } from "react";
import type { CacheVerdict, CostCallDTO } from "../../../shared/cost.ts";
import { fmtDuration, fmtInt, fmtUsd } from "../../../shared/format.ts";

export const VERDICT_CLASS: Partial<Record<CacheVerdict, string>> = {
  hit: "badge-ok",
  "cold-start": "",
  "ttl-expired": "badge-error",
  "prefix-changed": "badge-archived",
  "model-switch": "badge-archived",
  "below-minimum": "",
  unexplained: "badge-error",
};

/** Issue 14 §3: which layer priced the call, among all of them in order. */
const LAYERS: readonly (readonly [Exclude<CostCallDTO["priceOrigin"], null>, string])[] = [
  ["recorded", "recorded usage.cost"],
  ["pricing-file", "--pricing file"],
  ["config", "config models.providers"],
  ["models-json", "agent models.json"],
  ["library", "price library"],
  ["editor", "price editor"],
];

function precedence(call: CostCallDTO): string {
  const used = call.priceOrigin;
  const chain = LAYERS.map(([id, label]) => (id === used ? `[${label}]` : label)).join(" > ");
  return used === null ? `${chain} > [unpriced]` : chain;
}

export function Evidence({ call, ref }: { call: CostCallDTO; ref?: Ref<HTMLDivElement> }) {
  const e = call.evidence;
  const rows: [string, string][] = [
    ["previous call (lineage)", e.previousCallEntryId ?? "none"],
    ["gap to it", fmtDuration(e.lineageGapMs)],
    ["cache lifetime", `${fmtDuration(e.cacheTtlMs)} (${e.cacheTtlSource})`],
    ["expected read", fmtInt(e.expectedRead)],
    ["actual read", fmtInt(call.cacheRead)],
    ["miss deficit", fmtInt(e.missDeficit)],
    ["new suffix", fmtInt(e.newSuffix)],
    ["tolerance", fmtInt(e.toleranceTokens)],
    ["min cacheable", fmtInt(e.minCacheableTokens)],
    ["write tier", `${call.writeTier.tier} (${call.writeTier.source})`],
    ["cost source", `${call.costSource}${call.priceSource ? ` — ${call.priceSource}` : ""}`],
    ["price precedence", precedence(call)],
    ["recorded / computed cost", `${fmtUsd(call.recordedCostUsd)} / ${fmtUsd(call.computedCostUsd)}`],
  ];
  return (
    <div className="card" data-testid="cost-evidence" ref={ref} tabIndex={-1}>
      <h3>
        <span className={`badge ${VERDICT_CLASS[call.verdict] ?? ""}`}>{call.verdict}</span> {e.summary}
      </h3>
      <p className="small" data-testid="cost-evidence-cause">
        Where the money went: <b>{call.cause.cause}</b> — {call.cause.detail}
        {call.cause.entryIds.length > 0 ? (
          <span className="mono muted"> (entries {call.cause.entryIds.join(", ")})</span>
        ) : null}
      </p>
      <table className="table">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {e.alsoMatched.length > 0 ? <p className="small">Also matched: {e.alsoMatched.join(", ")}</p> : null}
      {e.signalEntryIds.length > 0 ? (
        <p className="small mono muted">Signal entries: {e.signalEntryIds.join(", ")}</p>
      ) : null}
      {e.writeCounterMissing ? (
        <p className="warn-note small">
          This provider reports no cache-write counter: "0 written" means unknown.
        </p>
      ) : null}
      {call.oneHourWriteCorrectionUsd ? (
        <p className="small">1-hour write correction: {fmtUsd(call.oneHourWriteCorrectionUsd)}</p>
      ) : null}
    </div>
  );
}
