// The /context tab's headline numbers, from the session's one set (shared/context-numbers.ts): the billed prompt,
// clawscope's tracked estimate and untracked rest beside OpenClaw's own (/context detail), and the context window
// with its assumption said. Pure, so test/consistency.test.ts can compare it with every other view.

import type { ContextNumbersDTO } from "../../../shared/context-numbers.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";

export interface ReportStat {
  label: string;
  value: string;
  title?: string;
  testId?: string;
}

function tok(n: number | null, unknown = "unknown"): string {
  return n === null ? unknown : `${fmtInt(n)} tok`;
}

/** "100,000 tok (29.2% used)", "200,000 tok (assumed: OpenClaw's default)". */
export function windowStat(n: ContextNumbersDTO): string {
  const w = n.contextWindow;
  if (w.assumed) return `${fmtInt(w.tokens)} tok (assumed: OpenClaw's default)`;
  return `${fmtInt(w.tokens)} tok${n.windowUsed === null ? "" : ` (${fmtPct(n.windowUsed)} used)`}`;
}

export function reportStats(n: ContextNumbersDTO): ReportStat[] {
  const stats: ReportStat[] = [
    { label: "billed prompt (last call)", value: tok(n.billedPromptTokens), testId: "report-billed" },
    {
      label: "clawscope tracked",
      value: `~${fmtInt(n.trackedTokens)} tok`,
      title: `${fmtInt(n.trackedChars)} chars: the Σ of the map's tiles, each ceil(chars / 4)`,
      testId: "report-tracked",
    },
    {
      label: "untracked (clawscope)",
      value: tok(n.untrackedTokens),
      title: n.untrackedReason,
      testId: "report-untracked",
    },
  ];
  if (n.openclaw)
    stats.push(
      {
        label: "OpenClaw tracked (/context)",
        value: `~${fmtInt(n.openclaw.trackedTokens)} tok`,
        title: `${fmtInt(n.openclaw.trackedChars)} chars: system prompt + tool schemas + current turn`,
        testId: "report-openclaw-tracked",
      },
      {
        label: "untracked (OpenClaw /context)",
        value: tok(n.openclaw.untrackedTokens),
        testId: "report-openclaw-untracked",
      },
    );
  stats.push({
    label: "context window",
    value: windowStat(n),
    title: n.contextWindow.source,
    testId: "report-window",
  });
  return stats;
}
