// The sent routes (issue 16) through app.request on the bundled demo state dir: every call's sent counts (the
// same calls, in the same order, as the pruning replay), one call's scrubber view, the slot map, and located
// errors for a call that does not exist.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { isObject } from "../../shared/json.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");
const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test", hostTimeZone: "UTC" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
const H = { host: "127.0.0.1:4470" };

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await app.request(url, { headers: H });
  return { status: res.status, body: await res.json() };
}

const main = service.listSessions().sessions.find((s) => s.sessionKey === "agent:main:main");
const base = `/api/sessions/${main?.agentId}/${encodeURIComponent(main?.sessionId ?? "")}`;

describe("GET …/sent", () => {
  it("lists every agent call with its sent counts and billed usage, numbered like the replay", async () => {
    const { status, body } = await get(`${base}/sent`);
    expect(status).toBe(200);
    const prune = await get(`${base}/prune?calls=summary`);
    if (
      !isObject(body) ||
      !Array.isArray(body.calls) ||
      !isObject(prune.body) ||
      !Array.isArray(prune.body.calls)
    )
      throw new Error("bad bodies");
    expect(body.calls.length).toBe(prune.body.calls.length);
    expect(body.calls.length).toBeGreaterThan(10);
    body.calls.forEach((c, i) => {
      expect(c).toMatchObject({
        call: i + 1,
        sent: { messages: expect.any(Number), messageChars: expect.any(Number) },
      });
      const p =
        prune.body && isObject(prune.body) && Array.isArray(prune.body.calls) ? prune.body.calls[i] : null;
      expect(isObject(c) && isObject(p) && c.entryId === p.entryId).toBe(true);
    });
  });

  it("gives one call's view: its row and the context map at that call", async () => {
    const { status, body } = await get(`${base}/sent/call?call=3`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ call: { call: 3 }, map: { root: { id: "" } } });
  });

  it("gives each tool result's size stored vs as sent at the call: sent = its tile's chars", async () => {
    const list = await get(`${base}/sent`);
    if (!isObject(list.body) || !Array.isArray(list.body.calls)) throw new Error("bad body");
    const { body } = await get(`${base}/sent/call?call=${list.body.calls.length}`);
    if (
      !isObject(body) ||
      !isObject(body.map) ||
      !isObject(body.toolResultChars) ||
      !isObject(body.toolResults)
    )
      throw new Error("bad body");
    const tiles = new Map<string, number>();
    const walk = (n: unknown): void => {
      if (!isObject(n)) return;
      const kids = Array.isArray(n.children) ? n.children : [];
      if (!kids.length && typeof n.id === "string" && n.id.startsWith("conversation/tool-results/"))
        tiles.set(decodeURIComponent(n.id.slice(n.id.lastIndexOf("/") + 1)), Number(n.chars));
      for (const k of kids) walk(k);
    };
    walk(body.map.root);
    expect(tiles.size).toBeGreaterThan(0);
    expect(Object.keys(body.toolResultChars).sort()).toEqual([...tiles.keys()].sort());
    let trimmed = 0;
    for (const [id, chars] of tiles) {
      const c = body.toolResultChars[id];
      if (!isObject(c)) throw new Error(`no sizes for ${id}`);
      expect(c.sent, id).toBe(chars);
      const state = body.toolResults[id];
      if (state === "full") expect(c.stored, id).toBe(c.sent);
      if (state === "soft-trim") {
        trimmed++;
        expect(Number(c.stored), id).toBeGreaterThan(Number(c.sent));
      }
    }
    expect(trimmed).toBeGreaterThan(0);
  });

  it("answers a call that does not exist with a located error", async () => {
    expect((await get(`${base}/sent/call?call=0`)).status).toBe(400);
    const missing = await get(`${base}/sent/call?call=99999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "not-found" } });
  });

  it("gives the slot map: every tile a call had, at its largest", async () => {
    const slots = await get(`${base}/sent/slots`);
    const last = await get(`${base}/sent`);
    expect(slots.status).toBe(200);
    if (!isObject(last.body) || !Array.isArray(last.body.calls)) throw new Error("bad body");
    const n = last.body.calls.length;
    const view = await get(`${base}/sent/call?call=${n}`);
    if (!isObject(slots.body) || !isObject(view.body) || !isObject(view.body.map))
      throw new Error("bad body");
    const ids = (node: unknown, out: Map<string, number>): Map<string, number> => {
      if (!isObject(node)) return out;
      const kids = Array.isArray(node.children) ? node.children : [];
      if (!kids.length && typeof node.id === "string" && typeof node.chars === "number")
        out.set(node.id, node.chars);
      for (const k of kids) ids(k, out);
      return out;
    };
    const slotIds = ids(slots.body.root, new Map());
    for (const [id, chars] of ids(view.body.map.root, new Map())) {
      if (id === "untracked") continue;
      expect(slotIds.has(id), id).toBe(true);
      expect(chars).toBeLessThanOrEqual(slotIds.get(id) ?? 0);
    }
  });
});
