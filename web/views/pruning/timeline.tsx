// The pruning timeline: one column per model call on a shared x axis (real time or call index).
// Lane 1: call marks (round: none / soft-trim / hard-clear; TTL-expired calls ringed) + the "next call".
// Lane 2: idle gap before each call (log scale) vs the pruning TTL and the 5 m / 1 h cache lifetimes.
// Lane 3: estimated message chars before/after each call vs the soft-trim / hard-clear ratios of the window.

import { useMemo } from "react";
import { fmtDate, fmtDuration, fmtInt } from "../../../shared/format.ts";
import type { PruneCallDTO, PruneGapCostDTO, PruneReplayDTO } from "../../../shared/prune.ts";
import {
  type AxisMode,
  FIVE_MIN,
  gapColor as gapColorOf,
  labelledGaps,
  ONE_HOUR,
  ROUND_COLOR,
  TIMELINE_HEIGHT,
  TIMELINE_LANES,
  TIMELINE_MARGIN,
  type TimelineScales,
  timelineScales,
} from "../../../shared/timeline-scales.ts";
import { type NextCallSource, useNextCall } from "./next-call.tsx";
import { EventMark, GapLabel, gapSentence } from "./timeline-marks.tsx";

// Lanes, margins and colours are the export's too (shared/timeline-scales.ts).
const lane1 = TIMELINE_LANES.calls;
const lane2 = TIMELINE_LANES.gap;
const lane3 = TIMELINE_LANES.chars;
const H = TIMELINE_HEIGHT;

/** Up to this many calls, every call gets its own mark (and its own hit area), however close they are. */
export const TIMELINE_MAX_MARKS = 1500;

/**
 * Calls grouped by the 2-px column their mark falls in, or null when every call gets its own mark (at most
 * TIMELINE_MAX_MARKS calls, or no two in one column). Indexes stay in call order.
 */
function callColumns(count: number, xOf: (i: number) => number): number[][] | null {
  if (count <= TIMELINE_MAX_MARKS) return null;
  const cols = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const key = Math.round(xOf(i) / 2);
    const col = cols.get(key);
    if (col) col.push(i);
    else cols.set(key, [i]);
  }
  return cols.size < count ? [...cols.values()] : null;
}

/** Which calls get a mark (one per column when they share columns), each call's column, and the paint order. */
function markedCalls(calls: PruneCallDTO[], columns: number[][] | null, selected: number | null) {
  const rank = (i: number): number =>
    i === selected ? 3 : calls[i]?.round === "hard-clear" ? 2 : calls[i]?.round === "soft-trim" ? 1 : 0;
  // One mark per call; with more calls than pixel columns, one mark per column: the call most worth seeing
  // there (the selected one, else a hard-clear, else a soft-trim round, else the latest) — 11,000 calls as
  // 75,000 SVG nodes took seconds to lay out and to re-render on every selection.
  const shown = columns
    ? columns.map((col) =>
        col.reduce((best, i) => (rank(i) > rank(best) || (rank(i) === rank(best) && i > best) ? i : best)),
      )
    : calls.map((_, i) => i);
  const binOf = new Map<number, number[]>();
  if (columns) for (const col of columns) for (const i of col) binOf.set(i, col);
  // rounds (and the selected call) are painted last so their marks stay clickable when calls seconds apart
  // overlap on the time axis
  return { paintOrder: [...shown].sort((a, b) => rank(a) - rank(b) || a - b), binOf };
}

function RefLine(props: { y: number; label: string; color: string; dash?: string; width: number }) {
  const { left, right } = TIMELINE_MARGIN;
  return (
    <g>
      <line
        x1={left}
        x2={props.width - right}
        y1={props.y}
        y2={props.y}
        stroke={props.color}
        strokeDasharray={props.dash ?? "4 3"}
      />
      <text x={props.width - right} y={props.y - 3} fontSize={10} textAnchor="end" fill={props.color}>
        {props.label}
      </text>
    </g>
  );
}

/** Lane labels, x ticks, the idle-gap scale with the cache and TTL lines, the chars scale with the ratio lines. */
function TimelineGrid({ dto, s, W }: { dto: PruneReplayDTO; s: TimelineScales; W: number }) {
  const { left } = TIMELINE_MARGIN;
  const ttl = dto.settings.ttlMs;
  const softLine = dto.charWindow * dto.settings.softTrimRatio;
  const hardLine = dto.charWindow * dto.settings.hardClearRatio;
  return (
    <>
      {/* lane labels */}
      <text x={6} y={lane1.top + 24} fontSize={11} fill="currentColor">
        calls
      </text>
      <text x={6} y={lane2.top + 10} fontSize={11} fill="currentColor">
        idle gap
      </text>
      <text x={6} y={lane3.top + 10} fontSize={11} fill="currentColor">
        msg chars
      </text>
      {/* x ticks */}
      {s.ticks.map((t) => (
        <g key={`${t.x}-${t.label}`}>
          <line x1={t.x} x2={t.x} y1={lane1.top} y2={lane3.bottom} stroke="currentColor" opacity={0.08} />
          <text x={t.x} y={H - 12} fontSize={10} textAnchor="middle" fill="currentColor" opacity={0.75}>
            {t.label}
          </text>
        </g>
      ))}
      {/* lane 2: gap reference lines */}
      {s.gapTicks.map((g) => (
        <text
          key={g}
          x={left - 6}
          y={s.gapY(g) + 3}
          fontSize={9}
          textAnchor="end"
          fill="currentColor"
          opacity={0.6}
        >
          {fmtDuration(g)}
        </text>
      ))}
      <RefLine y={s.gapY(FIVE_MIN)} label="5 m cache" color="rgb(59,118,184)" width={W} />
      <RefLine y={s.gapY(ONE_HOUR)} label="1 h cache" color="rgb(132,91,173)" width={W} />
      {ttl > 0 ? (
        <RefLine
          y={s.gapY(ttl)}
          label={`pruning TTL ${fmtDuration(ttl)}`}
          color="rgb(196,64,64)"
          dash="6 2"
          width={W}
        />
      ) : null}
      {/* lane 3: window ratio lines */}
      <RefLine
        y={s.charsY(softLine)}
        label={`soft-trim ${Math.round(dto.settings.softTrimRatio * 100)}% of window`}
        color="rgb(214,140,40)"
        width={W}
      />
      {hardLine <= s.charsMax ? (
        <RefLine
          y={s.charsY(hardLine)}
          label={`hard-clear ${Math.round(dto.settings.hardClearRatio * 100)}%`}
          color="rgb(196,64,64)"
          width={W}
        />
      ) : null}
      <text x={left - 6} y={lane3.bottom} fontSize={9} textAnchor="end" fill="currentColor" opacity={0.6}>
        0
      </text>
      <text x={left - 6} y={lane3.top + 8} fontSize={9} textAnchor="end" fill="currentColor" opacity={0.6}>
        {fmtInt(s.charsMax)}
      </text>
    </>
  );
}

function markTitle(
  c: PruneCallDTO,
  i: number,
  bin: number[] | undefined,
  calls: PruneCallDTO[],
  gap: PruneGapCostDTO | undefined,
): string {
  const binNote =
    bin && bin.length > 1
      ? `\n(${bin.length} calls #${(bin[0] ?? 0) + 1}–#${(bin[bin.length - 1] ?? 0) + 1} share this column; ${bin.filter((j) => calls[j]?.round !== "none").length} rounds)`
      : "";
  const round =
    c.round !== "none"
      ? `\n${c.round}: ${c.softTrimmedNow} soft, ${c.hardClearedNow} hard, −${fmtInt(c.charsRemoved)} chars`
      : "";
  const expiry = gap ? `\ncache expired: ${gapSentence(gap)}` : "";
  return `#${i + 1} ${fmtDate(c.timestamp)}\nidle ${c.clockBack ?? fmtDuration(c.idleMs)}${c.ttlExpired ? " (TTL expired)" : ""}\n${c.gateText}\nchars ${fmtInt(c.totalCharsBefore)} → ${fmtInt(c.totalCharsAfter)}${round}${expiry}${binNote}`;
}

/** One call's column: its mark, TTL ring, round count, idle-gap bar and chars dot; a click selects it. */
function CallMark(props: {
  calls: PruneCallDTO[];
  i: number;
  s: TimelineScales;
  selected: boolean;
  bin: number[] | undefined;
  sharedColumns: boolean;
  gap: PruneGapCostDTO | undefined;
  onSelect: (i: number) => void;
}) {
  const { calls, i, s, bin, onSelect, gap } = props;
  const c = calls[i];
  if (!c) return null;
  const x = s.xOf(i);
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has role, tabIndex and Enter
    <g
      onClick={() => onSelect(i)}
      style={{ cursor: "pointer" }}
      data-testid="prune-call-mark"
      data-call={i}
      data-calls={bin && bin.length > 1 ? bin.length : undefined}
      data-round={c.round}
      data-expired={c.ttlExpired ? "1" : "0"}
      role="button"
      tabIndex={0}
      aria-label={`Call ${i + 1}: ${c.round === "none" ? "no pruning" : c.round}${c.ttlExpired ? ", TTL expired" : ""}${gap ? `, cache expired: ${gapSentence(gap)}` : ""}`}
      onKeyDown={(e) => (e.key === "Enter" ? onSelect(i) : undefined)}
    >
      <title>{markTitle(c, i, bin, calls, gap)}</title>
      {props.selected ? (
        <rect
          x={x - 5}
          y={lane1.top}
          width={10}
          height={lane3.bottom - lane1.top}
          fill="rgb(59,118,184)"
          opacity={0.15}
        />
      ) : null}
      {/* hit area; one column wide when calls share columns (the click selects the column under the pointer) */}
      <rect
        x={props.sharedColumns ? x - 1 : x - 4}
        y={lane1.top}
        width={props.sharedColumns ? 2 : 8}
        height={lane3.bottom - lane1.top}
        fill="transparent"
      />
      {c.ttlExpired ? (
        <circle cx={x} cy={34} r={8} fill="none" stroke="rgb(196,64,64)" strokeWidth={1.5} />
      ) : null}
      <circle cx={x} cy={34} r={c.round === "none" ? 3.5 : 5.5} fill={ROUND_COLOR[c.round]} />
      {c.round !== "none" ? (
        <text x={x} y={lane1.top + 2} fontSize={9} textAnchor="middle" fill={ROUND_COLOR[c.round]}>
          {c.softTrimmedNow + c.hardClearedNow}
        </text>
      ) : null}
      {c.idleMs !== null && c.idleMs > 0 ? (
        <line x1={x} x2={x} y1={lane2.bottom} y2={s.gapY(c.idleMs)} stroke={gapColorOf(c)} strokeWidth={3} />
      ) : null}
      <circle cx={x} cy={s.charsY(c.messageChars)} r={2.5} fill="rgb(59,118,184)" />
    </g>
  );
}

/** The hypothetical next call at the axis' end, saying what the Next call card says (at the wall clock or `at`). */
function NextMark({ source, x }: { source: NextCallSource; x: number }) {
  const next = useNextCall(source);
  const n = next.next;
  const title = n
    ? `next call at ${fmtDate(n.at)}${next.wallClock ? " (now)" : ""}: ${n.prediction}`
    : "next call: predicting at the wall clock…";
  return (
    <g data-testid="prune-next-mark">
      <title>{title}</title>
      <line
        x1={x}
        x2={x}
        y1={lane1.top}
        y2={lane3.bottom}
        stroke="currentColor"
        strokeDasharray="2 3"
        opacity={0.5}
      />
      <circle
        cx={x}
        cy={34}
        r={5.5}
        fill="none"
        stroke={n?.wouldPrune ? "rgb(196,64,64)" : "currentColor"}
        strokeWidth={1.5}
      />
      <text x={x} y={lane1.bottom + 10} fontSize={9} textAnchor="middle" fill="currentColor">
        {next.wallClock ? "next (now)" : "next"}
      </text>
    </g>
  );
}

export function Timeline(props: {
  dto: PruneReplayDTO;
  next: NextCallSource;
  width: number;
  axis: AxisMode;
  selected: number | null;
  onSelect: (i: number) => void;
}) {
  const { dto, axis, selected } = props;
  const calls = dto.calls;
  const W = Math.max(600, props.width);
  const ttl = dto.settings.ttlMs;
  const s = useMemo(
    () => timelineScales(calls, dto.next.at, { axis, width: W, charWindow: dto.charWindow, ttlMs: ttl }),
    [calls, dto.next.at, axis, W, dto.charWindow, ttl],
  );
  const columns = useMemo(() => callColumns(calls.length, s.xOf), [calls.length, s]);
  const { paintOrder, binOf } = markedCalls(calls, columns, selected);
  const gaps = useMemo(() => new Map((dto.marks?.gaps ?? []).map((g) => [g.call, g])), [dto.marks]);
  const labelled = useMemo(() => labelledGaps([...gaps.values()], s.xOf), [gaps, s]);
  const seriesBefore = calls.map((c, i) => `${s.xOf(i)},${s.charsY(c.totalCharsBefore)}`).join(" ");
  const seriesSent = calls.map((c, i) => `${s.xOf(i)},${s.charsY(c.messageChars)}`).join(" ");
  return (
    // biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; role=img would hide its focusable rounds (axe nested-interactive).
    <svg
      width={W}
      height={H}
      role="group"
      aria-label="Pruning timeline"
      data-testid="prune-timeline"
      className="timeline"
      fontFamily="system-ui, sans-serif"
    >
      <TimelineGrid dto={dto} s={s} W={W} />
      <polyline
        points={seriesBefore}
        fill="none"
        stroke="currentColor"
        strokeOpacity={0.35}
        strokeWidth={1.5}
      />
      <polyline points={seriesSent} fill="none" stroke="rgb(59,118,184)" strokeWidth={1.5} />
      {paintOrder.map((i) => (
        <CallMark
          key={`${calls[i]?.entryIndex}-${calls[i]?.timestamp}`}
          calls={calls}
          i={i}
          s={s}
          selected={selected === i}
          bin={binOf.get(i)}
          sharedColumns={columns !== null}
          gap={gaps.get(i)}
          onSelect={props.onSelect}
        />
      ))}
      {[...labelled].map((i) => {
        const g = gaps.get(i);
        return g ? <GapLabel key={`gap-${i}`} g={g} x={s.xOf(i)} /> : null;
      })}
      {(dto.marks?.events ?? []).map((e) => (
        <EventMark
          key={`${e.kind}-${e.beforeCall}-${e.at}`}
          e={e}
          calls={calls.length}
          xOf={s.xOf}
          onSelect={props.onSelect}
        />
      ))}
      <NextMark source={props.next} x={s.xOf(calls.length)} />
    </svg>
  );
}
