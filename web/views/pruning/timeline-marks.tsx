// The pruning timeline's marks besides the calls (issue 15): compactions and resets (a dashed line across the
// lanes with its letter, C or R; a click selects the call after it), the $ of an expired cache gap above its
// bar (the Cache & cost report's gap costs, joined on the server: PruneReplayDTO.marks), and the list of gaps,
// rounds and events under the timeline — each names its call and selects it.

import { fmtDate, fmtDuration, fmtInt, fmtUsd } from "../../../shared/format.ts";
import type {
  PruneCallDTO,
  PruneGapCostDTO,
  PruneReplayDTO,
  PruneTimelineEventDTO,
} from "../../../shared/prune.ts";
import { EVENT_STYLE, eventX, TIMELINE_LANES } from "../../../shared/timeline-scales.ts";

const lane1 = TIMELINE_LANES.calls;
const lane2 = TIMELINE_LANES.gap;
const lane3 = TIMELINE_LANES.chars;

/** "re-wrote 24,070 tokens ($0.0830) after a 16 s gap (cache lifetime 11 s)". */
export function gapSentence(g: PruneGapCostDTO): string {
  return `re-wrote ${fmtInt(g.rewrittenTokens)} tokens (${fmtUsd(g.premiumUsd, "unpriced")}) after a ${fmtDuration(g.gapMs)} gap (cache lifetime ${fmtDuration(g.cacheTtlMs)})`;
}

function eventSentence(e: PruneTimelineEventDTO, calls: number): string {
  const when = e.at === null ? "" : ` at ${fmtDate(e.at)}`;
  const next = e.beforeCall < calls ? `before call #${e.beforeCall + 1}` : "after the last call";
  return `${EVENT_STYLE[e.kind].name}${when}, ${next}: the context list was rebuilt`;
}

export function EventMark(props: {
  e: PruneTimelineEventDTO;
  calls: number;
  xOf: (i: number) => number;
  onSelect: (i: number) => void;
}) {
  const { e, calls } = props;
  const x = eventX(props.xOf, e.beforeCall, calls);
  const style = EVENT_STYLE[e.kind];
  const target = e.beforeCall < calls ? e.beforeCall : null;
  const text = eventSentence(e, calls);
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has role, tabIndex and Enter
    <g
      data-testid="prune-event-mark"
      data-kind={e.kind}
      data-before-call={e.beforeCall}
      role="button"
      tabIndex={target === null ? -1 : 0}
      aria-label={text}
      style={{ cursor: target === null ? undefined : "pointer" }}
      onClick={() => (target === null ? undefined : props.onSelect(target))}
      onKeyDown={(ev) => (ev.key === "Enter" && target !== null ? props.onSelect(target) : undefined)}
    >
      <title>{text}</title>
      <rect x={x - 4} y={lane1.top} width={8} height={lane3.bottom - lane1.top} fill="transparent" />
      <line
        x1={x}
        x2={x}
        y1={lane1.top + 10}
        y2={lane3.bottom}
        stroke={style.color}
        strokeWidth={1.5}
        strokeDasharray="5 3"
      />
      <text x={x} y={lane1.top + 8} fontSize={10} fontWeight={700} textAnchor="middle" fill="currentColor">
        {style.letter}
      </text>
    </g>
  );
}

/**
 * The $ of an expired gap, in a row along the top of the gap lane (the cost report measures the gap from the
 * cache lineage's last write, which can differ from the idle time before the call drawn under it).
 */
export function GapLabel({ g, x }: { g: PruneGapCostDTO; x: number }) {
  return (
    <text
      x={x}
      y={lane2.top + 2}
      fontSize={9}
      textAnchor="middle"
      fill="currentColor"
      pointerEvents="none"
      data-testid="prune-gap-usd"
      data-call={g.call}
    >
      {fmtUsd(g.premiumUsd, "unpriced")}
    </text>
  );
}

interface Row {
  call: number;
  key: string;
  text: string;
  kind: "gap" | "round" | "compaction" | "reset";
}

function rowsOf(dto: PruneReplayDTO): Row[] {
  const rows: Row[] = [];
  for (const g of dto.marks?.gaps ?? [])
    rows.push({
      call: g.call,
      key: `gap-${g.call}`,
      kind: "gap",
      text: `#${g.call + 1} expired gap: ${fmtUsd(g.premiumUsd, "unpriced")}`,
    });
  dto.calls.forEach((c: PruneCallDTO, i) => {
    if (c.round !== "none")
      rows.push({
        call: i,
        key: `round-${i}`,
        kind: "round",
        text: `#${i + 1} ${c.round} round: ${c.softTrimmedNow + c.hardClearedNow} results`,
      });
  });
  for (const e of dto.marks?.events ?? [])
    if (e.beforeCall < dto.calls.length)
      rows.push({
        call: e.beforeCall,
        key: `${e.kind}-${e.beforeCall}`,
        kind: e.kind,
        text: `${EVENT_STYLE[e.kind].letter} ${EVENT_STYLE[e.kind].name} before #${e.beforeCall + 1}`,
      });
  return rows.sort((a, b) => a.call - b.call || a.kind.localeCompare(b.kind));
}

/** Every expired gap, round, compaction and reset as a button naming its call; a click selects that call. */
export function TimelineEvents({
  dto,
  selected,
  onSelect,
}: {
  dto: PruneReplayDTO;
  selected: number | null;
  onSelect: (i: number) => void;
}) {
  const rows = rowsOf(dto);
  if (rows.length === 0) return null;
  const gaps = new Map((dto.marks?.gaps ?? []).map((g) => [g.call, g]));
  return (
    <ul
      className="timeline-events small"
      data-testid="prune-timeline-events"
      aria-label="Expired gaps, rounds, compactions and resets"
    >
      {rows.map((r) => {
        const g = r.kind === "gap" ? gaps.get(r.call) : undefined;
        return (
          <li key={r.key}>
            <button
              type="button"
              className={r.call === selected ? "active" : undefined}
              aria-pressed={r.call === selected}
              title={g ? gapSentence(g) : undefined}
              onClick={() => onSelect(r.call)}
              data-testid="prune-timeline-event"
              data-kind={r.kind}
              data-call={r.call}
            >
              {r.text}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
