// The self-contained HTML export (issue 8, "Share"): one file that opens from disk with the context map, the
// bootstrap truncation table, the pruning timeline, the cost table and the "Copy as issue" Markdown. PURE: DTOs
// in, one HTML string out.
//
// Safety: transcript text is untrusted (a session may contain `</script>`, HTML, markdown-link tricks). So:
// - there is NO <script> at all (nothing needs JS) and a CSP meta tag forbids every load but inline styles and
//   data: images;
// - markup is built only through the `html` tagged template, which passes every interpolated value through
//   the ONE escape function `esc` (also inside SVG <text>/<title> and attribute values) unless the value is
//   itself markup built by `html`; data never goes into href/src/style/event attributes;
// - `esc` also encodes `:` and `=` so no data text forms a literal `javascript:`, `http://` or `onerror=` in
//   the source (harmless as text, but a grep for them must find nothing).
// The treemap and the timeline are laid out here (d3-hierarchy, d3-scale) into static inline SVG.

import { type HierarchyRectangularNode, hierarchy, treemap, treemapSquarify } from "d3-hierarchy";
import { scaleLinear, scaleLog, scaleUtc } from "d3-scale";
import type { CostReportDTO } from "../../shared/cost.ts";
import type { ContextMapDTO, MapNode } from "../../shared/map.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SessionSummary } from "../../shared/session.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import {
  formatInt,
  formatMs,
  formatPct,
  formatUsd,
  renderIssueMarkdown,
  trackedEstimate,
} from "./issue-markdown.ts";
import { isRedacted, REDACTED } from "./redact.ts";

export interface ExportHtmlInput {
  /** ISO timestamp of the export. */
  generatedAt: string;
  redacted: boolean;
  summary: SessionSummary;
  report: RunReportDTO;
  map: ContextMapDTO;
  truncation: TruncationReportDTO;
  prune: PruneReplayDTO;
  cost: CostReportDTO;
}

export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

// ---------------------------------------------------------------------------------------------------------------
// Escaping and the html template.

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  ":": "&#58;",
  "=": "&#61;",
};

/** THE escape function: every piece of data that reaches the document goes through here. */
export function esc(value: string): string {
  return value.replace(/[&<>"':=]/g, (c) => ESCAPES[c] ?? c);
}

/** Markup built by `html` (already escaped). */
class Html {
  constructor(readonly value: string) {}
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function part(p: Part): string {
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return p.map(part).join("");
  if (p === null || p === undefined || p === false) return "";
  if (typeof p === "number") return esc(Number.isFinite(p) ? String(Math.round(p * 100) / 100) : "0");
  return esc(String(p));
}

/** Tagged template: literal markup stays, every interpolation is escaped (or is nested `html`). */
function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += part(v) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** Shown for a value the redaction removed or that is unknown. */
function text(s: string | null | undefined, fallback = "—"): string {
  return s === null || s === undefined || s === "" ? fallback : s;
}

// ---------------------------------------------------------------------------------------------------------------
// Colours (from map.groups; anything not a plain colour falls back to grey — it goes into an attribute).

const COLOR_RE = /^rgb\((\d{1,3}),\s*(\d{1,3}),\s*(\d{1,3})\)$/;

type Rgb = readonly [number, number, number];
const GREY: Rgb = [120, 128, 140];

function rgbOf(color: string | undefined): Rgb {
  const m = color ? COLOR_RE.exec(color) : null;
  if (!m) return GREY;
  const c = (s: string | undefined): number => Math.min(255, Number(s ?? 0));
  return [c(m[1]), c(m[2]), c(m[3])];
}

/** The colour mixed toward white by `t` (0..1), as `rgb(r,g,b)` — numbers only, safe in an attribute. */
function tint(rgb: Rgb, t: number): string {
  const m = (c: number): number => Math.round(c + (255 - c) * t);
  return `rgb(${m(rgb[0])},${m(rgb[1])},${m(rgb[2])})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Treemap.

const MAP_W = 1280;
const MAP_H = 860;
const HEADER = 18;

/** Leaves are sized by OpenClaw's chars/4 estimate (the untracked tile only has tokens). */
function sizeOf(n: MapNode): number {
  return Math.max(0, n.estTokens);
}

/** Text cut to fit a width (average glyph ≈ 6.6 px at 11 px). */
function fitLabel(s: string, width: number): string {
  const max = Math.floor((width - 8) / 6.6);
  if (max < 3) return "";
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1))}…`;
}

function renderTreemap(map: ContextMapDTO): Html {
  const root = hierarchy(map.root, (n) => (n.children && n.children.length > 0 ? n.children : null))
    .sum((n) => (n.children && n.children.length > 0 ? 0 : sizeOf(n)))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const total = root.value ?? 0;
  if (total <= 0) return html`<p class="muted">The map is empty (no stored report and no conversation).</p>`;
  const laid = treemap<MapNode>()
    .size([MAP_W, MAP_H])
    .tile(treemapSquarify)
    .paddingOuter((n) => (n.depth === 0 ? 0 : 2))
    .paddingTop((n) => (n.depth === 0 ? 0 : n.y1 - n.y0 > HEADER * 2.5 && n.x1 - n.x0 > 40 ? HEADER : 2))
    .paddingInner(1)
    .round(false)(root);
  const colorOf = new Map(map.groups.map((g) => [g.key, rgbOf(g.color)]));
  const tiles: Html[] = [];
  const visit = (n: HierarchyRectangularNode<MapNode>, index: number): void => {
    const w = n.x1 - n.x0;
    const h = n.y1 - n.y0;
    const value = n.value ?? 0;
    if (value <= 0 || w * h < 0.5) return;
    const rgb = colorOf.get(n.data.group) ?? GREY;
    const isGroup = n.children !== undefined;
    const share = formatPct(value / total);
    const tip = `${n.data.name} — ~${formatInt(value)} tokens (${share}), ${formatInt(n.data.chars)} chars`;
    const fill = isGroup
      ? tint(rgb, 0.55 + 0.1 * Math.min(2, n.depth - 1))
      : tint(rgb, 0.05 + 0.1 * (index % 4));
    const label = isGroup
      ? n.y1 - n.y0 > HEADER * 2.5 && w > 40
        ? fitLabel(`${n.data.name} · ${share}`, w)
        : ""
      : h > 14
        ? fitLabel(n.data.name, w)
        : "";
    const ty = n.y0 + 13;
    tiles.push(
      html`<g><title>${tip}</title><rect x="${n.x0}" y="${n.y0}" width="${w}" height="${h}" fill="${fill}" class="${isGroup ? "g" : "l"}"></rect>${
        label !== ""
          ? html`<text x="${n.x0 + 4}" y="${ty}" class="${isGroup ? "gl" : "ll"}">${label}</text>`
          : ""
      }</g>`,
    );
    n.children?.forEach((c, i) => {
      visit(c, i);
    });
  };
  laid.children?.forEach((c, i) => {
    visit(c, i);
  });

  const legend = (laid.children ?? []).map((g) => {
    const info = map.groups.find((x) => x.key === g.data.group);
    const rgb = colorOf.get(g.data.group) ?? GREY;
    return html`<li><span class="sw" style="background:${tint(rgb, 0.05)}"></span>${text(info?.name ?? g.data.name)} <b>${formatPct((g.value ?? 0) / total)}</b> <span class="muted">~${formatInt(g.value ?? 0)} tok</span></li>`;
  });
  const windowText =
    map.windowTokens === null ? "" : `; context window ${formatInt(map.windowTokens)} tokens`;
  const billed =
    map.actualTokens === null
      ? "no billed usage recorded"
      : `last call billed ${formatInt(map.actualTokens)}`;
  return html`<figure class="map">
<figcaption>Context map — ~${formatInt(total)} tokens (OpenClaw's chars/4 estimates), ${billed}${windowText}</figcaption>
<svg viewBox="0 0 ${MAP_W} ${MAP_H}" width="100%" role="img" aria-label="context map treemap">${tiles}</svg>
<ul class="legend">${legend}</ul>
</figure>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Pruning timeline.

const TL_W = 1280;
const TL_H = 330;

function renderTimeline(prune: PruneReplayDTO): Html {
  const calls = prune.calls;
  if (calls.length === 0) return html`<p class="muted">No model calls to replay.</p>`;
  const x0 = 70;
  const x1 = TL_W - 30;
  const gapTop = 30;
  const gapBottom = 140;
  const fillTop = 175;
  const fillBottom = 290;
  const times = calls.map((c) => c.timestamp);
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const x = scaleUtc()
    .domain([new Date(lo), new Date(hi === lo ? lo + 1000 : hi)])
    .range([x0, x1]);
  const tickFormat = x.tickFormat();
  const ticks = x
    .ticks(8)
    .map(
      (d) =>
        html`<g class="tick"><line x1="${x(d)}" x2="${x(d)}" y1="${gapTop}" y2="${fillBottom}"></line><text x="${x(d)}" y="${fillBottom + 18}" text-anchor="middle">${tickFormat(d)}</text></g>`,
    );
  const ttl = prune.settings.ttlMs;
  const gaps = calls.map((c) => c.idleMs ?? 0).filter((g) => g > 0);
  const gapMax = Math.max(ttl * 2, 60_000, ...gaps);
  // Below the TTL too, so the TTL line never sits on the baseline (s3 runs with ttl 1 s).
  const gapMin = Math.min(1000, ttl > 0 ? ttl / 3 : 1000, ...gaps.map((g) => Math.max(g, 100)));
  const gy = scaleLog().domain([gapMin, gapMax]).range([gapBottom, gapTop]).clamp(true);
  const fy = scaleLinear()
    .domain([0, Math.max(prune.settings.hardClearRatio * 1.15, ...calls.map((c) => c.ratioBefore), 0.1)])
    .range([fillBottom, fillTop]);
  const gapBars = calls.map((c) => {
    if (c.idleMs === null || c.idleMs <= 0) return "";
    const cx = x(new Date(c.timestamp));
    const y = gy(Math.max(c.idleMs, gapMin));
    return html`<rect x="${cx - 3}" y="${y}" width="6" height="${gapBottom - y}" class="${c.ttlExpired ? "gap expired" : "gap"}"><title>idle ${formatMs(c.idleMs)} before this call${c.ttlExpired ? " — longer than the pruning TTL" : ""}</title></rect>`;
  });
  const ttlLine =
    ttl > 0
      ? html`<line x1="${x0}" x2="${x1}" y1="${gy(Math.max(ttl, gapMin))}" y2="${gy(Math.max(ttl, gapMin))}" class="ttl"></line><text x="${x0 - 6}" y="${gy(Math.max(ttl, gapMin)) + 4}" text-anchor="end" class="axis">ttl ${formatMs(ttl)}</text>`
      : html`<text x="${x0}" y="${gapTop}" class="axis">pruning TTL 0 / off: no rounds</text>`;
  const ratioLine = (ratio: number, cls: string, label: string): Html =>
    html`<line x1="${x0}" x2="${x1}" y1="${fy(ratio)}" y2="${fy(ratio)}" class="${cls}"></line><text x="${x0 - 6}" y="${fy(ratio) + 4}" text-anchor="end" class="axis">${label}</text>`;
  let lastLabelX = Number.NEGATIVE_INFINITY;
  const marks = calls.map((c, i) => {
    const cx = x(new Date(c.timestamp));
    // Rounds close together share one label (the lines stay, each with its own colour).
    const labelled = c.round !== "none" && cx - lastLabelX > 75;
    if (labelled) lastLabelX = cx;
    const round =
      c.round === "none"
        ? ""
        : html`<line x1="${cx}" x2="${cx}" y1="${gapTop - 10}" y2="${fillBottom}" class="${`round ${c.round}`}"></line>${
            labelled ? html`<text x="${cx + 3}" y="${gapTop - 12}" class="axis">${c.round}</text>` : ""
          }`;
    const tip = `call ${i + 1}: ${formatInt(c.messageCount)} messages, ${formatPct(c.ratioBefore)} of the char window before, ${formatPct(c.ratioAfter)} after; round ${c.round}; gate ${c.gate}${c.charsRemoved > 0 ? `; ${formatInt(c.charsRemoved)} chars removed` : ""}`;
    return html`${round}<circle cx="${cx}" cy="${fy(c.ratioBefore)}" r="4.5" class="${`call ${c.round}`}"><title>${tip}</title></circle>${
      c.ratioAfter < c.ratioBefore
        ? html`<circle cx="${cx}" cy="${fy(c.ratioAfter)}" r="3" class="after"></circle>`
        : ""
    }`;
  });
  return html`<figure class="timeline">
<figcaption>Pruning timeline — calls (dots: context fill before the call, as a share of the char window), idle gaps (bars, log scale) vs the TTL, rounds (vertical lines). Times in UTC.</figcaption>
<svg viewBox="0 0 ${TL_W} ${TL_H}" width="100%" role="img" aria-label="pruning timeline">
${ticks}
<text x="${x0}" y="${gapTop - 16}" class="axis">idle gap before each call</text>
${ttlLine}${gapBars}
<text x="${x0}" y="${fillTop - 10}" class="axis">context fill (estimated chars / char window)</text>
${ratioLine(prune.settings.softTrimRatio, "ratio soft", `soft ${formatPct(prune.settings.softTrimRatio, 0)}`)}
${ratioLine(prune.settings.hardClearRatio, "ratio hard", `hard ${formatPct(prune.settings.hardClearRatio, 0)}`)}
${marks}
</svg>
</figure>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Tables.

function num(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : formatInt(n);
}

function renderKeyNumbers(input: ExportHtmlInput): Html {
  const { report, cost, prune, truncation } = input;
  const lc = report.lastCall;
  const tracked = trackedEstimate(report, input.map);
  const items: [string, string][] = [
    [
      "OpenClaw",
      `${text(report.version.appVersion, "version not recorded")} (rules ${report.version.family})`,
    ],
    ["Storage", input.summary.storage],
    ["Model", `${text(lc?.provider ?? input.summary.provider)} / ${text(lc?.model ?? input.summary.model)}`],
    [
      "Context window",
      report.contextWindowTokens === null ? "unknown" : `${formatInt(report.contextWindowTokens)} tokens`,
    ],
    ["Last call billed prompt", lc ? `${formatInt(lc.promptTokens)} tokens` : "no call recorded"],
    ["Tracked estimate (clawscope, as sent)", `~${formatInt(tracked.tokens)} tokens`],
    ["Untracked", tracked.untracked === null ? "not observed" : `${formatInt(tracked.untracked)} tokens`],
    [
      "OpenClaw tracked (/context detail)",
      report.totals ? `~${formatInt(report.totals.openclawTracked.estTokens)} tokens` : "no stored report",
    ],
    ["Cache hit rate", `${formatPct(cost.totals.hitRate)} over ${formatInt(cost.totals.calls)} calls`],
    [
      "Cost",
      formatUsd(cost.totals.costUsd) +
        (cost.totals.unpricedCalls > 0 ? ` (+${cost.totals.unpricedCalls} unpriced)` : ""),
    ],
    [
      "Pruning",
      `${prune.settings.mode}, ttl ${formatMs(prune.settings.ttlMs)}, ${formatInt(prune.rounds)} rounds`,
    ],
    [
      "Bootstrap",
      `${formatInt(truncation.totals.truncatedFiles)} truncated of ${formatInt(truncation.files.length)} files`,
    ],
  ];
  return html`<dl class="keys">${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

function renderSizes(report: RunReportDTO): Html {
  const t = report.totals;
  const conv = report.conversation;
  const rows: [string, number, number][] = [];
  if (t) {
    rows.push(["System prompt (whole)", t.systemPrompt.chars, t.systemPrompt.estTokens]);
    rows.push(["· project context (workspace files)", t.projectContext.chars, t.projectContext.estTokens]);
    rows.push([`· skills (${t.skills.count})`, t.skills.chars, t.skills.estTokens]);
    rows.push([`Tool schemas (${t.toolSchemas.count})`, t.toolSchemas.chars, t.toolSchemas.estTokens]);
  }
  for (const [role, b] of Object.entries(conv.byRole)) {
    rows.push([`Conversation · ${role} (${b.count})`, b.chars, b.estTokens]);
  }
  for (const b of conv.toolResultsByTool) {
    rows.push([`· tool results · ${b.toolName} (${b.count})`, b.chars, b.estTokens]);
  }
  return html`<table><thead><tr><th>Part</th><th class="n">chars</th><th class="n">~tokens</th></tr></thead><tbody>${rows.map(
    ([k, c, e]) =>
      html`<tr><td>${k}</td><td class="n">${formatInt(c)}</td><td class="n">${formatInt(e)}</td></tr>`,
  )}</tbody></table>`;
}

function renderTruncation(t: TruncationReportDTO): Html {
  const rows = t.files.map(
    (f) =>
      html`<tr class="${f.status === "TRUNCATED" ? "warn" : ""}"><td>${f.name}</td><td>${f.status}${f.nearLimit ? " · near limit" : ""}</td><td class="n">${num(f.rawChars)}</td><td class="n">${num(f.injectedChars)}</td><td class="n">${num(f.removedChars)}</td><td class="n">${f.removedPct === null ? "—" : `${f.removedPct}%`}</td><td class="n">${num(f.fileLimit)}</td><td>${f.displayCauses.join(", ")}</td></tr>`,
  );
  const tot = t.totals;
  return html`<p>Caps: bootstrapMaxChars <b>${formatInt(t.maxPerFile)}</b>${t.recorded.maxPerFile === null ? " (family default)" : ""}, bootstrapTotalMaxChars <b>${formatInt(t.maxTotal)}</b>${t.recorded.maxTotal === null ? " (family default)" : ""} — rules ${t.family}, numbers ${t.mode === "recorded" ? "as recorded by OpenClaw" : t.mode}.</p>
<table><thead><tr><th>File</th><th>Status</th><th class="n">raw chars</th><th class="n">injected</th><th class="n">removed</th><th class="n">%</th><th class="n">file limit</th><th>cause</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td>Total</td><td>${formatInt(tot.truncatedFiles)} truncated</td><td class="n">${formatInt(tot.rawChars)}</td><td class="n">${num(tot.injectedChars)}</td><td></td><td class="n">${formatPct(tot.shareOfTotal)} of cap</td><td class="n">${formatInt(t.maxTotal)}</td><td></td></tr></tfoot></table>`;
}

function renderPruneSettings(p: PruneReplayDTO): Html {
  const s = p.settings;
  const rows: [string, string, string | undefined][] = [
    ["mode", s.mode, s.sources.mode],
    ["ttl", `${text(s.ttlRaw, "default")} (${formatMs(s.ttlMs)})`, s.sources.ttl],
    ["keepLastAssistants", String(s.keepLastAssistants), s.sources.keepLastAssistants],
    ["softTrimRatio", String(s.softTrimRatio), s.sources.softTrimRatio],
    ["hardClearRatio", String(s.hardClearRatio), s.sources.hardClearRatio],
    ["minPrunableToolChars", formatInt(s.minPrunableToolChars), s.sources.minPrunableToolChars],
    [
      "softTrim",
      `max ${formatInt(s.softTrim.maxChars)}, head ${formatInt(s.softTrim.headChars)}, tail ${formatInt(s.softTrim.tailChars)}`,
      s.sources["softTrim.maxChars"],
    ],
    ["hardClear", s.hardClear.enabled ? "enabled" : "disabled", s.sources["hardClear.enabled"]],
    ["tools.allow", s.tools.allow.join(", ") || "(none)", s.sources["tools.allow"]],
    ["tools.deny", s.tools.deny.join(", ") || "(none)", s.sources["tools.deny"]],
  ];
  const roundRows = p.calls.flatMap((c, i) =>
    c.round === "none"
      ? []
      : [
          html`<tr><td class="n">${i + 1}</td><td>${isoTime(c.timestamp)}</td><td>${c.round}</td><td class="n">${formatMs(c.idleMs)}</td><td class="n">${formatInt(c.softTrimmedNow)}</td><td class="n">${formatInt(c.hardClearedNow)}</td><td class="n">${formatInt(c.charsRemoved)}</td><td class="n">${formatPct(c.ratioBefore)} → ${formatPct(c.ratioAfter)}</td></tr>`,
        ],
  );
  return html`<p>Algorithm <b>${p.algorithm}</b> (${p.algorithmSource}); context window ${formatInt(p.contextWindowTokens)} tokens = ${formatInt(p.charWindow)} chars; eligibility ${p.eligibility.path}; ${formatInt(p.rounds)} rounds in ${formatInt(p.calls.length)} calls.</p>
<table class="narrow"><thead><tr><th>Setting</th><th>Value</th><th>Source</th></tr></thead><tbody>${rows.map(
    ([k, v, src]) => html`<tr><td>${k}</td><td>${v}</td><td>${text(src, "default")}</td></tr>`,
  )}</tbody></table>
${
  roundRows.length > 0
    ? html`<h3>Rounds</h3><table><thead><tr><th class="n">call</th><th>time (UTC)</th><th>round</th><th class="n">idle</th><th class="n">soft-trimmed</th><th class="n">hard-cleared</th><th class="n">chars removed</th><th class="n">fill before → after</th></tr></thead><tbody>${roundRows}</tbody></table>`
    : html`<p class="muted">No pruning round in this session.</p>`
}`;
}

function isoTime(ms: number | string | null): string {
  if (ms === null) return "—";
  const d = typeof ms === "number" ? new Date(ms) : new Date(ms);
  return Number.isFinite(d.getTime()) ? d.toISOString().replace("T", " ").slice(0, 19) : "—";
}

const COUNTERFACTUAL_LABELS: Record<string, string> = {
  "as-run": "As run",
  "no-caching": "No prompt caching",
  "retention-1h": "1-hour cache retention",
  "pruning-off": "Pruning off",
  "pruning-on": "Pruning on",
  "bootstrap-trimmed": "Bootstrap trimmed",
};

function renderCost(c: CostReportDTO, redacted: boolean): Html {
  const rows = c.calls.map(
    (k, i) =>
      html`<tr class="${k.onActiveBranch ? "" : "muted"}"><td class="n">${i + 1}</td><td>${k.timestamp === null ? "—" : isoTime(k.timestamp)}</td><td>${text(k.model)}</td><td class="n">${formatInt(k.input)}</td><td class="n">${formatInt(k.output)}</td><td class="n">${formatInt(k.cacheRead)}</td><td class="n">${formatInt(k.cacheWrite)}</td><td class="n">${formatPct(k.hitRate)}</td><td class="n">${formatMs(k.gapMs)}</td><td class="${`v ${k.verdict}`}">${k.verdict}${k.evidence.cause ? ` (${k.evidence.cause})` : ""}</td><td class="n">${formatUsd(k.costUsd)}</td>${
        redacted ? "" : html`<td class="ev">${k.evidence.summary}</td>`
      }</tr>`,
  );
  const t = c.totals;
  const cf = c.counterfactuals.map(
    (x) =>
      html`<tr><td>${COUNTERFACTUAL_LABELS[x.id] ?? (isRedacted(x.label) ? x.id : x.label)}</td><td class="n">${formatUsd(x.costUsd)}</td><td class="n">${x.deltaUsd === null ? "—" : formatUsd(x.deltaUsd)}</td></tr>`,
  );
  return html`<p>Cache retention <b>${text(c.retention.value, "unset")}</b>, cache TTL ${formatMs(c.retention.cacheTtlMs)}${c.retention.observedTtl ? " (observed in this session)" : ""}. Verdicts follow the first matching cause; grey rows are off the active branch.</p>
<table class="cost"><thead><tr><th class="n">#</th><th>time (UTC)</th><th>model</th><th class="n">input</th><th class="n">output</th><th class="n">cache read</th><th class="n">cache write</th><th class="n">hit rate</th><th class="n">gap</th><th>verdict</th><th class="n">cost</th>${redacted ? "" : html`<th>evidence</th>`}</tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td></td><td>Total</td><td>${formatInt(t.calls)} calls</td><td class="n">${formatInt(t.input)}</td><td class="n">${formatInt(t.output)}</td><td class="n">${formatInt(t.cacheRead)}</td><td class="n">${formatInt(t.cacheWrite)}</td><td class="n">${formatPct(t.hitRate)}</td><td></td><td></td><td class="n">${formatUsd(t.costUsd)}</td>${redacted ? "" : html`<td></td>`}</tr></tfoot></table>
${cf.length > 0 ? html`<h3>What if</h3><table class="narrow"><thead><tr><th>Scenario</th><th class="n">cost</th><th class="n">Δ</th></tr></thead><tbody>${cf}</tbody></table>` : ""}
${c.heartbeat.flags.length > 0 ? html`<ul>${c.heartbeat.flags.map((f) => html`<li>${f.severity}: ${isRedacted(f.message) ? f.kind : f.message}</li>`)}</ul>` : ""}`;
}

function renderContextText(report: RunReportDTO, redacted: boolean): Html {
  const t = report.texts;
  if (redacted || !t.available)
    return html`<p class="muted">${t.available ? "The /context texts are omitted from redacted exports." : t.notice}</p>`;
  return html`<details><summary>/context list</summary><pre>${t.list}</pre></details>
<details><summary>/context detail</summary><pre>${t.detail}</pre></details>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
main{max-width:1320px;margin:0 auto;padding:20px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d6dae0;padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}.muted{color:#69717d}.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#e6e9ee}
.badge.red{background:#2f6f3e;color:#fff}.badge.raw{background:#b3412e;color:#fff}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px 16px;margin:14px 0}
table{border-collapse:collapse;width:100%;font-size:13px}table.narrow{width:auto}
th,td{border-bottom:1px solid #e8ebef;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f1f3f6}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tfoot td{font-weight:600}
tr.warn td{background:#fff3e6}tr.muted td{color:#8a929c}td.ev{font-size:12px;color:#4b535e}
td.v.hit{color:#2f6f3e}td.v.ttl-expired,td.v.prefix-changed,td.v.unexplained{color:#b3412e}
dl.keys{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:8px;margin:0}
dl.keys div{background:#f6f7f9;border-radius:6px;padding:6px 10px}dt{font-size:12px;color:#69717d}dd{margin:0;font-weight:600}
figure{margin:0}figcaption{font-size:13px;color:#4b535e;margin-bottom:6px}
svg text{font:11px system-ui,sans-serif;fill:#1d232b}svg .gl{font-weight:600}svg rect.l,svg rect.g{stroke:#fff;stroke-width:.5}
svg .tick line{stroke:#eceef1}svg .tick text,svg .axis{fill:#69717d;font-size:11px}
svg .gap{fill:#9aa3ae}svg .gap.expired{fill:#d9822b}svg .ttl{stroke:#d9822b;stroke-dasharray:4 3}
svg .ratio{stroke-dasharray:2 3}svg .ratio.soft{stroke:#c9a227}svg .ratio.hard{stroke:#b3412e}
svg circle.call{fill:#3b76b8}svg circle.call.soft-trim{fill:#c9a227}svg circle.call.hard-clear{fill:#b3412e}svg circle.after{fill:none;stroke:#3b76b8}
svg line.round{stroke:#b3412e;stroke-width:1.5;stroke-dasharray:3 2}svg line.round.soft-trim{stroke:#c9a227}
ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:6px 18px;padding:0;margin:8px 0 0;font-size:13px}
.sw{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
pre{background:#f1f3f6;padding:10px;border-radius:6px;overflow:auto;font-size:12px;white-space:pre-wrap;word-break:break-word}
`;

export function renderExportHtml(input: ExportHtmlInput): string {
  const { summary, report, map, truncation, prune, cost, redacted } = input;
  const issue = renderIssueMarkdown({ redacted, summary, report, truncation, prune, cost, map });
  const sessionLabel = `${summary.agentId} / ${summary.sessionId}`;
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clawscope report — ${sessionLabel}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
<header>
<h1>clawscope report</h1>
<p>Session <b>${sessionLabel}</b>${summary.sessionKey ? html` · key <code>${summary.sessionKey}</code>` : ""} · ${formatInt(summary.entryCount ?? 0)} entries · exported ${input.generatedAt}
${redacted ? html`<span class="badge red">redacted</span>` : html`<span class="badge raw">not redacted — contains session text</span>`}</p>
${
  redacted
    ? html`<p class="muted">Redacted: message text, tool output, file contents, paths, previews and notes are removed (${REDACTED}); ids are replaced by short hashes. Kept: sizes, timings, usage, costs, settings, bootstrap file basenames, tool, skill and model names.</p>`
    : ""
}
</header>
<section><h2>Key numbers</h2>${renderKeyNumbers(input)}</section>
<section><h2>Context map</h2>${renderTreemap(map)}<h3>Sizes</h3>${renderSizes(report)}</section>
<section><h2>Bootstrap truncation</h2>${renderTruncation(truncation)}</section>
<section><h2>Cache-TTL pruning</h2>${renderTimeline(prune)}${renderPruneSettings(prune)}</section>
<section><h2>Cost and cache</h2>${renderCost(cost, redacted)}</section>
<section><h2>OpenClaw /context</h2>${renderContextText(report, redacted)}</section>
<section><h2>Copy as issue</h2><p class="muted">Markdown for an OpenClaw bug report:</p><pre>${issue}</pre></section>
<footer class="muted"><p>Generated by clawscope. Token counts marked ~ are OpenClaw's chars/4 estimates; billed numbers come from the provider's recorded usage.</p></footer>
</main>
</body>
</html>
`;
  return page.value;
}
