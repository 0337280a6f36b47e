// `clawscope compare --a REF --b REF [what-if flags for b] [--json]` (issue 16): session a as run beside
// session b as run, or beside a under a what-if (no --b: b is a). The what-if flags are the prune command's
// (pruning replay), --pruning off|cache-ttl, --max-per-file / --max-total (bootstrap caps) and
// --retention none|short|long (cache retention); shared/compare-params.ts parses them as GET /api/compare does.

import type { CompareDTO, CompareSideDTO } from "../../shared/compare.ts";
import { type CompareWhatIfQuery, parseCompareWhatIf } from "../../shared/compare-params.ts";
import { fmtInt, fmtUsd } from "../../shared/format.ts";
import { type CliValues, pruneQueryFromFlags } from "./options.ts";

/** The what-if flags as the query GET /api/compare takes. */
export function compareQueryFromFlags(values: CliValues): CompareWhatIfQuery {
  const { at: _at, ...prune } = pruneQueryFromFlags(values);
  return {
    ...prune,
    ...(values.pruning ? { mode: values.pruning } : {}),
    ...(values["max-per-file"] ? { maxPerFile: values["max-per-file"] } : {}),
    ...(values["max-total"] ? { maxTotal: values["max-total"] } : {}),
    ...(values.retention ? { retention: values.retention } : {}),
  };
}

export const compareWhatIf = (values: CliValues) => parseCompareWhatIf(compareQueryFromFlags(values));

const signed = (n: number | null, f: (n: number) => string): string =>
  n === null ? "-" : `${n > 0 ? "+" : ""}${f(n)}`;

function sideLine(name: string, s: CompareSideDTO): string {
  return `${name}: ${s.agentId}/${s.sessionId} (${s.label}; OpenClaw ${s.family}, ${s.calls} calls)`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

export function formatCompare(dto: CompareDTO): string {
  const { a, b, diff } = dto;
  const int = (n: number) => fmtInt(n);
  const usd = (n: number) => fmtUsd(n);
  const totals = table([
    ["", "a", "b", "b − a"],
    ["cost", fmtUsd(a.costUsd), fmtUsd(b.costUsd), signed(diff.costUsd, usd)],
    ["tokens written", fmtInt(a.tokensWritten), fmtInt(b.tokensWritten), signed(diff.tokensWritten, int)],
    ["tokens read", fmtInt(a.tokensRead), fmtInt(b.tokensRead), ""],
    [
      "pruning rounds",
      int(a.pruningRounds),
      int(b.pruningRounds),
      signed(b.pruningRounds - a.pruningRounds, int),
    ],
    ["context chars", int(a.trackedChars), int(b.trackedChars), signed(b.trackedChars - a.trackedChars, int)],
  ]);
  const causes = diff.causes.length
    ? table([
        ["spend per cause", "a", "b", "b − a"],
        ...diff.causes.map((c) => [
          c.cause,
          c.aUsd === null ? "not modelled" : usd(c.aUsd),
          c.bUsd === null ? "not modelled" : usd(c.bUsd),
          c.aUsd === null || c.bUsd === null ? "" : signed(c.bUsd - c.aUsd, usd),
        ]),
      ])
    : [];
  const groups = table([
    ["composition (chars)", "a", "b", "b − a"],
    ...diff.groups.map((g) => [g.path, int(g.aChars), int(g.bChars), signed(g.bChars - g.aChars, int)]),
  ]);
  return [
    sideLine("a", a),
    sideLine("b", b),
    "",
    ...totals,
    `a cost: ${a.costBasis}`,
    `b cost: ${b.costBasis}`,
    "",
    ...(causes.length ? [...causes, ""] : []),
    ...groups,
    ...dto.notes.map((n) => `note: ${n}`),
  ].join("\n");
}
