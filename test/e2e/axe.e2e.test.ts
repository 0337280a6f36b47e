// axe-core (WCAG 2 A / AA rules) on the main views of the bundled demo, in both themes (issue 15). The app's CSP
// forbids injected <script> tags, so axe's source is evaluated in the page (page.evaluate) rather than added
// with addScriptTag; its results come back as plain JSON and every violation is listed with its nodes.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, withE2eServer } from "./harness.ts";

const SESSION = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface View {
  name: string;
  path: string;
  /** A selector that shows the view has loaded its data. */
  ready: string;
  /** Puts the view in the state to check (e.g. a panel opened from the keyboard). */
  prepare?: (page: Page) => Promise<void>;
}

/** Map with a search active and a leaf's details pinned open from the keyboard. */
async function pinLeafDetails(page: Page): Promise<void> {
  await page.focus('[data-testid="treemap-leaf"]');
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByTestId("treemap-detail").count(), POLL).toBe(1);
}
/** The map as sent at a call: a soft-trimmed (hatched) tool result's details pinned open (issue 15). */
async function pinTrimmedToolResult(page: Page): Promise<void> {
  const id = await page.locator('[data-testid="treemap-prune-hatch"]').first().getAttribute("data-tile");
  await page.locator(`[data-testid="treemap-leaf"][data-id="${id}"]`).click();
  await expect.poll(() => page.getByTestId("treemap-detail-pruning").count(), POLL).toBe(1);
}
/** The map's tree table with its first group opened from the keyboard. */
async function openFirstTableGroup(page: Page): Promise<void> {
  await page.focus('[data-testid="map-table-row"]');
  await page.keyboard.press("ArrowRight");
  await expect
    .poll(() => page.locator('[data-testid="map-table-row"][aria-level="2"]').count(), POLL)
    .toBeGreaterThan(0);
}
const VIEWS: View[] = [
  { name: "overview", path: "", ready: '[data-testid="overview-total-cost"]' },
  { name: "map", path: `${SESSION}?tab=map`, ready: '[data-testid="treemap-leaf"]' },
  {
    name: "map-search-detail",
    path: `${SESSION}?tab=map&q=exec`,
    ready: '[data-testid="treemap-match"]',
    prepare: pinLeafDetails,
  },
  {
    name: "map-table-search",
    path: `${SESSION}?tab=map&view=table&q=exec`,
    ready: '[data-testid="map-table-row"][data-match="1"]',
  },
  {
    name: "map-table-open",
    path: `${SESSION}?tab=map&view=table`,
    ready: '[data-testid="map-table-row"]',
    prepare: openFirstTableGroup,
  },
  { name: "cost", path: `${SESSION}?tab=cost`, ready: '[data-testid^="cost-call-row-"]' },
  { name: "pruning", path: `${SESSION}?tab=pruning`, ready: '[data-testid="prune-timeline"]' },
  {
    name: "pruning-what-if-delta",
    path: `${SESSION}?tab=pruning&mode=off`,
    ready: '[data-testid="prune-delta-costUsd"]',
  },
  {
    name: "map-at-call-tool-result",
    path: `${SESSION}?tab=map&call=60`,
    ready: '[data-testid="treemap-prune-hatch"]',
    prepare: pinTrimmedToolResult,
  },
  {
    name: "pruning-compactions",
    path: "sessions/legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84?tab=pruning",
    ready: '[data-testid="prune-event-mark"]',
  },
  {
    name: "truncation",
    path: `${SESSION}?tab=truncation`,
    ready: '[data-testid="truncation-row-AGENTS.md"]',
  },
];

interface Violation {
  id: string;
  impact: string;
  count: number;
  nodes: string[];
}

/**
 * Run axe in the page; one line per violation: rule, impact, and the first few offending nodes. Besides WCAG 2 A /
 * AA, two best-practice rules: headings in order (no h1 → h3 jump) and one h1 per page.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (): Promise<Violation[]> => {
    const axe: typeof import("axe-core") = Reflect.get(window, "axe");
    const run = async (runOnly: import("axe-core").RunOptions["runOnly"]) =>
      (await axe.run(document, { runOnly, resultTypes: ["violations"] })).violations;
    const violations = [
      ...(await run(["wcag2a", "wcag2aa"])),
      ...(await run({ type: "rule", values: ["heading-order", "page-has-heading-one"] })),
    ];
    const result: Pick<AxeResults, "violations"> = { violations };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      count: v.nodes.length,
      nodes: v.nodes.slice(0, 4).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`),
    }));
  });
  return found.map((v) => `${v.id} (${v.impact}, ${v.count} nodes): ${v.nodes.join(" | ")}`);
}

describe("accessibility: axe-core on the main views (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  for (const theme of ["0", "1"]) {
    for (const view of VIEWS) {
      it(`${view.name} (${theme === "1" ? "dark" : "light"}) has no WCAG 2 A / AA violations, headings in order`, async () => {
        const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
        const sep = view.path.includes("?") ? "&" : "?";
        await page.goto(`${e2e.server.url}${view.path}${sep}dark=${theme}`);
        await expect.poll(() => page.locator(view.ready).count(), POLL).toBeGreaterThan(0);
        await view.prepare?.(page);
        await screenshot(page, `axe-${view.name}-${theme === "1" ? "dark" : "light"}`);
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      });
    }
  }
});
