// GET …/prune/next (issue 15: the Next call card's "now" is the wall clock): without `at` the prediction is at the
// server's clock; with one it is exactly the replay's own `next` at that time. The as-configured replay answers every
// `at` from its one kept run (session-reports.ts) — checked here against a fresh replay of the session at that `at`,
// whole DTO, on the demo's three sessions (2026.9 sticky SQLite, 2026.7 JSONL) and the captured 2026.9 scenarios.

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { readOpenClawConfig } from "../../server/sources/openclaw-config.ts";
import type { PruneNextDTO, PruneReplayDTO } from "../../shared/prune.ts";
import { REPO } from "../helpers/cli.ts";

const DEMO = path.join(REPO, "server", "demo", "state");
const SHARED = path.resolve(REPO, "..", "shared", "fixtures");
const CAPTURES = ["s1-cache-ttl-default", "s3-aggressive-hardclear", "j1-jsonl-cache-ttl-default"]
  .map((name) => path.join(SHARED, name, "state"))
  .filter((dir) => existsSync(dir));
if (CAPTURES.length === 0) console.warn(`prune-next-route: ${SHARED} absent, only the demo is checked`);

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");
const H = { host: "127.0.0.1:4472" };

function setup(stateDir: string) {
  const service = createSessionService({ stateDir, demo: false, reason: "test", hostTimeZone: "UTC" });
  const app = createApp({ service, boundHost: "127.0.0.1", port: 4472 });
  const get = async <T>(url: string): Promise<T> => {
    const res = await app.request(url, { headers: H });
    expect(res.status, url).toBe(200);
    return (await res.json()) as T;
  };
  const sessions = service.listSessions().sessions.filter((s) => s.entryCount !== 0);
  return { service, get, sessions };
}

const url = (s: { agentId: string; sessionId: string }, rest: string) =>
  `/api/sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}${rest}`;

describe.each([DEMO, ...CAPTURES])("GET …/prune/next on %s", (stateDir) => {
  const { service, get, sessions } = setup(stateDir);

  it("has sessions to check", () => expect(sessions.length).toBeGreaterThan(0));

  it("without `at`: the prediction is at the server's wall clock", async () => {
    for (const s of sessions) {
      const before = Date.now();
      const next = await get<PruneNextDTO>(url(s, "/prune/next"));
      expect(next.at).toBeGreaterThanOrEqual(before);
      expect(next.at).toBeLessThanOrEqual(Date.now());
      // the session's last entry is in the past: a TTL clock that exists has run out by now
      if (next.msUntilTtlExpiry !== null) expect(next.ttlExpired).toBe(true);
    }
  });

  it("with `at`: exactly the replay's `next` at that time, and that replay a fresh one's", async () => {
    const config = readOpenClawConfig(stateDir).config;
    for (const s of sessions) {
      const loaded = service.load(s.agentId, s.sessionId);
      if (!loaded.ok) throw new Error(loaded.error.message);
      const asRun = await get<PruneReplayDTO>(url(s, "/prune?calls=summary"));
      const last = asRun.next.at;
      // before the last touch's TTL runs out, just after, and a day later
      for (const at of [last - 1, last + asRun.settings.ttlMs + 1, last + 86_400_000]) {
        const next = await get<PruneNextDTO>(url(s, `/prune/next?at=${at}`));
        const replay = await get<PruneReplayDTO>(url(s, `/prune?calls=summary&at=${at}`));
        expect(next).toEqual(replay.next);
        const fresh = runReplay({ session: loaded.value, config, at, sha256Base64Url }).summary();
        expect(replay).toEqual({ ...fresh, marks: replay.marks });
      }
      // the kept run answered those `at`s: the as-run replay is still what it was
      expect(await get<PruneReplayDTO>(url(s, "/prune?calls=summary"))).toEqual(asRun);
    }
  });

  it("a what-if's prediction is its replay's", async () => {
    const s = sessions[0];
    if (!s) throw new Error("no session");
    const at = Date.parse("2027-01-01T00:00:00Z");
    const next = await get<PruneNextDTO>(url(s, `/prune/next?ttl=1h&softTrimRatio=0.1&at=${at}`));
    const replay = await get<PruneReplayDTO>(
      url(s, `/prune?ttl=1h&softTrimRatio=0.1&at=${at}&calls=summary`),
    );
    expect(next).toEqual(replay.next);
    expect(next.at).toBe(at);
  });
});

describe("GET …/prune/next errors", () => {
  it("is a located 404 for a session that does not exist", async () => {
    const { service } = setup(DEMO);
    const app = createApp({ service, boundHost: "127.0.0.1", port: 4472 });
    const res = await app.request("/api/sessions/main/no-such-session/prune/next", { headers: H });
    expect(res.status).toBe(404);
  });
});
