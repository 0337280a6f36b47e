// The overview landing page (issue 14 §1) in real headless Chromium: on the demo, a non-zero priced total equal to
// GET /api/overview's, the day chart stacked by cost kind, by agent / by model, the top sessions linked to their
// Cache & cost tab, filters in the URL; on a fixture nobody priced, "unpriced (N calls)" instead of $0.00.

import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fmtUsd } from "../../shared/format.ts";
import type { OverviewResponseDTO } from "../../shared/overview.ts";
import { type RunningServer, SHARED_FIXTURES, screenshot, withE2eServer } from "./harness.ts";

const POLL = { timeout: 20_000 };

async function overviewApi(server: RunningServer, query = ""): Promise<OverviewResponseDTO> {
  // The page polls until the scan is done; so does the test.
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.url}api/overview${query}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as OverviewResponseDTO;
    if (body.progress.state === "ready") return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the overview scan did not finish");
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).textContent()) ?? "").replace(/\s+/g, " ").trim();

describe("overview page (e2e, demo)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("is the landing page: the priced total, the day chart, by agent, by model; the session list below", async () => {
    const api = (await overviewApi(e2e.server, "?archived=0")).overview;
    expect(api.totals.costUsd).toBeGreaterThan(0);
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(e2e.server.url);
    await expect.poll(() => text(page, "overview-total-cost"), POLL).toContain(fmtUsd(api.totals.costUsd));
    expect(await text(page, "overview-total-cost")).not.toContain("$0.00");
    expect(await text(page, "overview-miss-cost")).toContain(fmtUsd(api.totals.missCostUsd));
    await screenshot(page, "overview");

    // One bar per day, stacked by the cost kinds that occur (the demo re-writes its prefix: misses are red).
    const bar = page.getByTestId("day-bar-2026-11-30");
    expect(await bar.count()).toBe(1);
    const fills = await bar.locator("rect").evaluateAll((rs) => rs.map((r) => r.getAttribute("fill")));
    expect(fills.filter((f) => f !== "transparent").length).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId("overview-day-chart").textContent()).toContain("cache write after a miss");

    for (const a of api.byAgent) {
      const row = page.getByTestId(`overview-agent-${a.agentId}`);
      expect((await row.textContent()) ?? "").toContain(fmtUsd(a.costUsd));
    }
    // Where the money went across the sessions: one row per cause, its $ the API's (the demo misses on idle gaps).
    expect(api.byCause.some((c) => c.cause === "ttl-expired")).toBe(true);
    expect(await page.locator('[data-testid^="overview-cause-"]').count()).toBe(api.byCause.length);
    for (const c of api.byCause) {
      const row = page.getByTestId(`overview-cause-${c.cause}`);
      expect((await row.textContent()) ?? "").toContain(fmtUsd(c.costUsd));
    }
    const model = api.byModel[0];
    if (!model) throw new Error("no model row");
    expect(await page.getByTestId(`overview-model-${model.provider}/${model.model}`).count()).toBe(1);

    // The advisor's cards, with the $ they would have saved and the snippet to paste.
    const card = page.getByTestId("advice-cache-retention-main");
    expect(await card.count()).toBe(1);
    expect((await card.textContent()) ?? "").toContain("would have saved");
    await card.locator("summary").click();
    expect((await card.getByTestId("advice-snippet").textContent()) ?? "").toContain("cacheRetention");
    // The three that would have saved most are in view; the rest wait behind one line (the chart stays up).
    const pay = (a: { savingsUsd: number | null }) => Math.max(0, a.savingsUsd ?? 0);
    const lead = page.locator('[data-testid="advice-cards"] > details.advice-card');
    expect(await lead.count()).toBe(Math.min(3, api.advice.length));
    const best = Math.max(...api.advice.map(pay));
    const first = api.advice.find((a) => pay(a) === best);
    expect(await lead.first().getAttribute("data-testid")).toBe(`advice-${first?.kind}-${first?.agentId}`);
    if (api.advice.length > 3)
      expect(await page.getByTestId("advice-more").locator("> summary").textContent()).toBe(
        `${api.advice.length - 3} more recommendation${api.advice.length === 4 ? "" : "s"}`,
      );

    // The session list is still on the landing page (and at /sessions).
    await expect.poll(() => page.locator('[data-testid^="session-row-"]').count(), POLL).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("filters live in the URL: agent, a day from the chart; a top session opens its Cache & cost tab", async () => {
    const research = (await overviewApi(e2e.server, "?archived=0&agent=research")).overview;
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(e2e.server.url);
    await expect.poll(() => page.getByTestId("overview-agent").count(), POLL).toBe(1);
    await page.getByTestId("overview-agent").selectOption("research");
    await expect.poll(() => new URL(page.url()).searchParams.get("agent")).toBe("research");
    await expect
      .poll(() => text(page, "overview-total-cost"), POLL)
      .toBe(fmtUsd(research.totals.costUsd).concat("total spend"));
    // A reload keeps the filter (it is the URL).
    await page.reload();
    await expect
      .poll(() => text(page, "overview-total-cost"), POLL)
      .toContain(fmtUsd(research.totals.costUsd));

    await page.getByTestId("day-bar-2026-11-30").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("since")).toBe("2026-11-30");
    expect(new URL(page.url()).searchParams.get("until")).toBe("2026-11-30");

    // From after To (half way through picking a range): the API's located error, and the filters stay.
    await page.getByTestId("overview-since").fill("2026-12-01");
    await expect
      .poll(() => page.getByTestId("overview").textContent(), POLL)
      .toContain("since (2026-12-01) is after until (2026-11-30)");
    await page.getByTestId("overview-until").fill("2026-12-31");
    await expect.poll(() => text(page, "overview-top-cost"), POLL).toContain("No session in this range.");
    await page.getByTestId("overview-clear").click();

    const [top] = (await overviewApi(e2e.server, "?archived=0")).overview.sessions;
    if (!top) throw new Error("no session");
    await page.getByTestId(`overview-top-cost-${top.agentId}/${top.sessionId}`).locator("a").click();
    await page.waitForURL(new RegExp(`/sessions/${top.agentId}/${top.sessionId}\\?tab=cost`));
    await expect.poll(() => page.locator('[data-testid^="cost-call-row-"]').count(), POLL).toBe(top.calls);
    // The same advice card on the session's Cache & cost tab.
    await expect.poll(() => page.getByTestId(`advice-cache-retention-${top.agentId}`).count(), POLL).toBe(1);
    await page.close();
  });
});

describe("overview page (e2e, unpriced usage)", () => {
  // s5-local-cli: a model nobody prices (no recorded cost, no config price, not in the library).
  const e2e = withE2eServer(["--state-dir", path.join(SHARED_FIXTURES, "s5-local-cli", "state")]);

  it('says "unpriced (N calls)", never $0.00', async () => {
    const api = (await overviewApi(e2e.server, "?archived=0")).overview;
    expect(api.totals.unpricedCalls).toBe(api.totals.calls);
    const page = await e2e.browser.newPage();
    await page.goto(e2e.server.url);
    await expect
      .poll(() => text(page, "overview-total-cost"), POLL)
      .toContain(`unpriced (${api.totals.calls} calls)`);
    expect(await text(page, "overview")).not.toContain("$0.00");
    await page.close();
  });
});
