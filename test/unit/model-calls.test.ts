// The decode-once model calls (server/model/model-calls.ts): one rule for "when was this call", one
// prompt-token sum, the transcript-only / usage exclusion flags (spec transcript.md §3–§4, §8), and the
// reports that read the last call through it.

import fs, { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  continueModelCalls,
  type ModelCall,
  modelCallsOf,
  type TranscriptCalls,
} from "../../server/model/model-calls.ts";
import type { LoadedSession, Transcript } from "../../server/model/session.ts";
import { buildCostReport } from "../../server/reports/cost/cost-report.ts";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { buildRunReport, lastCallUsage } from "../../server/reports/run-report.ts";
import { extendTranscript } from "../../server/sources/jsonl/tail.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { growingTranscripts, TranscriptBuilder, transcriptFromJsonl } from "../helpers/transcript.ts";

const T0 = Date.UTC(2026, 10, 30);
const J1_FILE = path.resolve(
  __dirname,
  "../../server/demo/state/agents/legacy/sessions/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84.jsonl",
);

describe("modelCallsOf", () => {
  it("decodes every assistant message once, in append order, with the usage buckets and the prompt sum", () => {
    const b = new TranscriptBuilder({ start: T0 });
    b.user("hi");
    b.tick(100);
    b.assistant({
      usage: { input: 10, output: 5, cacheRead: 2_000, cacheWrite: 300, cacheWrite1h: 300, cost: 0.5 },
    });
    b.tick(100);
    b.injected("status reply");
    const t = b.transcript();
    const calls = modelCallsOf(t);
    expect(calls.all).toHaveLength(2);
    expect(calls.billed).toHaveLength(1);
    expect(calls.excludedCount).toBe(1);
    const c = calls.billed[0];
    expect(c).toMatchObject({
      entryIndex: 2,
      entryId: "e1",
      atMs: T0 + 100,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic-messages",
      usage: { input: 10, output: 5, cacheRead: 2_000, cacheWrite: 300, cacheWrite1h: 300 },
      hasUsage: true,
      promptTokens: 2_310,
      stopReason: "stop",
      recordedCost: 0.5,
      providerBilled: false,
      onActiveBranch: true,
      transcriptOnly: false,
      excluded: false,
    });
    expect(calls.all[1]).toMatchObject({ transcriptOnly: true, excluded: true });
    expect(calls.at(2)).toBe(c);
    expect(calls.at(1)).toBeUndefined();
    // Memoised per Transcript.
    expect(modelCallsOf(t)).toBe(calls);
  });

  it("atMs: numeric message.timestamp, else the envelope timestamp, else null", () => {
    const b = new TranscriptBuilder({ start: T0 });
    b.user("hi");
    b.add({
      type: "message",
      timestamp: new Date(T0 + 7_000).toISOString(),
      message: { role: "assistant", content: [] },
    });
    b.add({ type: "message", timestamp: "not a date", message: { role: "assistant", content: [] } });
    b.message({ role: "assistant", content: [], timestamp: T0 + 9_000 });
    const calls = modelCallsOf(b.transcript()).all;
    expect(calls.map((c) => c.atMs)).toEqual([T0 + 7_000, null, T0 + 9_000]);
    expect(calls[0]?.hasUsage).toBe(false);
    expect(calls[0]?.promptTokens).toBe(0);
  });

  it("flags calls off the active branch and finds the last billed call on it", () => {
    const b = new TranscriptBuilder({ start: T0 });
    const root = b.user("hi");
    b.assistant({ model: "side-model" });
    b.user("again", {}, root);
    b.assistant({ model: "main-model" });
    const calls = modelCallsOf(b.transcript());
    expect(calls.all.map((c) => [c.model, c.onActiveBranch])).toEqual([
      ["side-model", false],
      ["main-model", true],
    ]);
    expect(calls.lastOnActiveBranch()?.model).toBe("main-model");
    expect(calls.lastBilled?.model).toBe("main-model");
  });

  it("an appended transcript decodes its earlier calls to the same records", () => {
    const b = new TranscriptBuilder({ start: T0 });
    b.user("hi");
    b.assistant({ usage: { input: 1, cacheWrite: 500 } });
    const first = b.transcript();
    b.user("more");
    b.assistant({ usage: { input: 2, cacheRead: 500 } });
    const grown = transcriptFromJsonl(b.jsonl());
    const a = modelCallsOf(first).all;
    const g = modelCallsOf(grown).all;
    expect(g).toHaveLength(2);
    expect(g[0]?.usage).toEqual(a[0]?.usage);
    expect(g[1]?.promptTokens).toBe(502);
  });
});

describe("the last model call skips rows excluded from usage (transcript.md §8)", () => {
  // A message-tool mirror is excluded from usage, cost and cache statistics: it is not the session's last
  // model call, so neither the billed prompt of the run report nor the pruning replay's model come from it.
  const b = new TranscriptBuilder({ start: T0 });
  b.user("hi");
  b.assistant({
    usage: { input: 10, cacheRead: 4_000, cacheWrite: 100 },
    provider: "anthropic",
    model: "claude-x",
  });
  b.tick(1_000);
  b.message({
    role: "assistant",
    content: [{ type: "text", text: "sent via the message tool" }],
    provider: "custom",
    model: "glm-5",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    openclawMessageToolMirror: { tool: "message" },
  });
  const session = b.session({ family: "2026.9" });

  it("run report: lastCall is the real call", () => {
    expect(lastCallUsage(session.transcript)).toMatchObject({ model: "claude-x", promptTokens: 4_110 });
    expect(buildRunReport(session).reconciliation.actualTokens).toBe(4_110);
  });

  it("pruning replay: eligibility is decided for the real call's provider", () => {
    const r = runReplay({ session, config: null, sha256Base64Url: (s) => s }).summary();
    expect(r.eligibility.reason).toContain("anthropic");
  });
});

describe("both storage eras decode to the same calls (test/helpers/transcript.ts writers, production readers)", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-model-calls-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const DEMO = path.resolve(__dirname, "../../server/demo/state");

  it("a JSONL file and SQLite events of the same rows give the same model calls and cost report", () => {
    const b = new TranscriptBuilder({ start: T0 });
    b.user("hi");
    b.tick(100).assistant({ usage: { input: 10, cacheWrite: 3_000 } });
    b.tick(60_000).user("more");
    b.tick(100).assistant({ usage: { input: 12, cacheRead: 3_000, cacheWrite: 40 } });
    b.tick(10).injected("status");
    b.writeJsonlStateDir(path.join(tmp, "jsonl"));
    b.writeSqliteStateDir(path.join(tmp, "sqlite"), DEMO);
    const loaded = ["jsonl", "sqlite"].map((era) => {
      const reader = openStateReader(path.join(tmp, era));
      const row = reader.listSessions().sessions.find((s) => s.entryCount !== null && s.entryCount > 0);
      if (!row) throw new Error(`no ${era} session`);
      const s = reader.loadSession({ agentId: row.agentId, sessionId: row.sessionId });
      if ("error" in s) throw new Error(s.error.message);
      return s;
    });
    const [jsonl, sqlite] = loaded;
    if (!jsonl || !sqlite) throw new Error("load failed");
    expect(sqlite.summary.storage).toBe("sqlite");
    expect(jsonl.summary.storage).toBe("jsonl");
    const strip = (calls: readonly ModelCall[]) => calls.map(({ entryIndex, entryId, ...rest }) => rest);
    const callsOf = (s: LoadedSession) => modelCallsOf(s.transcript).all;
    expect(callsOf(jsonl)).toHaveLength(3);
    expect(strip(callsOf(sqlite))).toEqual(strip(callsOf(jsonl)));
    const totals = (s: LoadedSession) => buildCostReport({ session: s, config: null }).totals;
    expect(totals(sqlite)).toEqual(totals(jsonl));
  });
});

describe("continueModelCalls (append → report)", () => {
  const head = (n: number) => fs.readFileSync(J1_FILE, "utf8").trimEnd().split("\n").slice(0, n);
  const calls = (c: TranscriptCalls) => ({
    all: c.all,
    billed: c.billed,
    excludedCount: c.excludedCount,
    last: c.lastOnActiveBranch(),
    lastBilled: c.lastBilled,
    at: c.all.map((x) => c.at(x.entryIndex)),
  });

  it("decodes only the appended entries of a continued transcript, equal to a fresh decode", () => {
    const lines = head(1000);
    let prev: Transcript | null = null;
    let continued = 0;
    for (const step of growingTranscripts(lines, 10)) {
      const next = step.transcript;
      if (prev) {
        const before = modelCallsOf(prev);
        continueModelCalls(prev, next);
        const got = modelCallsOf(next);
        // the old calls are the same objects: only the appended entries were decoded
        if (got.all.length > 0 && before.all.length > 0 && got.all[0] === before.all[0]) continued++;
        // a fresh decode of the same transcript (a new object, so no memo)
        expect(calls(got)).toEqual(calls(modelCallsOf({ ...next })));
      } else modelCallsOf(next);
      prev = next;
    }
    expect(continued).toBeGreaterThan(lines.length / 2);
  });

  it("two continuations of one transcript (a fork) and the transcript itself each keep their own calls", () => {
    const lines = head(40);
    const bytes = (ls: readonly string[]) => Buffer.from(ls.map((l) => `${l}\n`).join(""));
    const read = (prev: ReturnType<typeof extendTranscript> | null, ls: readonly string[]) =>
      extendTranscript({
        prev,
        complete: bytes(ls),
        pending: Buffer.alloc(0),
        reportPending: true,
        source: "t.jsonl",
      });
    const base = read(null, lines.slice(0, 20));
    const before = calls(modelCallsOf(base.transcript));
    const a = read(base, lines.slice(20, 40));
    // the other future: the same lines with other usage numbers (a fork the shared map must not see)
    const b = read(
      base,
      lines.slice(20, 30).map((l) => l.replaceAll('"output":', '"output":9')),
    );
    expect(b.transcript.entries.length).toBeGreaterThan(base.transcript.entries.length);
    continueModelCalls(base.transcript, a.transcript);
    continueModelCalls(base.transcript, b.transcript);
    for (const fork of [a, b])
      expect(calls(modelCallsOf(fork.transcript))).toEqual(calls(modelCallsOf({ ...fork.transcript })));
    expect(modelCallsOf(b.transcript).all.at(-1)).not.toEqual(modelCallsOf(a.transcript).all.at(-1));
    // the base shares its map with the first continuation: the appended calls are not its own
    const base2 = modelCallsOf(base.transcript);
    expect(calls(base2)).toEqual(before);
    const appended = modelCallsOf(a.transcript).all.filter(
      (c) => c.entryIndex >= base.transcript.entries.length,
    );
    expect(appended.length).toBeGreaterThan(0);
    for (const c of appended) expect(base2.at(c.entryIndex)).toBeUndefined();
  });

  it("does nothing when the new transcript does not continue the old one", () => {
    const lines = head(30);
    const a = transcriptFromJsonl(lines.slice(0, 20).join("\n"));
    const b = transcriptFromJsonl(lines.join("\n"));
    const before = modelCallsOf(a);
    continueModelCalls(a, b);
    const got = modelCallsOf(b);
    expect(got.all[0]).not.toBe(before.all[0]);
    expect(calls(got)).toEqual(calls(modelCallsOf({ ...b })));
  });
});
