// The Pruning tab's what-if against the run as recorded (issue 15) in real headless Chromium on the bundled demo:
// the delta table's rounds and trimmed counts = the two replays of GET …/prune, its tokens and $ = GET
// /api/compare's (the cost report's counterfactual), "not modelled" where the comparison says so; and the
// `[fixed]` settings' tooltip.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fmtInt, fmtUsd } from "../../shared/format.ts";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const REF = "main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

function num(o: JsonObject, key: string): number | null {
  const v = o[key];
  return typeof v === "number" ? v : null;
}
async function cell(page: Page, key: string, col: "as-run" | "what-if" | "delta"): Promise<string> {
  return (
    (await page.locator(`[data-testid="prune-delta-${key}"] [data-testid="${col}"]`).textContent()) ?? ""
  );
}

describe("pruning what-if delta (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  async function json(path: string): Promise<JsonObject> {
    const res = await fetch(`${e2e.server.url}api/${path}`);
    expect(res.status, path).toBe(200);
    const body: unknown = await res.json();
    if (!isObject(body)) throw new Error(`${path}: not an object`);
    return body;
  }
  async function counts(query: string): Promise<{ rounds: number; soft: number; hard: number }> {
    const dto = await json(`sessions/${REF}/prune?calls=summary${query}`);
    const calls = Array.isArray(dto.calls) ? dto.calls.filter(isObject) : [];
    return {
      rounds: num(dto, "rounds") ?? -1,
      soft: calls.reduce((s, c) => s + (num(c, "softTrimmedNow") ?? 0), 0),
      hard: calls.reduce((s, c) => s + (num(c, "hardClearedNow") ?? 0), 0),
    };
  }

  it("no what-if: no delta; the [fixed] settings say why in their tooltip", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/${REF}?tab=pruning`);
    await expect.poll(() => page.getByTestId("prune-summary").count(), POLL).toBe(1);
    expect(await page.getByTestId("prune-what-if-delta").count()).toBe(0);
    const label = page.locator("label", { has: page.getByTestId("prune-keepLastAssistants") });
    expect(await label.textContent()).toContain("[fixed]");
    const title = (await label.getAttribute("title")) ?? "";
    expect(title).toContain("2026.9.x hard-codes keepLastAssistants");
    expect(title).toContain("pruning.md §2.1");
    // a configured setting is not [fixed] and has no such tooltip
    const ttl = page.locator("label", { hasText: /^ttl/ }).first();
    expect((await ttl.getAttribute("title")) ?? "").not.toContain("hard-codes");
    await page.close();
  });

  it("mode=off: rounds and trimmed counts from the replays, $ from the comparison's counterfactual", async () => {
    const asRun = await counts("");
    const off = await counts("&mode=off");
    const cmp = await json(`compare?a=${REF}&b=${REF}&mode=off`);
    if (!isObject(cmp.a) || !isObject(cmp.b) || !isObject(cmp.diff)) throw new Error("no compare sides");
    const a = num(cmp.a, "costUsd");
    const b = num(cmp.b, "costUsd");
    const d = num(cmp.diff, "costUsd");
    expect(asRun.rounds).toBeGreaterThan(0);
    expect(a !== null && b !== null && d !== null).toBe(true);

    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/${REF}?tab=pruning&mode=off`);
    await expect.poll(() => page.getByTestId("prune-what-if-delta").count(), POLL).toBe(1);
    await expect.poll(() => cell(page, "costUsd", "what-if"), POLL).toBe(fmtUsd(b));
    expect(await cell(page, "rounds", "as-run")).toBe(fmtInt(asRun.rounds));
    expect(await cell(page, "rounds", "what-if")).toBe(fmtInt(off.rounds));
    expect(await cell(page, "rounds", "delta")).toBe(fmtInt(off.rounds - asRun.rounds));
    expect(await cell(page, "softTrimmed", "as-run")).toBe(fmtInt(asRun.soft));
    expect(await cell(page, "softTrimmed", "what-if")).toBe(fmtInt(off.soft));
    expect(await cell(page, "hardCleared", "as-run")).toBe(fmtInt(asRun.hard));
    expect(await cell(page, "costUsd", "as-run")).toBe(fmtUsd(a));
    expect(await cell(page, "costUsd", "delta")).toBe(`${(d ?? 0) > 0 ? "+" : ""}${fmtUsd(d)}`);
    expect(await cell(page, "tokensWritten", "as-run")).toBe(fmtInt(num(cmp.a, "tokensWritten")));
    expect(await page.getByTestId("prune-delta-cost-basis").textContent()).toBe(cmp.b.costBasis);
    await screenshot(page, "pruning-what-if-delta");
    await page.close();
  });

  it("a what-if the cost model does not cover: the counts, and $ 'not modelled' with the comparison's reason", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/${REF}?tab=pruning&keepLastAssistants=1`);
    await expect
      .poll(() => page.getByTestId("prune-delta-cost-basis").textContent(), POLL)
      .toContain("not modelled");
    const k1 = await counts("&keepLastAssistants=1");
    expect(await cell(page, "rounds", "what-if")).toBe(fmtInt(k1.rounds));
    expect(await cell(page, "costUsd", "what-if")).toBe("—");
    expect(await cell(page, "costUsd", "delta")).toBe("—");
    await page.close();
  });
});
