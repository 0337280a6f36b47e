import { describe, expect, it } from "vitest";
import { screenshot, withE2eServer } from "./harness.ts";

describe("session list (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("lists every demo session across agents and both storage eras, and opens one", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(e2e.server.url);

    await expect
      .poll(() => page.locator('[data-testid^="session-row-"]').count(), { timeout: 20_000 })
      .toBe(3);
    await expect.poll(() => page.getByTestId("demo-banner").isVisible(), { timeout: 20_000 }).toBe(true);
    const rows = await page.locator('[data-testid^="session-row-"]').allTextContents();
    const text = rows.join("\n");
    expect(text).toContain("agent:main:main");
    expect(text).toContain("agent:research:main");
    expect(text).toContain("agent:legacy:main");
    expect(text).toMatch(/JSONL/i);
    expect(text).toMatch(/SQLite/i);
    await screenshot(page, "sessions-list");

    // Search filters the list.
    await page.getByTestId("session-search").fill("legacy");
    await expect
      .poll(() => page.locator('[data-testid^="session-row-"]').count(), { timeout: 20_000 })
      .toBe(1);
    await page.getByTestId("session-search").fill("");
    await expect
      .poll(() => page.locator('[data-testid^="session-row-"]').count(), { timeout: 20_000 })
      .toBe(3);

    // Opening a session navigates to its page (a permalink) and shows its title.
    await page
      .locator('[data-testid="session-row-main/bc255ab3-b341-464a-a811-4d1115e16ed8"] a')
      .first()
      .click();
    await page.waitForURL(/\/sessions\/main\/bc255ab3-b341-464a-a811-4d1115e16ed8/);
    await expect
      .poll(() => page.getByTestId("session-title").textContent(), { timeout: 20_000 })
      .toContain("agent:main:main");
    await screenshot(page, "session-opened");
    expect(errors).toEqual([]);
    await page.close();
  });
});
