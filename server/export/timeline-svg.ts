// The export's pruning timeline: the app's timeline (web/views/pruning/timeline.tsx) as static inline SVG, from
// the same lanes, colours and scales (shared/timeline-scales.ts) — call marks and rounds, the idle gap before
// each call against the TTL and the 5 m / 1 h cache lifetimes, estimated message chars against the soft-trim /
// hard-clear lines. On a UTC time axis (an export is read anywhere); no "next call" mark (it depends on the
// moment of export, not on the session). Every data string goes through the `html` template.

import { fmtDuration, fmtInt, fmtIsoSeconds, fmtUsd } from "../../shared/format.ts";
import type {
  PruneCallDTO,
  PruneGapCostDTO,
  PruneReplayDTO,
  PruneTimelineEventDTO,
} from "../../shared/prune.ts";
import { isRedacted } from "../../shared/redact-rules.ts";
import {
  CALL_MARK_Y,
  EVENT_STYLE,
  eventX,
  FIVE_MIN,
  gapColor,
  labelledGaps,
  ONE_HOUR,
  REF_COLOR,
  ROUND_COLOR,
  TIMELINE_HEIGHT,
  TIMELINE_LANES,
  TIMELINE_MARGIN,
  type TimelineScales,
  timelineScales,
} from "../../shared/timeline-scales.ts";
import { type Html, html } from "./html.ts";

const W = 1280;
const INK = "rgb(29,35,43)";
const { left, right } = TIMELINE_MARGIN;
const { calls: lane1, gap: lane2, chars: lane3 } = TIMELINE_LANES;

function refLine(y: number, label: string, color: string, dash = "4 3"): Html {
  return html`<line x1="${left}" x2="${W - right}" y1="${y}" y2="${y}" stroke="${color}" stroke-dasharray="${dash}"></line><text x="${W - right}" y="${y - 3}" font-size="10" text-anchor="end" fill="${color}">${label}</text>`;
}

function axisText(x: number, y: number, label: string, anchor = "end"): Html {
  return html`<text x="${x}" y="${y}" font-size="9" text-anchor="${anchor}" fill="${INK}" opacity="0.6">${label}</text>`;
}

/** A series as line segments between consecutive calls (the export's tag allow-list has no polyline). */
function series(
  calls: readonly PruneCallDTO[],
  s: TimelineScales,
  y: (c: PruneCallDTO) => number,
  stroke: string,
  opacity: number,
): Html[] {
  const out: Html[] = [];
  for (let i = 1; i < calls.length; i++) {
    const a = calls[i - 1];
    const b = calls[i];
    if (!a || !b) continue;
    out.push(
      html`<line x1="${s.xOf(i - 1)}" y1="${s.charsY(y(a))}" x2="${s.xOf(i)}" y2="${s.charsY(y(b))}" stroke="${stroke}" stroke-opacity="${opacity}" stroke-width="1.5"></line>`,
    );
  }
  return out;
}

function callTip(c: PruneCallDTO, i: number): string {
  const gate = isRedacted(c.gateText) ? "" : `\n${c.gateText}`;
  const round =
    c.round === "none"
      ? ""
      : `\n${c.round}: ${c.softTrimmedNow} soft, ${c.hardClearedNow} hard, −${fmtInt(c.charsRemoved)} chars`;
  return `#${i + 1} ${fmtIsoSeconds(c.timestamp)}\nidle ${c.clockBack ?? fmtDuration(c.idleMs)}${c.ttlExpired ? " (TTL expired)" : ""}${gate}\nchars ${fmtInt(c.totalCharsBefore)} → ${fmtInt(c.totalCharsAfter)}${round}`;
}

function callMark(c: PruneCallDTO, i: number, s: TimelineScales, cost: PruneGapCostDTO | undefined): Html {
  const x = s.xOf(i);
  const ring = c.ttlExpired
    ? html`<circle cx="${x}" cy="${CALL_MARK_Y}" r="8" fill="none" stroke="${ROUND_COLOR["hard-clear"]}" stroke-width="1.5"></circle>`
    : "";
  const count =
    c.round === "none"
      ? ""
      : html`<text x="${x}" y="${lane1.top + 2}" font-size="9" text-anchor="middle" fill="${ROUND_COLOR[c.round]}">${c.softTrimmedNow + c.hardClearedNow}</text>`;
  const gap =
    c.idleMs !== null && c.idleMs > 0
      ? html`<line x1="${x}" x2="${x}" y1="${lane2.bottom}" y2="${s.gapY(c.idleMs)}" stroke="${gapColor(c)}" stroke-width="3"></line>`
      : "";
  return html`<g><title>${callTip(c, i) + gapTip(cost)}</title>${ring}<circle cx="${x}" cy="${CALL_MARK_Y}" r="${c.round === "none" ? 3.5 : 5.5}" fill="${ROUND_COLOR[c.round]}"></circle>${count}${gap}<circle cx="${x}" cy="${s.charsY(c.messageChars)}" r="2.5" fill="${REF_COLOR.sent}"></circle></g>`;
}

/** A compaction / reset between two calls: a dashed line in its colour, its letter on top (as in the app). */
function eventMark(e: PruneTimelineEventDTO, s: TimelineScales, calls: number): Html {
  const x = eventX(s.xOf, e.beforeCall, calls);
  const style = EVENT_STYLE[e.kind];
  const when = e.at === null ? "" : ` at ${fmtIsoSeconds(e.at)}`;
  const next = e.beforeCall < calls ? `before call #${e.beforeCall + 1}` : "after the last call";
  return html`<g><title>${`${style.name}${when}, ${next}`}</title><line x1="${x}" x2="${x}" y1="${lane1.top + 10}" y2="${lane3.bottom}" stroke="${style.color}" stroke-width="1.5" stroke-dasharray="5 3"></line><text x="${x}" y="${lane1.top + 8}" font-size="10" text-anchor="middle" fill="${INK}">${style.letter}</text></g>`;
}

/** An expired gap's $ (the cost report's gap cost) along the top of the gap lane. */
function gapUsd(g: PruneGapCostDTO, s: TimelineScales): Html {
  return html`<text x="${s.xOf(g.call)}" y="${lane2.top + 2}" font-size="9" text-anchor="middle" fill="${INK}">${fmtUsd(g.premiumUsd, "unpriced")}</text>`;
}

function gapTip(g: PruneGapCostDTO | undefined): string {
  return g
    ? `\ncache expired: re-wrote ${fmtInt(g.rewrittenTokens)} tokens (${fmtUsd(g.premiumUsd, "unpriced")}) after a ${fmtDuration(g.gapMs)} gap`
    : "";
}

export function renderTimelineSvg(prune: PruneReplayDTO): Html {
  const calls = prune.calls;
  if (calls.length === 0) return html`<p class="muted">No model calls to replay.</p>`;
  const ttl = prune.settings.ttlMs;
  const s = timelineScales(calls, null, {
    axis: "time",
    width: W,
    charWindow: prune.charWindow,
    ttlMs: ttl,
    utc: true,
  });
  const softLine = prune.charWindow * prune.settings.softTrimRatio;
  const hardLine = prune.charWindow * prune.settings.hardClearRatio;
  const gaps = new Map((prune.marks?.gaps ?? []).map((g) => [g.call, g]));
  const ticks = s.ticks.map(
    (t) =>
      html`<line x1="${t.x}" x2="${t.x}" y1="${lane1.top}" y2="${lane3.bottom}" stroke="${INK}" opacity="0.08"></line>${axisText(t.x, TIMELINE_HEIGHT - 12, t.label, "middle")}`,
  );
  const lanes = html`<text x="6" y="${lane1.top + 24}" font-size="11" fill="${INK}">calls</text><text x="6" y="${lane2.top + 10}" font-size="11" fill="${INK}">idle gap</text><text x="6" y="${lane3.top + 10}" font-size="11" fill="${INK}">msg chars</text>`;
  const refs = [
    ...s.gapTicks.map((g) => axisText(left - 6, s.gapY(g) + 3, fmtDuration(g))),
    refLine(s.gapY(FIVE_MIN), "5 m cache", REF_COLOR.fiveMin),
    refLine(s.gapY(ONE_HOUR), "1 h cache", REF_COLOR.oneHour),
    ttl > 0 ? refLine(s.gapY(ttl), `pruning TTL ${fmtDuration(ttl)}`, REF_COLOR.ttl, "6 2") : "",
    refLine(
      s.charsY(softLine),
      `soft-trim ${Math.round(prune.settings.softTrimRatio * 100)}% of window`,
      REF_COLOR.softTrim,
    ),
    hardLine <= s.charsMax
      ? refLine(
          s.charsY(hardLine),
          `hard-clear ${Math.round(prune.settings.hardClearRatio * 100)}%`,
          REF_COLOR.hardClear,
        )
      : "",
    axisText(left - 6, lane3.bottom, "0"),
    axisText(left - 6, lane3.top + 8, fmtInt(s.charsMax)),
  ];
  return html`<figure class="timeline">
<figcaption>Pruning timeline — calls (dots; rounds larger, TTL-expired calls ringed), the idle gap before each call (log scale) against the pruning TTL and the 5 m / 1 h cache lifetimes with the $ of each expired cache gap's re-write above, estimated message chars before (grey) and as sent (blue) against the soft-trim / hard-clear lines; C / R: a compaction / reset between two calls. Times in UTC.</figcaption>
<svg viewBox="0 0 ${W} ${TIMELINE_HEIGHT}" width="100%" role="img" aria-label="pruning timeline">
${lanes}${ticks}${refs}
${series(calls, s, (c) => c.totalCharsBefore, INK, 0.35)}${series(calls, s, (c) => c.messageChars, REF_COLOR.sent, 1)}
${calls.map((c, i) => callMark(c, i, s, gaps.get(i)))}
${[...labelledGaps([...gaps.values()], s.xOf)].map((i) => {
  const g = gaps.get(i);
  return g ? gapUsd(g, s) : "";
})}
${(prune.marks?.events ?? []).map((e) => eventMark(e, s, calls.length))}
</svg>
</figure>`;
}
