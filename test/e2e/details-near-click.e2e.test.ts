// Detail panels open where the click was (issue 15): a row's details are drawn in a row right under it — a cost
// call's evidence, a pruning call's details, a truncated file's diff — not a screen or thirteen away.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, withE2eServer } from "./harness.ts";

const SESSION = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

const CASES = [
  { tab: "cost", rows: '[data-testid^="cost-call-row-"]', pick: 40, detail: "cost-evidence" },
  { tab: "pruning", rows: '[data-testid^="prune-call-row-"]', pick: 40, detail: "prune-call-details" },
  { tab: "truncation", rows: '[data-testid="truncation-row-AGENTS.md"]', pick: 0, detail: "file-diff" },
];

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no layout box`);
  return b;
}

describe("details open where the click was (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  for (const c of CASES) {
    it(`${c.tab}: a row's details are right under the clicked row`, async () => {
      const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${e2e.server.url}${SESSION}?tab=${c.tab}`);
      await expect.poll(() => page.locator(c.rows).count(), POLL).toBeGreaterThan(c.pick);
      const row = page.locator(c.rows).nth(c.pick);
      await row.scrollIntoViewIfNeeded();
      const testId = await row.getAttribute("data-testid");
      await row.click();
      await expect.poll(() => page.getByTestId(c.detail).count(), POLL).toBe(1);
      const r = await box(page, `[data-testid="${testId}"]`);
      const d = await box(page, `[data-testid="${c.detail}"]`);
      // the details start within a few pixels under the row's bottom edge
      expect(d.y).toBeGreaterThanOrEqual(r.y + r.height - 1);
      expect(d.y - (r.y + r.height)).toBeLessThan(24);
      await screenshot(page, `details-near-click-${c.tab}`);
      await page.close();
    });
  }
});
