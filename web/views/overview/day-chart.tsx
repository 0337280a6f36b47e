// Spend by day as stacked bars (d3-scale): one bar per calendar day from the first to the last day with calls
// (idle days show as gaps, not squeezed out), stacked by cost kind. A click on a bar narrows the page to that day.

import { scaleBand, scaleLinear } from "d3-scale";
import { fmtUsd } from "../../../shared/format.ts";
import { COST_KINDS, type CostKind, emptyByKind, type OverviewDayDTO } from "../../../shared/overview.ts";
import { costText } from "./cost-text.ts";

export const KIND_LABEL: Record<CostKind, string> = {
  freshInput: "fresh input",
  cacheRead: "cache read",
  cacheWriteAfterHit: "cache write after a hit",
  cacheWriteAfterMiss: "cache write after a miss",
  output: "output",
  unsplit: "recorded, not split",
};

export const KIND_COLOR: Record<CostKind, string> = {
  freshInput: "#6c8ebf",
  cacheRead: "#59a14f",
  cacheWriteAfterHit: "#edc948",
  cacheWriteAfterMiss: "#e15759",
  output: "#9c6ade",
  unsplit: "#9aa3ad",
};

/** Longest run of days drawn one bar each (a longer range keeps its days with calls only). */
const MAX_FILLED_DAYS = 400;

/** Every day from the first to the last, with zero rows for days without calls. */
export function filledDays(days: readonly OverviewDayDTO[]): OverviewDayDTO[] {
  const dated = days.filter((d): d is OverviewDayDTO & { day: string } => d.day !== null);
  const first = dated[0];
  const last = dated[dated.length - 1];
  if (!first || !last) return [];
  const start = Date.parse(`${first.day}T00:00:00Z`);
  const span = Math.round((Date.parse(`${last.day}T00:00:00Z`) - start) / 86_400_000) + 1;
  if (span > MAX_FILLED_DAYS) return dated;
  const byDay = new Map(dated.map((d) => [d.day, d]));
  const out: OverviewDayDTO[] = [];
  for (let i = 0; i < span; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    out.push(
      byDay.get(day) ?? {
        day,
        costUsd: 0,
        calls: 0,
        unpricedCalls: 0,
        missCostUsd: 0,
        byKind: emptyByKind(),
      },
    );
  }
  return out;
}

const W = 760;
const H = 220;
const M = { top: 10, right: 10, bottom: 28, left: 56 };
const MAX_BAR_PX = 56;

type BandScale = ReturnType<typeof scaleBand<string>>;
type LinearScale = ReturnType<typeof scaleLinear<number>>;

/** One day's bar: its cost kinds stacked, a title with the split, a day label every `labelEvery` bars. */
function DayBar({
  d,
  x,
  y,
  used,
  label,
  onPickDay,
}: {
  d: OverviewDayDTO;
  x: BandScale;
  y: LinearScale;
  used: readonly CostKind[];
  label: boolean;
  onPickDay: (day: string) => void;
}) {
  const day = d.day ?? "";
  const left = x(day) ?? 0;
  let top = y(0);
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group has no <button>; it is one, by role and keys.
    <g
      data-testid={`day-bar-${day}`}
      className="day-bar"
      role="button"
      tabIndex={d.calls > 0 ? 0 : -1}
      aria-label={`${day}: ${costText(d)}, ${d.calls} calls`}
      onClick={() => d.calls > 0 && onPickDay(day)}
      onKeyDown={(e) => {
        if ((e.key === "Enter" || e.key === " ") && d.calls > 0) {
          e.preventDefault();
          onPickDay(day);
        }
      }}
    >
      <title>
        {[
          `${day}: ${costText(d)}, ${d.calls} calls, miss cost ${fmtUsd(d.missCostUsd)}`,
          ...used.filter((k) => d.byKind[k] > 0).map((k) => `${KIND_LABEL[k]}: ${fmtUsd(d.byKind[k])}`),
        ].join("\n")}
      </title>
      <rect x={left} y={M.top} width={x.bandwidth()} height={H - M.bottom - M.top} fill="transparent" />
      {used.map((k) => {
        const h = y(0) - y(d.byKind[k]);
        if (!(h > 0)) return null;
        top -= h;
        return <rect key={k} x={left} y={top} width={x.bandwidth()} height={h} fill={KIND_COLOR[k]} />;
      })}
      {label ? (
        <text x={left + x.bandwidth() / 2} y={H - M.bottom + 16} textAnchor="middle" className="axis-label">
          {day.slice(5)}
        </text>
      ) : null}
    </g>
  );
}

export function DayChart({
  days,
  onPickDay,
}: {
  days: readonly OverviewDayDTO[];
  onPickDay: (day: string) => void;
}) {
  const bars = filledDays(days);
  if (bars.length === 0) return <p className="muted">No dated calls in this range.</p>;
  const max = Math.max(...bars.map((d) => d.costUsd));
  if (!(max > 0)) {
    const unpriced = bars.reduce((a, d) => a + d.unpricedCalls, 0);
    return (
      <p className="muted" data-testid="overview-day-chart">
        Nothing priced to chart: unpriced ({unpriced} calls). Price the model (Cache &amp; cost tab, or
        <code> --pricing FILE</code>) to see the spend.
      </p>
    );
  }
  // A few days keep narrow bars on the left instead of one bar as wide as the chart.
  const right = Math.min(W - M.right, M.left + bars.length * MAX_BAR_PX);
  const x = scaleBand<string>()
    .domain(bars.map((d) => d.day ?? ""))
    .range([M.left, right])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([H - M.bottom, M.top]);
  const labelEvery = Math.max(1, Math.ceil(bars.length / 10));
  const used = COST_KINDS.filter((k) => bars.some((d) => d.byKind[k] > 0));
  return (
    <figure className="day-chart" data-testid="overview-day-chart">
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; role=img would hide its focusable bars (axe nested-interactive). */}
      <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-label="Spend by day, stacked by cost kind">
        {y.ticks(4).map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="grid-line" />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="axis-label">
              {t === 0 ? "$0" : fmtUsd(t)}
            </text>
          </g>
        ))}
        {bars.map((d, i) => (
          <DayBar
            key={d.day ?? ""}
            d={d}
            x={x}
            y={y}
            used={used}
            label={i % labelEvery === 0}
            onPickDay={onPickDay}
          />
        ))}
      </svg>
      <figcaption className="legend-row">
        {used.map((k) => (
          <span key={k} className="legend-item">
            <span className="swatch" style={{ background: KIND_COLOR[k] }} /> {KIND_LABEL[k]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
