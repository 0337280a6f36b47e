// The turn scrubber (issue 16) in real headless Chromium against the bundled demo: `?call=N` shows the map as
// sent at that call with the call's sent counts and billed usage (as GET …/sent reports them); `[` / `]` step one
// call, Home / End jump to the first / last; between neighbouring calls no tile moves (every shared tile keeps
// its rectangle's corner within a pixel).

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { isObject } from "../../shared/json.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const PAGE = "sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
const POLL = { timeout: 20_000 };

interface Rect {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

async function rects(page: Page): Promise<Map<string, Rect>> {
  const list = await page.$$eval('[data-testid="sent-map"] svg rect[data-id]', (els) =>
    els.map((e) => ({
      id: e.getAttribute("data-id") ?? "",
      x: Number(e.getAttribute("x")),
      y: Number(e.getAttribute("y")),
      w: Number(e.getAttribute("width")),
      h: Number(e.getAttribute("height")),
    })),
  );
  return new Map(list.map((r) => [r.id, r]));
}

async function shownCall(page: Page): Promise<string | null> {
  return page.getByTestId("sent-map").getAttribute("data-call");
}

describe("turn scrubber (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  let calls: { call: number; sent: { messages: number; messageChars: number } }[] = [];

  beforeAll(async () => {
    const res = await fetch(`${e2e.server.url}api/${PAGE}/sent`);
    const body: unknown = await res.json();
    if (!isObject(body) || !Array.isArray(body.calls)) throw new Error("GET …/sent: no calls");
    calls = body.calls.flatMap((c) =>
      isObject(c) &&
      typeof c.call === "number" &&
      isObject(c.sent) &&
      typeof c.sent.messages === "number" &&
      typeof c.sent.messageChars === "number"
        ? [{ call: c.call, sent: { messages: c.sent.messages, messageChars: c.sent.messageChars } }]
        : [],
    );
  });

  it("steps through the calls with [ ] Home End, shows each call's sent counts, and keeps tiles in place", async () => {
    expect(calls.length).toBeGreaterThan(30);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&call=20`);
    await expect.poll(() => shownCall(page), POLL).toBe("20");
    await expect.poll(async () => (await rects(page)).size, POLL).toBeGreaterThan(20);
    const at20 = await rects(page);
    const row20 = calls[19];
    await expect
      .poll(() => page.getByTestId("sent-counts").textContent(), POLL)
      .toContain(
        `${row20?.sent.messages} messages, ${row20?.sent.messageChars.toLocaleString("en-US")} chars`,
      );

    await page.keyboard.press("]");
    await expect.poll(() => shownCall(page), POLL).toBe("21");
    expect(new URL(page.url()).searchParams.get("call")).toBe("21");
    const at21 = await rects(page);
    let shared = 0;
    for (const [id, r] of at20) {
      const s = at21.get(id);
      if (!s) continue;
      shared++;
      expect(Math.abs(s.x - r.x), `${id} x`).toBeLessThan(1);
      expect(Math.abs(s.y - r.y), `${id} y`).toBeLessThan(1);
    }
    expect(shared).toBeGreaterThan(20);
    await screenshot(page, "sent-scrubber-21");

    await page.keyboard.press("[");
    await page.keyboard.press("[");
    await expect.poll(() => shownCall(page), POLL).toBe("19");
    await page.keyboard.press("Home");
    await expect.poll(() => shownCall(page), POLL).toBe("1");
    await expect.poll(() => page.getByTestId("sent-slider").inputValue(), POLL).toBe("1");
    await page.keyboard.press("End");
    await expect.poll(() => shownCall(page), POLL).toBe(String(calls.length));
    await page.getByTestId("sent-latest").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("call"), POLL).toBeNull();
    await expect.poll(() => page.getByTestId("sent-call-label").textContent(), POLL).toContain("latest");
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("search on the map as sent at a call (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  it("finds tiles at the call, says their total, and keeps the query while the scrubber moves", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}${PAGE}?tab=map&call=20`);
    await expect.poll(() => shownCall(page), POLL).toBe("20");
    await page.getByTestId("sent-map-search").fill("tool-results");
    await expect.poll(() => new URL(page.url()).searchParams.get("q"), POLL).toBe("tool-results");
    const count = page.getByTestId("sent-map-search-count");
    await expect.poll(() => count.count(), POLL).toBe(1);
    // every tile whose id or name contains the query is a match; the matched group counts once in the total
    const ids = [...(await rects(page)).keys()].filter((id) => id.toLowerCase().includes("tool-results"));
    expect(ids.length).toBeGreaterThan(0);
    expect((await count.textContent()) ?? "").toMatch(
      /^\d[\d,]* match(es)? — (~[\d,]+ tok|[\d,]+ chars), \d+\.\d% of the map at this call$/,
    );
    expect(
      await page.locator('[data-testid="sent-map"] [data-testid="treemap-match"]').count(),
    ).toBeGreaterThan(0);
    // the next call keeps the query
    // leave the box without clearing it (Escape clears a search field), so `]` is the scrubber's key again
    await page.evaluate(() =>
      document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
    );
    await page.keyboard.press("]");
    await expect.poll(() => shownCall(page), POLL).toBe("21");
    expect(new URL(page.url()).searchParams.get("q")).toBe("tool-results");
    await expect.poll(() => count.count(), POLL).toBe(1);
    await page.close();
  });
});
