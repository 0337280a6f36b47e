// A session OpenClaw's store names but whose transcript file does not exist (issue 13): the Cache & cost and
// Pruning tabs show "No transcript" with the path it was looked for — never $0.00 and 0 calls — and the rest of the
// session page still works.
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TranscriptBuilder } from "../helpers/transcript.ts";
import { withE2eServer } from "./harness.ts";

const SESSION = "0a1b2c3d-0000-4000-8000-0000000000c1";
const POLL = { timeout: 20_000 };
let dir = "";
let file = "";

function stateDir(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-e2e-missing-"));
  const b = new TranscriptBuilder();
  b.user("hi");
  b.assistant({ usage: { input: 1_000, output: 10 } });
  file = b.writeJsonlStateDir(dir, { sessionId: SESSION });
  unlinkSync(file); // the store still names it
  return dir;
}

describe("a session without its transcript (e2e)", () => {
  const e2e = withE2eServer(() => ["--state-dir", stateDir()], {
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });

  it("Cache & cost and Pruning say where the transcript was looked for; no $0.00", async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    for (const tab of ["cost", "pruning"]) {
      await page.goto(`${e2e.server.url}sessions/main/${SESSION}?tab=${tab}`);
      const empty = page.getByTestId("missing-transcript");
      await expect.poll(() => empty.count(), POLL).toBe(1);
      const text = (await empty.textContent()) ?? "";
      expect(text, tab).toContain("transcript not found:");
      expect(text, tab).toContain(path.basename(file));
      expect(await page.locator("main").textContent(), tab).not.toContain("$0.00");
    }
    // The session page itself (header, tabs) is there: only the tabs that need calls are empty.
    expect(await page.getByRole("tab").count()).toBeGreaterThan(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
