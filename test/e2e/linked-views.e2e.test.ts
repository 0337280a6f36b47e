// Views that lead into each other (issue 15): a click on a workspace file's tile pins its details next to it, and
// from there "Open its bootstrap truncation" lands on the Bootstrap truncation tab with that file's diff open; a
// tool result's tile at a call says its pruning state there and its size stored vs sent (as GET …/sent/call
// reports them), is hatched when trimmed, and opens its before/after preview on the Pruning tab at that call.
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { isObject } from "../../shared/json.ts";
import { SHARED_FIXTURES, screenshot, withE2eServer } from "./harness.ts";

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

interface CallView {
  call: number;
  states: Map<string, string>;
  chars: Map<string, { stored: number; sent: number }>;
}

/** The last call's number and its tool results' states and sizes, from the API (GET …/sent, …/sent/call). */
async function lastCallView(base: string, page = PAGE): Promise<CallView> {
  const list: unknown = await (await fetch(`${base}api/${page}/sent`)).json();
  if (!isObject(list) || !Array.isArray(list.calls)) throw new Error("GET …/sent: no calls");
  const last = list.calls.at(-1);
  const call = isObject(last) && typeof last.call === "number" ? last.call : 0;
  const view: unknown = await (await fetch(`${base}api/${page}/sent/call?call=${call}`)).json();
  if (!isObject(view) || !isObject(view.toolResults) || !isObject(view.toolResultChars))
    throw new Error("GET …/sent/call: no tool results");
  const states = new Map<string, string>();
  for (const [k, v] of Object.entries(view.toolResults)) if (typeof v === "string") states.set(k, v);
  const chars = new Map<string, { stored: number; sent: number }>();
  for (const [k, v] of Object.entries(view.toolResultChars))
    if (isObject(v) && typeof v.stored === "number" && typeof v.sent === "number")
      chars.set(k, { stored: v.stored, sent: v.sent });
  return { call, states, chars };
}

/** Drawn tool-result leaves (id, toolCallId, area) under `scope`. */
async function toolResultLeaves(page: Page, scope: string) {
  const leaves = await page.$$eval(`${scope} [data-testid="treemap-leaf"]`, (els) =>
    els.map((e) => ({
      id: e.getAttribute("data-id") ?? "",
      area: Number(e.getAttribute("width")) * Number(e.getAttribute("height")),
    })),
  );
  const prefix = "conversation/tool-results/";
  return leaves
    .filter((l) => l.id.startsWith(prefix))
    .map((l) => ({ ...l, toolCallId: decodeURIComponent(l.id.slice(l.id.lastIndexOf("/") + 1)) }));
}

describe("map → pruning (e2e, demo)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("a soft-trimmed tool result at call N says so, hatched, and opens its pruning preview at that call", async () => {
    const view = await lastCallView(e2e.server.url);
    expect([...view.states.values()]).toContain("soft-trim");
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&call=${view.call}`);
    const scope = `[data-testid="sent-map"][data-call="${view.call}"]`;
    await expect.poll(async () => (await toolResultLeaves(page, scope)).length, POLL).toBeGreaterThan(0);
    const leaves = await toolResultLeaves(page, scope);
    // every trimmed tile drawn is hatched, and only those
    const hatched = await page.$$eval(`${scope} [data-testid="treemap-prune-hatch"]`, (els) =>
      els.map((e) => `${e.getAttribute("data-tile")}|${e.getAttribute("data-prune")}`),
    );
    const want = leaves
      .filter((l) => view.states.get(l.toolCallId) === "soft-trim")
      .map((l) => `${l.id}|soft-trim`);
    expect(want.length).toBeGreaterThan(0);
    expect(hatched.sort()).toEqual(want.sort());
    const target = leaves
      .filter((l) => view.states.get(l.toolCallId) === "soft-trim")
      .sort((a, b) => b.area - a.area)[0];
    if (!target) throw new Error("no soft-trimmed tile drawn");
    const sizes = view.chars.get(target.toolCallId);
    if (!sizes) throw new Error(`no sizes for ${target.toolCallId}`);
    expect(sizes.sent).toBeLessThan(sizes.stored);
    await page.locator(`${scope} [data-testid="treemap-leaf"][data-id="${target.id}"]`).click();
    const panel = page.getByTestId("treemap-detail");
    await expect.poll(() => panel.count(), POLL).toBe(1);
    expect(await panel.getByTestId("tile-prune-state").getAttribute("data-state")).toBe("soft-trim");
    expect(await panel.getByTestId("tile-prune-state").textContent()).toContain(`at call ${view.call}`);
    const num = (t: string | null) => Number((t ?? "").replace(/[^0-9]/g, ""));
    expect(num(await panel.getByTestId("tile-prune-stored").textContent())).toBe(sizes.stored);
    expect(num(await panel.getByTestId("tile-prune-sent").textContent())).toBe(sizes.sent);
    await screenshot(page, "linked-map-tool-result-detail");
    await panel.getByTestId("treemap-detail-pruning").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("tab"), POLL).toBe("pruning");
    const url = new URL(page.url());
    // the Pruning tab numbers its rows #1… with `call` = row − 1: the map's call N is its row #N
    expect(url.searchParams.get("call")).toBe(String(view.call - 1));
    expect(url.searchParams.get("tr")).toBe(target.toolCallId);
    const preview = page.getByTestId("prune-preview");
    await expect.poll(() => preview.count(), POLL).toBe(1);
    expect(await preview.getAttribute("data-tool-call-id")).toBe(target.toolCallId);
    expect(await page.getByTestId("prune-call-details").locator("h3").textContent()).toContain(
      `Call #${view.call}`,
    );
    // one size each: the preview's stored and sent texts are the panel's sizes
    expect(((await preview.getByTestId("prune-preview-before").textContent()) ?? "").length).toBe(
      sizes.stored,
    );
    expect(((await preview.getByTestId("prune-preview-after").textContent()) ?? "").length).toBe(sizes.sent);
    expect(await preview.isVisible()).toBe(true);
    // back on the map tab the same call is shown: its ?call=N again (shared/call-numbering.ts)
    await page.getByTestId("tab-map").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("call"), POLL).toBe(String(view.call));
    await expect
      .poll(() => page.getByTestId("sent-map").getAttribute("data-call"), POLL)
      .toBe(String(view.call));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the map at call N as a table says each tool result's state and sent chars at N; the scrubber keeps the table", async () => {
    const view = await lastCallView(e2e.server.url);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&call=${view.call}&view=table`);
    const scope = `[data-testid="sent-map"][data-call="${view.call}"]`;
    const row = (id: string) => page.locator(`${scope} tr[data-row-id="${id}"]`);
    await expect.poll(() => row("conversation").count(), POLL).toBe(1);
    expect(await page.locator(`${scope} [data-testid="treemap-svg"]`).count()).toBe(0);
    expect((await page.locator(`${scope} [data-testid="map-table"] thead`).textContent()) ?? "").toContain(
      `Pruning at call ${view.call}`,
    );
    await row("conversation").click();
    await expect.poll(() => row("conversation/tool-results").count(), POLL).toBe(1);
    await row("conversation/tool-results").click();
    const prefix = "conversation/tool-results/";
    const cells = async () =>
      page.$$eval(`${scope} tr[data-row-id^="${prefix}"]`, (els) =>
        els.map((e) => ({
          id: e.getAttribute("data-row-id") ?? "",
          text: e.querySelector('[data-testid="map-table-pruning"]')?.textContent ?? "",
        })),
      );
    await expect.poll(async () => (await cells()).length, POLL).toBeGreaterThan(0);
    // open every group under the tool results (one per tool) and any "Show all" row
    for (let round = 0; round < 20; round++) {
      const closed = page.locator(`${scope} tr[data-row-id^="${prefix}"][aria-expanded="false"]`);
      const more = page.locator(`${scope} [data-testid="map-table-more"]`);
      if ((await closed.count()) > 0) await closed.first().click();
      else if ((await more.count()) > 0) await more.first().click();
      else break;
    }
    const rows = await cells();
    let trimmed = 0;
    for (const r of rows) {
      const id = decodeURIComponent(r.id.slice(r.id.lastIndexOf("/") + 1));
      const state = view.states.get(id);
      const sizes = view.chars.get(id);
      if (!state || !sizes) continue;
      const word = state === "full" ? "full" : state === "soft-trim" ? "soft-trimmed" : "hard-cleared";
      expect(r.text, id).toContain(`${word} at call ${view.call}`);
      if (state !== "full") {
        trimmed++;
        expect(r.text, id).toContain(
          `${sizes.stored.toLocaleString("en-US")} → ${sizes.sent.toLocaleString("en-US")} chars sent`,
        );
      }
    }
    expect(trimmed).toBeGreaterThan(0);
    await screenshot(page, "sent-map-table");
    // `[` steps to the previous call and keeps the table view
    await page.evaluate(() =>
      document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
    );
    await page.keyboard.press("[");
    await expect
      .poll(() => page.getByTestId("sent-map").getAttribute("data-call"), POLL)
      .toBe(String(view.call - 1));
    expect(new URL(page.url()).searchParams.get("view")).toBe("table");
    await expect
      .poll(() => page.locator('[data-testid="sent-map"] [data-testid="map-table"]').count(), POLL)
      .toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the latest map hatches the tool results trimmed at the last call and says so in their details", async () => {
    const view = await lastCallView(e2e.server.url);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&zoom=conversation/tool-results`);
    const hatch = page.locator('[data-testid="treemap-prune-hatch"]');
    await expect.poll(() => hatch.count(), POLL).toBeGreaterThan(0);
    const leaves = await toolResultLeaves(page, '[data-testid="treemap"]');
    const trimmed = leaves.filter((l) => view.states.get(l.toolCallId) === "soft-trim");
    expect(await hatch.count()).toBe(trimmed.length);
    // the note under the toolbar says what the hatching means, with the last call's counts
    const soft = [...view.chars.keys()].filter((id) => view.states.get(id) === "soft-trim").length;
    expect(await page.getByTestId("map-prune-note").textContent()).toContain(
      `last call (${view.call}): ${soft} soft-trimmed (hatched`,
    );
    const full = leaves.find((l) => view.states.get(l.toolCallId) === "full");
    if (!full) throw new Error("no full tool result drawn");
    // a click on a leaf zooms into its tool's group first; in there it pins the leaf's details
    await page.goto(
      `${e2e.server.url}${PAGE}?tab=map&zoom=${encodeURIComponent(full.id.slice(0, full.id.lastIndexOf("/")))}`,
    );
    await page.locator(`[data-testid="treemap-leaf"][data-id="${full.id}"]`).click();
    const panel = page.getByTestId("treemap-detail");
    await expect.poll(() => panel.count(), POLL).toBe(1);
    expect(await panel.getByTestId("tile-prune-state").getAttribute("data-state")).toBe("full");
    const sizes = view.chars.get(full.toolCallId);
    const num = (t: string | null) => Number((t ?? "").replace(/[^0-9]/g, ""));
    expect(num(await panel.getByTestId("tile-prune-sent").textContent())).toBe(sizes?.sent);
    expect(num(await panel.getByTestId("tile-prune-stored").textContent())).toBe(sizes?.stored);
    await page.close();
  });
});

const LEGACY = "sessions/legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";

describe("pruning timeline marks (e2e, demo)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("marks the legacy session's compactions; a click on one selects the call after it", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(`${e2e.server.url}${LEGACY}?tab=pruning`);
    const marks = page.locator('[data-testid="prune-event-mark"]');
    await expect.poll(() => marks.count(), POLL).toBe(2);
    expect(await marks.first().getAttribute("data-kind")).toBe("compaction");
    expect((await marks.first().locator("text").textContent()) ?? "").toBe("C");
    const before = Number(await marks.first().getAttribute("data-before-call"));
    await marks.first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get("call"), POLL).toBe(String(before));
    const details = page.getByTestId("prune-call-details");
    await expect.poll(() => details.count(), POLL).toBe(1);
    expect((await details.locator("h3").textContent()) ?? "").toContain(`Call #${before + 1}`);
    // the list under the timeline names the compaction and its call
    const row = page.locator('[data-testid="prune-timeline-event"][data-kind="compaction"]').first();
    expect(await row.textContent()).toBe(`C compaction before #${before + 1}`);
    await page.close();
  });

  it("an expired gap's $ on the timeline is the Cache & cost tab's for that call; its row selects the call", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=pruning`);
    const gaps = page.locator('[data-testid="prune-timeline-event"][data-kind="gap"]');
    await expect.poll(() => gaps.count(), POLL).toBeGreaterThan(3);
    const shown = await gaps.evaluateAll((els) =>
      els.map((e) => ({ call: Number(e.getAttribute("data-call")), text: e.textContent ?? "" })),
    );
    // the $ drawn above the first gap's bar is its row's
    const first = shown[0];
    if (!first) throw new Error("no gap row");
    const usd = /\$[0-9.]+/.exec(first.text)?.[0] ?? "";
    expect(usd).not.toBe("");
    expect(first.text).toBe(`#${first.call + 1} expired gap: ${usd}`);
    expect(await page.locator(`[data-testid="prune-gap-usd"][data-call="${first.call}"]`).textContent()).toBe(
      usd,
    );
    await gaps.first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get("call"), POLL).toBe(String(first.call));
    const note = page.getByTestId("prune-call-gap-cost");
    await expect.poll(() => note.count(), POLL).toBe(1);
    expect((await note.textContent()) ?? "").toContain(`(${usd})`);
    // the calls table's row of that call carries the same $ in its Expiry $ column
    expect((await page.getByTestId(`prune-call-row-${first.call}`).textContent()) ?? "").toContain(usd);
    // the Cache & cost tab's expiry table: the same gaps, in call order, with the same premiums
    await page.goto(`${e2e.server.url}${PAGE}?tab=cost`);
    const table = page.getByTestId("cost-gap-table");
    await expect.poll(() => table.count(), POLL).toBe(1);
    const all = table.getByTestId("table-all");
    if ((await all.count()) > 0) await all.click();
    const premiums = await table
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.querySelector("td:last-child")?.textContent ?? ""));
    expect(premiums.length).toBe(shown.length);
    expect(shown.map((g) => /\$[0-9.]+/.exec(g.text)?.[0])).toEqual(premiums);
    await page.close();
  });
});

const S3_STATE = path.join(SHARED_FIXTURES, "s3-aggressive-hardclear", "state");
if (!existsSync(S3_STATE)) console.warn(`skipped: the hard-clear map test needs ${S3_STATE}`);

describe.skipIf(!existsSync(S3_STATE))(
  "map: hard-cleared tool results (e2e, fixture s3, read in place)",
  () => {
    const e2e = withE2eServer(["--state-dir", S3_STATE]);

    it("cross-hatches each hard-cleared tile at the last call; its details say so, sent = the placeholder", async () => {
      const list: unknown = await (await fetch(`${e2e.server.url}api/sessions`)).json();
      const rows = isObject(list) && Array.isArray(list.sessions) ? list.sessions : [];
      const s = rows.find((r) => isObject(r) && r.archived === null);
      if (!isObject(s) || typeof s.agentId !== "string" || typeof s.sessionId !== "string")
        throw new Error("no session in s3");
      const page0 = `sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}`;
      const view = await lastCallView(e2e.server.url, page0);
      const hard = [...view.states].filter(([, st]) => st === "hard-clear").map(([id]) => id);
      expect(hard.length).toBeGreaterThan(3);
      const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`${e2e.server.url}${page0}?tab=map&call=${view.call}`);
      const scope = `[data-testid="sent-map"][data-call="${view.call}"]`;
      await expect.poll(async () => (await toolResultLeaves(page, scope)).length, POLL).toBeGreaterThan(0);
      const leaves = await toolResultLeaves(page, scope);
      const drawn = leaves.filter((l) => view.states.get(l.toolCallId) === "hard-clear");
      expect(drawn.length).toBeGreaterThan(0);
      const crossed = await page.$$eval(`${scope} [data-prune="hard-clear"]`, (els) =>
        els.map((e) => e.getAttribute("data-tile") ?? ""),
      );
      expect(crossed.sort()).toEqual(drawn.map((l) => l.id).sort());
      const target = [...drawn].sort((a, b) => b.area - a.area)[0];
      if (!target) throw new Error("no hard-cleared tile");
      await page.locator(`${scope} [data-testid="treemap-leaf"][data-id="${target.id}"]`).click();
      const panel = page.getByTestId("treemap-detail");
      await expect.poll(() => panel.count(), POLL).toBe(1);
      expect(await panel.getByTestId("tile-prune-state").getAttribute("data-state")).toBe("hard-clear");
      const sizes = view.chars.get(target.toolCallId);
      const num = (t: string | null) => Number((t ?? "").replace(/[^0-9]/g, ""));
      // s3's custom placeholder is 57 chars (spec fixtures.md §2)
      expect(sizes?.sent).toBe(57);
      expect(num(await panel.getByTestId("tile-prune-sent").textContent())).toBe(57);
      expect(num(await panel.getByTestId("tile-prune-stored").textContent())).toBe(sizes?.stored);
      await screenshot(page, "linked-map-hard-clear");
      await page.close();
    });
  },
);
