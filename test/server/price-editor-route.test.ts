// The in-app price editor's prices (issue 14 §3) through GET /sessions/:agent/:session/cost?prices=…: a model
// nothing prices is unpriced (never $0.00) until the editor prices it; the editor ranks below the price library
// (a known model keeps its library price); a malformed list is a 400 naming the bad part.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { isArray, isObject, type JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-price-editor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SESSION = "0a1b2c3d-0000-4000-8000-000000000001";
const b = new TranscriptBuilder();
b.user("hi");
b.assistant({ provider: "acme-proxy", model: "house-model-1", usage: { input: 100_000, output: 0 } });
b.user("again");
b.assistant({ provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 100_000, output: 0 } });
b.writeJsonlStateDir(dir, { sessionId: SESSION });
const app = createApp({
  service: createSessionService({ stateDir: dir, demo: false, reason: "test" }),
  boundHost: "127.0.0.1",
  port: 4471,
});
const H = { host: "127.0.0.1:4471" };

async function cost(query: string): Promise<{ status: number; body: JsonObject }> {
  const res = await app.request(`/api/sessions/main/${SESSION}/cost${query}`, { headers: H });
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error("not an object");
  return { status: res.status, body };
}

function calls(body: JsonObject): JsonObject[] {
  return isArray(body.calls) ? body.calls.filter(isObject) : [];
}

describe("price editor prices via the cost route", () => {
  it("unpriced until the editor prices it; below the library; recomputed totals", async () => {
    const before = await cost("");
    expect(before.status).toBe(200);
    const [house, sonnet] = calls(before.body);
    expect([house?.costSource, house?.costUsd, house?.priceOrigin]).toEqual(["unpriced", null, null]);
    expect(sonnet?.priceOrigin).toBe("library");
    const prices = encodeURIComponent(
      "acme-proxy/house-model-1=2,8,0.2,2.5;anthropic/claude-sonnet-4-5=1,1,1,1",
    );
    const after = await cost(`?prices=${prices}`);
    expect(after.status).toBe(200);
    const [h2, s2] = calls(after.body);
    expect([h2?.costSource, h2?.priceOrigin, h2?.costUsd]).toEqual(["pricing-table", "editor", 0.2]);
    // the library still prices Sonnet 4.5 at its list price ($3 / 1M input; under the 200k long-context tier)
    expect([s2?.priceOrigin, s2?.costUsd]).toEqual(["library", 0.3]);
    const totals = after.body.totals;
    expect(isObject(totals) ? [totals.costUsd, totals.unpricedCalls] : null).toEqual([0.5, 0]);
  });

  it("a malformed list is a 400 that names the bad part", async () => {
    const bad = await cost(`?prices=${encodeURIComponent("acme-proxy/house-model-1=2,8")}`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("expected provider/model=input,output,cacheRead,cacheWrite");
  });
});

describe("price editor prices via the cache clock route", () => {
  // The last call is the unpriced model's: the clock's "the next call will re-write …" line has no price
  // without the editor, and the editor's with it — the same price the cost tab uses.
  const dir2 = mkdtempSync(path.join(os.tmpdir(), "clawscope-price-editor-clock-"));
  afterAll(() => rmSync(dir2, { recursive: true, force: true }));
  const t = new TranscriptBuilder();
  t.user("hi");
  t.assistant({
    provider: "acme-proxy",
    model: "house-model-1",
    usage: { input: 10, output: 0, cacheWrite: 100_000 },
  });
  t.writeJsonlStateDir(dir2, { sessionId: SESSION });
  const app2 = createApp({
    service: createSessionService({ stateDir: dir2, demo: false, reason: "test" }),
    boundHost: "127.0.0.1",
    port: 4471,
  });
  const clock = async (query: string) => {
    const res = await app2.request(`/api/sessions/main/${SESSION}/clock${query}`, { headers: H });
    const body: unknown = await res.json();
    if (!isObject(body)) throw new Error("not an object");
    return { status: res.status, body };
  };

  it("prices the re-write with the editor's list; a malformed list is a 400", async () => {
    const before = await clock("");
    expect(before.status).toBe(200);
    expect(before.body.rewriteUsd).toBeNull();
    const after = await clock(`?prices=${encodeURIComponent("acme-proxy/house-model-1=2,8,0.2,2.5")}`);
    expect(after.status).toBe(200);
    expect(typeof after.body.rewriteUsd).toBe("number");
    expect(after.body.rewriteUsd).toBeGreaterThan(0);
    const bad = await clock(`?prices=${encodeURIComponent("acme-proxy/house-model-1=2")}`);
    expect(bad.status).toBe(400);
  });
});
