// Issue 13, the report side: what clawscope says about sessions real installs leave behind — a transcript that is
// missing, copies left out of the totals — on the synthetic state dirs of test/fixtures/real-world/ (README there).

import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatCostAll } from "../../server/cli/text-output.ts";
import { createSessionService } from "../../server/service/session-service.ts";

const FIX = path.resolve(__dirname, "../fixtures/real-world");
const state = (name: string) => path.join(FIX, name, "state");

describe("cost --all: a session whose transcript is missing", () => {
  it("is listed with missing: true, the path looked for, and no numbers; the totals skip it", () => {
    const service = createSessionService({ stateDir: state("windows-paths"), demo: false, reason: "test" });
    const all = service.costAll(true);
    service.close();
    const row = all.sessions.find((s) => s.sessionId === "3333cccc-0000-4000-8000-000000000033");
    expect(row).toEqual({
      agentId: "main",
      sessionId: "3333cccc-0000-4000-8000-000000000033",
      sessionKey: "agent:main:cron:gone",
      archived: null,
      cronSession: true,
      missing: true,
      location: "agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl",
    });
    expect(all.totals.calls).toBe(2);
    const text = formatCostAll(all);
    expect(text).toContain(
      "transcript not found: agents/main/sessions/3333cccc-0000-4000-8000-000000000033.jsonl",
    );
    expect(text).toContain("1 session(s) without transcript: no numbers, not counted");
    expect(text).not.toMatch(/3333cccc\S*\s+-\s+0\s/);
  });
});

describe("cost --all: backup and checkpoint copies", () => {
  it("are left out of rows and totals and listed with why", () => {
    const service = createSessionService({ stateDir: state("copies"), demo: false, reason: "test" });
    const all = service.costAll(true);
    const hidden = service.costAll(false);
    service.close();
    const id = "eeee5555-0000-4000-8000-000000000005";
    expect(all.leftOut.map((c) => [c.kind, c.sessionId, c.copyOf])).toEqual([
      ["checkpoint", `${id}.checkpoint.0b7e9c1e-4d2a-4c3b-9a1f-2e3d4c5b6a7f`, `${id}.jsonl`],
      ["backup", `${id}.bak-4242-1775000000000`, `${id}.jsonl`],
      ["backup", `${id}.bak.2026-05-01T09-00-00.000Z`, `${id}.jsonl`],
    ]);
    expect(all.leftOut[1]?.reason).toBe(
      `a backup copy of ${id}.jsonl: its calls are that transcript's, counted once there`,
    );
    expect(all.totals).toEqual(hidden.totals);
    // with archived sessions hidden the copies are not listed at all, so nothing was left out
    expect(hidden.leftOut).toEqual([]);
    expect(formatCostAll(all)).toContain(
      `left out: agents/main/sessions/${id}.jsonl.bak-4242-1775000000000 (a backup copy of ${id}.jsonl`,
    );
  });
});
