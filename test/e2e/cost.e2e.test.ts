// Cache & cost (issue 7) in real headless Chromium, against the built app serving the bundled demo state dir:
// one row per model call with its cache verdict, totals equal to the API's (and to the rows' sums), and the
// evidence behind a verdict.

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { isArray, isObject, type JsonObject } from "../../shared/json.ts";
import { verdictWithCause } from "../../shared/spend-causes.ts";
import { type RunningServer, screenshot, withE2eServer } from "./harness.ts";

const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";
const PAGE = `sessions/${AGENT}/${SESSION}?tab=cost`;
const POLL = { timeout: 20_000 };

async function api(server: RunningServer, what: string): Promise<JsonObject> {
  const res = await fetch(`${server.url}api/sessions/${AGENT}/${SESSION}/${what}`);
  expect(res.status, `GET ${what}`).toBe(200);
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error(`${what}: not a JSON object`);
  return body;
}

function objOf(o: JsonObject, key: string): JsonObject {
  const v = o[key];
  if (!isObject(v)) throw new Error(`cost DTO has no object ${key}`);
  return v;
}
function numOf(o: JsonObject, key: string): number {
  const v = o[key];
  if (typeof v !== "number") throw new Error(`cost DTO: ${key} is not a number`);
  return v;
}

const int = (n: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(Math.round(n));
const pct = (r: number, digits = 1) => `${(r * 100).toFixed(digits)}%`;
const usd = (n: number) => (n !== 0 && Math.abs(n) < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);
const parseInt10 = (s: string | undefined) => Number((s ?? "").replace(/[^\d]/g, ""));

/** label → value of the Stat tiles inside a card. */
async function stats(page: Page, testId: string): Promise<Map<string, string>> {
  const pairs = await page
    .getByTestId(testId)
    .locator(".stat")
    .evaluateAll((els) =>
      els.map((e) => [
        (e.querySelector(".stat-label")?.textContent ?? "").trim(),
        (e.querySelector(".stat-value")?.textContent ?? "").trim(),
      ]),
    );
  return new Map(pairs.map(([k, v]) => [k ?? "", v ?? ""]));
}

/** Cells of every call row, keyed by the row's entry index. */
async function callRows(page: Page): Promise<Map<number, string[]>> {
  const rows = await page.locator('[data-testid^="cost-call-row-"]').evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute("data-testid") ?? "",
      cells: Array.from(tr.querySelectorAll("td")).map((td) =>
        (td.textContent ?? "").replace(/\s+/g, " ").trim(),
      ),
    })),
  );
  return new Map(rows.map((r) => [Number(r.id.replace("cost-call-row-", "")), r.cells]));
}

function param(page: Page, key: string): string | null {
  return new URL(page.url()).searchParams.get(key);
}

describe("cache & cost (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  let cost: JsonObject;
  let calls: JsonObject[];

  beforeAll(async () => {
    cost = await api(e2e.server, "cost");
    calls = isArray(cost.calls) ? cost.calls.filter(isObject) : [];
  });

  async function open(page: Page, extra = ""): Promise<void> {
    await page.goto(`${e2e.server.url}${PAGE}${extra}`);
    await expect.poll(() => page.locator('[data-testid^="cost-call-row-"]').count(), POLL).toBeGreaterThan(0);
  }

  it("lists one row per model call (60) with its verdict; totals equal the API's and the rows' sums", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page);
    await screenshot(page, "cost-view");

    expect(calls.length).toBe(60);
    const rows = await callRows(page);
    expect(rows.size).toBe(60);

    // Columns: #, Time, Gap, Verdict, Prompt, Read, Write, Input, Output, Hit, Cost, Miss cost, flags.
    const verdicts = new Map<string, number>();
    for (const c of calls) {
      const row = rows.get(numOf(c, "entryIndex"));
      expect(row, `row for entry ${c.entryIndex}`).toBeDefined();
      if (!row) continue;
      const verdict = typeof c.verdict === "string" ? c.verdict : "";
      verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
      // the verdict, and the cause the breakdown card names where it says more
      const cause = objOf(c, "cause").cause;
      expect(row[3]).toBe(verdictWithCause(verdict, typeof cause === "string" ? cause : ""));
      expect(row[4]).toBe(int(numOf(c, "promptTokens")));
      expect(row[5]).toBe(int(numOf(c, "cacheRead")));
      expect(row[6]?.replace(" (1h)", "")).toBe(int(numOf(c, "cacheWrite")));
      expect(row[7]).toBe(int(numOf(c, "input")));
      expect(row[8]).toBe(int(numOf(c, "output")));
    }
    // Every call has a verdict of the documented vocabulary; the demo's session has misses after idle gaps.
    const known = [
      "hit",
      "cold-start",
      "ttl-expired",
      "prefix-changed",
      "model-switch",
      "below-minimum",
      "unexplained",
    ];
    for (const v of verdicts.keys()) expect(known).toContain(v);
    expect(verdicts.get("hit") ?? 0).toBeGreaterThan(0);
    expect(verdicts.get("ttl-expired") ?? 0).toBeGreaterThan(0);
    expect(verdicts.get("cold-start")).toBe(1);
    const shown = [...rows.values()].map((r) => (r[3] ?? "").split(":")[0] ?? "");
    for (const [v, n] of verdicts) expect(shown.filter((s) => s === v).length, v).toBe(n);

    // Totals card = API totals = Σ of the rows.
    const t = objOf(cost, "totals");
    const card = await stats(page, "cost-totals");
    expect(card.get("calls")).toBe(int(numOf(t, "calls")));
    expect(card.get("input")).toBe(int(numOf(t, "input")));
    expect(card.get("cache read")).toBe(int(numOf(t, "cacheRead")));
    expect(card.get("cache write")).toBe(int(numOf(t, "cacheWrite")));
    expect(card.get("output")).toBe(int(numOf(t, "output")));
    expect(card.get("read hit rate")).toBe(pct(numOf(t, "hitRate")));
    expect(card.get("write-aware hit rate")).toBe(pct(numOf(t, "writeAwareHitRate")));
    expect(card.get("cost")).toBe(usd(numOf(t, "costUsd")));
    if (numOf(t, "unpricedCalls") > 0)
      expect(card.get("unpriced calls")).toBe(int(numOf(t, "unpricedCalls")));
    const col = (i: number) => [...rows.values()].reduce((s, r) => s + parseInt10(r[i]), 0);
    expect(col(5)).toBe(numOf(t, "cacheRead"));
    expect(col(6)).toBe(numOf(t, "cacheWrite"));
    expect(col(7)).toBe(numOf(t, "input"));
    expect(col(8)).toBe(numOf(t, "output"));
    expect(numOf(t, "calls")).toBe(rows.size);
    // Hit rate = cacheRead / (input + cacheRead + cacheWrite), buckets summed first.
    expect(numOf(t, "hitRate")).toBeCloseTo(col(5) / (col(5) + col(6) + col(7)), 12);

    // Every call of the demo session is on its active branch: one totals card, saying so (issue 15).
    expect(numOf(objOf(cost, "activeBranchTotals"), "calls")).toBe(numOf(t, "calls"));
    expect(await page.getByTestId("cost-branch-totals").count()).toBe(0);
    expect(await page.getByTestId("cost-totals").locator("h3").textContent()).toContain(
      "every call is on the active branch",
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a row opens the evidence for its verdict", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    for (const verdict of ["ttl-expired", "hit", "prefix-changed"]) {
      const c = calls.find((x) => x.verdict === verdict);
      if (!c) {
        if (verdict === "prefix-changed") continue;
        throw new Error(`no ${verdict} call in the demo session`);
      }
      const entry = numOf(c, "entryIndex");
      const ev = objOf(c, "evidence");
      await page.getByTestId(`cost-call-row-${entry}`).click();
      await expect.poll(() => param(page, "ccall"), POLL).toBe(String(entry));
      await expect.poll(() => page.getByTestId("cost-evidence").count(), POLL).toBe(1);
      const box = page.getByTestId("cost-evidence");
      const head = ((await box.locator("h3").textContent()) ?? "").replace(/\s+/g, " ").trim();
      expect(head).toBe(`${verdict} ${String(ev.summary)}`);
      const facts = new Map(
        await box
          .locator("tr")
          .evaluateAll((trs) =>
            trs.map((tr) => [
              (tr.querySelector("th")?.textContent ?? "").trim(),
              (tr.querySelector("td")?.textContent ?? "").trim(),
            ]),
          ),
      );
      expect(facts.get("previous call (lineage)")).toBe(
        typeof ev.previousCallEntryId === "string" ? ev.previousCallEntryId : "none",
      );
      expect(facts.get("expected read")).toBe(int(numOf(ev, "expectedRead")));
      expect(facts.get("actual read")).toBe(int(numOf(c, "cacheRead")));
      expect(facts.get("miss deficit")).toBe(int(numOf(ev, "missDeficit")));
      expect(facts.get("tolerance")).toBe(int(numOf(ev, "toleranceTokens")));
      if (verdict === "ttl-expired") {
        // The evidence of a TTL miss: the gap to the previous call exceeds the cache lifetime.
        expect(numOf(ev, "lineageGapMs")).toBeGreaterThan(numOf(ev, "cacheTtlMs"));
        expect(numOf(c, "cacheRead")).toBeLessThan(numOf(ev, "expectedRead"));
      }
      if (verdict === "hit")
        expect(numOf(ev, "missDeficit")).toBeLessThanOrEqual(numOf(ev, "toleranceTokens"));
      await box.scrollIntoViewIfNeeded();
      await screenshot(page, `cost-evidence-${verdict}`);
    }
    // A permalink to the selected call opens the same evidence in a fresh page.
    const ctx = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const fresh = await ctx.newPage();
    await fresh.goto(page.url());
    await expect.poll(() => fresh.getByTestId("cost-evidence").count(), POLL).toBe(1);
    expect(await fresh.getByTestId("cost-evidence").locator("h3").textContent()).toBe(
      await page.getByTestId("cost-evidence").locator("h3").textContent(),
    );
    await ctx.close();
    await page.close();
  });
  it("where the money went: the causes add up to the spend; a cause and a costly call open the evidence in view", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const breakdown = isArray(cost.breakdown) ? cost.breakdown.filter(isObject) : [];
    expect(breakdown.length).toBeGreaterThan(1);
    const total = numOf(objOf(cost, "totals"), "costUsd");
    expect(total).toBeGreaterThan(0); // the demo prices its model (issue 14 §3)
    expect(Math.abs(breakdown.reduce((a, b) => a + numOf(b, "costUsd"), 0) - total)).toBeLessThan(0.005);
    const card = page.getByTestId("cost-breakdown");
    for (const b of breakdown) {
      const cells = await card
        .getByTestId(`cost-cause-${String(b.cause)}`)
        .locator("td")
        .evaluateAll((tds) => tds.map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()));
      expect(cells[0]?.startsWith(String(b.cause))).toBe(true);
      expect(cells[1]).toBe(int(numOf(b, "calls")));
      expect(cells[2]).toBe(int(numOf(b, "tokens")));
      expect(cells[3]).toBe(usd(numOf(b, "costUsd")));
      expect(cells[4]).toBe(pct(numOf(b, "shareOfSpend")));
    }
    const inView = async (entry: number) => {
      await expect.poll(() => param(page, "ccall"), POLL).toBe(String(entry));
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null), POLL)
        .toBe("cost-evidence");
      const box = await page.getByTestId("cost-evidence").boundingBox();
      expect(box).not.toBeNull();
      if (box) expect(box.y >= 0 && box.y < 900).toBe(true);
      const cause = ((await page.getByTestId("cost-evidence-cause").textContent()) ?? "").replace(
        /\s+/g,
        " ",
      );
      const call = calls.find((c) => numOf(c, "entryIndex") === entry);
      expect(cause).toContain(String(call ? objOf(call, "cause").cause : "?"));
    };
    // The costliest cause opens its costliest call.
    const first = breakdown[0];
    if (!first) throw new Error("no breakdown row");
    const ofCause = calls.filter((c) => objOf(c, "cause").cause === first.cause);
    const want = ofCause.reduce((a, c) => (numOf(c, "costUsd") > numOf(a, "costUsd") ? c : a));
    await card
      .getByTestId(`cost-cause-${String(first.cause)}`)
      .getByRole("button")
      .click();
    await inView(numOf(want, "entryIndex"));
    await screenshot(page, "cost-breakdown-cause");
    // A costly call of the top-5 list opens its own evidence, scrolled back into view from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = [...calls].sort((a, b) => numOf(b, "costUsd") - numOf(a, "costUsd")).slice(0, 5);
    const second = top[1];
    if (!second) throw new Error("fewer than two priced calls");
    await page.getByTestId(`cost-top-call-${numOf(second, "entryIndex")}`).click();
    await inView(numOf(second, "entryIndex"));
    expect(await page.locator('[data-testid^="cost-top-call-"]').count()).toBe(5);
    await page.close();
  });

  it("an expiry row names its call and opens that call's evidence in view", async () => {
    const gaps = isArray(cost.gapCosts) ? cost.gapCosts.filter(isObject) : [];
    expect(gaps.length).toBeGreaterThan(0); // the demo's main session has TTL expiries
    const last = gaps[gaps.length - 1];
    const at = calls.findIndex((c) => c.entryId === last?.callEntryId);
    const call = calls[at];
    if (!call) throw new Error("the expiry's call is not among the calls");
    const entry = numOf(call, "entryIndex");
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const link = page.getByTestId("cost-gap-table").getByTestId(`cost-link-call-${entry}`);
    expect(await link.textContent()).toBe(`call #${at + 1}`);
    await link.click();
    await expect.poll(() => param(page, "ccall"), POLL).toBe(String(entry));
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null), POLL)
      .toBe("cost-evidence");
    const box = await page.getByTestId("cost-evidence").boundingBox();
    if (box) expect(box.y >= 0 && box.y < 900).toBe(true);
    expect(box).not.toBeNull();
    expect(await page.getByTestId("cost-evidence").locator("h3").textContent()).toContain("ttl-expired");
    await page.close();
  });

  it("the other demo sessions list their calls too (research SQLite, legacy JSONL)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const [agent, session] of [
      ["research", "c50b7fb8-120b-44a9-a477-545eec87c0a7"],
      ["legacy", "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84"],
    ] as const) {
      const res = await fetch(`${e2e.server.url}api/sessions/${agent}/${session}/cost`);
      expect(res.status).toBe(200);
      const body: unknown = await res.json();
      if (!isObject(body)) throw new Error("cost: not an object");
      const want = isArray(body.calls) ? body.calls.filter(isObject) : [];
      expect(want.length).toBeGreaterThan(0);
      await page.goto(`${e2e.server.url}sessions/${agent}/${session}?tab=cost`);
      await expect
        .poll(() => page.locator('[data-testid^="cost-call-row-"]').count(), POLL)
        .toBe(want.length);
      const rows = await callRows(page);
      for (const c of want)
        expect(rows.get(numOf(c, "entryIndex"))?.[3]?.split(":")[0], agent).toBe(c.verdict);
      const card = await stats(page, "cost-totals");
      const t = objOf(body, "totals");
      expect(card.get("calls")).toBe(int(numOf(t, "calls")));
      expect(card.get("cache read")).toBe(int(numOf(t, "cacheRead")));
      await screenshot(page, `cost-${agent}`);
    }
    await page.close();
  });
});
