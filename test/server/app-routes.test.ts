// Route tests through app.request against the bundled demo state dir (real OpenClaw captures).

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");

const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
const H = { host: "127.0.0.1:4470" };

async function getJson(url: string, headers: Record<string, string> = H) {
  const res = await app.request(url, { headers });
  const body: unknown = await res.json();
  return { res, body };
}

interface Row {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  storage: string;
  archived: string | null;
}

function isRows(v: unknown): v is { sessions: Row[]; issues: unknown[] } {
  return typeof v === "object" && v !== null && "sessions" in v && Array.isArray(v.sessions);
}

describe("API routes (demo state dir)", () => {
  it("GET /api/state says it is the demo", async () => {
    const { res, body } = await getJson("/api/state");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ stateDir: DEMO, demo: true });
  });

  it("GET /api/sessions lists every agent's sessions with both storage eras", async () => {
    const { res, body } = await getJson("/api/sessions");
    expect(res.status).toBe(200);
    if (!isRows(body)) throw new Error("bad body");
    const ids = body.sessions.map((s) => `${s.agentId}/${s.storage}/${s.sessionKey}`).sort();
    expect(ids).toEqual([
      "legacy/jsonl/agent:legacy:main",
      "main/sqlite/agent:main:main",
      "research/sqlite/agent:research:main",
    ]);
    for (const s of body.sessions) expect(s.archived).toBeNull();
  });

  it("GET …/report returns the run report with OpenClaw's texts for each era", async () => {
    const { body } = await getJson("/api/sessions");
    if (!isRows(body)) throw new Error("bad body");
    for (const s of body.sessions) {
      const r = await app.request(`/api/sessions/${s.agentId}/${s.sessionId}/report`, { headers: H });
      expect(r.status).toBe(200);
      const report = await r.json();
      expect(report.session.sessionId).toBe(s.sessionId);
      expect(report.texts.available).toBe(true);
      expect(report.texts.list.startsWith("🧠 Context breakdown\n")).toBe(true);
      expect(report.texts.matchesStoredReply.list).not.toBe(false);
      expect(report.lastCall.promptTokens).toBeGreaterThan(0);
      expect(report.version.family).toBe(s.storage === "jsonl" ? "2026.7" : "2026.9");
    }
  });

  it("map, truncation, prune and cost routes answer with their contracts", async () => {
    const base = "/api/sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
    const map = await (await app.request(`${base}/map`, { headers: H })).json();
    expect(map.root.children.length).toBeGreaterThan(3);
    expect(map.actualTokens).toBeGreaterThan(0);

    const trunc = await (await app.request(`${base}/truncation`, { headers: H })).json();
    expect(trunc.maxPerFile).toBe(12000);
    const agents = trunc.files.find((f: { name: string }) => f.name === "AGENTS.md");
    expect(agents).toMatchObject({ rawChars: 16640, injectedChars: 11587, truncated: true });

    const prune = await (await app.request(`${base}/prune`, { headers: H })).json();
    expect(prune.algorithm).toBe("2026.9");
    expect(prune.calls.filter((c: { round: string }) => c.round !== "none")).toHaveLength(3);
    expect(Object.keys(prune.next)).toEqual(
      expect.arrayContaining(["at", "ttlExpired", "wouldPrune", "toolResults"]),
    );

    const whatIf = await (await app.request(`${base}/prune?algorithm=2026.7&ttl=0`, { headers: H })).json();
    expect(whatIf.settings.ttlMs).toBe(0);
    expect(whatIf.calls.every((c: { round: string }) => c.round === "none")).toBe(true);

    const cost = await (await app.request(`${base}/cost`, { headers: H })).json();
    expect(cost.calls).toHaveLength(60);
    expect(cost.totals).toMatchObject({ input: 3960, output: 3864, cacheRead: 1376253, cacheWrite: 899327 });

    const all = await (await app.request("/api/cost", { headers: H })).json();
    expect(all.sessions).toHaveLength(3);
  });

  it("unknown sessions and agents are JSON 404s; unknown /api paths never fall through to the SPA", async () => {
    const a = await getJson("/api/sessions/main/does-not-exist/report");
    expect(a.res.status).toBe(404);
    expect(a.body).toMatchObject({ error: { code: expect.any(String) } });
    const b = await getJson("/api/sessions/nobody/x/report");
    expect(b.res.status).toBe(404);
    const c = await getJson("/api/nope");
    expect(c.res.status).toBe(404);
    expect(c.res.headers.get("content-type")).toContain("application/json");
  });

  it("path parameters cannot leave the state dir", async () => {
    for (const url of [
      "/api/sessions/..%2F..%2F..%2Fetc/passwd/report",
      "/api/sessions/main/..%2F..%2F..%2F..%2Fetc%2Fpasswd/report",
      "/api/sessions/%2E%2E/main/report",
      "/api/sessions/main/%2Fetc%2Fpasswd/report",
      "/api/sessions/legacy/..%5C..%5Csessions.json/report",
    ]) {
      const res = await app.request(url, { headers: H });
      expect([400, 404, 422]).toContain(res.status);
      const text = await res.text();
      expect(text).not.toContain("root:");
    }
  });

  it("refuses foreign Host headers (DNS rebinding)", async () => {
    const res = await app.request("/api/sessions", { headers: { host: "evil.example:4470" } });
    expect(res.status).toBe(403);
    const ok = await app.request("/api/sessions", { headers: { host: "localhost:4470" } });
    expect(ok.status).toBe(200);
  });
});

describe("export routes", () => {
  const base = "/api/sessions/research/c50b7fb8-120b-44a9-a477-545eec87c0a7";
  it("GET …/export is a redacted self-contained HTML attachment by default", async () => {
    const res = await app.request(`${base}/export`, { headers: H });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-disposition")).toContain("attachment");
    const html = await res.text();
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script/i);
    // The session's workspace path and prompts stay out of a redacted export.
    expect(html).not.toContain("/home/user/.openclaw");
    const full = await (await app.request(`${base}/export?redact=0`, { headers: H })).text();
    expect(full).toContain("/home/user/.openclaw");
  });
  it("GET …/issue.md is Markdown with the key numbers", async () => {
    const res = await app.request(`${base}/issue.md`, { headers: H });
    expect(res.status).toBe(200);
    const md = await res.text();
    expect(md).toContain("2026.9.6");
    expect(md).toMatch(/cache-ttl/);
  });
});

describe("pruning preview route", () => {
  it("GET …/prune/preview shows a soft-trimmed result's head … tail + trim note, byte-exact to the rule", async () => {
    const base = "/api/sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
    const replay = await (await app.request(`${base}/prune`, { headers: H })).json();
    const callIndex = replay.calls.findIndex((c: { round: string }) => c.round === "soft-trim");
    const call = replay.calls[callIndex];
    const [toolCallId] = Object.entries(call.toolResults).find(([, st]) => st === "soft-trim") ?? [];
    const res = await app.request(
      `${base}/prune/preview?call=${callIndex}&toolCallId=${encodeURIComponent(String(toolCallId))}`,
      { headers: H },
    );
    expect(res.status).toBe(200);
    const p = await res.json();
    expect(p.state).toBe("soft-trim");
    // 2026.9.x soft-trim: first 1500 + "\n...\n" + last 1500 + the note (spec pruning.md §2.5).
    expect(p.after).toBe(
      `${p.before.slice(0, 1500)}\n...\n${p.before.slice(-1500)}\n\n[Tool result trimmed: kept first 1500 chars and last 1500 chars of ${p.before.length} chars.]`,
    );
    const bad = await app.request(`${base}/prune/preview?call=0`, { headers: H });
    expect(bad.status).toBe(400);
  });
});

describe("pruning summary + one call", () => {
  const base = "/api/sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8";
  it("GET …/prune?calls=summary leaves per-call states out; GET …/prune/call?call=N gives exactly those of the full replay", async () => {
    const full = await (await app.request(`${base}/prune?ttl=1m`, { headers: H })).json();
    const summary = await (await app.request(`${base}/prune?ttl=1m&calls=summary`, { headers: H })).json();
    expect(full.callsDetail).toBeUndefined();
    expect(summary.callsDetail).toBe("summary");
    expect(summary.calls).toHaveLength(full.calls.length);
    const strip = (c: Record<string, unknown>) => ({ ...c, toolResults: {}, details: [] });
    expect(summary.calls).toEqual(full.calls.map(strip));
    const withResults = full.calls.findIndex((c: { details: unknown[] }) => c.details.length > 0);
    expect(withResults).toBeGreaterThanOrEqual(0);
    const one = await (
      await app.request(`${base}/prune/call?ttl=1m&call=${withResults}`, { headers: H })
    ).json();
    expect(one).toEqual({
      index: withResults,
      toolResults: full.calls[withResults].toolResults,
      details: full.calls[withResults].details,
    });
    expect((await app.request(`${base}/prune/call?call=99999`, { headers: H })).status).toBe(404);
    expect((await app.request(`${base}/prune/call`, { headers: H })).status).toBe(400);
  });
});
