// Sessions without a stored run report, and a stored report of another session id, on the /context side
// (issue 13; state dir test/fixtures/no-run-report, see its README): the run report says whose report it is, and
// `clawscope context --mode json` always prints JSON — `{"available": false, …}` with exit code 3 when nothing
// was recorded.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import { runCli } from "../helpers/cli.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const STATE = path.resolve(here, "../fixtures/no-run-report");
const CRON = "0c7f1a55-1111-4a1a-8c1c-000000000001";
const MAIN = "0c7f1a55-2222-4b2b-9d2d-000000000002";
const service = createSessionService({ stateDir: STATE, demo: false, reason: "test" });
afterAll(() => service.close());

function cli(...args: string[]) {
  return runCli([...args, "--state-dir", STATE]);
}

describe("no stored run report", () => {
  it("context --mode json prints {available: false, …} and exits 3; list keeps its text", () => {
    const json = cli("context", "--session", "agent:main:cron:nightly", "--mode", "json");
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      available: false,
      reason: "no stored run report",
      sessionKey: "agent:main:cron:nightly",
      sessionId: CRON,
    });
    const list = cli("context", "--session", "agent:main:cron:nightly", "--mode", "list");
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("clawscope: no stored run report for this session.");
    // What clawscope lacks to reproduce OpenClaw's on-the-fly estimate is named.
    expect(list.stdout).toContain("the tools it would instantiate");
  });

  it("the run report DTO carries the same JSON", () => {
    const r = service.runReport("main", CRON);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.texts.available).toBe(false);
    if (r.value.texts.available) return;
    expect(JSON.parse(r.value.texts.json)).toMatchObject({ available: false, sessionId: CRON });
    expect(r.value.reportOwner).toBeNull();
  });
});

describe("a stored report of another session id", () => {
  it("the run report says whose report it is", () => {
    const r = service.runReport("main", MAIN);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.texts.available).toBe(true);
    expect(r.value.reportOwner).toMatchObject({
      reportSessionId: "56c4e0d1-3333-4c3c-ae3e-000000000003",
      sessionId: MAIN,
      currentOfKey: false,
    });
    expect(r.value.reportOwner?.note).toBe(
      "This is the run report of session 56c4e0d1…, an earlier session of this key (no run of this session has stored a report yet), not of the session shown (0c7f1a55…).",
    );
  });

  it("the CLI's context (every mode) and map say so on stderr; stdout stays OpenClaw's reply / the JSON", () => {
    const note = "note: This is the run report of session 56c4e0d1…, an earlier session of this key";
    for (const args of [
      ["context", "--mode", "list"],
      ["context", "--mode", "detail"],
      ["context", "--mode", "json"],
      ["map"],
    ]) {
      const r = cli(...args, "--session", "agent:main:main");
      expect(r.status, args.join(" ")).toBe(0);
      expect(r.stderr, args.join(" ")).toContain(note);
      if (args.includes("json")) expect(JSON.parse(r.stdout)).toHaveProperty("report");
      else expect(r.stdout, args.join(" ")).not.toContain("56c4e0d1");
    }
    expect(service.storedContextText("main", MAIN, "json")).toMatchObject({
      ok: true,
      value: { owner: { reportSessionId: "56c4e0d1-3333-4c3c-ae3e-000000000003" } },
    });
    const cron = cli("context", "--mode", "list", "--session", "agent:main:cron:nightly");
    expect(cron.stderr).not.toContain("note: This is the run report");
  });
});
