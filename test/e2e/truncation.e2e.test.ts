// Bootstrap truncation (issue 5) in real headless Chromium, against the built app serving the bundled demo
// state dir: the per-file table with OpenClaw's recorded numbers and causes, the what-if per-file cap, and the
// diff view of what a cap drops.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { isArray, isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";
import { type RunningServer, screenshot, withE2eServer } from "./harness.ts";

const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";
const PAGE = `sessions/${AGENT}/${SESSION}?tab=truncation`;
const POLL = { timeout: 20_000 };

async function api(server: RunningServer, what: string): Promise<JsonObject> {
  const res = await fetch(`${server.url}api/sessions/${AGENT}/${SESSION}/${what}`);
  expect(res.status, `GET ${what}`).toBe(200);
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error(`${what}: not a JSON object`);
  return body;
}

function fileOf(dto: JsonObject, name: string): JsonObject {
  const files = isArray(dto.files) ? dto.files.filter(isObject) : [];
  const f = files.find((x) => x.name === name);
  if (!f) throw new Error(`truncation DTO has no file ${name}`);
  return f;
}

/** The dropped ranges' texts of a file's simulation (what the diff view must strike through). */
function droppedTexts(f: JsonObject): string[] {
  const sim: JsonValue | undefined = f.simulation;
  if (!isObject(sim) || !isArray(sim.dropped)) return [];
  return sim.dropped.filter(isObject).map((d) => (typeof d.text === "string" ? d.text : ""));
}

/** Cell texts of a table row, whitespace collapsed. */
async function rowCells(page: Page, name: string): Promise<string[]> {
  return page
    .getByTestId(`truncation-row-${name}`)
    .locator("td")
    .evaluateAll((tds) => tds.map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()));
}

function param(page: Page, key: string): string | null {
  return new URL(page.url()).searchParams.get(key);
}

describe("bootstrap truncation (e2e)", () => {
  const e2e = withE2eServer(["--demo"]);

  async function open(page: Page, extra = ""): Promise<void> {
    await page.goto(`${e2e.server.url}${PAGE}${extra}`);
    await expect.poll(() => page.getByTestId("truncation-row-AGENTS.md").count(), POLL).toBe(1);
  }

  it("shows the recorded truncations with their causes (AGENTS.md 16,640 → 11,587, USER.md 5,263 → 3,999)", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page);
    await screenshot(page, "truncation-table");

    // Columns: File, Status, Raw, Injected, % removed, Est. tokens, File limit, Causes, Near limit, Now.
    const agents = await rowCells(page, "AGENTS.md");
    expect(agents.slice(0, 4)).toEqual(["AGENTS.md", "TRUNCATED", "16,640", "11,587"]);
    expect(agents[4]).toBe(`${(((16_640 - 11_587) / 16_640) * 100).toFixed(1)}%`);
    expect(agents[5]).toBe(
      `~${Math.ceil(16_640 / 4).toLocaleString("en-US")} → ~${Math.ceil(11_587 / 4).toLocaleString("en-US")}`,
    );
    expect(agents[6]).toBe("12,000");
    expect(agents[7]).toBe("per-file-limit");

    const user = await rowCells(page, "USER.md");
    expect(user.slice(0, 4)).toEqual(["USER.md", "TRUNCATED", "5,263", "3,999"]);
    // 2026.9.x: USER.md has a fixed 4,000-char cap below bootstrapMaxChars (spec bootstrap.md).
    expect(user[6]).toBe("4,000 (USER.md)");
    expect(user[7]).toBe("user-md-fixed-cap");

    for (const ok of ["SOUL.md", "IDENTITY.md", "MEMORY.md"]) {
      const cells = await rowCells(page, ok);
      expect(cells[1], ok).toBe("OK");
      expect(cells[2], ok).toBe(cells[3]);
      expect(cells[7], ok).toBe("");
    }
    expect((await rowCells(page, "BOOTSTRAP.md"))[1]).toBe("MISSING");

    // Headline numbers = the stored systemPromptReport (mode "recorded").
    const totals = ((await page.getByTestId("truncation-totals").textContent()) ?? "").replace(/\s+/g, " ");
    expect(await page.getByTestId("truncation-mode").textContent()).toContain("recorded");
    expect(await page.getByTestId("truncation-truncated-count").textContent()).toContain("2");
    expect(totals).toContain("12,000");
    expect(totals).toContain("60,000");
    expect(totals).toContain("26,073");
    expect(totals).toContain("19,756");
    expect(await page.getByTestId("truncation-whatif-note").count()).toBe(0);
    // One waterfall step per bootstrap file, in injection order.
    expect(await page.getByTestId("waterfall-step").count()).toBe(6);

    // The table agrees with the API and the run report.
    const dto = await api(e2e.server, "truncation");
    const report = await api(e2e.server, "report");
    const repFiles =
      isObject(report.totals) && isArray(report.totals.files) ? report.totals.files.filter(isObject) : [];
    for (const rf of repFiles) {
      const name = typeof rf.name === "string" ? rf.name : "";
      const f = fileOf(dto, name);
      const cells = await rowCells(page, name);
      expect(cells[1], name).toBe(rf.status);
      expect(cells[1], name).toBe(f.status);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it("what-if per-file cap 20,000: AGENTS.md becomes OK and fully injected; reset restores the record", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    await page.getByTestId("whatif-max-per-file").fill("20000");
    await expect.poll(() => param(page, "maxPerFile"), POLL).toBe("20000");
    await expect.poll(async () => (await rowCells(page, "AGENTS.md"))[1], POLL).toBe("OK");
    const agents = await rowCells(page, "AGENTS.md");
    expect(agents.slice(0, 4)).toEqual(["AGENTS.md", "OK", "16,640", "16,640"]);
    expect(agents[6]).toBe("20,000");
    expect(agents[7]).toBe("");
    // USER.md keeps its fixed 4,000 cap whatever bootstrapMaxChars says.
    expect((await rowCells(page, "USER.md")).slice(1, 4)).toEqual(["TRUNCATED", "5,263", "3,999"]);
    await expect.poll(() => page.getByTestId("truncation-whatif-note").isVisible(), POLL).toBe(true);
    expect(await page.getByTestId("truncation-mode").textContent()).toContain("recomputed");
    expect(await page.getByTestId("truncation-truncated-count").textContent()).toContain("1");
    // Same numbers as the API's what-if.
    const whatIf = await api(e2e.server, "truncation?maxPerFile=20000");
    const f = fileOf(whatIf, "AGENTS.md");
    expect(f.injectedChars).toBe(16_640);
    expect(f.status).toBe("OK");
    await screenshot(page, "truncation-whatif-20000");

    // A smaller cap truncates more.
    await page.getByTestId("whatif-max-per-file").fill("1000");
    await expect.poll(() => param(page, "maxPerFile"), POLL).toBe("1000");
    await expect.poll(async () => (await rowCells(page, "MEMORY.md"))[1], POLL).toBe("TRUNCATED");
    const small = await api(e2e.server, "truncation?maxPerFile=1000");
    for (const name of ["AGENTS.md", "SOUL.md", "USER.md", "MEMORY.md"]) {
      const want = fileOf(small, name).injectedChars;
      expect(typeof want).toBe("number");
      expect((await rowCells(page, name))[3], name).toBe(Number(want).toLocaleString("en-US"));
    }
    await screenshot(page, "truncation-whatif-1000");

    // Other version rules: 2026.7.x has no fixed USER.md cap and injects TOOLS.md / HEARTBEAT.md too.
    await page.getByTestId("whatif-max-per-file").fill("");
    await expect.poll(() => param(page, "maxPerFile"), POLL).toBe(null);
    await page.getByTestId("whatif-family").selectOption("2026.7");
    await expect.poll(() => param(page, "family"), POLL).toBe("2026.7");
    await expect
      .poll(async () => (await rowCells(page, "USER.md")).slice(1, 4), POLL)
      .toEqual(["OK", "5,263", "5,263"]);
    const fam = await api(e2e.server, "truncation?family=2026.7");
    const famFiles = isArray(fam.files) ? fam.files.filter(isObject) : [];
    expect(await page.locator('[data-testid^="truncation-row-"]').count()).toBe(famFiles.length);
    for (const f of famFiles) {
      const name = typeof f.name === "string" ? f.name : "";
      const cells = await rowCells(page, name);
      expect(cells[1], name).toBe(f.status);
      expect(cells[3], name).toBe(Number(f.injectedChars).toLocaleString("en-US"));
    }
    await screenshot(page, "truncation-whatif-family-2026-7");

    await page.getByTestId("whatif-reset").click();
    await expect.poll(() => param(page, "family"), POLL).toBe(null);
    await expect.poll(() => param(page, "maxPerFile"), POLL).toBe(null);
    await expect
      .poll(async () => (await rowCells(page, "AGENTS.md")).slice(1, 4), POLL)
      .toEqual(["TRUNCATED", "16,640", "11,587"]);
    await expect.poll(() => page.getByTestId("truncation-whatif-note").count(), POLL).toBe(0);
    await page.close();
  });

  it("the diff view shows the text a cap dropped from a truncated file", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const dto = await api(e2e.server, "truncation");

    await page.getByTestId("truncation-row-AGENTS.md").click();
    await expect.poll(() => param(page, "file"), POLL).toBe("AGENTS.md");
    await expect.poll(() => page.getByTestId("file-diff").count(), POLL).toBe(1);
    const diff = page.getByTestId("file-diff");
    expect(await diff.locator("h3").textContent()).toBe("AGENTS.md: 16,640 → 11,587 chars");
    // The source pane is the whole (trimEnd'ed) file: kept + dropped = rawChars; the injected pane is exactly
    // what OpenClaw injected.
    const source = await page.getByTestId("file-diff-source").evaluate((e) => e.textContent ?? "");
    const injected = await page.getByTestId("file-diff-injected").evaluate((e) => e.textContent ?? "");
    expect(source.length).toBe(16_640);
    expect(injected.length).toBe(11_587);
    const struck = await page
      .getByTestId("file-diff-source")
      .locator(".diff-del")
      .evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    const want = droppedTexts(fileOf(dto, "AGENTS.md"));
    expect(want.length).toBeGreaterThan(0);
    expect(struck).toEqual(want);
    expect(struck.join("").length).toBeGreaterThan(0);
    // Dropped text is in the source and (verbatim) not in the injected text.
    for (const t of struck) {
      expect(source).toContain(t);
      if (t.length > 200) expect(injected.includes(t)).toBe(false);
    }
    // OpenClaw's truncation marker is highlighted in the injected pane.
    expect(await page.getByTestId("file-diff-injected").locator(".seg-marker").count()).toBeGreaterThan(0);
    await page.getByTestId("file-diff-source").locator(".diff-del").first().scrollIntoViewIfNeeded();
    await screenshot(page, "truncation-diff-agents");

    // USER.md: the fixed-cap cut.
    await page.getByTestId("truncation-row-USER.md").click();
    await expect.poll(() => param(page, "file"), POLL).toBe("USER.md");
    await expect
      .poll(() => page.getByTestId("file-diff").locator("h3").textContent(), POLL)
      .toBe("USER.md: 5,263 → 3,999 chars");
    const userStruck = await page
      .getByTestId("file-diff-source")
      .locator(".diff-del")
      .evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    expect(userStruck).toEqual(droppedTexts(fileOf(dto, "USER.md")));
    expect(userStruck.join("").length).toBeGreaterThan(0);
    await page.getByTestId("file-diff-source").locator(".diff-del").first().scrollIntoViewIfNeeded();
    await screenshot(page, "truncation-diff-user");

    // A permalink to the selected file opens the same diff in a fresh page.
    const ctx = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const fresh = await ctx.newPage();
    await fresh.goto(page.url());
    await expect
      .poll(() => fresh.getByTestId("file-diff").locator("h3").textContent(), POLL)
      .toBe("USER.md: 5,263 → 3,999 chars");
    await ctx.close();
    await page.close();
  });
});
