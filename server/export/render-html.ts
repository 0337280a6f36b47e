// The self-contained HTML export (issue 8, "Share"): one file that opens from disk with the context map, the
// bootstrap truncation table, the pruning timeline, the cost table and the "Copy as issue" Markdown. PURE: DTOs
// in, one HTML string out.
//
// Safety: transcript text is untrusted (a session may contain `</script>`, HTML, markdown-link tricks). So:
// - there is NO <script> at all (nothing needs JS) and a CSP meta tag forbids every load but inline styles and
//   data: images;
// - markup is built only through the `html` tagged template of ./html.ts, which passes every interpolated
//   value through the ONE escape function `esc`; data never goes into href/src/style/event attributes.
// The treemap and the timeline are the app's own (shared/treemap-layout.ts, shared/timeline-scales.ts), drawn
// as static inline SVG by ./treemap-svg.ts and ./timeline-svg.ts.

import type { CostReportDTO } from "../../shared/cost.ts";
import { fmtDuration, fmtInt, fmtIsoSeconds, fmtPct, fmtUsd } from "../../shared/format.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";
import { isRedacted, REDACTED } from "../../shared/redact-rules.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import { SPEND_CAUSE_TEXT, verdictWithCause } from "../../shared/spend-causes.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import { Html, html, text } from "./html.ts";
import { renderIssueMarkdown, trackedEstimate, windowText } from "./issue-markdown.ts";
import type { ExportData } from "./redact.ts";
import { renderTimelineSvg } from "./timeline-svg.ts";
import { renderTreemapSvg } from "./treemap-svg.ts";

export interface ExportHtmlInput extends ExportData {
  /** ISO timestamp of the export. */
  generatedAt: string;
  redacted: boolean;
}

export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

// ---------------------------------------------------------------------------------------------------------------
// Tables.

function num(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : fmtInt(n);
}

function renderKeyNumbers(input: ExportHtmlInput): Html {
  const { report, cost, prune, truncation } = input;
  const lc = report.lastCall;
  const tracked = trackedEstimate(report);
  const items: [string, string][] = [
    [
      "OpenClaw",
      `${text(report.version.appVersion, "version not recorded")} (rules ${report.version.family})`,
    ],
    ["Storage", input.summary.storage],
    ["Model", `${text(lc?.provider ?? input.summary.provider)} / ${text(lc?.model ?? input.summary.model)}`],
    ["Context window", windowText(report)],
    ["Last call billed prompt", lc ? `${fmtInt(lc.promptTokens)} tokens` : "no call recorded"],
    ["Tracked estimate (clawscope, as sent)", `~${fmtInt(tracked.tokens)} tokens`],
    ["Untracked", tracked.untracked === null ? "not observed" : `${fmtInt(tracked.untracked)} tokens`],
    [
      "OpenClaw tracked (/context detail)",
      report.totals ? `~${fmtInt(report.totals.openclawTracked.estTokens)} tokens` : "no stored report",
    ],
    ["Cache hit rate", `${fmtPct(cost.totals.hitRate)} over ${fmtInt(cost.totals.calls)} calls`],
    [
      "Cost",
      fmtUsd(cost.totals.costUsd) +
        (cost.totals.unpricedCalls > 0 ? ` (+${cost.totals.unpricedCalls} unpriced)` : ""),
    ],
    [
      "Pruning",
      `${prune.settings.mode}, ttl ${fmtDuration(prune.settings.ttlMs)}, ${fmtInt(prune.rounds)} rounds`,
    ],
    [
      "Bootstrap",
      `${fmtInt(truncation.totals.truncatedFiles)} truncated of ${fmtInt(truncation.files.length)} files`,
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
    ([k, c, e]) => html`<tr><td>${k}</td><td class="n">${fmtInt(c)}</td><td class="n">${fmtInt(e)}</td></tr>`,
  )}</tbody></table>`;
}

function renderTruncation(t: TruncationReportDTO): Html {
  const rows = t.files.map(
    (f) =>
      html`<tr class="${f.status === "TRUNCATED" ? "warn" : ""}"><td>${f.name}</td><td>${f.status}${f.nearLimit ? " · near limit" : ""}</td><td class="n">${num(f.rawChars)}</td><td class="n">${num(f.injectedChars)}</td><td class="n">${num(f.removedChars)}</td><td class="n">${f.removedPct === null ? "—" : `${f.removedPct}%`}</td><td class="n">${num(f.fileLimit)}</td><td>${f.displayCauses.join(", ")}</td></tr>`,
  );
  const tot = t.totals;
  return html`<p>Caps: bootstrapMaxChars <b>${fmtInt(t.maxPerFile)}</b>${t.recorded.maxPerFile === null ? " (family default)" : ""}, bootstrapTotalMaxChars <b>${fmtInt(t.maxTotal)}</b>${t.recorded.maxTotal === null ? " (family default)" : ""} — rules ${t.family}, numbers ${t.mode === "recorded" ? "as recorded by OpenClaw" : t.mode}.</p>
<table><thead><tr><th>File</th><th>Status</th><th class="n">raw chars</th><th class="n">injected</th><th class="n">removed</th><th class="n">%</th><th class="n">file limit</th><th>cause</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td>Total</td><td>${fmtInt(tot.truncatedFiles)} truncated</td><td class="n">${fmtInt(tot.rawChars)}</td><td class="n">${num(tot.injectedChars)}</td><td></td><td class="n">${fmtPct(tot.shareOfTotal)} of cap</td><td class="n">${fmtInt(t.maxTotal)}</td><td></td></tr></tfoot></table>`;
}

function renderPruneSettings(p: PruneReplayDTO): Html {
  const s = p.settings;
  const rows: [string, string, string | undefined][] = [
    ["mode", s.mode, s.sources.mode],
    ["ttl", `${text(s.ttlRaw, "default")} (${fmtDuration(s.ttlMs)})`, s.sources.ttl],
    ["keepLastAssistants", String(s.keepLastAssistants), s.sources.keepLastAssistants],
    ["softTrimRatio", String(s.softTrimRatio), s.sources.softTrimRatio],
    ["hardClearRatio", String(s.hardClearRatio), s.sources.hardClearRatio],
    ["minPrunableToolChars", fmtInt(s.minPrunableToolChars), s.sources.minPrunableToolChars],
    [
      "softTrim",
      `max ${fmtInt(s.softTrim.maxChars)}, head ${fmtInt(s.softTrim.headChars)}, tail ${fmtInt(s.softTrim.tailChars)}`,
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
          html`<tr><td class="n">${i + 1}</td><td>${fmtIsoSeconds(c.timestamp)}</td><td>${c.round}</td><td class="n">${c.clockBack ?? fmtDuration(c.idleMs)}</td><td class="n">${fmtInt(c.softTrimmedNow)}</td><td class="n">${fmtInt(c.hardClearedNow)}</td><td class="n">${fmtInt(c.charsRemoved)}</td><td class="n">${fmtPct(c.ratioBefore)} → ${fmtPct(c.ratioAfter)}</td></tr>`,
        ],
  );
  return html`<p>Algorithm <b>${p.algorithm}</b> (${p.algorithmSource}); context window ${fmtInt(p.contextWindowTokens)} tokens = ${fmtInt(p.charWindow)} chars; eligibility ${p.eligibility.path}; ${fmtInt(p.rounds)} rounds in ${fmtInt(p.calls.length)} calls.</p>
<table class="narrow"><thead><tr><th>Setting</th><th>Value</th><th>Source</th></tr></thead><tbody>${rows.map(
    ([k, v, src]) => html`<tr><td>${k}</td><td>${v}</td><td>${text(src, "default")}</td></tr>`,
  )}</tbody></table>
${
  roundRows.length > 0
    ? html`<h3>Rounds</h3><table><thead><tr><th class="n">call</th><th>time (UTC)</th><th>round</th><th class="n">idle</th><th class="n">soft-trimmed</th><th class="n">hard-cleared</th><th class="n">chars removed</th><th class="n">fill before → after</th></tr></thead><tbody>${roundRows}</tbody></table>`
    : html`<p class="muted">No pruning round in this session.</p>`
}`;
}

const COUNTERFACTUAL_LABELS: Record<string, string> = {
  "as-run": "As run",
  "no-caching": "No prompt caching",
  "retention-1h": "1-hour cache retention",
  "pruning-off": "Pruning off",
  "pruning-on": "Pruning on",
  "bootstrap-trimmed": "Bootstrap trimmed",
};

/** Where the money went (issue 14 §2): the spend by cause, the five costliest calls, the unknown share. */
function renderBreakdown(c: CostReportDTO, redacted: boolean): Html {
  const rows = c.breakdown.map(
    (b) =>
      html`<tr><td>${b.cause}</td><td class="muted">${SPEND_CAUSE_TEXT[b.cause]}</td><td class="n">${fmtInt(b.calls)}</td><td class="n">${fmtInt(b.tokens)}</td><td class="n">${b.unpricedCalls === b.calls ? `unpriced (${fmtInt(b.calls)} calls)` : fmtUsd(b.costUsd)}</td><td class="n">${fmtPct(b.shareOfSpend)}</td></tr>`,
  );
  const top = c.calls
    .filter((k) => k.costUsd !== null && k.costUsd > 0)
    .sort((a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0))
    .slice(0, 5)
    .map(
      (k) =>
        html`<li>call ${c.calls.indexOf(k) + 1}: ${fmtUsd(k.costUsd)} — <b>${k.cause.cause}</b>${redacted || isRedacted(k.cause.detail) ? "" : html`: ${k.cause.detail}`}</li>`,
    );
  const u = c.breakdownUnknown;
  return html`<h3>Where the money went</h3>
<table class="narrow"><thead><tr><th>cause</th><th></th><th class="n">calls</th><th class="n">tokens</th><th class="n">cost</th><th class="n">% of spend</th></tr></thead><tbody>${rows}</tbody></table>
${u.shareOfMissCost === null ? "" : html`<p>Still unknown: ${fmtUsd(u.missCostUsd)} (${fmtPct(u.shareOfMissCost)} of the miss cost).${u.wouldDecide.length > 0 ? html` Would decide: ${u.wouldDecide.filter((w) => !isRedacted(w)).join("; ")}.` : ""}</p>`}
${top.length > 0 ? html`<p>Costliest calls:</p><ol>${top}</ol>` : ""}`;
}

function renderCost(c: CostReportDTO, redacted: boolean): Html {
  const rows = c.calls.map(
    (k, i) =>
      html`<tr class="${k.onActiveBranch ? "" : "muted"}"><td class="n">${i + 1}</td><td>${fmtIsoSeconds(k.timestamp === null ? null : Date.parse(k.timestamp))}</td><td>${text(k.model)}</td><td class="n">${fmtInt(k.input)}</td><td class="n">${fmtInt(k.output)}</td><td class="n">${fmtInt(k.cacheRead)}</td><td class="n">${fmtInt(k.cacheWrite)}</td><td class="n">${fmtPct(k.hitRate)}</td><td class="n">${k.clockBack ?? fmtDuration(k.gapMs)}</td><td class="${`v ${k.verdict}`}">${verdictWithCause(k.verdict, k.cause.cause)}</td><td class="n">${fmtUsd(k.costUsd)}</td>${
        redacted ? "" : html`<td class="ev">${k.evidence.summary}</td>`
      }</tr>`,
  );
  const t = c.totals;
  const cf = c.counterfactuals.map(
    (x) =>
      html`<tr><td>${COUNTERFACTUAL_LABELS[x.id] ?? (isRedacted(x.label) ? x.id : x.label)}</td><td class="n">${fmtUsd(x.costUsd)}</td><td class="n">${x.deltaUsd === null ? "—" : fmtUsd(x.deltaUsd)}</td></tr>`,
  );
  return html`<p>Cache retention <b>${text(c.retention.value, "unset")}</b>, cache TTL ${fmtDuration(c.retention.cacheTtlMs)}${c.retention.observedTtl ? " (observed in this session)" : ""}. Verdicts follow the first matching cause; grey rows are off the active branch.</p>
<table class="cost"><thead><tr><th class="n">#</th><th>time (UTC)</th><th>model</th><th class="n">input</th><th class="n">output</th><th class="n">cache read</th><th class="n">cache write</th><th class="n">hit rate</th><th class="n">gap</th><th>verdict</th><th class="n">cost</th>${redacted ? "" : html`<th>evidence</th>`}</tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td></td><td>Total</td><td>${fmtInt(t.calls)} calls</td><td class="n">${fmtInt(t.input)}</td><td class="n">${fmtInt(t.output)}</td><td class="n">${fmtInt(t.cacheRead)}</td><td class="n">${fmtInt(t.cacheWrite)}</td><td class="n">${fmtPct(t.hitRate)}</td><td></td><td></td><td class="n">${fmtUsd(t.costUsd)}</td>${redacted ? "" : html`<td></td>`}</tr></tfoot></table>
${cf.length > 0 ? html`<h3>What if</h3><table class="narrow"><thead><tr><th>Scenario</th><th class="n">cost</th><th class="n">Δ</th></tr></thead><tbody>${cf}</tbody></table>` : ""}
${c.heartbeat.flags.length > 0 ? html`<ul>${c.heartbeat.flags.map((f) => html`<li>${f.severity}: ${isRedacted(f.message) ? f.kind : f.message}</li>`)}</ul>` : ""}`;
}

function renderContextText(report: RunReportDTO, redacted: boolean): Html {
  const t = report.texts;
  if (!t.available) return html`<p class="muted">${t.notice}</p>`;
  // A redacted report carries the masked renderings (redact.ts: paths and free text masked).
  const note = redacted
    ? html`<p class="muted">Paths and free text are masked; numbers and names are OpenClaw's.</p>`
    : "";
  return html`${note}<details><summary>/context list</summary><pre>${t.list}</pre></details>
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
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
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
<p>Session <b>${sessionLabel}</b>${summary.sessionKey ? html` · key <code>${summary.sessionKey}</code>` : ""} · ${fmtInt(summary.entryCount ?? 0)} entries · exported ${input.generatedAt}
${redacted ? html`<span class="badge red">redacted</span>` : html`<span class="badge raw">not redacted — contains session text</span>`}</p>
${
  redacted
    ? html`<p class="muted">Redacted: message text, tool output, file contents, paths, previews and notes are removed (${REDACTED}); ids are replaced by short hashes. Kept: sizes, timings, usage, costs, settings, bootstrap file basenames, tool, skill and model names.</p>`
    : ""
}
</header>
<section><h2>Key numbers</h2>${renderKeyNumbers(input)}</section>
<section><h2>Context map</h2>${renderTreemapSvg(map)}<h3>Sizes</h3>${renderSizes(report)}</section>
<section><h2>Bootstrap truncation</h2>${renderTruncation(truncation)}</section>
<section><h2>Cache-TTL pruning</h2>${renderTimelineSvg(prune)}${renderPruneSettings(prune)}</section>
<section><h2>Cost and cache</h2>${renderBreakdown(cost, redacted)}${renderCost(cost, redacted)}</section>
<section><h2>OpenClaw /context</h2>${renderContextText(report, redacted)}</section>
<section><h2>Copy as issue</h2><p class="muted">Markdown for an OpenClaw bug report:</p><pre>${issue}</pre></section>
<footer class="muted"><p>Generated by clawscope. Token counts marked ~ are OpenClaw's chars/4 estimates; billed numbers come from the provider's recorded usage.</p></footer>
</main>
</body>
</html>
`;
  return page.value;
}
