// Views that lead into each other (issue 15): a click on a workspace file's tile pins its details next to it, and
// from there "Open its bootstrap truncation" lands on the Bootstrap truncation tab with that file's diff open.
import { describe, expect, it } from "vitest";
import { withE2eServer } from "./harness.ts";

const PAGE = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

describe("map → truncation (e2e, demo)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("a workspace file's tile opens its truncation diff", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&zoom=workspace`);
    const leaf = page.locator('[data-testid="treemap-leaf"][data-id^="workspace/"]').first();
    await expect.poll(() => leaf.count(), POLL).toBe(1);
    const id = (await leaf.getAttribute("data-id")) ?? "";
    const name = decodeURIComponent(id.slice("workspace/".length));
    await leaf.click();
    const panel = page.getByTestId("treemap-detail");
    await expect.poll(() => panel.count(), POLL).toBe(1);
    expect((await panel.textContent()) ?? "").toContain(name);
    await panel.getByTestId("treemap-detail-truncation").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("tab"), POLL).toBe("truncation");
    expect(new URL(page.url()).searchParams.get("file")).toBe(name);
    const diff = page.getByTestId("file-diff");
    await expect.poll(() => diff.count(), POLL).toBe(1);
    expect((await diff.locator("h3").textContent()) ?? "").toContain(name);
    expect(errors).toEqual([]);
    await page.close();
  });
});
