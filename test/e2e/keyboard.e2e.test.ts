// The keyboard path through the context map (issue 15), with page.keyboard only: Tab reaches the map (one tab
// stop: roving tabindex), Enter zooms into a group, the arrow keys walk to a leaf, Enter pins its details (focused,
// next to the tile), Escape closes them with focus back on the leaf, Escape again zooms out onto the group left.
// And search hits keep their labels (drawn again above the dimming veil).

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, withE2eServer } from "./harness.ts";

const PAGE = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

interface Focused {
  id: string | null;
  testId: string | null;
  label: string | null;
  inDetail: boolean;
}

function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const a = document.activeElement;
    return {
      id: a?.getAttribute("data-id") ?? null,
      testId: a?.getAttribute("data-testid") ?? null,
      label: a?.getAttribute("aria-label") ?? null,
      inDetail: a?.closest("[data-testid=treemap-detail]") != null,
    };
  });
}

const isTile = (f: Focused) => f.testId === "treemap-group" || f.testId === "treemap-leaf";

/** Press `key` until `done` holds for the focused element (at most `max` presses). */
async function pressUntil(
  page: Page,
  key: string,
  done: (f: Focused) => boolean,
  max = 80,
): Promise<Focused> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    if (done(f)) return f;
  }
  throw new Error(`${key} × ${max} never reached the wanted element`);
}

describe("treemap keyboard path (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("Tab → map, Enter zooms, arrows reach a leaf, Enter / Escape open and close its details", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${e2e.server.url}${PAGE}`);
    await expect.poll(() => page.getByTestId("treemap-leaf").count(), POLL).toBeGreaterThan(0);
    // roving tabindex: exactly one tile is in the Tab order
    expect(await page.locator('[data-testid="treemap-svg"] [tabindex="0"]').count()).toBe(1);

    const group = await pressUntil(page, "Tab", isTile);
    expect(group.testId).toBe("treemap-group");
    expect(group.label).toMatch(/ — [~\d,]+ (chars|tok), group \(Enter zooms in\)$/);
    const groupId = group.id ?? "";

    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("zoom"), POLL).toBe(groupId);
    await expect.poll(async () => isTile(await focused(page)), POLL).toBe(true);

    const leaf = await pressUntil(page, "ArrowDown", (f) => f.testId === "treemap-leaf");
    expect(leaf.label).toMatch(/^.+ — [~\d,]+ (chars|tok)$/);
    const leafName = (leaf.label ?? "").split(" — ")[0] ?? "";

    await page.keyboard.press("Enter");
    const detail = page.getByTestId("treemap-detail");
    await expect.poll(() => detail.count(), POLL).toBe(1);
    expect((await focused(page)).inDetail).toBe(true);
    expect(await detail.textContent()).toContain(leafName);
    // the panel opens next to the tile, not somewhere else on the page
    const tileBox = await page.locator(`[data-id="${leaf.id}"][tabindex]`).boundingBox();
    const detailBox = await detail.boundingBox();
    if (!tileBox || !detailBox) throw new Error("no layout box for the tile or its details");
    expect(Math.abs(detailBox.y - tileBox.y)).toBeLessThan(tileBox.height + 40);
    await screenshot(page, "keyboard-detail");

    await page.keyboard.press("Escape");
    await expect.poll(() => detail.count(), POLL).toBe(0);
    expect((await focused(page)).id).toBe(leaf.id);
    expect(new URL(page.url()).searchParams.get("zoom")).toBe(groupId); // Esc closed the panel only

    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.get("zoom"), POLL).toBe(null);
    await expect.poll(async () => (await focused(page)).id, POLL).toBe(groupId);

    // one tab stop: Tab leaves the map, Shift+Tab comes back to the tile last focused
    const next = await pressUntil(page, "ArrowRight", (f) => isTile(f) && f.id !== groupId, 1);
    await page.keyboard.press("Tab");
    expect(isTile(await focused(page))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect((await focused(page)).id).toBe(next.id);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the arrow keys move the selection and the focus along the tabs", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map`);
    await expect.poll(() => page.getByTestId("tab-map").count(), POLL).toBe(1);
    await page.getByTestId("tab-map").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).searchParams.get("tab"), POLL).toBe("context");
    expect((await focused(page)).testId).toBe("tab-context");
    await page.keyboard.press("ArrowLeft");
    // the map is the default tab: its URL has no `tab`
    await expect.poll(() => new URL(page.url()).searchParams.get("tab") ?? "map", POLL).toBe("map");
    expect((await focused(page)).testId).toBe("tab-map");
    await page.close();
  });

  it("search hits keep their labels above the veil", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?q=exec`);
    await expect.poll(() => page.getByTestId("treemap-match").count(), POLL).toBeGreaterThan(0);
    const labels = await page.evaluate(() => {
      const hits = new Set(
        [...document.querySelectorAll('[data-testid="treemap-match"]')].map(
          (e) => e.id || e.getAttribute("data-id"),
        ),
      );
      const under = [...document.querySelectorAll('[data-testid="treemap-svg"] > g > rect[tabindex]')]
        .filter((r) => hits.has(r.getAttribute("data-id")))
        .map((r) => r.parentElement?.querySelector("text")?.textContent ?? "");
      const over = [...document.querySelectorAll('[data-testid="treemap-search-overlay"] text')].map(
        (t) => t.textContent ?? "",
      );
      return { under: under.sort(), over: over.sort() };
    });
    expect(labels.over.length).toBeGreaterThan(0);
    expect(labels.over).toEqual(labels.under);
    await screenshot(page, "map-search-labels");
    await page.close();
  });
});
