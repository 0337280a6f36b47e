// The map's tree table (`?view=table`, issue 15) in real headless Chromium on the bundled demo: the same numbers
// as the treemap's tiles and the footer, the treegrid's keyboard path (arrows / Enter), the map's search filtering
// and marking rows, and the view kept in the URL.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { isObject } from "../../shared/json.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const PAGE = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

interface Row {
  id: string;
  level: number;
  size: number;
  expanded: string | null;
  match: boolean;
}
async function rows(page: Page): Promise<Row[]> {
  return page.locator('[data-testid="map-table-row"]').evaluateAll((els) =>
    els.map((e) => ({
      id: e.getAttribute("data-row-id") ?? "",
      level: Number(e.getAttribute("aria-level")),
      size: Number(e.getAttribute("data-size")),
      expanded: e.getAttribute("aria-expanded"),
      match: e.getAttribute("data-match") === "1",
    })),
  );
}
async function groupTiles(page: Page): Promise<Map<string, number>> {
  const all = await page
    .locator('[data-testid="treemap-group"], [data-testid="treemap-leaf"]')
    .evaluateAll((els) =>
      els.map((e) => [e.getAttribute("data-id") ?? "", Number(e.getAttribute("data-value"))] as const),
    );
  return new Map(all.filter(([id]) => !id.includes("/")));
}
const focusedRow = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("data-row-id") ?? null);
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

interface JsonTile {
  id: string;
  name: string;
  chars: number;
  children: JsonTile[];
}
function tileOf(v: unknown): JsonTile {
  if (!isObject(v) || typeof v.id !== "string" || typeof v.name !== "string" || typeof v.chars !== "number")
    throw new Error("not a map node");
  const kids = Array.isArray(v.children) ? v.children : [];
  return { id: v.id, name: v.name, chars: v.chars, children: kids.map(tileOf) };
}
/** Chars of the outermost nodes whose name or id contains the needle (a match inside a match is in it already). */
function outermostMatchChars(n: JsonTile, needle: string): number {
  const hit = n.id !== "" && (n.name.toLowerCase().includes(needle) || n.id.toLowerCase().includes(needle));
  return hit ? n.chars : sum(n.children.map((c) => outermostMatchChars(c, needle)));
}

describe("map tree table (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  async function billed(): Promise<{ billed: number; tracked: number }> {
    const res = await fetch(`${e2e.server.url}api/${PAGE}/map`);
    const body: unknown = await res.json();
    if (!isObject(body) || !isObject(body.numbers)) throw new Error("no map numbers");
    const b = body.numbers.billedPromptTokens;
    const t = body.numbers.trackedChars;
    if (typeof b !== "number" || typeof t !== "number") throw new Error("map numbers are not numbers");
    return { billed: b, tracked: t };
  }

  it("top-level rows = the treemap's tiles, and add up to the footer's numbers in chars and est. tokens", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const n = await billed();
    for (const size of ["", "&size=estTokens"]) {
      await page.goto(`${e2e.server.url}${PAGE}?tab=map${size}`);
      await expect.poll(() => page.locator('[data-testid="treemap-group"]').count(), POLL).toBeGreaterThan(0);
      const tiles = await groupTiles(page);
      await page.getByTestId("map-view-table").click();
      await expect.poll(() => new URL(page.url()).searchParams.get("view"), POLL).toBe("table");
      await expect.poll(() => page.getByTestId("map-table-row").count(), POLL).toBeGreaterThan(0);
      expect(await page.getByTestId("treemap-svg").count()).toBe(0);
      const top = (await rows(page)).filter((r) => r.level === 1);
      // each top-level tile the treemap draws has its row with the same value (tiny ones may be culled there)
      for (const [id, v] of tiles) expect(top.find((r) => r.id === id)?.size, id).toBe(v);
      expect(tiles.size).toBeGreaterThan(3);
      expect(top.map((r) => r.size)).toEqual([...top.map((r) => r.size)].sort((a, b) => b - a));
      expect(sum(top.map((r) => r.size))).toBe(size === "" ? n.tracked : n.billed);
      expect(await page.getByTestId("map-table").locator("thead").textContent()).toContain(
        size === "" ? "% of chars" : "% of billed prompt",
      );
      await page.getByTestId("map-view-treemap").click();
      await expect.poll(() => new URL(page.url()).searchParams.get("view"), POLL).toBe(null);
    }
    const footer = (await page.getByTestId("map-footer").textContent()) ?? "";
    expect(footer).toContain(`${n.tracked.toLocaleString("en-US")} chars tracked`);
    expect(footer).toContain(`actual ctx ${n.billed.toLocaleString("en-US")} tok`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens and closes groups from the keyboard, and the view survives a reload", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&view=table`);
    await expect.poll(() => page.getByTestId("map-table-row").count(), POLL).toBeGreaterThan(0);
    const first = (await rows(page))[0];
    if (!first) throw new Error("no rows");
    expect(first.expanded).toBe("false");
    await page.locator(`tr[data-row-id="${first.id}"]`).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await rows(page))[0]?.expanded, POLL).toBe("true");
    const opened = await rows(page);
    const kids = opened.filter((r) => r.level === 2);
    expect(kids.length).toBeGreaterThan(0);
    expect(opened[1]?.level).toBe(2);
    expect(await focusedRow(page)).toBe(first.id);
    await page.keyboard.press("ArrowRight"); // into the group
    expect(await focusedRow(page)).toBe(opened[1]?.id);
    await page.keyboard.press("ArrowDown");
    expect(await focusedRow(page)).toBe(opened[2]?.id);
    await page.keyboard.press("ArrowLeft"); // a leaf: up to its parent
    expect(await focusedRow(page)).toBe(first.id);
    await page.keyboard.press("ArrowLeft"); // closes it
    await expect.poll(async () => (await rows(page)).filter((r) => r.level === 2).length, POLL).toBe(0);
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await rows(page)).filter((r) => r.level === 2).length, POLL)
      .toBe(kids.length);
    await page.keyboard.press("End");
    expect(await focusedRow(page)).toBe((await rows(page)).at(-1)?.id);
    // Home / End in the table move between rows, not the turn scrubber's call (its global keys)
    await page.keyboard.press("Home");
    expect(await focusedRow(page)).toBe(first.id);
    expect(new URL(page.url()).searchParams.get("call")).toBe(null);
    await screenshot(page, "map-table-open");
    await page.reload();
    await expect.poll(() => page.getByTestId("map-table-row").count(), POLL).toBeGreaterThan(0);
    expect(await page.getByTestId("treemap-svg").count()).toBe(0);
    await page.close();
  });

  it("the search shows the matched tiles' size once per match and its share of the map", async () => {
    const res = await fetch(`${e2e.server.url}api/${PAGE}/map`);
    const body: unknown = await res.json();
    if (!isObject(body)) throw new Error("no map");
    const root = tileOf(body.root);
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map`);
    await expect.poll(() => page.locator('[data-testid="treemap-leaf"]').count(), POLL).toBeGreaterThan(0);
    expect(await page.getByTestId("map-search-total").count()).toBe(0);
    // "tool-results" matches the group and every leaf under it: the group's size, not twice it
    for (const q of ["tool-results", "AGENTS", "exec"]) {
      const chars = outermostMatchChars(root, q.toLowerCase());
      expect(chars, q).toBeGreaterThan(0);
      await page.getByTestId("map-search").fill(q);
      const pct = ((chars / root.chars) * 100).toFixed(1);
      await expect
        .poll(() => page.getByTestId("map-search-total").textContent(), POLL)
        .toBe(`${chars.toLocaleString("en-US")} chars, ${pct}% of the map`);
    }
    const group = root.children
      .find((c) => c.id === "conversation")
      ?.children.find((c) => c.id.endsWith("tool-results"));
    await page.getByTestId("map-search").fill("tool-results");
    await expect
      .poll(() => page.getByTestId("map-search-total").textContent(), POLL)
      .toContain(`${group?.chars.toLocaleString("en-US")} chars`);
    await page.getByTestId("map-search").fill("");
    await expect.poll(() => page.getByTestId("map-search-total").count(), POLL).toBe(0);
    await page.close();
  });

  it("the map's search filters the rows to the matches and the groups leading to them", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&view=table&q=exec`);
    await expect
      .poll(() => page.locator('[data-testid="map-table-row"][data-match="1"]').count(), POLL)
      .toBeGreaterThan(0);
    const shown = await rows(page);
    const count = (await page.getByTestId("map-search-count").textContent()) ?? "";
    // every match reachable without a click is listed (matched groups start closed, so their leaves only count)
    const matched = shown.filter((r) => r.match);
    expect(count).toMatch(/^\d+ match/);
    expect(matched.length).toBeLessThanOrEqual(Number(count.split(" ")[0]));
    // every row shown is a match or leads to one (its id is a prefix of a matched row's)
    for (const r of shown)
      expect(r.match || matched.some((m) => m.id.startsWith(`${r.id}/`)), r.id).toBe(true);
    expect(shown.some((r) => !r.match)).toBe(true);
    await screenshot(page, "map-table-search");
    await page.getByTestId("map-search").fill("");
    await expect.poll(async () => (await rows(page)).every((r) => r.level === 1), POLL).toBe(true);
    await page.close();
  });
});
