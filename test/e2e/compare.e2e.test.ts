// Compare (issue 16) in real headless Chromium against the bundled demo: pick two sessions of different agents
// and storage eras in the list, Compare opens the first with `?compare=` the second and shows each side's cost,
// writes and rounds as GET /api/compare gives them, and the composition diff treemap (tiles coloured by growth);
// the pruning what-if's "Compare with as-run" opens the session beside itself under that what-if.

import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompareDTO } from "../../shared/compare.ts";
import { fmtInt, fmtUsd } from "../../shared/format.ts";
import { isObject } from "../../shared/json.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const MAIN = "main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const LEGACY = "legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const POLL = { timeout: 20_000 };

function isCompare(v: unknown): v is CompareDTO {
  return isObject(v) && isObject(v.a) && isObject(v.b) && isObject(v.diff);
}

describe("compare (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await page?.close();
  });

  async function api(query: string): Promise<CompareDTO> {
    const body: unknown = await (await fetch(`${e2e.server.url}api/compare?${query}`)).json();
    if (!isCompare(body)) throw new Error("GET /api/compare: not a comparison");
    return body;
  }

  const cell = (row: string, col: number) =>
    page.locator(`[data-testid="compare-row-${row}"] td`).nth(col).textContent();

  it("two sessions picked in the list: side by side, numbers as the API gives them, a diff treemap", async () => {
    await page.goto(e2e.server.url);
    await page.getByTestId(`pick-${MAIN}`).check();
    await expect.poll(() => page.getByTestId("compare-picked").isDisabled(), POLL).toBe(true);
    await page.getByTestId(`pick-${LEGACY}`).check();
    await page.getByTestId("compare-picked").click();
    await expect.poll(() => page.getByTestId("compare-table").isVisible(), POLL).toBe(true);
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/sessions/${MAIN}`);
    expect(url.searchParams.get("compare")).toBe(LEGACY);

    const dto = await api(`a=${MAIN}&b=${LEGACY}`);
    expect(dto.a.family).not.toBe(dto.b.family);
    expect(await cell("cost", 0)).toBe(fmtUsd(dto.a.costUsd));
    expect(await cell("cost", 1)).toBe(fmtUsd(dto.b.costUsd));
    expect(await cell("written", 0)).toBe(fmtInt(dto.a.tokensWritten));
    expect(await cell("written", 1)).toBe(fmtInt(dto.b.tokensWritten));
    expect(await cell("rounds", 0)).toBe(fmtInt(dto.a.pruningRounds));
    expect(await cell("rounds", 1)).toBe(fmtInt(dto.b.pruningRounds));
    expect(await page.getByTestId("compare-side-b").textContent()).toContain("legacy");

    const tiles = page.locator('[data-testid="diff-tile"]');
    await expect.poll(() => tiles.count(), POLL).toBeGreaterThan(5);
    const growths = await tiles.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-growth"))));
    // both directions are there (the sessions differ) and each tile's colour follows its sign
    expect(growths.some((g) => g > 0)).toBe(true);
    expect(growths.some((g) => g < 0)).toBe(true);
    const fills = await tiles.evaluateAll((els) =>
      els.map((e) => ({
        g: Number(e.getAttribute("data-growth")),
        fill: e.querySelector("rect")?.getAttribute("fill") ?? "",
      })),
    );
    const rgb = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
    for (const { g, fill } of fills) {
      const [r = 0, , b = 0] = rgb(fill);
      if (g > 0) expect(r).toBeGreaterThan(b);
      else if (g < 0) expect(b).toBeGreaterThan(r);
    }
    await screenshot(page, "compare-two-sessions");
    expect(errors).toEqual([]);
  });

  it("the pruning what-if's 'Compare with as-run': the session beside itself with pruning off", async () => {
    await page.goto(`${e2e.server.url}sessions/${MAIN}?tab=pruning&mode=off`);
    await page.getByTestId("compare-with-as-run").click();
    await expect.poll(() => page.getByTestId("compare-side-b").textContent(), POLL).toContain("mode=off");
    expect(new URL(page.url()).searchParams.get("whatif")).toBe("mode=off");
    const dto = await api(`a=${MAIN}&mode=off`);
    expect(await cell("rounds", 1)).toBe("0");
    expect(await cell("cost", 1)).toBe(fmtUsd(dto.b.costUsd));
    await page.getByTestId("compare-close").click();
    await expect.poll(() => page.getByTestId("compare-view").count(), POLL).toBe(0);
    expect(new URL(page.url()).searchParams.get("mode")).toBe("off");
    expect(errors).toEqual([]);
  });
});
