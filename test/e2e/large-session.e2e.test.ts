// Issue 9 ("large sessions must stay fast"), in the browser: a generated session with more model calls than
// the pruning timeline draws one mark each for (TIMELINE_MAX_MARKS) and than a table shows at once
// (TABLE_PAGE_ROWS). The pruning and cost tabs must render, the timeline must show one mark per pixel column
// (each still selecting a real call), tables must page, and a selected call must load its tool results.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { TABLE_PAGE_ROWS } from "../../web/ui/table.tsx";
import { TIMELINE_MAX_MARKS } from "../../web/views/pruning/timeline.tsx";
import { chromiumAvailable, screenshot, withE2eServer } from "./harness.ts";

const POLL = { timeout: 60_000 };
const run = chromiumAvailable();
if (!run)
  console.warn("[e2e] skipped: /usr/bin/chromium or dist/web missing (npm run build; apt install chromium)");

describe.skipIf(!run)("a large session in the browser", () => {
  let dir = "";
  let agentId = "";
  let sessionId = "";
  let calls = 0;
  const e2e = withE2eServer(
    () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-e2e-large-"));
      // ~2,000 model calls (the generator averages ~110 per MB)
      const w = writeJsonlStateDir(dir, { targetBytes: 18 * 1024 * 1024, seed: 4 });
      agentId = w.agentId;
      sessionId = w.sessionId;
      return ["--state-dir", dir];
    },
    { timeoutMs: 120_000, cleanup: () => dir && fs.rmSync(dir, { recursive: true, force: true }) },
  );

  beforeAll(async () => {
    const res = await fetch(`${e2e.server.url}api/sessions/${agentId}/${sessionId}/prune?calls=summary`);
    const body: unknown = await res.json();
    calls =
      typeof body === "object" && body !== null && "calls" in body && Array.isArray(body.calls)
        ? body.calls.length
        : 0;
  }, 120_000);

  it("pruning: one timeline mark per column, a paged calls table, a selected call's tool results", async () => {
    expect(calls).toBeGreaterThan(Math.max(TIMELINE_MAX_MARKS, TABLE_PAGE_ROWS));
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/${agentId}/${sessionId}?tab=pruning&axis=index`);
    await page.getByTestId("prune-summary").waitFor(POLL);
    const marks = page.locator('[data-testid="prune-call-mark"]');
    await expect.poll(() => marks.count(), POLL).toBeGreaterThan(100);
    const markCount = await marks.count();
    expect(markCount).toBeLessThan(calls);
    // every mark names a real call; shared columns say how many calls they hold
    const groups = await marks.evaluateAll((els) =>
      els.map((e) => [Number(e.getAttribute("data-call")), Number(e.getAttribute("data-calls") ?? "1")]),
    );
    expect(groups.every(([i]) => Number.isInteger(i) && (i ?? -1) >= 0 && (i ?? calls) < calls)).toBe(true);
    expect(groups.reduce((n, [, k]) => n + (k ?? 0), 0)).toBe(calls);

    const table = page.getByTestId("prune-calls-table");
    await expect.poll(() => table.locator("tbody tr").count(), POLL).toBe(TABLE_PAGE_ROWS);
    await page.getByTestId("table-more").first().click();
    await expect
      .poll(() => table.locator("tbody tr").count(), POLL)
      .toBe(Math.min(calls, 2 * TABLE_PAGE_ROWS));

    const pick = groups[Math.floor(groups.length / 2)]?.[0] ?? 0;
    // marks of neighbouring columns overlap: dispatch on the element itself (the pointer picks the topmost)
    await page.locator(`[data-testid="prune-call-mark"][data-call="${pick}"]`).dispatchEvent("click");
    await expect.poll(() => new URL(page.url()).searchParams.get("call"), POLL).toBe(String(pick));
    await expect
      .poll(() => page.locator('[data-testid="prune-tool-results"] tbody tr').count(), POLL)
      .toBeGreaterThan(0);
    await screenshot(page, "large-session-pruning");
    await page.close();
  }, 120_000);

  it("cost: the calls table pages instead of rendering every call", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/${agentId}/${sessionId}?tab=cost`);
    const rows = page.locator('[data-testid^="cost-call-row-"]');
    await expect.poll(() => rows.count(), POLL).toBe(TABLE_PAGE_ROWS);
    await expect
      .poll(() => page.getByTestId("table-more-row").first().textContent(), POLL)
      .toContain(`of ${calls.toLocaleString("en-US")} rows`);
    await page.getByTestId("table-all").first().click();
    await expect.poll(() => rows.count(), POLL).toBe(calls);
    await screenshot(page, "large-session-cost");
    await page.close();
  }, 120_000);
});
