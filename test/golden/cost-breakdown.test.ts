// The breakdown by cause (issue 14 §2) adds up: Σ breakdown[].costUsd = totals.costUsd to the cent, and every
// call counts once, on every session of the fixtures' state dirs, the demo and the six corpus dirs (read in
// place through the session service, as `cost --session REF --json` does). Prints the `unknown` share of the
// miss cost per dir (the issue's ≤ 10 % target is measured, not asserted: see the report).

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { isObject } from "../../shared/json.ts";

const SHARED = path.resolve(__dirname, "../../../shared");
const FIXTURES = path.join(SHARED, "fixtures");
const CORPUS = path.join(SHARED, "corpus");
const DEMO = path.resolve(__dirname, "../../server/demo/state");

/** The fixtures' mock model has no price (private baseUrl, docs/openclaw-facts.md §6.3): assume Sonnet-class rates. */
const ASSUMED = {
  "anthropic/claude-mock-1": {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
    source: "test: assumed Sonnet-class prices",
  },
};

function stateDirs(): { name: string; dir: string }[] {
  const dirs = [{ name: "demo", dir: DEMO }];
  if (fs.existsSync(FIXTURES)) {
    for (const s of fs.readdirSync(FIXTURES).sort()) {
      const dir = path.join(FIXTURES, s, "state");
      if (fs.existsSync(dir)) dirs.push({ name: `fixtures/${s}`, dir });
    }
  } else console.warn(`cost-breakdown: ${FIXTURES} absent — fixture state dirs skipped`);
  if (fs.existsSync(CORPUS)) {
    for (const s of fs.readdirSync(CORPUS).sort()) {
      const dir = path.join(CORPUS, s);
      if (fs.statSync(dir).isDirectory()) dirs.push({ name: `corpus/${s}`, dir });
    }
  } else console.warn(`cost-breakdown: ${CORPUS} absent — corpus dirs skipped`);
  return dirs;
}

function expectBalanced(r: CostReportDTO, where: string): void {
  const sum = r.breakdown.reduce((a, b) => a + b.costUsd, 0);
  expect(Math.abs(sum - r.totals.costUsd), where).toBeLessThan(0.005);
  expect(
    r.breakdown.reduce((a, b) => a + b.calls, 0),
    where,
  ).toBe(r.totals.calls);
  expect(
    r.breakdown.reduce((a, b) => a + b.tokens, 0),
    where,
  ).toBe(r.totals.input + r.totals.output + r.totals.cacheRead + r.totals.cacheWrite);
  expect(new Set(r.breakdown.map((b) => b.cause)).size, where).toBe(r.breakdown.length);
  expect(r.breakdown.every((b) => b.calls > 0)).toBe(true);
}

describe("Σ breakdown = totals on every session", () => {
  for (const { name, dir } of stateDirs()) {
    it(name, { timeout: 120_000 }, () => {
      const service = createSessionService({
        stateDir: dir,
        demo: false,
        reason: "test",
        ...(name.startsWith("fixtures/") ? { pricingFile: ASSUMED } : {}),
      });
      let sessions = 0;
      let miss = 0;
      let unknown = 0;
      for (const s of service.listSessions().sessions) {
        if (s.missing) continue;
        const res = service.cost(s.agentId, s.sessionId);
        if (!res.ok) continue;
        const r = res.value;
        expectBalanced(r, `${name} ${s.agentId}/${s.sessionId}`);
        sessions++;
        miss += r.calls.reduce((a, c) => a + (c.missCostUsd ?? 0), 0);
        unknown += r.breakdownUnknown.missCostUsd;
      }
      expect(sessions).toBeGreaterThan(0);
      const share = miss > 0 ? `${((100 * unknown) / miss).toFixed(1)} %` : "n/a (no priced miss)";
      console.info(`cost-breakdown ${name}: unknown ${share} of $${miss.toFixed(2)} miss cost`);
      // issue 14's target for real installs: `unknown` ≤ 10 % of the miss cost
      expect(unknown).toBeLessThanOrEqual(0.1 * miss);
    });
  }
});

/** Per tool_use id, the text length of its tool_result on every captured request, in request order. */
function wireResultLengths(requestsGz: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const text = zlib.gunzipSync(fs.readFileSync(requestsGz)).toString("utf8");
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const req: unknown = JSON.parse(line);
    const messages = isObject(req) && isObject(req.body) ? req.body.messages : undefined;
    for (const m of Array.isArray(messages) ? messages : []) {
      const content = isObject(m) ? m.content : undefined;
      for (const b of Array.isArray(content) ? content : []) {
        if (!isObject(b) || b.type !== "tool_result" || typeof b.tool_use_id !== "string") continue;
        // a tool_result's content is a string or text blocks
        const parts =
          typeof b.content === "string" ? [{ text: b.content }] : Array.isArray(b.content) ? b.content : [];
        const len = parts.reduce(
          (a: number, p) => a + (isObject(p) && typeof p.text === "string" ? p.text.length : 0),
          0,
        );
        out.set(b.tool_use_id, [...(out.get(b.tool_use_id) ?? []), len]);
      }
    }
  }
  return out;
}

describe("tool-result-resent against the wire (j1, OpenClaw 2026.7.1)", () => {
  const j1 = path.join(FIXTURES, "j1-jsonl-cache-ttl-default");
  it.skipIf(!fs.existsSync(j1))(
    "names the one capped result whose wire form changed, and nothing else",
    () => {
      // ground truth: the tool results whose text differs between the requests that carried them
      const changed = [...wireResultLengths(path.join(j1, "requests.jsonl.gz"))]
        .filter(([, lens]) => new Set(lens).size > 1)
        .map(([id]) => id);
      expect(changed).toHaveLength(1);
      const service = createSessionService({ stateDir: path.join(j1, "state"), demo: false, reason: "test" });
      const s = service.listSessions().sessions.find((x) => !x.missing);
      const res = s ? service.cost(s.agentId, s.sessionId) : null;
      if (!res?.ok) throw new Error("j1 cost report missing");
      const resent = res.value.calls.filter((c) => c.cause.cause === "tool-result-resent");
      expect(resent).toHaveLength(1);
      const [entryId] = resent[0]?.cause.entryIds ?? [];
      const transcript = fs
        .readdirSync(path.join(j1, "state/agents/main/sessions"))
        .find((f) => f.endsWith(".jsonl"));
      const rows = fs
        .readFileSync(path.join(j1, "state/agents/main/sessions", transcript ?? ""), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l): unknown => JSON.parse(l));
      const row = rows.find((r) => isObject(r) && r.id === entryId);
      const message = isObject(row) && isObject(row.message) ? row.message : undefined;
      expect(message?.toolCallId).toBe(changed[0]);
      // and the call it names is the first to carry the stored form: its read stops where that result begins
      expect(res.value.calls.some((c) => c.cause.cause === "unknown")).toBe(false);
    },
  );
});
