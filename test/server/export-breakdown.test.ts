// "Where the money went" in the HTML export and the *Copy as issue* Markdown (issue 14 §2): the same rows as
// `cost --json` `breakdown`, through the export's own structure (gatherExportData → redact → render), and the
// per-call cause details (file names, call ids) only in the unredacted export.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildExportHtml, buildIssueMarkdown } from "../../server/export/write-export.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { writeAwareText } from "../../shared/clock-labels.ts";
import { fmtInt, fmtPct, fmtUsd } from "../../shared/format.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEMO = path.join(REPO, "server/demo/state");
const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";

describe("breakdown by cause in the export", () => {
  const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
  const res = service.cost(AGENT, SESSION);
  if (!res.ok) throw new Error(res.error.message);
  const cost = res.value;

  it("the issue Markdown has one row per cause with calls, tokens, $, miss $ and % of spend (redacted too)", () => {
    expect(cost.breakdown.length).toBeGreaterThan(1);
    for (const redact of [true, false]) {
      const md = buildIssueMarkdown(service, AGENT, SESSION, { redact });
      if (!md.ok) throw new Error(md.error.message);
      expect(md.value).toContain("**Where the money went**");
      for (const b of cost.breakdown) {
        expect(md.value).toContain(
          `| ${b.cause} | ${fmtInt(b.calls)} | ${fmtInt(b.tokens)} | ${fmtUsd(b.costUsd)} | ${fmtUsd(b.missCostUsd)} | ${fmtPct(b.shareOfSpend)} |`,
        );
      }
      expect(md.value).toContain(`Still unknown: ${fmtUsd(cost.breakdownUnknown.missCostUsd)}`);
      // both hit rates: the read share and the write-aware one (a miss re-writes, it does not only fail to read)
      expect(md.value).toContain(
        `| Cache hit rate | ${fmtPct(cost.totals.hitRate)} read, ${writeAwareText(cost.totals.writeAwareHitRate, "total")} write-aware over ${fmtInt(cost.totals.calls)} calls`,
      );
    }
  });

  it("the HTML export lists the causes and the costliest calls; their details only unredacted", () => {
    const top = [...cost.calls].sort((a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0))[0];
    if (!top) throw new Error("no call");
    const raw = buildExportHtml(service, AGENT, SESSION, {
      redact: false,
      generatedAt: "2026-11-30T12:00:00Z",
    });
    const red = buildExportHtml(service, AGENT, SESSION, {
      redact: true,
      generatedAt: "2026-11-30T12:00:00Z",
    });
    if (!raw.ok || !red.ok) throw new Error("export failed");
    for (const page of [raw.value, red.value]) {
      expect(page).toContain("<h3>Where the money went</h3>");
      for (const b of cost.breakdown) expect(page).toContain(`<tr><td>${b.cause}</td>`);
      expect(page).toContain(`${fmtUsd(top.costUsd)} — <b>${top.cause.cause}</b>`);
    }
    const detail = top.cause.detail.slice(0, 40).replace(/>/g, "&gt;").replace(/</g, "&lt;");
    expect(raw.value).toContain(detail);
    expect(red.value).not.toContain(detail);
  });
});
