// The Cache & cost tab of a session with a branch off the active one (a /rewind-style fork): two totals cards — the
// session's over every branch and the active branch's — each equal to the API's (issue 15: one card only when
// they are the same; the demo's case is in cost.e2e.test.ts).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fmtInt } from "../../shared/format.ts";
import { isObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";
import { withE2eServer } from "./harness.ts";

const SESSION = "0a1b2c3d-0000-4000-8000-0000000000b1";
const POLL = { timeout: 20_000 };
let dir = "";

function stateDir(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-e2e-branches-"));
  const b = new TranscriptBuilder();
  const root = b.user("hi");
  b.assistant({ usage: { input: 1_000, output: 10 } });
  b.user("the abandoned branch");
  b.assistant({ usage: { input: 2_000, output: 20 } });
  // The active branch forks from the first reply's request.
  b.user("the branch kept", {}, root);
  b.assistant({ usage: { input: 4_000, output: 40 } });
  b.writeJsonlStateDir(dir, { sessionId: SESSION });
  return dir;
}

async function calls(page: Page, testId: string): Promise<string> {
  const stat = page.getByTestId(testId).locator(".stat").filter({ hasText: "calls" }).first();
  return ((await stat.locator(".stat-value").textContent()) ?? "").trim();
}

describe("cost totals of a branched session (e2e)", () => {
  const e2e = withE2eServer(() => ["--state-dir", stateDir()], {
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });

  it("shows the session's and the active branch's totals side by side", async () => {
    const res = await fetch(`${e2e.server.url}api/sessions/main/${SESSION}/cost`);
    const body: unknown = await res.json();
    if (!isObject(body) || !isObject(body.totals) || !isObject(body.activeBranchTotals))
      throw new Error("no cost");
    const all = body.totals.calls;
    const active = body.activeBranchTotals.calls;
    expect(typeof all === "number" && typeof active === "number" && all > active).toBe(true);
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${e2e.server.url}sessions/main/${SESSION}?tab=cost`);
    await expect.poll(() => page.getByTestId("cost-branch-totals").count(), POLL).toBe(1);
    expect(await calls(page, "cost-totals")).toBe(fmtInt(Number(all)));
    expect(await calls(page, "cost-branch-totals")).toBe(fmtInt(Number(active)));
    expect(await page.getByTestId("cost-totals").locator("h3").textContent()).toContain("every branch");
    await page.close();
  });
});
