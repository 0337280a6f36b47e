// The in-app price editor (issue 14 §3) in real Chromium: a session whose model nothing prices shows
// "unpriced (N calls)", never $0.00; entering the four rates prices it, puts them in the URL (a fresh page with
// that link shows the same dollars) and in localStorage.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TranscriptBuilder } from "../helpers/transcript.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const SESSION = "0a1b2c3d-0000-4000-8000-000000000002";
const MODEL = "acme-proxy/house-model-1";
const POLL = { timeout: 20_000 };
let dir = "";

function stateDir(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-e2e-prices-"));
  const b = new TranscriptBuilder();
  b.user("hi");
  b.assistant({ provider: "acme-proxy", model: "house-model-1", usage: { input: 100_000, output: 1_000 } });
  b.writeJsonlStateDir(dir, { sessionId: SESSION });
  return dir;
}

async function costStat(page: Page): Promise<string> {
  return (
    (await page
      .getByTestId("cost-totals")
      .locator(".stat")
      .filter({ hasText: "cost" })
      .first()
      .locator(".stat-value")
      .textContent()) ?? ""
  ).trim();
}

describe("price editor (e2e)", () => {
  const e2e = withE2eServer(() => ["--state-dir", stateDir()], {
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });

  it("prices an unpriced model; the prices travel in the link and stay in this browser", async () => {
    const ctx = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${e2e.server.url}sessions/main/${SESSION}?tab=cost`);
    await expect.poll(() => page.getByTestId("price-editor").count(), POLL).toBe(1);
    expect(await costStat(page)).toBe("unpriced (1 calls)");
    const row = page.getByTestId(`price-editor-${MODEL}`);
    for (const [k, v] of [
      ["input", "2"],
      ["output", "8"],
      ["cacheRead", "0.2"],
      ["cacheWrite", "2.5"],
    ] as const) {
      await row.getByLabel(`${MODEL} ${k}`).fill(v);
    }
    await page.getByTestId("price-editor-apply").click();
    // 100,000 × $2 + 1,000 × $8 per 1M = $0.208
    await expect.poll(() => costStat(page), POLL).toBe("$0.21");
    const url = new URL(page.url());
    expect(url.searchParams.get("prices")).toBe(`${MODEL}=2,8,0.2,2.5`);
    expect(await page.evaluate(() => window.localStorage.getItem("clawscope.prices"))).toBe(
      `${MODEL}=2,8,0.2,2.5`,
    );
    await screenshot(page, "price-editor");
    // the shared link prices the same in a fresh browser context (no localStorage)
    const other = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const fresh = await other.newPage();
    await fresh.goto(url.toString());
    await expect.poll(() => costStat(fresh), POLL).toBe("$0.21");
    await other.close();
    // this browser remembers them without the URL parameter, and puts them back in the URL (Copy link shares them)
    await page.goto(`${e2e.server.url}sessions/main/${SESSION}?tab=cost`);
    await expect.poll(() => costStat(page), POLL).toBe("$0.21");
    await expect
      .poll(() => new URL(page.url()).searchParams.get("prices"), POLL)
      .toBe(`${MODEL}=2,8,0.2,2.5`);
    // Clear removes them from both
    await page.getByTestId("price-editor-clear").click();
    await expect.poll(() => costStat(page), POLL).toBe("unpriced (1 calls)");
    expect(new URL(page.url()).searchParams.get("prices")).toBeNull();
    expect(await page.evaluate(() => window.localStorage.getItem("clawscope.prices"))).toBeNull();
    await ctx.close();
  });
});
