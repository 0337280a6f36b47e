// The session list's triage (ux-notes "Session list", issue 15): a sub-agent session is listed under the session
// that spawned it (SessionEntry.spawnedBy), each row shows its cost, miss $, write-aware hit rate and last prompt
// from GET /api/cost, usage nobody priced reads "unpriced" (never $0.00), and a total line sums the listed rows.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeAwareText } from "../../shared/clock-labels.ts";
import { fmtInt, fmtUsd } from "../../shared/format.ts";
import { isArray, isObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";
import { screenshot, withE2eServer } from "./harness.ts";

const PARENT = "0a1b2c3d-0000-4000-8000-0000000000c1";
const CHILD = "0a1b2c3d-0000-4000-8000-0000000000c2";
const OTHER = "0a1b2c3d-0000-4000-8000-0000000000c3";
const POLL = { timeout: 20_000 };
let dir = "";

function stateDir(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-e2e-triage-"));
  const sessions = path.join(dir, "agents", "main", "sessions");
  mkdirSync(sessions, { recursive: true });
  const write = (id: string, model: { provider: string; model: string }, t0: number) => {
    const b = new TranscriptBuilder({ start: t0 });
    b.user("hi");
    b.assistant({ ...model, usage: { input: 100, output: 10, cacheWrite: 20_000 } });
    b.user("again");
    b.assistant({ ...model, usage: { input: 100, output: 10, cacheRead: 20_000, cacheWrite: 300 } });
    const file = path.join(sessions, `${id}.jsonl`);
    writeFileSync(file, b.jsonl());
    return { sessionId: id, updatedAt: t0 + 60_000, sessionFile: file };
  };
  const sonnet = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const store = {
    "agent:main:main": write(PARENT, sonnet, Date.parse("2026-11-30T10:00:00Z")),
    // the newest session: without grouping it would be listed first
    "agent:main:subagent:aa11": {
      ...write(CHILD, { provider: "acme-proxy", model: "house-model-1" }, Date.parse("2026-11-30T12:00:00Z")),
      spawnedBy: "agent:main:main",
    },
    "agent:main:telegram:direct:42": write(OTHER, sonnet, Date.parse("2026-11-30T11:00:00Z")),
  };
  writeFileSync(path.join(sessions, "sessions.json"), `${JSON.stringify(store, null, 2)}\n`);
  return dir;
}

describe("session list triage (e2e)", () => {
  const e2e = withE2eServer(() => ["--state-dir", stateDir()], {
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });

  it("lists a sub-agent under its parent, with cost, miss $, hit rate and last prompt; unpriced is said", async () => {
    const res = await fetch(`${e2e.server.url}api/cost`);
    const body: unknown = await res.json();
    const rows = isObject(body) && isArray(body.sessions) ? body.sessions.filter(isObject) : [];
    const row = (id: string) => rows.find((r) => r.sessionId === id);
    const parent = row(PARENT);
    if (!parent || !row(CHILD) || !row(OTHER)) throw new Error("no cost rows");

    const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(e2e.server.url);
    const listed = page.locator('[data-testid^="session-row-"]');
    await expect.poll(() => listed.count(), POLL).toBe(3);
    await expect.poll(() => page.getByTestId("sessions-total").count(), POLL).toBe(1);
    const order = await listed.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-testid")));
    // updated order would be CHILD, OTHER, PARENT; the sub-agent follows its parent instead
    expect(order).toEqual([
      `session-row-main/${OTHER}`,
      `session-row-main/${PARENT}`,
      `session-row-main/${CHILD}`,
    ]);
    expect(await page.getByTestId(`sub-agents-main/${PARENT}`).textContent()).toBe("1 sub-agent");
    const child = (await page.getByTestId(`session-row-main/${CHILD}`).textContent()) ?? "";
    expect(child).toContain("sub-agent of the session above");
    expect(child).toContain("unpriced (2 calls)");
    expect(child).not.toContain("$0.00");

    const cells = await page
      .getByTestId(`session-row-main/${PARENT}`)
      .locator("td")
      .evaluateAll((tds) => tds.map((td) => td.textContent ?? ""));
    expect(cells.slice(-4)).toEqual([
      fmtInt(20_400),
      writeAwareText(typeof parent.writeAwareHitRate === "number" ? parent.writeAwareHitRate : null, "total"),
      fmtUsd(Number(parent.missCostUsd)),
      fmtUsd(Number(parent.costUsd)),
    ]);
    const total = (await page.getByTestId("sessions-total").textContent()) ?? "";
    const priced = Number(parent.costUsd) + Number(row(OTHER)?.costUsd);
    expect(total).toContain("3 sessions, 6 calls");
    expect(total).toContain(`${fmtUsd(priced)} + unpriced (2 calls)`);
    await screenshot(page, "sessions-triage");
  });
});
