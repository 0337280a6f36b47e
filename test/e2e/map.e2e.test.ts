// The context map (issue 4) in real headless Chromium, against the built app serving the bundled demo state
// dir: tile values vs the run report, zoom / breadcrumbs / Esc / Backspace, search, size modes, permalinks,
// dark mode, PNG export (decoded and checked), and the "OpenClaw map" toggle.

import { readFileSync } from "node:fs";
import { decode } from "fast-png";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fmtInt } from "../../shared/format.ts";
import { isArray, isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";
import { type RunningServer, screenshot, withE2eServer } from "./harness.ts";

const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";
const PAGE = `sessions/${AGENT}/${SESSION}`;
const POLL = { timeout: 20_000 };

// --- typed access to the API's JSON (throws with the path when the shape is not what the test expects) ---
function at(v: JsonValue | undefined, ...path: (string | number)[]): JsonValue {
  let cur: JsonValue | undefined = v;
  for (const k of path) {
    if (typeof k === "number" && isArray(cur)) cur = cur[k];
    else if (typeof k === "string" && isObject(cur)) cur = cur[k];
    else cur = undefined;
    if (cur === undefined) throw new Error(`API JSON has no ${path.join(".")}`);
  }
  if (cur === undefined) throw new Error(`API JSON has no ${path.join(".")}`);
  return cur;
}
function numAt(v: JsonValue | undefined, ...path: (string | number)[]): number {
  const x = at(v, ...path);
  if (typeof x !== "number") throw new Error(`${path.join(".")} is not a number`);
  return x;
}
function strAt(v: JsonValue | undefined, ...path: (string | number)[]): string {
  const x = at(v, ...path);
  if (typeof x !== "string") throw new Error(`${path.join(".")} is not a string`);
  return x;
}
function arrAt(v: JsonValue | undefined, ...path: (string | number)[]): JsonValue[] {
  const x = at(v, ...path);
  if (!isArray(x)) throw new Error(`${path.join(".")} is not an array`);
  return x;
}
function objects(list: JsonValue[]): JsonObject[] {
  return list.filter(isObject);
}

async function api(server: RunningServer, what: string): Promise<JsonObject> {
  const res = await fetch(`${server.url}api/sessions/${AGENT}/${SESSION}/${what}`);
  expect(res.status, `GET ${what}`).toBe(200);
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error(`${what}: not a JSON object`);
  return body;
}

// --- the map DTO as a flat index (id → node), for cross-checks ---
interface FlatNode {
  id: string;
  name: string;
  chars: number;
  estTokens: number;
  tiktoken: number | null;
  leaf: boolean;
  parent: string | null;
}
function flatten(root: JsonValue): Map<string, FlatNode> {
  const out = new Map<string, FlatNode>();
  const walk = (n: JsonValue, parent: string | null) => {
    const kids = isObject(n) && isArray(n.children) ? n.children : [];
    const id = strAt(n, "id");
    out.set(id, {
      id,
      name: strAt(n, "name"),
      chars: numAt(n, "chars"),
      estTokens: numAt(n, "estTokens"),
      tiktoken: isObject(n) && typeof n.tiktokenTokens === "number" ? n.tiktokenTokens : null,
      leaf: kids.length === 0,
      parent,
    });
    for (const c of kids) walk(c, id);
  };
  walk(root, null);
  return out;
}

interface Tile {
  id: string;
  value: number;
}
async function tiles(page: Page, kind: "treemap-leaf" | "treemap-group"): Promise<Tile[]> {
  return page
    .locator(`[data-testid="${kind}"]`)
    .evaluateAll((els) =>
      els.map((e) => ({ id: e.getAttribute("data-id") ?? "", value: Number(e.getAttribute("data-value")) })),
    );
}
async function culled(page: Page): Promise<number> {
  return Number(await page.getByTestId("treemap-svg").getAttribute("data-culled"));
}
async function crumbs(page: Page): Promise<string> {
  return ((await page.getByTestId("map-breadcrumbs").textContent()) ?? "").replace(/\s+/g, " ").trim();
}
function param(page: Page, key: string): string | null {
  return new URL(page.url()).searchParams.get(key);
}
function sum(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}
/** Σ of the drawn leaves inside a subtree (id prefix). */
function leafSum(ts: Tile[], groupId: string): number {
  return sum(ts.filter((t) => t.id.startsWith(`${groupId}/`)).map((t) => t.value));
}

describe("context map (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  let report: JsonObject;
  let map: JsonObject;
  let nodes: Map<string, FlatNode>;

  beforeAll(async () => {
    report = await api(e2e.server, "report");
    map = await api(e2e.server, "map");
    nodes = flatten(at(map, "root"));
  });

  async function openMap(page: Page, query = ""): Promise<void> {
    await page.goto(`${e2e.server.url}${PAGE}${query}`);
    await expect.poll(() => page.getByTestId("treemap-svg").count(), POLL).toBe(1);
    await expect.poll(async () => (await tiles(page, "treemap-leaf")).length, POLL).toBeGreaterThan(0);
  }

  it("draws tiles whose values add up to the run report's numbers", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await openMap(page);
    await screenshot(page, "map-chars");

    const spr = at(report, "systemPromptReport", "report");
    const projectContext = numAt(spr, "systemPrompt", "projectContextChars");
    const systemPromptChars = numAt(spr, "systemPrompt", "chars");
    const files = objects(arrAt(spr, "injectedWorkspaceFiles")).filter((f) => f.missing !== true);
    const injected = sum(files.map((f) => numAt(f, "injectedChars")));
    const skillsChars = sum(objects(arrAt(spr, "skills", "entries")).map((s) => numAt(s, "blockChars")));
    const toolEntries = objects(arrAt(spr, "tools", "entries"));
    const runtimeContext = numAt(spr, "currentTurn", "runtimeContextChars");
    // The demo's own numbers (server/demo/state README): 27,712 project context, AGENTS.md 11,587.
    expect(projectContext).toBe(27_712);
    expect(injected).toBe(numAt(report, "totals", "filesInjected", "chars"));

    // Top-level groups = the report's totals.
    const groups = new Map((await tiles(page, "treemap-group")).map((g) => [g.id, g.value]));
    expect(groups.get("workspace")).toBe(projectContext);
    expect(groups.get("skills")).toBe(skillsChars);
    expect(groups.get("system")).toBe(systemPromptChars - projectContext - skillsChars);
    expect((groups.get("workspace") ?? 0) + (groups.get("system") ?? 0) + (groups.get("skills") ?? 0)).toBe(
      systemPromptChars,
    );
    expect(groups.get("tools")).toBe(numAt(report, "totals", "toolSchemas", "chars"));
    expect(groups.get("current-turn")).toBe(runtimeContext);
    expect(groups.get("conversation")).toBe(nodes.get("conversation")?.chars);
    const topIds = [...groups.keys()].filter((k) => !k.includes("/"));
    expect(sum(topIds.map((k) => groups.get(k) ?? 0))).toBe(numAt(map, "trackedChars"));

    // Leaves: every drawn tile carries the DTO's value; leaves of a group add up to the group.
    const leaves = await tiles(page, "treemap-leaf");
    for (const l of leaves) expect(l.value, l.id).toBe(nodes.get(l.id)?.chars);
    const byFile = new Map(leaves.map((l) => [l.id, l.value]));
    for (const f of files)
      expect(byFile.get(`workspace/${strAt(f, "name")}`), strAt(f, "name")).toBe(numAt(f, "injectedChars"));
    expect(byFile.get("workspace/project-context-frame")).toBe(projectContext - injected);
    expect(leafSum(leaves, "workspace")).toBe(projectContext);
    expect(leafSum(leaves, "skills")).toBe(skillsChars);
    for (const t of toolEntries)
      expect(byFile.get(`tools/${strAt(t, "name")}`)).toBe(numAt(t, "schemaChars"));
    expect(leafSum(leaves, "tools")).toBe(numAt(report, "totals", "toolSchemas", "chars"));
    // Nothing silently lost: drawn leaves + culled tiles account for every non-empty DTO tile.
    const nonEmpty = [...nodes.values()].filter((n) => n.id !== "" && n.chars > 0);
    const drawnGroups = (await tiles(page, "treemap-group")).length;
    expect(leaves.length + drawnGroups + (await culled(page))).toBe(nonEmpty.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("zooms into a group and back (click, breadcrumbs, Esc, Backspace)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openMap(page);
    const projectContext = numAt(
      report,
      "systemPromptReport",
      "report",
      "systemPrompt",
      "projectContextChars",
    );

    // Click a workspace tile: the view drills into its top-level group.
    await page.locator('[data-testid="treemap-leaf"][data-id="workspace/AGENTS.md"]').click();
    await expect.poll(() => param(page, "zoom"), POLL).toBe("workspace");
    await expect.poll(() => crumbs(page), POLL).toContain("All context › Workspace files");
    const ws = await tiles(page, "treemap-leaf");
    expect(ws.every((t) => t.id.startsWith("workspace/"))).toBe(true);
    expect(await culled(page)).toBe(0);
    expect(sum(ws.map((t) => t.value))).toBe(projectContext);
    await screenshot(page, "map-zoom-workspace");

    // Breadcrumb back to the root.
    await page.getByTestId("breadcrumb-0").click();
    await expect.poll(() => param(page, "zoom"), POLL).toBe(null);
    await expect.poll(() => crumbs(page), POLL).toBe("All context");

    // Two levels down into the conversation, then Esc and Backspace step back out.
    await page
      .locator('[data-testid="treemap-group"][data-id="conversation"]')
      .click({ position: { x: 40, y: 6 } });
    await expect.poll(() => param(page, "zoom"), POLL).toBe("conversation");
    await page
      .locator('[data-testid="treemap-group"][data-id="conversation/tool-results"]')
      .click({ position: { x: 40, y: 6 } });
    await expect.poll(() => param(page, "zoom"), POLL).toBe("conversation/tool-results");
    await expect.poll(() => crumbs(page), POLL).toContain("All context › Conversation › Tool results");
    const tr = await tiles(page, "treemap-leaf");
    expect(tr.length).toBeGreaterThan(0);
    expect(tr.every((t) => t.id.startsWith("conversation/tool-results/"))).toBe(true);
    if ((await culled(page)) === 0)
      expect(sum(tr.map((t) => t.value))).toBe(nodes.get("conversation/tool-results")?.chars);
    await screenshot(page, "map-zoom-tool-results");
    await page.keyboard.press("Escape");
    await expect.poll(() => param(page, "zoom"), POLL).toBe("conversation");
    await page.keyboard.press("Backspace");
    await expect.poll(() => param(page, "zoom"), POLL).toBe(null);
    await expect.poll(() => crumbs(page), POLL).toBe("All context");

    // The legend zooms into its group; a focused group tile zooms on Enter.
    await page.getByTestId("legend-zoom-skills").click();
    await expect.poll(() => param(page, "zoom"), POLL).toBe("skills");
    await expect
      .poll(async () => sum((await tiles(page, "treemap-leaf")).map((t) => t.value)), POLL)
      .toBe(nodes.get("skills")?.chars);
    await page.keyboard.press("Escape");
    await expect.poll(() => param(page, "zoom"), POLL).toBe(null);
    await page.locator('[data-testid="treemap-group"][data-id="tools"]').focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => param(page, "zoom"), POLL).toBe("tools");
    await expect
      .poll(async () => sum((await tiles(page, "treemap-leaf")).map((t) => t.value)), POLL)
      .toBe(numAt(report, "totals", "toolSchemas", "chars"));
    await page.close();
  });

  it("searches tiles: the match count and the highlighted tiles follow the DTO", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openMap(page);
    for (const q of ["AGENTS", "exec"]) {
      const needle = q.toLowerCase();
      const expected = [...nodes.values()].filter(
        (n) => n.id !== "" && (n.name.toLowerCase().includes(needle) || n.id.toLowerCase().includes(needle)),
      );
      expect(expected.length).toBeGreaterThan(0);
      await page.getByTestId("map-search").fill(q);
      await expect.poll(() => param(page, "q"), POLL).toBe(q);
      await expect
        .poll(() => page.getByTestId("map-search-count").textContent(), POLL)
        .toBe(`${expected.length} match${expected.length === 1 ? "" : "es"}`);
      const hl = await page
        .locator('[data-testid="treemap-match"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? ""));
      expect(hl.length).toBeGreaterThan(0);
      const ids = new Set(expected.map((n) => n.id));
      for (const id of hl) expect(ids.has(id), id).toBe(true);
      await screenshot(page, `map-search-${needle}`);
    }
    await page.getByTestId("map-search").fill("");
    await expect.poll(() => page.getByTestId("map-search-count").count(), POLL).toBe(0);
    await expect.poll(() => page.locator('[data-testid="treemap-match"]').count(), POLL).toBe(0);
    await page.close();
  });

  it("switches size modes: chars, est. tokens, tokenizer, cache state", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openMap(page);
    const files = objects(arrAt(report, "totals", "files"));

    // Est. tokens: OpenClaw's ceil(chars / 4) per tile; the untracked tile shows the billed remainder.
    await page.getByTestId("size-estTokens").click();
    await expect.poll(() => param(page, "size"), POLL).toBe("estTokens");
    await expect
      .poll(() => page.getByTestId("size-estTokens").getAttribute("aria-pressed"), POLL)
      .toBe("true");
    await expect
      .poll(
        async () => (await tiles(page, "treemap-leaf")).find((t) => t.id === "workspace/AGENTS.md")?.value,
        POLL,
      )
      .toBe(Math.ceil(11_587 / 4));
    const est = new Map((await tiles(page, "treemap-leaf")).map((t) => [t.id, t.value]));
    for (const f of files) {
      if (strAt(f, "status") === "MISSING") continue;
      expect(est.get(`workspace/${strAt(f, "name")}`)).toBe(numAt(f, "injected", "estTokens"));
    }
    expect(est.get("untracked")).toBe(numAt(map, "untracked", "tokens"));
    // untracked = billed prompt tokens of the last call − the Σ of the tiles' own estimates in that prompt (issue 15:
    // no per-leaf rounding left over), so the tiles add up to the bill exactly — in the DTO and as drawn.
    expect(numAt(map, "actualTokens")).toBe(numAt(report, "lastCall", "promptTokens"));
    const tracked = sum(
      [...nodes.values()].filter((n) => n.leaf && n.id !== "untracked").map((n) => n.estTokens),
    );
    expect(numAt(map, "untracked", "tokens")).toBe(numAt(map, "actualTokens") - tracked);
    expect(strAt(map, "untracked", "reason")).toContain(`− ${tracked.toLocaleString("en-US")} tok, the Σ`);
    if ((await culled(page)) === 0) expect(sum([...est.values()])).toBe(numAt(map, "actualTokens"));
    await screenshot(page, "map-est-tokens");

    // Tokenizer: a note says whether counts are exact or still the estimate.
    await page.getByTestId("size-tiktoken").click();
    await expect.poll(() => param(page, "size"), POLL).toBe("tiktoken");
    await expect.poll(() => page.getByTestId("tokenizer-note").isVisible(), POLL).toBe(true);
    expect(await page.getByTestId("tokenizer-note").textContent()).toMatch(
      /tokenizer|estimate|cl100k|o200k/i,
    );
    // The server counts in the background; once it is done the page shows exact counts (its query polls).
    await expect
      .poll(async () => strAt(await api(e2e.server, "map"), "tokenizer", "state"), { timeout: 90_000 })
      .not.toBe("pending");
    const counted = await api(e2e.server, "map");
    const exactNodes = flatten(at(counted, "root"));
    if (strAt(counted, "tokenizer", "state") === "ready") {
      await expect
        .poll(() => page.getByTestId("tokenizer-note").textContent(), { timeout: 30_000 })
        .toContain("Tokenizer counts");
      // Never "exact"; and every group still at chars/4 is named.
      const note = (await page.getByTestId("tokenizer-note").textContent()) ?? "";
      expect(note).not.toMatch(/exact/i);
      const estimated = at(counted, "tokenizer", "estimatedGroups");
      if (!Array.isArray(estimated)) throw new Error("no estimatedGroups");
      for (const g of estimated) expect(note).toContain(String(g));
      expect([...exactNodes.values()].some((n) => n.tiktoken !== null)).toBe(true);
    }
    // Every tile is its tokenizer count, or OpenClaw's estimate where no text could be counted.
    await expect
      .poll(async () => {
        const tk = await tiles(page, "treemap-leaf");
        return (
          tk.length > 0 &&
          tk.every((t) => {
            const n = exactNodes.get(t.id);
            return n !== undefined && t.value === (n.tiktoken ?? n.estTokens);
          })
        );
      }, POLL)
      .toBe(true);
    await screenshot(page, "map-tokenizer");

    // Cache state: legend lists read / write / uncached with the last call's split.
    await page.getByTestId("size-cache").click();
    await expect.poll(() => param(page, "size"), POLL).toBe("cache");
    await expect.poll(() => page.getByTestId("cache-basis-note").isVisible(), POLL).toBe(true);
    const ct = at(map, "root", "cacheTokens");
    for (const state of ["read", "write", "uncached"]) {
      const v = numAt(ct, state);
      await expect
        .poll(() => page.getByTestId(`legend-${state}`).textContent(), POLL)
        .toContain(new Intl.NumberFormat("en-US").format(v));
    }
    expect(await page.locator("[data-cache]").count()).toBeGreaterThan(0);
    await screenshot(page, "map-cache");

    // Back to chars.
    await page.getByTestId("size-chars").click();
    await expect.poll(() => param(page, "size"), POLL).toBe(null);
    await expect
      .poll(
        async () => (await tiles(page, "treemap-leaf")).find((t) => t.id === "workspace/AGENTS.md")?.value,
        POLL,
      )
      .toBe(11_587);
    await page.close();
  });

  it("a permalink (tab, zoom, size mode, search) opens the same view in a fresh page", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openMap(page);
    await page
      .locator('[data-testid="treemap-group"][data-id="conversation"]')
      .click({ position: { x: 40, y: 6 } });
    await expect.poll(() => param(page, "zoom"), POLL).toBe("conversation");
    await page.getByTestId("size-estTokens").click();
    await expect.poll(() => param(page, "size"), POLL).toBe("estTokens");
    await page.getByTestId("map-search").fill("exec");
    await expect.poll(() => param(page, "q"), POLL).toBe("exec");
    await expect.poll(() => page.getByTestId("map-search-count").count(), POLL).toBe(1);
    const link = page.url();
    const want = {
      crumbs: await crumbs(page),
      count: await page.getByTestId("map-search-count").textContent(),
      leaves: await tiles(page, "treemap-leaf"),
    };
    await screenshot(page, "map-permalink-source");

    const ctx = await e2e.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await ctx.newPage();
    await fresh.goto(link);
    await expect.poll(() => fresh.getByTestId("treemap-svg").count(), POLL).toBe(1);
    await expect.poll(() => crumbs(fresh), POLL).toBe(want.crumbs);
    expect(await fresh.getByTestId("tab-map").getAttribute("aria-selected")).toBe("true");
    expect(await fresh.getByTestId("size-estTokens").getAttribute("aria-pressed")).toBe("true");
    expect(await fresh.getByTestId("map-search").inputValue()).toBe("exec");
    await expect.poll(() => fresh.getByTestId("map-search-count").textContent(), POLL).toBe(want.count);
    await expect.poll(() => tiles(fresh, "treemap-leaf"), POLL).toEqual(want.leaves);
    await screenshot(fresh, "map-permalink-opened");

    // A permalink to another tab opens that tab.
    const other = new URL(link);
    other.searchParams.set("tab", "truncation");
    await fresh.goto(other.toString());
    await expect
      .poll(() => fresh.getByTestId("tab-truncation").getAttribute("aria-selected"), POLL)
      .toBe("true");
    await expect.poll(() => fresh.getByTestId("panel-truncation").isVisible(), POLL).toBe(true);
    await ctx.close();
    await page.close();
  });

  it("toggles dark mode; the choice sticks across pages", async () => {
    const ctx = await e2e.browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: "light",
    });
    const page = await ctx.newPage();
    await openMap(page);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? "");
    await expect.poll(theme, POLL).toBe("light");
    const bgLight = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByTestId("theme-toggle").click();
    await expect.poll(theme, POLL).toBe("dark");
    expect(param(page, "dark")).toBe("1");
    expect(await page.getByTestId("theme-toggle").getAttribute("aria-pressed")).toBe("true");
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor), POLL)
      .not.toBe(bgLight);
    await screenshot(page, "map-dark");

    // A new page of the same profile without `dark` in the URL is still dark (stored choice).
    const again = await ctx.newPage();
    await openMap(again);
    await expect
      .poll(() => again.evaluate(() => document.documentElement.dataset.theme ?? ""), POLL)
      .toBe("dark");
    await again.getByTestId("theme-toggle").click();
    await expect
      .poll(() => again.evaluate(() => document.documentElement.dataset.theme ?? ""), POLL)
      .toBe("light");
    await ctx.close();
  });

  /** Click "Export PNG", capture the download, decode it and check the documented frame is not blank. */
  async function exportAndCheck(page: Page, artifact: string): Promise<void> {
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.getByTestId("map-export-png").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^clawscope-(openclaw-)?map-main-bc255ab3-b341-464a-a811-4d1115e16ed8.*\.png$/,
    );
    const png = decode(readFileSync(await download.path()));
    // The documented frame (web/treemap/export-png.ts): 1280 × 860, like OpenClaw's /context map image.
    expect(png.width).toBe(1280);
    expect(png.height).toBe(860);
    const ch = png.channels;
    const counts = new Map<number, number>();
    const px = png.width * png.height;
    for (let i = 0; i < px; i++) {
      const o = i * ch;
      const key = ((png.data[o] ?? 0) << 16) | ((png.data[o + 1] ?? 0) << 8) | (png.data[o + 2] ?? 0);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBeGreaterThan(50);
    const top = Math.max(...counts.values());
    expect(top / px).toBeLessThan(0.6);
    // The frame as documented: dark title band on top, light page behind, the treemap drawn in its area.
    const rgbAt = (x: number, y: number) => {
      const o = (y * png.width + x) * ch;
      return [png.data[o], png.data[o + 1], png.data[o + 2]];
    };
    expect(rgbAt(4, 4)).toEqual([20, 26, 34]);
    expect(rgbAt(4, 100)).toEqual([238, 241, 245]);
    const inMap = new Set<string>();
    for (let y = 120; y < 770; y += 7) for (let x = 30; x < 950; x += 7) inMap.add(rgbAt(x, y).join(","));
    expect(inMap.size).toBeGreaterThan(20);
    await download.saveAs(`${process.cwd()}/test-results/e2e/${artifact}.png`);
  }

  it("exports the map as a PNG (1280 × 860, not blank)", async () => {
    const ctx = await e2e.browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    const page = await ctx.newPage();
    await openMap(page);
    await exportAndCheck(page, "map-export-download");
    // Zoomed view: the export follows what is shown.
    await page.locator('[data-testid="treemap-leaf"][data-id="workspace/AGENTS.md"]').click();
    await expect.poll(() => param(page, "zoom"), POLL).toBe("workspace");
    await exportAndCheck(page, "map-export-download-zoomed");
    await screenshot(page, "map-export");
    await ctx.close();
  });

  it('"OpenClaw map" toggle draws OpenClaw\'s five-group map', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openMap(page);
    const toggle = page.getByTestId("map-openclaw-toggle");
    const enabled = await toggle.isEnabled();
    await screenshot(page, "map-openclaw-toggle-before");
    expect(
      enabled,
      "the map DTO has no `openclaw` field, so the OpenClaw map toggle is disabled (server/reports/map-tree.ts must send it)",
    ).toBe(true);
    await toggle.check();
    await expect.poll(() => param(page, "oc"), POLL).toBe("1");
    await expect.poll(() => page.getByTestId("openclaw-map").count(), POLL).toBe(1);
    expect(await page.getByTestId("openclaw-group").count()).toBe(5);
    expect(await page.getByTestId("openclaw-leaf").count()).toBeGreaterThan(5);
    // Leaf tooltips carry OpenClaw's values: "<Group> › <leaf>: <chars> chars (~<tok> tok)".
    const leaves = (
      await page
        .locator('[data-testid="openclaw-leaf"] title')
        .evaluateAll((els) => els.map((e) => e.textContent ?? ""))
    ).map((t) => {
      const m = /^(.+?) › (.+): (\d+) chars \(~(\d+) tok\)$/.exec(t);
      if (!m) throw new Error(`unexpected OpenClaw leaf title ${JSON.stringify(t)}`);
      return { group: m[1] ?? "", name: m[2] ?? "", chars: Number(m[3]), tok: Number(m[4]) };
    });
    expect(new Set(leaves.map((l) => l.group))).toEqual(
      new Set(["Conversation", "Workspace files", "System prompt", "Skills", "Tool schemas"]),
    );
    const spr = at(report, "systemPromptReport", "report");
    const groupSum = (g: string) => sum(leaves.filter((l) => l.group === g).map((l) => l.chars));
    expect(groupSum("Workspace files")).toBe(numAt(spr, "systemPrompt", "projectContextChars"));
    expect(groupSum("Tool schemas")).toBe(numAt(report, "totals", "toolSchemas", "chars"));
    for (const f of objects(arrAt(spr, "injectedWorkspaceFiles")).filter((x) => x.missing !== true)) {
      const leaf = leaves.find((l) => l.group === "Workspace files" && l.name === strAt(f, "name"));
      expect(leaf?.chars, strAt(f, "name")).toBe(numAt(f, "injectedChars"));
    }
    for (const l of leaves) expect(l.tok, l.name).toBe(Math.ceil(l.chars / 4));
    // The footer's tracked total (OpenClaw prints digit groups with spaces) is the sum of the leaves.
    const footer = await page
      .locator('[data-testid="openclaw-map"] text')
      .evaluateAll((els) => els.map((e) => e.textContent ?? "").find((t) => /ACTUAL CTX/.test(t)) ?? "");
    const total = /^([\d ]+) CH/.exec(footer.trim())?.[1];
    expect(total, footer).toBeDefined();
    expect(Number((total ?? "").replaceAll(" ", ""))).toBe(sum(leaves.map((l) => l.chars)));
    // It says why it is larger than the context sent, beside the billed prompt (ux-notes Context map H).
    const note = (await page.getByTestId("openclaw-map-note").textContent()) ?? "";
    expect(note).toContain(`${fmtInt(sum(leaves.map((l) => l.chars)))} chars`);
    expect(note).toContain("tool-result text counts twice its length");
    expect(note).toContain(`billed prompt was ${fmtInt(numAt(map, "numbers", "billedPromptTokens"))} tokens`);
    await screenshot(page, "map-openclaw");
    await exportAndCheck(page, "map-export-download-openclaw");
    await toggle.uncheck();
    await expect.poll(() => page.getByTestId("treemap-svg").count(), POLL).toBe(1);
    await page.close();
  });
});
