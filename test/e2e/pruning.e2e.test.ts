// Cache-TTL pruning replay (issue 6) in real headless Chromium, against the built app serving the bundled demo
// state dir: one timeline mark per model call, the recorded soft-trim rounds, a round's call details (tool
// results with their wire states, stored vs sent size), and what-if settings moving the rounds.

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { isArray, isObject, type JsonObject } from "../../shared/json.ts";
import { type RunningServer, screenshot, withE2eServer } from "./harness.ts";

const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";
const PAGE = `sessions/${AGENT}/${SESSION}?tab=pruning`;
const POLL = { timeout: 20_000 };

async function api(server: RunningServer, what: string): Promise<JsonObject> {
  const res = await fetch(`${server.url}api/sessions/${AGENT}/${SESSION}/${what}`);
  expect(res.status, `GET ${what}`).toBe(200);
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error(`${what}: not a JSON object`);
  return body;
}

function calls(dto: JsonObject): JsonObject[] {
  if (!isArray(dto.calls)) throw new Error("prune DTO has no calls");
  return dto.calls.filter(isObject);
}

/** Index → round of every call that ran a pruning round, per the API. */
function roundsOf(dto: JsonObject): { call: number; round: string }[] {
  return calls(dto)
    .map((c, i) => ({ call: i, round: typeof c.round === "string" ? c.round : "?" }))
    .filter((r) => r.round !== "none");
}

/** The same, read from the timeline's call marks. */
async function roundMarks(page: Page): Promise<{ call: number; round: string }[]> {
  return page.locator('[data-testid="prune-call-mark"]:not([data-round="none"])').evaluateAll((els) =>
    els.map((e) => ({
      call: Number(e.getAttribute("data-call")),
      round: e.getAttribute("data-round") ?? "",
    })),
  );
}

function param(page: Page, key: string): string | null {
  return new URL(page.url()).searchParams.get(key);
}

function text(s: string | null): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

describe("pruning replay (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);
  let recorded: JsonObject;

  beforeAll(async () => {
    recorded = await api(e2e.server, "prune");
  });

  /**
   * The server's real answers at `glob`, each with its countdown moved by `fields`: 60 s left in the first,
   * expired in every later one. `count`: answers given so far.
   */
  async function clockMovedTo(
    page: Page,
    glob: string,
    fields: (left: number) => Record<string, number | null>,
  ): Promise<{ count: number }> {
    const answers = { count: 0 };
    await page.route(glob, async (route) => {
      answers.count++;
      const res = await route.fetch();
      const body: unknown = await res.json();
      if (!isObject(body)) throw new Error(`${glob}: not an object`);
      await route.fulfill({
        response: res,
        json: { ...body, ...fields(answers.count === 1 ? 60_000 : -1_000) },
      });
    });
    return answers;
  }

  async function open(page: Page, extra = ""): Promise<void> {
    await page.goto(`${e2e.server.url}${PAGE}${extra}`);
    await expect.poll(() => page.getByTestId("prune-timeline").count(), POLL).toBe(1);
  }

  it("draws one mark per model call (60) and the 3 recorded soft-trim rounds", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page);
    await screenshot(page, "pruning-timeline");

    // The demo's main session: 60 model calls (one per assistant reply with usage), 3 soft-trim rounds.
    expect(calls(recorded).length).toBe(60);
    await expect.poll(() => page.getByTestId("prune-call-mark").count(), POLL).toBe(60);
    const cost = await api(e2e.server, "cost");
    expect(isArray(cost.calls) ? cost.calls.length : -1).toBe(60);
    expect(await page.getByTestId("prune-next-mark").count()).toBe(1);

    const marks = await roundMarks(page);
    expect(marks).toEqual(roundsOf(recorded));
    expect(marks.length).toBe(3);
    expect(marks.every((m) => m.round === "soft-trim")).toBe(true);
    expect(text(await page.getByTestId("prune-rounds").textContent())).toContain("3");
    // Every round ran because the TTL had expired (cache-ttl mode: a round only runs after the TTL).
    for (const m of marks) {
      const el = page.locator(`[data-testid="prune-call-mark"][data-call="${m.call}"]`);
      expect(await el.getAttribute("data-expired")).toBe("1");
    }
    // The calls table lists the same 60 calls.
    expect(await page.locator('[data-testid^="prune-call-row-"]').count()).toBe(60);
    expect(text(await page.getByTestId("prune-algorithm-used").textContent())).toContain("2026.9");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("clicking a round mark opens that call: tool results with wire states, stored vs sent size", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The page asks for the replay without per-call states and fetches the selected call's on their own.
    const apiCalls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/prune")) apiCalls.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await open(page);
    const first = roundsOf(recorded)[0];
    if (!first) throw new Error("no pruning round in the demo session");
    const call = calls(recorded)[first.call];
    if (!call) throw new Error("call missing");

    // On the real-time axis the round's mark sits under the next call's hit area (calls seconds apart), so
    // switch to the call-index axis, where marks are evenly spaced.
    await page.getByTestId("axis-index").click();
    await expect.poll(() => param(page, "axis"), POLL).toBe("index");
    await page.locator(`[data-testid="prune-call-mark"][data-call="${first.call}"]`).click();
    await expect.poll(() => param(page, "call"), POLL).toBe(String(first.call));
    await expect.poll(() => page.getByTestId("prune-call-details").count(), POLL).toBe(1);
    expect(apiCalls.some((u) => /\/prune\?.*calls=summary/.test(u))).toBe(true);
    expect(apiCalls.some((u) => !u.includes("/prune/") && !u.includes("calls=summary"))).toBe(false);
    await expect
      .poll(() => apiCalls.some((u) => u.includes(`/prune/call?call=${first.call}`)), POLL)
      .toBe(true);
    const details = page.getByTestId("prune-call-details");
    expect(text(await details.locator("h3").first().textContent())).toContain(`Call #${first.call + 1}`);
    const detailsText = text(await details.textContent());
    expect(detailsText).toContain("soft-trim");
    const fmt = (n: unknown) => (typeof n === "number" ? n.toLocaleString("en-US") : "?");
    expect(detailsText).toContain(`${fmt(call.totalCharsBefore)} → ${fmt(call.totalCharsAfter)}`);
    expect(detailsText).toContain(fmt(call.charsRemoved));

    // One row per tool result in context, with the wire state the replay computed.
    const want = isArray(call.details) ? call.details.filter(isObject) : [];
    expect(want.length).toBeGreaterThan(0);
    const rows = await details
      .locator('[data-testid="prune-tool-results"] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll("td")).map((td) =>
            (td.textContent ?? "").replace(/\s+/g, " ").trim(),
          ),
        ),
      );
    expect(rows.length).toBe(want.length);
    let trimmedNow = 0;
    for (const w of want) {
      const row = rows.find((r) => r[1] === w.toolCallId);
      expect(row, String(w.toolCallId)).toBeDefined();
      if (!row) continue;
      expect(row[0]).toBe(w.toolName);
      expect(row[2]).toBe(`${w.state}${w.changedThisCall === true ? " (now)" : ""}`);
      expect(row[3]).toBe(fmt(w.charsFull));
      expect(row[4]).toBe(fmt(w.charsSent));
      if (w.state === "soft-trim") {
        // Before/after: a soft-trimmed result is sent shorter than it is stored.
        expect(Number(w.charsSent)).toBeLessThan(Number(w.charsFull));
        if (w.changedThisCall === true) trimmedNow++;
      }
    }
    expect(trimmedNow).toBe(call.softTrimmedNow);
    expect(rows.some((r) => r[2] === "full")).toBe(true);
    await details.scrollIntoViewIfNeeded();
    await screenshot(page, "pruning-call-details");

    // Before/after preview of a result trimmed at this call: the stored text, and exactly OpenClaw's
    // 2026.9 soft-trim of it (first 1500 + "\n...\n" + last 1500 + the note — spec pruning.md §2.5).
    const trimmed = want.find((w) => w.state === "soft-trim" && w.changedThisCall === true);
    if (!trimmed) throw new Error("no result trimmed at the round's call");
    await page.getByTestId(`prune-tool-result-${String(trimmed.toolCallId)}`).click();
    await expect.poll(() => param(page, "tr"), POLL).toBe(String(trimmed.toolCallId));
    await expect.poll(() => page.getByTestId("prune-preview-after").count(), POLL).toBe(1);
    const before = (await page.getByTestId("prune-preview-before").textContent()) ?? "";
    const after = (await page.getByTestId("prune-preview-after").textContent()) ?? "";
    expect(before.length).toBeGreaterThan(4000);
    expect(after).toBe(
      `${before.slice(0, 1500)}\n...\n${before.slice(-1500)}\n\n[Tool result trimmed: kept first 1500 chars and last 1500 chars of ${before.length} chars.]`,
    );
    await page.getByTestId("prune-preview").scrollIntoViewIfNeeded();
    await screenshot(page, "pruning-tool-result-preview");

    // Clicking the same mark again closes the details.
    await page.locator(`[data-testid="prune-call-mark"][data-call="${first.call}"]`).click();
    await expect.poll(() => param(page, "call"), POLL).toBe(null);
    await expect.poll(() => page.getByTestId("prune-call-details").count(), POLL).toBe(0);
    await page.close();
  });

  it("what-if settings move the pruning rounds (ttl, algorithm, hard-clear ratio)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    await expect.poll(() => roundMarks(page), POLL).toEqual(roundsOf(recorded));

    // A 1 h TTL: no idle gap in the session reaches it, so no round runs.
    await page.getByTestId("prune-ttl").fill("1h");
    await expect.poll(() => param(page, "ttl"), POLL).toBe("1h");
    await expect.poll(async () => (await roundMarks(page)).length, POLL).toBe(0);
    expect(roundsOf(await api(e2e.server, "prune?ttl=1h"))).toEqual([]);
    expect(await page.getByTestId("prune-call-mark").count()).toBe(60);
    await screenshot(page, "pruning-whatif-ttl-1h");

    await page.getByTestId("prune-reset").click();
    await expect.poll(() => param(page, "ttl"), POLL).toBe(null);
    await expect.poll(() => roundMarks(page), POLL).toEqual(roundsOf(recorded));

    // The 2026.7 algorithm (no 2026.9 gate changes) prunes far more often on the same calls.
    await page.getByTestId("prune-algorithm").selectOption("2026.7");
    await expect.poll(() => param(page, "algorithm"), POLL).toBe("2026.7");
    const alg = roundsOf(await api(e2e.server, "prune?algorithm=2026.7"));
    expect(alg.length).toBeGreaterThan(3);
    await expect.poll(() => roundMarks(page), POLL).toEqual(alg);
    await expect
      .poll(async () => text(await page.getByTestId("prune-algorithm-used").textContent()), POLL)
      .toContain("2026.7");
    await screenshot(page, "pruning-whatif-algorithm-2026-7");
    await page.getByTestId("prune-algorithm").selectOption("");
    await expect.poll(() => param(page, "algorithm"), POLL).toBe(null);

    // A low hard-clear ratio turns a round into a hard clear.
    await page.getByTestId("prune-hardClearRatio").fill("0.1");
    await expect.poll(() => param(page, "hardClearRatio"), POLL).toBe("0.1");
    const hard = roundsOf(await api(e2e.server, "prune?hardClearRatio=0.1"));
    expect(hard.some((r) => r.round === "hard-clear")).toBe(true);
    await expect.poll(() => roundMarks(page), POLL).toEqual(hard);
    expect(
      await page.locator('[data-testid="prune-call-mark"][data-round="hard-clear"]').count(),
    ).toBeGreaterThan(0);
    await screenshot(page, "pruning-whatif-hard-clear");

    // The what-if state is in the URL: a fresh page with the same link shows the same marks.
    const ctx = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const fresh = await ctx.newPage();
    await fresh.goto(page.url());
    await expect.poll(() => roundMarks(fresh), POLL).toEqual(hard);
    await ctx.close();
    await page.close();
  });
  it("Next call: without `at` it predicts at the wall clock; a picked time is the replay's; `now` goes back", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const source = page.getByTestId("prune-at-source");
    await expect.poll(() => page.getByTestId("prune-next-prediction").count(), POLL).toBe(1);
    expect(text(await source.textContent())).toContain("now: the wall clock");
    // the picked time shown is this machine's now (to the second), read in the browser's own zone
    const shown = await page
      .getByTestId("prune-at")
      .evaluate((el) => (el instanceof HTMLInputElement ? new Date(el.value).getTime() : Number.NaN));
    expect(Math.abs(shown - Date.now())).toBeLessThan(120_000);
    // the demo's last entry is in the past, so at the wall clock the TTL has run out, as the API says
    const atNow = await api(e2e.server, "prune/next");
    expect(atNow.ttlExpired).toBe(true);
    const statsText = text(await page.getByTestId("prune-next").textContent());
    expect(statsText).toContain(String(atNow.gate));
    const title = await page.locator('[data-testid="prune-next-mark"] title').textContent();
    expect(title).toContain("(now)");
    await screenshot(page, "pruning-next-now");

    // a picked time: the replay's own `next` at it (here the as-run default, right after the last entry)
    const next = isObject(recorded.next) ? recorded.next : {};
    await open(page, `&at=${String(next.at)}`);
    await expect.poll(async () => text(await source.textContent()), POLL).toContain("the time picked");
    expect(text(await page.getByTestId("prune-next-prediction").textContent())).toContain(
      String(next.prediction),
    );
    await page.getByTestId("prune-at-now").click();
    await expect.poll(() => param(page, "at"), POLL).toBeNull();
    await expect.poll(async () => text(await source.textContent()), POLL).toContain("now: the wall clock");
    await page.close();
  });

  it("Next call: its TTL countdown ticks between fetches, as the header's cache clock does (no new request)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install(); // the page's Date and timers, moved below without waiting
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/prune/next")) asked.push(r.url());
    });
    await open(page);
    await expect.poll(() => page.getByTestId("prune-next-prediction").count(), POLL).toBe(1);
    const ttl = async (): Promise<string> =>
      text(await page.getByTestId("prune-next-ttl").locator(".stat-value").textContent());
    const before = await ttl();
    expect(text(await page.getByTestId("prune-next-prediction").textContent())).toContain(
      `TTL expired ${before};`,
    );
    // the demo's TTL ran out days ago: "4d 19h ago" under "TTL expired", growing with the clock
    expect(before).toMatch(/^\d+d \d{2}h ago$/);
    expect(text(await page.getByTestId("prune-next-ttl").locator(".stat-label").textContent())).toBe(
      "TTL expired",
    );
    await page.clock.runFor(3 * 3_600_000);
    await expect.poll(ttl, POLL).not.toBe(before);
    const hours = (t: string): number => {
      const m = /^(\d+)d (\d{2})h ago$/.exec(t);
      return m ? Number(m[1]) * 24 + Number(m[2]) : Number.NaN;
    };
    expect(hours(await ttl()) - hours(before)).toBe(3);
    // the sentence says the same time as the stat beside it, before and after
    const sentence = async (): Promise<string> =>
      text(await page.getByTestId("prune-next-prediction").textContent());
    expect(await sentence()).toContain(`TTL expired ${await ttl()}; the next message:`);
    // an answer that was already expired is not asked for again when time passes
    expect(asked).toHaveLength(1);
    await page.close();
  });

  it("Next call: when its countdown crosses zero the card asks the server again, once", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install();
    // the server's real answer, its cache clock moved so the TTL has a minute left when it arrives
    const answers = await clockMovedTo(page, "**/prune/next*", (left) => ({ msUntilTtlExpiry: left }));
    const answered = (): number => answers.count;
    await open(page);
    const ttl = async (): Promise<string> =>
      text(await page.getByTestId("prune-next-ttl").locator(".stat-value").textContent());
    await expect.poll(ttl, POLL).toMatch(/^(1m 00s|\d+s)$/);
    await page.clock.runFor(30_000);
    await expect.poll(ttl, POLL).toMatch(/^\d+s$/);
    await expect
      .poll(async () => {
        const [t, sentence] = await Promise.all([
          ttl(),
          page.getByTestId("prune-next-prediction").textContent(),
        ]);
        return text(sentence).includes(`TTL expires in ${t}; a message after that:`);
      }, POLL)
      .toBe(true);
    expect(answered()).toBe(1);
    await page.clock.runFor(40_000);
    await expect.poll(answered, POLL).toBe(2);
    await expect.poll(ttl, POLL).toMatch(/ ago$/);
    await page.clock.runFor(120_000);
    expect(answered()).toBe(2);
    await page.close();
  });

  it("the header's cache clock: asks again once when its countdown crosses zero (the same mechanism)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install();
    const answers = await clockMovedTo(page, "**/clock*", (left) => ({ msLeft: left, pruneMsLeft: null }));
    const answered = (): number => answers.count;
    await open(page);
    const state = async (): Promise<string> =>
      text(await page.getByTestId("cache-clock-state").textContent());
    await expect.poll(state, POLL).toMatch(/^cache warm for \d+s/);
    expect(answered()).toBe(1);
    await page.clock.runFor(70_000);
    await expect.poll(answered, POLL).toBe(2);
    await page.clock.runFor(120_000);
    expect(answered()).toBe(2);
    await page.close();
  });

  it("the other demo sessions: research (1 soft-trim round) and legacy (JSONL, 2026.7 rules)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const cases = [
      { agent: "research", session: "c50b7fb8-120b-44a9-a477-545eec87c0a7", rounds: 1, algorithm: "2026.9" },
      { agent: "legacy", session: "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84", rounds: 0, algorithm: "2026.7" },
    ];
    for (const c of cases) {
      const res = await fetch(`${e2e.server.url}api/sessions/${c.agent}/${c.session}/prune`);
      expect(res.status).toBe(200);
      const body: unknown = await res.json();
      if (!isObject(body)) throw new Error("prune: not an object");
      await page.goto(`${e2e.server.url}sessions/${c.agent}/${c.session}?tab=pruning`);
      await expect.poll(() => page.getByTestId("prune-timeline").count(), POLL).toBe(1);
      await expect.poll(() => page.getByTestId("prune-call-mark").count(), POLL).toBe(calls(body).length);
      expect(calls(body).length).toBeGreaterThan(0);
      const marks = await roundMarks(page);
      expect(marks).toEqual(roundsOf(body));
      expect(marks.length).toBe(c.rounds);
      expect(text(await page.getByTestId("prune-algorithm-used").textContent())).toContain(c.algorithm);
      await screenshot(page, `pruning-${c.agent}`);
    }
    await page.close();
  });
});
