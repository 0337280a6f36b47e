// The Cache & cost tab's paged report (issue 18) through app.request on the bundled demo state dir and a fixture
// with a stored-usage session: GET …/cost/page has one row per call of GET …/cost (the CLI's `cost --json`), each
// row's fields equal to its call's, and everything but `calls` unchanged; GET …/cost/call?call=N is that call's
// full record; the editor's prices reach both; bad and unknown calls are located 400 / 404 errors.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { isArray, isObject, type JsonObject } from "../../shared/json.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");
const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test", hostTimeZone: "UTC" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4472 });
const H = { host: "127.0.0.1:4472" };

async function get(url: string): Promise<{ status: number; body: JsonObject; bytes: number }> {
  const res = await app.request(url, { headers: H });
  const text = await res.text();
  const body: unknown = JSON.parse(text);
  if (!isObject(body)) throw new Error(`${url}: not an object`);
  return { status: res.status, body, bytes: text.length };
}

const objects = (v: unknown): JsonObject[] => (isArray(v) ? v.filter(isObject) : []);
const sessions = service.listSessions().sessions.filter((s) => !s.archived);

/** The row fields equal to the full call's field of the same name. */
const SAME: readonly string[] = [
  "entryIndex",
  "timestamp",
  "input",
  "output",
  "cacheRead",
  "cacheWrite",
  "promptTokens",
  "costUsd",
  "hitRate",
  "writeAwareHitRate",
  "verdict",
  "gapMs",
  "clockBack",
  "missCostUsd",
];

describe("GET …/cost/page and …/cost/call", () => {
  it("the demo has sessions with calls", () => {
    expect(sessions.length).toBeGreaterThan(1);
  });

  for (const s of sessions) {
    const base = `/api/sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}`;
    it(`${s.agentId}/${s.sessionKey ?? s.sessionId}: one row per call, fields equal to the call's`, async () => {
      const full = await get(`${base}/cost`);
      const page = await get(`${base}/cost/page`);
      if (full.status !== 200) {
        // a session without a transcript fails the same way on both
        expect(page.status).toBe(full.status);
        expect(page.body).toEqual(full.body);
        return;
      }
      expect(page.status).toBe(200);
      const calls = objects(full.body.calls);
      const rows = objects(page.body.rows);
      expect(rows.length).toBe(calls.length);
      rows.forEach((row, i) => {
        const call = calls[i];
        if (!call) throw new Error("no call");
        expect(row.n).toBe(i + 1);
        for (const k of SAME) expect([k, row[k]]).toEqual([k, call[k]]);
        const cause = isObject(call.cause) ? call.cause : {};
        const tier = isObject(call.writeTier) ? call.writeTier : {};
        // the table names the attributed cause (shared/spend-causes.ts verdictWithCause); the verdict's own
        // sub-cause stays in the full call's evidence
        expect(row.spendCause).toBe(cause.cause);
        expect("prefixCause" in row).toBe(false);
        // flags only when set
        expect(row.oneHourWrite).toBe(tier.tier === "1h" ? true : undefined);
        expect(row.offBranch).toBe(call.onActiveBranch ? undefined : true);
        expect(row.heartbeatSignals).toEqual(call.heartbeat ? call.heartbeatSignals : undefined);
      });
      const { calls: _calls, ...rest } = full.body;
      const { rows: _rows, costliest, unpricedModels, linkedCalls, ...pageRest } = page.body;
      expect(pageRest).toEqual(rest);
      // every call an expiry or pruning-round row names, with its # and row key
      const named = [...objects(full.body.gapCosts), ...objects(full.body.pruningRounds)].map(
        (r) => r.callEntryId,
      );
      const want: Record<string, { n: number; entryIndex: unknown }> = {};
      for (const id of named) {
        const i = calls.findIndex((c) => c.entryId === id);
        if (typeof id === "string" && i >= 0) want[id] = { n: i + 1, entryIndex: calls[i]?.entryIndex };
      }
      expect(linkedCalls).toEqual(want);
      const unpriced = calls
        .filter((c) => c.costSource === "unpriced")
        .map((c) => `${String(c.provider ?? "?")}/${String(c.model ?? "?")}`);
      expect(unpricedModels).toEqual([...new Set(unpriced)].sort());
      // the five costliest priced calls, costliest first, each with its cause line
      const top = calls
        .map((c, i) => ({ c, n: i + 1 }))
        .filter(({ c }) => typeof c.costUsd === "number" && c.costUsd > 0)
        .sort((a, b) => Number(b.c.costUsd) - Number(a.c.costUsd))
        .slice(0, 5);
      expect(costliest).toEqual(
        top.map(({ c, n }) => {
          const cause = isObject(c.cause) ? c.cause : {};
          return {
            n,
            entryIndex: c.entryIndex,
            costUsd: c.costUsd,
            cause: cause.cause,
            detail: cause.detail,
          };
        }),
      );
      // one call's full record, as GET …/cost has it
      for (const call of [calls[0], calls[calls.length - 1]]) {
        if (!call) continue;
        const one = await get(`${base}/cost/call?call=${call.entryIndex}`);
        expect(one.status).toBe(200);
        expect(one.body).toEqual(call);
      }
      if (calls.length > 20) expect(page.bytes).toBeLessThan(full.bytes * 0.5);
    });
  }

  it("the editor's prices reach the page and the call", async () => {
    const s = sessions.find((x) => x.sessionKey === "agent:main:main") ?? sessions[0];
    if (!s) throw new Error("no session");
    const base = `/api/sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}`;
    const plain = await get(`${base}/cost/page`);
    const first = objects(plain.body.rows)[0];
    const firstCall = objects((await get(`${base}/cost`)).body.calls)[0];
    if (!first || !firstCall) throw new Error("no row");
    const key = `${String(firstCall.provider)}/${String(firstCall.model)}`;
    const prices = encodeURIComponent(`${key}=1000,1000,1000,1000`);
    const full = await get(`${base}/cost?prices=${prices}`);
    const page = await get(`${base}/cost/page?prices=${prices}`);
    expect(page.body.totals).toEqual(full.body.totals);
    const one = await get(`${base}/cost/call?call=${first.entryIndex}&prices=${prices}`);
    expect(one.body).toEqual(objects(full.body.calls)[0]);
    expect((await get(`${base}/cost/page?prices=nonsense`)).status).toBe(400);
  });

  it("a call that is not an entry index is a 400, one with no model call a 404 saying how many there are", async () => {
    const s = sessions[0];
    if (!s) throw new Error("no session");
    const base = `/api/sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}`;
    for (const q of ["", "?call=", "?call=x", "?call=-1", "?call=1.5"]) {
      const r = await get(`${base}/cost/call${q}`);
      expect([q, r.status]).toEqual([q, 400]);
    }
    const r = await get(`${base}/cost/call?call=999999`);
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toMatch(/no model call at entry 999999 \(the cost report has \d+ calls\)/);
    expect((await get(`/api/sessions/${s.agentId}/nope/cost/page`)).status).toBe(404);
  });
});
