// "Copy as issue" (issue 8): a Markdown block with the numbers an OpenClaw bug report about context size,
// bootstrap truncation, cache-TTL pruning or caching cost needs — version, model, effective settings, the last
// call's billed prompt vs the tracked estimates, cache hit rate, rounds and cost. PURE: DTOs in, text out.
// Every string that came from data goes through mdText(), so a model or file name cannot inject links,
// HTML or code spans into the reader's issue tracker. Callers pass redacted DTOs unless the user opted out.

import { writeAwareText } from "../../shared/clock-labels.ts";
import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { fmtDuration, fmtInt, fmtPct, fmtUsd } from "../../shared/format.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";
import { isRedacted } from "../../shared/redact-rules.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SessionSummary } from "../../shared/session.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";

export interface IssueMarkdownInput {
  redacted: boolean;
  summary: SessionSummary;
  report: RunReportDTO;
  truncation: TruncationReportDTO;
  prune: PruneReplayDTO;
  cost: CostReportDTO;
  /** The context map (the HTML export draws it; its numbers are the run report's `numbers`). */
  map?: ContextMapDTO;
}

/**
 * clawscope's tracked estimate of the last call's prompt and the untracked rest: the session's headline numbers
 * (server/reports/context-numbers.ts), the same the map and the /context tab print.
 */
export function trackedEstimate(report: RunReportDTO): {
  tokens: number;
  untracked: number | null;
  basis: string;
} {
  const n = report.numbers;
  return { tokens: n.trackedTokens, untracked: n.untrackedTokens, basis: "chars/4 of what was sent" };
}

/** The context window as every view prints it: the assumption said as one. */
export function windowText(report: RunReportDTO): string {
  const w = report.numbers.contextWindow;
  return w.assumed
    ? `${fmtInt(w.tokens)} tokens (assumed: OpenClaw's default, nothing configured or recorded)`
    : `${fmtInt(w.tokens)} tokens`;
}

/**
 * Escapes a data string for Markdown text (and table cells): backslash before every CommonMark punctuation
 * character that can start inline syntax (code spans, links, emphasis, HTML, entities, tables, autolinks via
 * `:`), newlines flattened. Data never starts a line here, so block markers (`-`, `+`, `=`) need no escape.
 */
export function mdText(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, " ")
    .replace(/[\\`*_{}[\]()<>#!|~:&]/g, (c) => `\\${c}`)
    .trim();
}

/** A data string for Markdown, or a plain "unknown" when absent or redacted. */
function md(s: string | null | undefined, fallback = "unknown"): string {
  return s === null || s === undefined || s === "" || isRedacted(s) ? fallback : mdText(s);
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** The key-numbers table: version, model, window, the last call's billed prompt, both tracked estimates, cache. */
function keyNumbers(input: IssueMarkdownInput): string[] {
  const { summary, report, prune, cost } = input;
  const lines: string[] = [];
  const v = report.version;
  const lc = report.lastCall;
  const rec = report.reconciliation;
  const totals = report.totals;
  lines.push("### Context / pruning / cache numbers (clawscope)");
  lines.push("");
  lines.push(
    input.redacted
      ? "_Redacted export: no message text, tool output, file contents or paths; ids are hashed._"
      : "_Unredacted: check the values below before posting._",
  );
  lines.push("");
  lines.push(row(["", ""]));
  lines.push(row(["---", "---"]));
  lines.push(
    row([
      "OpenClaw",
      `${md(v.appVersion, "version not recorded")} (rule family ${md(v.family)}, ${md(summary.storage)} store)`,
    ]),
  );
  lines.push(row(["Model", `${md(lc?.provider ?? summary.provider)} / ${md(lc?.model ?? summary.model)}`]));
  lines.push(row(["Context window", windowText(report)]));
  if (lc) {
    lines.push(
      row([
        "Last call, billed prompt",
        `${fmtInt(lc.promptTokens)} tokens (input ${fmtInt(lc.input)}, cache read ${fmtInt(lc.cacheRead)}, cache write ${fmtInt(lc.cacheWrite)}; output ${fmtInt(lc.output)})`,
      ]),
    );
  } else lines.push(row(["Last call, billed prompt", "no model call recorded"]));
  if (totals) {
    lines.push(
      row([
        "OpenClaw tracked estimate",
        `~${fmtInt(totals.openclawTracked.estTokens)} tokens (/context detail)${rec.openclawUntrackedTokens === null ? "" : `, untracked ${fmtInt(rec.openclawUntrackedTokens)}`}`,
      ]),
    );
  }
  const tracked = trackedEstimate(report);
  lines.push(
    row([
      "clawscope tracked estimate",
      `~${fmtInt(tracked.tokens)} tokens (${tracked.basis})${tracked.untracked === null ? "" : `, untracked ${fmtInt(tracked.untracked)}`}`,
    ]),
  );
  lines.push(...cacheRows(cost, prune));
  lines.push("");
  // Both tracked estimates are in the table; say once why they differ (a fixed sentence, no session data).
  if (totals) lines.push(`_${report.numbers.whyTheyDiffer}_`, "");

  return lines;
}

/** The key-numbers table's cache rows: hit rates, retention, cost, verdicts and the pruning replay. */
function cacheRows(cost: CostReportDTO, prune: PruneReplayDTO): string[] {
  const lines: string[] = [];
  const t = cost.totals;
  lines.push(
    row([
      "Cache hit rate",
      `${fmtPct(t.hitRate)} read, ${writeAwareText(t.writeAwareHitRate, "total")} write-aware over ${fmtInt(t.calls)} calls (read ${fmtInt(t.cacheRead)}, write ${fmtInt(t.cacheWrite)}, uncached ${fmtInt(t.input)}; output ${fmtInt(t.output)})`,
    ]),
  );
  lines.push(
    row([
      "Cache retention",
      `${md(cost.retention.value, "unset")}, cache TTL ${fmtDuration(cost.retention.cacheTtlMs)}${cost.retention.observedTtl ? " (observed in this session)" : ""}`,
    ]),
  );
  lines.push(
    row([
      "Cost",
      `${fmtUsd(t.costUsd)}${t.unpricedCalls > 0 ? ` (${fmtInt(t.unpricedCalls)} calls without a price not included)` : ""}`,
    ]),
  );
  const verdicts = new Map<string, number>();
  for (const c of cost.calls) verdicts.set(c.verdict, (verdicts.get(c.verdict) ?? 0) + 1);
  lines.push(
    row([
      "Cache verdicts",
      [...verdicts.entries()].map(([k, n]) => `${md(k)} ${fmtInt(n)}`).join(", ") || "none",
    ]),
  );
  lines.push(
    row([
      "Pruning replay",
      `algorithm ${md(prune.algorithm)}, ${fmtInt(prune.rounds)} rounds in ${fmtInt(prune.calls.length)} calls, char window ${fmtInt(prune.charWindow)} (context window × 4)`,
    ]),
  );
  return lines;
}

/** The effective pruning settings and where each came from. */
function pruningSettings(prune: PruneReplayDTO): string[] {
  const lines: string[] = [];
  const s = prune.settings;
  const src = (k: string): string => md(s.sources[k], "default");
  lines.push("**Effective pruning settings** (`agents.defaults.contextPruning`)");
  lines.push("");
  lines.push(row(["setting", "value", "source"]));
  lines.push(row(["---", "---", "---"]));
  lines.push(row(["mode", md(s.mode), src("mode")]));
  lines.push(row(["ttl", `${md(s.ttlRaw, "default")} (${fmtDuration(s.ttlMs)})`, src("ttl")]));
  lines.push(row(["keepLastAssistants", fmtInt(s.keepLastAssistants), src("keepLastAssistants")]));
  lines.push(row(["softTrimRatio", String(s.softTrimRatio), src("softTrimRatio")]));
  lines.push(row(["hardClearRatio", String(s.hardClearRatio), src("hardClearRatio")]));
  lines.push(row(["minPrunableToolChars", fmtInt(s.minPrunableToolChars), src("minPrunableToolChars")]));
  lines.push(
    row([
      "softTrim",
      `maxChars ${fmtInt(s.softTrim.maxChars)}, headChars ${fmtInt(s.softTrim.headChars)}, tailChars ${fmtInt(s.softTrim.tailChars)}`,
      src("softTrim.maxChars"),
    ]),
  );
  lines.push(row(["hardClear.enabled", String(s.hardClear.enabled), src("hardClear.enabled")]));
  const globs = (l: string[]): string => (l.length === 0 ? "(none)" : l.map((g) => md(g)).join(", "));
  lines.push(row(["tools.allow", globs(s.tools.allow), src("tools.allow")]));
  lines.push(row(["tools.deny", globs(s.tools.deny), src("tools.deny")]));
  lines.push("");

  return lines;
}

/** The bootstrap caps and the files they cut. */
function bootstrapCaps(truncation: TruncationReportDTO): string[] {
  const lines: string[] = [];
  const tr = truncation;
  lines.push("**Bootstrap caps**");
  lines.push("");
  lines.push(
    `bootstrapMaxChars ${fmtInt(tr.maxPerFile)}${tr.recorded.maxPerFile === null ? " (family default)" : ""}, bootstrapTotalMaxChars ${fmtInt(tr.maxTotal)}${tr.recorded.maxTotal === null ? " (family default)" : ""}; injected ${tr.totals.injectedChars === null ? "unknown" : fmtInt(tr.totals.injectedChars)} of ${fmtInt(tr.totals.rawChars)} raw chars (${fmtPct(tr.totals.shareOfTotal)} of the total cap); rules ${md(tr.family)}.`,
  );
  const cut = tr.files.filter((f) => f.truncated === true || f.missing);
  if (cut.length === 0) lines.push("", "Truncated files: none.");
  else {
    lines.push("");
    lines.push(row(["file", "status", "raw chars", "injected chars", "cause"]));
    lines.push(row(["---", "---", "---:", "---:", "---"]));
    for (const f of cut) {
      lines.push(
        row([
          md(f.name),
          md(f.status),
          fmtInt(f.rawChars),
          f.injectedChars === null ? "unknown" : fmtInt(f.injectedChars),
          f.displayCauses.map((c) => md(c)).join(", ") || "",
        ]),
      );
    }
  }
  return lines;
}

/** Where the money went (issue 14 §2): the spend by cause and the unknown share of the miss cost. */
function spendByCause(cost: CostReportDTO): string[] {
  const lines: string[] = ["**Where the money went**", ""];
  lines.push(row(["cause", "calls", "tokens", "cost", "miss cost", "% of spend"]));
  lines.push(row(["---", "---:", "---:", "---:", "---:", "---:"]));
  for (const b of cost.breakdown) {
    const usd =
      b.unpricedCalls === b.calls
        ? `unpriced (${fmtInt(b.calls)} calls)`
        : `${fmtUsd(b.costUsd)}${b.unpricedCalls > 0 ? ` + ${fmtInt(b.unpricedCalls)} unpriced` : ""}`;
    const miss = b.unpricedCalls === b.calls ? "unpriced" : fmtUsd(b.missCostUsd);
    lines.push(row([md(b.cause), fmtInt(b.calls), fmtInt(b.tokens), usd, miss, fmtPct(b.shareOfSpend)]));
  }
  const u = cost.breakdownUnknown;
  if (u.shareOfMissCost !== null) {
    const decide = u.wouldDecide.filter((w) => !isRedacted(w)).map((w) => mdText(w));
    lines.push("");
    lines.push(
      `Still unknown: ${fmtUsd(u.missCostUsd)} (${fmtPct(u.shareOfMissCost)} of the miss cost).${decide.length > 0 ? ` Would decide: ${decide.join("; ")}.` : ""}`,
    );
  }
  lines.push("");
  return lines;
}

export function renderIssueMarkdown(input: IssueMarkdownInput): string {
  const lines = [
    ...keyNumbers(input),
    ...spendByCause(input.cost),
    ...pruningSettings(input.prune),
    ...bootstrapCaps(input.truncation),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
