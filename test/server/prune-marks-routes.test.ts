// GET …/prune's timeline marks (issue 15) through app.request on the bundled demo: the legacy session's two
// compactions between the calls around them, and every expired cache gap's $ exactly as GET …/cost reports it
// for the same call (one definition: reports/cost/gap-costs.ts).

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");
const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test", hostTimeZone: "UTC" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4471 });
const H = { host: "127.0.0.1:4471" };

async function get<T>(url: string): Promise<T> {
  const res = await app.request(url, { headers: H });
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

function base(key: string): string {
  const s = service.listSessions().sessions.find((x) => x.sessionKey === key);
  if (!s) throw new Error(`no ${key} in the demo`);
  return `/api/sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}`;
}

describe("GET …/prune marks", () => {
  it("places the legacy session's two compactions between the calls around them", async () => {
    const prune = await get<PruneReplayDTO>(`${base("agent:legacy:main")}/prune?calls=summary`);
    const events = prune.marks?.events ?? [];
    expect(events.map((e) => e.kind)).toEqual(["compaction", "compaction"]);
    for (const e of events) {
      expect(e.beforeCall).toBeGreaterThan(0);
      expect(e.beforeCall).toBeLessThan(prune.calls.length);
      const before = prune.calls[e.beforeCall - 1];
      const after = prune.calls[e.beforeCall];
      expect(e.at).not.toBeNull();
      expect(before && e.at !== null && before.timestamp <= e.at).toBe(true);
      expect(after && e.at !== null && e.at <= after.timestamp).toBe(true);
    }
  });

  it.each(["agent:main:main", "agent:legacy:main", "agent:research:main"])(
    "%s: each expired gap's $ is the cost report's for that call",
    async (key) => {
      const prune = await get<PruneReplayDTO>(`${base(key)}/prune?calls=summary`);
      const cost = await get<CostReportDTO>(`${base(key)}/cost`);
      const gaps = prune.marks?.gaps ?? [];
      expect(gaps.length).toBeGreaterThan(0);
      expect(gaps.length).toBe(cost.gapCosts.length);
      gaps.forEach((g, k) => {
        const c = cost.gapCosts[k];
        expect(prune.calls[g.call]?.entryId).toBe(c?.callEntryId);
        expect(g.premiumUsd).toBe(c?.premiumUsd);
        expect(g.rewrittenTokens).toBe(c?.rewrittenTokens);
      });
    },
  );
});
