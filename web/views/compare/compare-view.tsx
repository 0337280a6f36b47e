// Compare (issue 16): this session as run beside another session (`?compare=AGENT/SESSION`) or beside itself
// under a what-if (`?whatif=<the what-if query, URL-encoded>`): cost and cache writes, spend per cause, pruning
// rounds, and the composition diff treemap. GET /api/compare computes it (the CLI's `compare --json`).

import { useQuery } from "@tanstack/react-query";
import type { CompareDTO, CompareSideDTO } from "../../../shared/compare.ts";
import { fmtInt, fmtUsd } from "../../../shared/format.ts";
import { compareQuery } from "../../api/compare-queries.ts";
import { setParams } from "../../router.ts";
import { QueryPanel } from "../../ui/status.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { DiffTreemap } from "./diff-treemap.tsx";

const signed = (n: number | null, f: (n: number) => string): string =>
  n === null ? "—" : `${n > 0 ? "+" : n < 0 ? "−" : "±"}${f(Math.abs(n))}`;

function SideName({ s }: { s: CompareSideDTO }) {
  const r = useRedactor();
  return (
    <span>
      <span className="badge badge-agent">{r.agent(s.agentId)}</span>{" "}
      {s.sessionKey ? r.sessionKey(s.sessionKey) : r.id(s.sessionId)}{" "}
      <span className="muted small">
        ({s.label}; OpenClaw {s.family}; {fmtInt(s.calls)} calls)
      </span>
    </span>
  );
}

/** a | b | b − a, after the row labels' column. */
function Head({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th>{first}</th>
        <th className="num">a</th>
        <th className="num">b</th>
        <th className="num">b − a</th>
      </tr>
    </thead>
  );
}

function Row(props: { label: string; k: string; a: string; b: string; d: string; title?: string }) {
  return (
    <tr data-testid={`compare-row-${props.k}`} title={props.title}>
      <th scope="row">{props.label}</th>
      <td className="num">{props.a}</td>
      <td className="num">{props.b}</td>
      <td className="num">{props.d}</td>
    </tr>
  );
}

function Totals({ dto }: { dto: CompareDTO }) {
  const { a, b, diff } = dto;
  const int = (n: number) => fmtInt(n);
  return (
    <table className="table compare-table" data-testid="compare-table">
      <Head first="" />
      <tbody>
        <Row
          label="cost"
          k="cost"
          a={fmtUsd(a.costUsd)}
          b={fmtUsd(b.costUsd)}
          d={signed(diff.costUsd, fmtUsd)}
          title={`a: ${a.costBasis}\nb: ${b.costBasis}`}
        />
        <Row
          label="tokens written"
          k="written"
          a={fmtInt(a.tokensWritten)}
          b={fmtInt(b.tokensWritten)}
          d={signed(diff.tokensWritten, int)}
        />
        <Row label="tokens read" k="read" a={fmtInt(a.tokensRead)} b={fmtInt(b.tokensRead)} d="" />
        <Row
          label="pruning rounds"
          k="rounds"
          a={fmtInt(a.pruningRounds)}
          b={fmtInt(b.pruningRounds)}
          d={signed(b.pruningRounds - a.pruningRounds, int)}
        />
        <Row
          label="context chars"
          k="chars"
          a={fmtInt(a.trackedChars)}
          b={fmtInt(b.trackedChars)}
          d={signed(b.trackedChars - a.trackedChars, int)}
        />
      </tbody>
    </table>
  );
}

function Causes({ dto }: { dto: CompareDTO }) {
  if (dto.diff.causes.length === 0) return null;
  const usd = (n: number | null) => (n === null ? "not modelled" : fmtUsd(n));
  return (
    <table className="table compare-causes" data-testid="compare-causes">
      <caption className="muted small">
        Spend per cause (each call's cache verdict; a what-if side is not modelled per call)
      </caption>
      <Head first="cause" />
      <tbody>
        {dto.diff.causes.map((c) => (
          <tr key={c.cause} data-testid={`compare-cause-${c.cause}`}>
            <th scope="row">{c.cause}</th>
            <td className="num">{usd(c.aUsd)}</td>
            <td className="num">{usd(c.bUsd)}</td>
            <td className="num">
              {c.aUsd === null || c.bUsd === null ? "—" : signed(c.bUsd - c.aUsd, fmtUsd)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CompareView({ agentId, sessionId, params }: SessionTabProps) {
  const a = `${agentId}/${sessionId}`;
  const b = params.get("compare") ?? a;
  const whatIf = params.get("whatif");
  const query = useQuery(compareQuery(a, b, whatIf));
  return (
    <section className="card compare-view" data-testid="compare-view" aria-label="Compare">
      <div className="toolbar">
        <h2>Compare</h2>
        <button
          type="button"
          data-testid="compare-close"
          onClick={() => setParams({ compare: null, whatif: null })}
        >
          Close compare
        </button>
      </div>
      <QueryPanel query={query} label="the comparison">
        {(dto) => (
          <>
            <ol className="compare-sides" data-testid="compare-sides">
              <li data-testid="compare-side-a">
                a: <SideName s={dto.a} />
              </li>
              <li data-testid="compare-side-b">
                b: <SideName s={dto.b} />
              </li>
            </ol>
            <Totals dto={dto} />
            <p className="muted small" data-testid="compare-cost-basis">
              a cost: {dto.a.costBasis}. b cost: {dto.b.costBasis}.
            </p>
            <Causes dto={dto} />
            <h3>Composition (context at the last call)</h3>
            <DiffTreemap groups={dto.diff.groups} title="Composition diff, b against a" />
            {dto.notes.map((n) => (
              <p key={n} className="muted small">
                {n}
              </p>
            ))}
          </>
        )}
      </QueryPanel>
    </section>
  );
}
