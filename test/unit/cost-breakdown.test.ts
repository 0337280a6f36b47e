// "Where the money went" (issue 14 §2): each cause produced once on a synthetic transcript, and the breakdown's
// Σ costUsd = totals.costUsd.
import { describe, expect, it } from "vitest";
import type { LoadedSession } from "../../server/model/session.ts";
import { readSystemPromptReport } from "../../server/model/system-prompt-report.ts";
import { buildCostReport, type CostReportInput } from "../../server/reports/cost/cost-report.ts";
import type { CostReportDTO, SpendCause } from "../../shared/cost.ts";
import type { JsonObject } from "../../shared/json.ts";
import { type Family, TranscriptBuilder, type UsageInput } from "../helpers/transcript.ts";

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const S = 1000;
const MIN = 60 * S;

/** A conversation on the builder: `at` offsets from the start, one call per `call`. */
class Chat {
  readonly b: TranscriptBuilder;
  constructor(readonly start = T0) {
    this.b = new TranscriptBuilder({ start, idPrefix: "r" });
  }
  user(at: number, text = "hi"): string {
    this.b.t = this.start + at;
    return this.b.user(text);
  }
  call(
    at: number,
    usage: UsageInput,
    opts: { model?: string; provider?: string; api?: string; content?: JsonObject[] } = {},
  ) {
    this.b.t = this.start + at;
    return this.b.assistant({
      ...opts,
      usage,
      envelope: { timestamp: new Date(this.start + at + 500).toISOString() },
    });
  }
  row(at: number, row: JsonObject): string {
    this.b.t = this.start + at;
    return this.b.add(row);
  }
  session(family: Family = "2026.9", sessionKey = "agent:main:main"): LoadedSession {
    return this.b.session({ family, sessionKey, storage: "jsonl", sessionId: "s", location: "t.jsonl" });
  }
}

function report(
  s: LoadedSession,
  extra: Omit<CostReportInput, "session" | "config"> = {},
  config: JsonObject | null = null,
) {
  return buildCostReport({ session: s, config, ...extra });
}

/** Every cause the tests below produced (the last test checks the issue's list is covered). */
const seen = new Set<SpendCause>();
const causes = (r: CostReportDTO) =>
  r.calls.map((c) => {
    seen.add(c.cause.cause);
    return c.cause.cause;
  });

function expectSums(r: CostReportDTO): void {
  const sum = r.breakdown.reduce((a, b) => a + b.costUsd, 0);
  expect(Math.abs(sum - r.totals.costUsd)).toBeLessThan(0.005);
  expect(r.breakdown.reduce((a, b) => a + b.calls, 0)).toBe(r.totals.calls);
}

/** A first run that writes a 20k prefix. */
function warm(c: Chat, opts: { model?: string; provider?: string; api?: string } = {}): void {
  c.user(0, "a");
  c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 }, opts);
}

describe("cause per call (issue 14 §2)", () => {
  it("hit, cold-start, ttl-expired; the breakdown rows sum to the total and name calls, tokens, $", () => {
    const c = new Chat();
    warm(c);
    c.user(30 * S, "b");
    c.call(30 * S + 100, { input: 10, cacheRead: 20_000, cacheWrite: 300 });
    c.user(20 * MIN, "c");
    c.call(20 * MIN + 100, { input: 10, cacheRead: 0, cacheWrite: 20_400 });
    const r = report(c.session());
    expect(causes(r)).toEqual(["cold-start", "hit", "ttl-expired"]);
    expectSums(r);
    const ttl = r.breakdown.find((b) => b.cause === "ttl-expired");
    expect(ttl?.calls).toBe(1);
    expect(ttl?.tokens).toBe(10 + 10 + 20_400);
    expect(ttl?.costUsd).toBeCloseTo(r.calls[2]?.costUsd ?? Number.NaN, 12);
    expect(ttl?.missCostUsd).toBeGreaterThan(0);
    // costliest first
    expect(r.breakdown.map((b) => b.costUsd)).toEqual(
      [...r.breakdown.map((b) => b.costUsd)].sort((a, b) => b - a),
    );
  });

  it("compaction, thinking-change, reset, model-switch (priced), below-min-cacheable", () => {
    const c = new Chat();
    warm(c);
    const comp = c.row(1 * S, {
      type: "compaction",
      summary: "s",
      firstKeptEntryId: "r0",
      tokensBefore: 20_000,
    });
    c.user(2 * S, "b");
    c.call(2 * S + 100, { input: 10, cacheRead: 5_000, cacheWrite: 12_000 });
    const think = c.row(3 * S, { type: "thinking_level_change", thinkingLevel: "high" });
    c.user(3 * S, "c");
    c.call(3 * S + 100, { input: 10, cacheRead: 5_000, cacheWrite: 12_300 });
    const reset = c.row(4 * S, { type: "reset" });
    c.user(5 * S, "d");
    c.call(5 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 9_000 });
    c.user(6 * S, "e");
    c.call(6 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 9_200 }, { model: "claude-opus-4-5" });
    const r = report(c.session());
    expect(causes(r)).toEqual(["cold-start", "compaction", "thinking-change", "reset", "model-switch"]);
    expect(r.calls[1]?.cause.entryIds).toEqual([comp]);
    expect(r.calls[2]?.cause.entryIds).toEqual([think]);
    expect(r.calls[3]?.cause.entryIds).toEqual([reset]);
    // the switch's write is its miss, priced at opus' write − read rate
    expect(r.calls[4]?.missCostUsd).toBeCloseTo((9_200 * (6.25 - 0.5)) / 1e6, 9);
    expectSums(r);

    const tiny = new Chat();
    tiny.user(0, "tiny");
    tiny.call(100, { input: 900, cacheRead: 0, cacheWrite: 0 });
    expect(causes(report(tiny.session()))).toEqual(["below-min-cacheable"]);
  });

  it("pruning: a replayed round, and the ≤ 2026.7 unpruned re-send after it", () => {
    const c = new Chat();
    warm(c);
    c.user(1 * S, "b");
    const round = c.call(1 * S + 100, { input: 10, cacheRead: 10_000, cacheWrite: 5_000 });
    c.user(2 * S, "c");
    c.call(2 * S + 100, { input: 10, cacheRead: 6_000, cacheWrite: 9_100 });
    const r = report(c.session("2026.7"), { pruningRounds: [{ entryId: round, charsRemoved: 40_000 }] });
    expect(causes(r)).toEqual(["cold-start", "pruning", "pruning"]);
    expectSums(r);
  });

  it("bootstrap-edited: the agent wrote MEMORY.md in the previous run, naming the file and the call", () => {
    const c = new Chat();
    c.user(0, "remember this");
    c.call(
      100,
      { input: 10, cacheRead: 0, cacheWrite: 20_000 },
      {
        content: [
          {
            type: "toolCall",
            id: "call_mem",
            name: "write",
            arguments: { path: "/home/u/.openclaw/workspace/MEMORY.md", content: "x" },
          },
        ],
      },
    );
    c.b.t = T0 + 2 * S;
    c.b.toolResult("call_mem", "write", "ok");
    c.call(3 * S, { input: 10, cacheRead: 20_000, cacheWrite: 200 });
    c.user(60 * S, "next");
    c.call(60 * S + 100, { input: 10, cacheRead: 7_500, cacheWrite: 12_900 });
    const r = report(c.session());
    expect(causes(r)).toEqual(["cold-start", "hit", "bootstrap-edited"]);
    expect(r.calls[2]?.cause.detail).toContain("MEMORY.md changed by write call call_mem");
    expect(r.calls[2]?.cause.entryIds).toEqual([r.calls[0]?.entryId]);
    // an exec that writes the file counts, one that only reads it does not
    const e = new Chat();
    e.user(0, "a");
    const exec = (command: string) => ({ type: "toolCall", id: "x1", name: "exec", arguments: { command } });
    e.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 }, { content: [exec("cat AGENTS.md")] });
    e.user(60 * S, "b");
    e.call(
      60 * S + 100,
      { input: 10, cacheRead: 7_000, cacheWrite: 13_100 },
      { content: [exec("echo hi >> AGENTS.md")] },
    );
    e.user(120 * S, "c");
    e.call(120 * S + 100, { input: 10, cacheRead: 7_000, cacheWrite: 13_300 });
    expect(causes(report(e.session()))).toEqual(["cold-start", "unknown", "bootstrap-edited"]);
  });

  it("date-rollover (2026.9 only): the local date in userTimezone turned over between two runs", () => {
    // 22:58 UTC = 23:58 in Berlin; three minutes later it is the next day there, inside the 5-minute TTL.
    const start = Date.UTC(2026, 10, 30, 22, 58, 0);
    const build = () => {
      const c = new Chat(start);
      warm(c);
      c.user(3 * MIN, "after midnight");
      c.call(3 * MIN + 100, { input: 10, cacheRead: 15_000, cacheWrite: 5_200 });
      return c;
    };
    const config = { agents: { defaults: { userTimezone: "Europe/Berlin" } } };
    const r = report(build().session("2026.9"), {}, config);
    expect(causes(r)).toEqual(["cold-start", "date-rollover"]);
    expect(r.calls[1]?.cause.detail).toContain("2026-11-30 → 2026-12-01 in Europe/Berlin");
    // ≤ 2026.7 prints no date in the prompt; in UTC it is the same day
    expect(causes(report(build().session("2026.7"), {}, config))[1]).toBe("unknown");
    expect(
      causes(report(build().session("2026.9"), {}, { agents: { defaults: { userTimezone: "UTC" } } }))[1],
    ).toBe("unknown");
  });

  it("system-prompt-changed: the agent's run reports differ across the gap (skills), same session kind only", () => {
    const c = new Chat();
    warm(c);
    c.user(2 * MIN, "b");
    c.call(2 * MIN + 100, { input: 10, cacheRead: 7_500, cacheWrite: 12_800 });
    const stored = (at: number, skills: number, key: string) =>
      readSystemPromptReport({
        source: "run",
        generatedAt: at,
        sessionKey: key,
        systemPrompt: { chars: 40_000 + skills },
        skills: { promptChars: skills, entries: [{ name: "weather", blockChars: skills }] },
        tools: { listChars: 700, schemaChars: 16_000 },
        injectedWorkspaceFiles: [
          { name: "AGENTS.md", path: "AGENTS.md", rawChars: 1000, injectedChars: 1000 },
        ],
      });
    const agentReports = [
      stored(T0 - MIN, 16_948, "agent:main:main"),
      stored(T0 + MIN, 19_407, "agent:main:telegram:dm:1"),
      stored(T0 + MIN, 19_407, "agent:main:main"),
    ];
    const r = report(c.session(), { agentReports });
    expect(causes(r)).toEqual(["cold-start", "system-prompt-changed"]);
    expect(r.calls[1]?.cause.detail).toContain("skills 16,948 → 19,407 chars");
    // a sub-agent session compares sub-agent reports only: none here
    expect(causes(report(c.session("2026.9", "agent:main:subagent:x"), { agentReports }))[1]).toBe("unknown");
  });

  it("provider-dropped: a mid-run miss without signal (the prefix was re-sent unchanged); named for a cross-region profile", () => {
    const midRun = (model: string, provider?: string) => {
      const c = new Chat();
      const opts = { model, ...(provider ? { provider } : {}) };
      warm(c, opts);
      c.b.t = T0 + 2 * S;
      c.b.toolResult("t1", "read", "file");
      c.call(
        3 * S,
        { input: 10, cacheRead: 0, cacheWrite: 20_300 },
        { model, ...(provider ? { provider } : {}) },
      );
      return report(c.session());
    };
    const r = midRun("claude-sonnet-4-5");
    expect(causes(r)).toEqual(["cold-start", "provider-dropped"]);
    expect(r.calls[1]?.cause.detail).toContain("mid-run 3 s after the previous call");
    expect(r.calls[1]?.cause.detail).not.toContain("cross-region");
    // not unknown: the card's unknown share leaves it out
    expect(r.breakdownUnknown.missCostUsd).toBe(0);
    expect(r.breakdownUnknown.shareOfMissCost).toBe(0);
    expectSums(r);
    const bedrock = midRun("us.anthropic.claude-opus-4-6-v1", "amazon-bedrock");
    expect(causes(bedrock)[1]).toBe("provider-dropped");
    expect(bedrock.calls[1]?.cause.detail).toContain("cross-region inference profile");
  });

  it("provider-dropped is never claimed where the transcript explains the mid-run miss (a compaction)", () => {
    const c = new Chat();
    warm(c);
    c.b.t = T0 + 2 * S;
    c.b.toolResult("t1", "read", "file");
    c.row(2 * S + 10, { type: "compaction", summary: "s", firstKeptEntryId: "r0", tokensBefore: 20_000 });
    c.call(3 * S, { input: 10, cacheRead: 0, cacheWrite: 20_300 });
    expect(causes(report(c.session()))[1]).toBe("compaction");
  });

  it("provider-dropped on a new run: 2026.3 Bedrock read the system block, so only the provider can have missed the history", () => {
    const bedrock = {
      model: "us.anthropic.claude-opus-4-6-v1",
      provider: "amazon-bedrock",
      api: "bedrock-converse-stream",
    };
    const newRun = (
      read: number,
      call = bedrock,
      key = "agent:main:main",
      config: JsonObject | null = null,
    ) => {
      const c = new Chat();
      warm(c, call);
      c.user(2 * MIN, "b");
      c.call(2 * MIN + 100, { input: 10, cacheRead: read, cacheWrite: 20_300 - read }, call);
      return report(c.session("2026.3", key), {}, config);
    };
    const r = newRun(7_000);
    expect(causes(r)).toEqual(["cold-start", "provider-dropped"]);
    expect(r.calls[1]?.cause.detail).toContain("first call of a new run that read 7,000 tokens");
    expect(r.calls[1]?.cause.detail).toContain("cross-region inference profile");
    expectSums(r);
    // nothing read: the system prompt may have changed (a gateway system event is not on disk)
    expect(causes(newRun(0))[1]).toBe("unknown");
    // 2026.9: the system prompt is split at a cache boundary, a read proves only its stable part
    const c9 = new Chat();
    warm(c9, bedrock);
    c9.user(2 * MIN, "b");
    c9.call(2 * MIN + 100, { input: 10, cacheRead: 7_000, cacheWrite: 13_300 }, bedrock);
    expect(causes(report(c9.session("2026.9")))[1]).toBe("unknown");
    // the Anthropic API: an OAuth identity block carries its own cache point, a read can stop at the tools
    const direct = { model: "claude-opus-4-6", provider: "anthropic", api: "anthropic-messages" };
    expect(causes(newRun(7_000, direct))[1]).toBe("unknown");
    // a DM history limit drops the oldest turn on a new run: the history changed at its start
    const limited = { channels: { telegram: { dmHistoryLimit: 20 } } };
    expect(causes(newRun(7_000, bedrock, "agent:main:telegram:dm:42", limited))[1]).toBe("unknown");
    expect(causes(newRun(7_000, bedrock, "agent:main:main", limited))[1]).toBe("provider-dropped");
    // the cache points were read from the code of releases up to 2026.4.29; a later 2026.3-family release is not vouched for
    const released = (appVersion: string) => {
      const c = new Chat();
      warm(c, bedrock);
      c.user(2 * MIN, "b");
      c.call(2 * MIN + 100, { input: 10, cacheRead: 7_000, cacheWrite: 13_300 }, bedrock);
      const s = c.b.session({
        family: "2026.3",
        appVersion,
        sessionKey: "agent:main:main",
        storage: "jsonl",
      });
      return causes(report(s))[1];
    };
    expect(released("2026.4.29")).toBe("provider-dropped");
    expect(released("2026.3.2-beta.1")).toBe("provider-dropped");
    expect(released("2026.4.30-beta.1")).toBe("unknown");
    expect(released("2026.6.35")).toBe("unknown");
  });

  it("reasoning-dropped (OpenAI Responses): a new run reads up to where the previous run's first reasoning item began", () => {
    const codex = { model: "gpt-5.1-codex", provider: "openai", api: "openai-responses" };
    const thinking = (signature: string, blocks = 1): JsonObject[] => [
      ...Array.from({ length: blocks }, () => ({
        type: "thinking",
        thinking: "**plan**",
        thinkingSignature: signature,
      })),
      { type: "text", text: "ok" },
    ];
    /** A run of `loop` calls with reasoning from a 20k prompt, then a new run that reads `read`. */
    const session = (o: {
      read: number;
      signature?: string;
      api?: string;
      loop?: number;
      blocks?: number;
    }) => {
      const opts = { ...codex, ...(o.api ? { api: o.api } : {}) };
      const c = new Chat();
      c.user(0, "a");
      c.call(
        100,
        { input: 20_000, cacheRead: 0, cacheWrite: 0 },
        { ...opts, content: thinking(o.signature ?? "{}", o.blocks) },
      );
      let prompt = 20_000;
      for (let i = 1; i <= (o.loop ?? 4); i++) {
        c.b.t = T0 + i * S;
        c.b.toolResult(`t${i}`, "read", "file");
        c.call(
          i * S + 100,
          { input: 3_000, cacheRead: prompt, cacheWrite: 0 },
          {
            ...opts,
            content: thinking(o.signature ?? `{"type":"reasoning","id":"rs_${i}"}`, o.blocks),
          },
        );
        prompt += 3_000;
      }
      c.user(2 * MIN, "b");
      // the previous run's reasoning is gone: the prompt shrinks, the read stops near 20,000
      c.call(2 * MIN + 100, { input: prompt - 2_000 - o.read, cacheRead: o.read, cacheWrite: 0 }, opts);
      return report(c.session("2026.3"));
    };
    const r = session({ read: 19_968 });
    expect(causes(r).at(-1)).toBe("reasoning-dropped");
    const last = r.calls.at(-1);
    expect(last?.cause.entryIds).toEqual([r.calls[0]?.entryId]);
    expect(last?.cause.detail).toContain("read 19,968 of its 30,000 prompt tokens");
    expect(last?.cause.detail).toContain("after the 20,000-token prompt of");
    expect(last?.cause.detail).toContain("5 reasoning items of gpt-5.1-codex");
    expect(last?.missCostUsd).toBeGreaterThan(0);
    expect(r.breakdownUnknown.missCostUsd).toBe(0);
    expectSums(r);
    // any Responses transport; not Chat Completions (no reasoning items on the wire)
    expect(causes(session({ read: 19_968, api: "azure-openai-responses" })).at(-1)).toBe("reasoning-dropped");
    expect(causes(session({ read: 19_968, api: "openai-completions" })).at(-1)).toBe("unknown");
    // a read far below the previous run's start: something earlier changed, which the drop does not explain
    expect(causes(session({ read: 9_984 })).at(-1)).toBe("unknown");
    // no signature, no reasoning item re-sent
    expect(causes(session({ read: 19_968, signature: "" })).at(-1)).toBe("unknown");
    // nothing after the first reasoning item can match: a read more than one 128-token block past it is not this
    expect(causes(session({ read: 20_096 })).at(-1)).toBe("reasoning-dropped");
    expect(causes(session({ read: 20_224 })).at(-1)).toBe("unknown");
    // each signed thinking block goes back as its own item
    expect(session({ read: 19_968, blocks: 2 }).calls.at(-1)?.cause.detail).toContain("10 reasoning items");
  });

  it("reasoning-dropped looks at the previous run only, not at reasoning two runs back", () => {
    const codex = { model: "gpt-5.1-codex", provider: "openai", api: "openai-responses" };
    const reasoning = [{ type: "thinking", thinking: "x", thinkingSignature: '{"type":"reasoning"}' }];
    const c = new Chat();
    c.user(0, "a");
    c.call(100, { input: 20_000, cacheRead: 0, cacheWrite: 0 }, { ...codex, content: reasoning });
    // the next run: a tool loop whose replies carry no signed reasoning
    c.user(MIN, "b");
    c.call(MIN + 100, { input: 500, cacheRead: 20_000, cacheWrite: 0 }, codex);
    c.b.t = T0 + MIN + S;
    c.b.toolResult("t1", "read", "file");
    c.call(MIN + 2 * S, { input: 3_000, cacheRead: 20_500, cacheWrite: 0 }, codex);
    c.user(3 * MIN, "c");
    c.call(3 * MIN + 100, { input: 4_032, cacheRead: 19_968, cacheWrite: 0 }, codex);
    const all = causes(report(c.session("2026.3")));
    expect(all.slice(1, 3)).toEqual(["hit", "hit"]);
    expect(all.at(-1)).toBe("unknown");
  });

  it("reasoning-dropped needs the reasoning of the same model and of the previous run", () => {
    const codex = { model: "gpt-5.1-codex", provider: "openai", api: "openai-responses" };
    const reasoning = [{ type: "thinking", thinking: "x", thinkingSignature: '{"type":"reasoning"}' }];
    const c = new Chat();
    c.user(0, "a");
    c.call(
      100,
      { input: 20_000, cacheRead: 0, cacheWrite: 0 },
      { ...codex, model: "gpt-5.2", content: reasoning },
    );
    c.b.t = T0 + S;
    c.b.toolResult("t1", "read", "file");
    c.call(
      S + 100,
      { input: 23_000, cacheRead: 0, cacheWrite: 0 },
      { ...codex, content: reasoning.map((b) => ({ ...b, thinkingSignature: "" })) },
    );
    c.user(2 * MIN, "b");
    c.call(2 * MIN + 100, { input: 6_032, cacheRead: 19_968, cacheWrite: 0 }, codex);
    // gpt-5.2's reasoning goes to gpt-5.1-codex as text (pi-ai transform-messages), nothing is dropped; the
    // codex call's block has no signature (covered on its own above)
    expect(causes(report(c.session("2026.3"))).at(-1)).toBe("unknown");
  });

  it("provider-dropped on a new run when the session's earlier new runs mostly read their whole prefix (the base rate)", () => {
    const deepseek = { model: "deepseek-chat", provider: "deepseek", api: "openai-completions" };
    /** `served` new runs that read the whole prefix, `missed` that did not, then one more miss. */
    const runs = (served: number, missed: number) => {
      const c = new Chat();
      warm(c, deepseek);
      let prefix = 20_010;
      let at = 0;
      const next = (read: number) => {
        at += 2 * MIN;
        c.user(at, `run ${at}`);
        c.call(at + 100, { input: prefix + 300 - read, cacheRead: read, cacheWrite: 0 }, deepseek);
        prefix += 300;
      };
      for (let i = 0; i < served; i++) next(prefix);
      // each miss reads less than the one before (a call expects only what the previous one read)
      for (let i = 0; i <= missed; i++) next(6_400 - 2_000 * i);
      return report(c.session("2026.3"));
    };
    const r = runs(5, 1);
    const all = causes(r);
    // the first miss comes after 5 served runs of 5: vouched for; the last after 5 of 6 (83 %)
    expect(all.filter((x) => x === "hit")).toHaveLength(5);
    expect(all.slice(-2)).toEqual(["provider-dropped", "provider-dropped"]);
    expect(r.calls.at(-1)?.cause.detail).toContain(
      "5 of the 6 earlier new runs of this session that nothing on disk had changed read their whole prefix",
    );
    expectSums(r);
    // too few served runs, or too many misses among them: the record does not vouch
    expect(causes(runs(4, 0)).at(-1)).toBe("unknown");
    const often = runs(5, 2);
    expect(causes(often).at(-1)).toBe("unknown");
    expect(often.calls.at(-1)?.cause.detail).toContain("5 of the 7 earlier new runs");
    expect(often.calls.at(-1)?.cause.detail).toContain("too few to vouch");
    // mid-run hits are not runs: a long tool loop does not vouch for the next run's prompt
    const c = new Chat();
    warm(c, deepseek);
    for (let i = 1; i <= 6; i++) {
      c.b.t = T0 + i * S;
      c.b.toolResult(`t${i}`, "read", "file");
      c.call(i * S + 100, { input: 300, cacheRead: 20_000 + (i - 1) * 300, cacheWrite: 0 }, deepseek);
    }
    c.user(3 * MIN, "b");
    c.call(3 * MIN + 100, { input: 15_000, cacheRead: 6_400, cacheWrite: 0 }, deepseek);
    expect(causes(report(c.session("2026.3"))).at(-1)).toBe("unknown");
  });

  it("tool-result-resent (2026.7): the call after the first to carry a result cut to the live cap reads only what precedes it", () => {
    const notice = "[... 19293 more characters truncated; rerun with narrower args if needed]";
    /** A read whose result is `text`, carried live by call 1; call 2 (a new run) reads `read`. */
    const session = (text: string, read: number, family: Family = "2026.7") => {
      const c = new Chat();
      c.user(0, "read the log");
      c.call(
        100,
        { input: 10, cacheRead: 0, cacheWrite: 20_000 },
        {
          content: [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "big.log" } }],
        },
      );
      c.b.t = T0 + S;
      c.b.toolResult("t1", "read", text);
      c.call(2 * S, { input: 10, cacheRead: 20_000, cacheWrite: 8_000 });
      c.user(20 * S, "next");
      c.call(20 * S + 100, { input: 10, cacheRead: read, cacheWrite: 28_100 - read });
      return report(c.session(family));
    };
    const capped = `${"x".repeat(31_000)}\n${notice}`;
    const r = session(capped, 20_000);
    expect(causes(r)).toEqual(["cold-start", "hit", "tool-result-resent"]);
    expect(r.calls[2]?.cause.detail).toContain("cut to the live cap");
    expect(r.calls[2]?.cause.entryIds).toHaveLength(1);
    expectSums(r);
    // a scrubbed export (letters → x, digits → 0) reads the same
    const scrubbed = capped.replace(/[A-Za-z]/gu, "x").replace(/[0-9]/gu, "0");
    expect(causes(session(scrubbed, 20_000))[2]).toBe("tool-result-resent");
    // a read past the result's start, no notice, or another family: not this cause
    expect(causes(session(capped, 24_000))[2]).not.toBe("tool-result-resent");
    expect(causes(session("x".repeat(31_000), 20_000))[2]).toBe("unknown");
    expect(causes(session(capped, 20_000, "2026.9"))[2]).not.toBe("tool-result-resent");
  });

  it("unknown: a new run's miss nothing on disk explains; the card's share of miss cost and what would decide it", () => {
    const c = new Chat();
    const bedrock = { model: "us.anthropic.claude-opus-4-6-v1", provider: "amazon-bedrock" };
    warm(c, bedrock);
    c.user(2 * MIN, "b");
    c.call(2 * MIN + 100, { input: 10, cacheRead: 0, cacheWrite: 20_300 }, bedrock);
    const r = report(c.session());
    expect(causes(r)).toEqual(["cold-start", "unknown"]);
    expect(r.calls[1]?.cause.detail).toContain("first call of a new run");
    expect(r.breakdownUnknown.missCostUsd).toBeCloseTo(r.calls[1]?.missCostUsd ?? Number.NaN, 12);
    expect(r.breakdownUnknown.shareOfMissCost).toBe(1);
    expect(r.breakdownUnknown.wouldDecide[0]).toContain("first calls of a run that read nothing");
    expect(r.breakdownUnknown.wouldDecide[0]).toContain("cross-region inference profile");
  });

  it("extras: merged-user-messages, not-cached, no-usage; unpriced calls count but add no $", () => {
    const c = new Chat();
    c.user(0, "first");
    c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    c.user(5 * S, "/context list");
    c.b.t = T0 + 5 * S + 10;
    c.b.injected("reply");
    c.user(8 * S, "summarize");
    c.call(8 * S + 100, { input: 10, cacheRead: 20_000, cacheWrite: 200 });
    c.user(12 * S, "follow-up");
    c.call(12 * S + 100, { input: 10, cacheRead: 14_000, cacheWrite: 6_300 });
    c.call(13 * S, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    const r = report(c.session());
    expect(causes(r)).toEqual(["cold-start", "hit", "merged-user-messages", "no-usage"]);

    const o = new Chat();
    const local = { provider: "ollama", model: "qwen3:8b" };
    o.user(0, "a");
    o.call(100, { input: 5_000, cacheRead: 0, cacheWrite: 0 }, local);
    o.user(1 * S, "b");
    o.call(1 * S + 100, { input: 5_200, cacheRead: 0, cacheWrite: 0 }, local);
    const r2 = report(o.session());
    expect(causes(r2)).toEqual(["cold-start", "not-cached"]);
    expect(r2.breakdown.every((b) => b.costUsd === 0 && b.unpricedCalls === b.calls)).toBe(true);
    expect(r2.breakdown.every((b) => b.shareOfSpend === null)).toBe(true);
    expectSums(r2);
  });
});

/** A user message with OpenClaw's untrusted inbound metadata blocks (buildInboundUserContextPrefix, 2026.3.2). */
function inbound(sender: { label: string; id: string }, text: string, at: number, group?: string): string {
  const conversation = {
    message_id: String(at),
    sender_id: sender.id,
    ...(group ? { conversation_label: group } : {}),
    sender: sender.label,
    timestamp: `t${at}`,
    ...(group ? { is_group_chat: true } : {}),
  };
  const block = (title: string, body: object) =>
    `${title} (untrusted metadata):\n\`\`\`json\n${JSON.stringify(body, null, 2)}\n\`\`\``;
  return `${block("Conversation info", conversation)}\n\n${block("Sender", sender)}\n\n${text}`;
}
/** The same text scrubbed like ../shared/corpus: letters → x, digits → 0, lengths and punctuation kept. */
const scrub = (t: string) => t.replace(/[A-Za-z]/g, "x").replace(/[0-9]/g, "0");

const telegram = { label: "Ana (1234567890)", id: "1234567890" };
/** Two runs from one Telegram DM: a cold write, then a read 2 minutes later (the cache lifetime is known). */
function twoChatRuns(c: Chat): void {
  c.b.t = T0;
  c.b.user(inbound(telegram, "a", 0));
  c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
  c.b.t = T0 + 2 * MIN;
  c.b.user(inbound(telegram, "b", 2));
  c.call(2 * MIN + 100, { input: 10, cacheRead: 20_000, cacheWrite: 300 });
}

describe("run-level causes read from the transcript (issue 14 §2)", () => {
  const webchat = { label: "openclaw-control-ui", id: "openclaw-control-ui" };
  function switched(scrubbed: boolean, second = webchat) {
    const c = new Chat();
    const say = (at: number, who: typeof telegram, text: string) => {
      c.b.t = T0 + at;
      const t = inbound(who, text, at);
      return c.b.user(scrubbed ? scrub(t) : t);
    };
    say(0, telegram, "a");
    c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    // a read after 2 minutes: the 20-second gaps below are well inside the cache lifetime
    say(2 * MIN, telegram, "b");
    c.call(2 * MIN + 100, { input: 10, cacheRead: 20_000, cacheWrite: 300 });
    say(2 * MIN + 20 * S, second, "c");
    c.call(2 * MIN + 20 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 20_600 });
    say(2 * MIN + 40 * S, second, "d");
    c.call(2 * MIN + 40 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 20_900 });
    return report(c.session("2026.3"));
  }

  it("channel-switch: the run came from another chat or sender than the previous run; the same chat stays unknown", () => {
    const r = switched(false);
    expect(causes(r)).toEqual(["cold-start", "hit", "channel-switch", "unknown"]);
    expect(r.calls[2]?.cause.detail).toContain("(sender_id, Sender.id differ)");
    expect(r.calls[2]?.cause.detail).toContain("inside the one cached system block");
    expect(r.calls[2]?.cause.entryIds).toHaveLength(2);
    expect(r.calls[3]?.cause.detail).toContain("same chat and sender");
    expectSums(r);
    // a scrubbed export (keys and headers letter-shaped) reads the same
    expect(causes(switched(true))).toEqual(["cold-start", "hit", "channel-switch", "unknown"]);
    // per-message fields (message id, timestamp) and display names alone are no switch
    expect(causes(switched(false, telegram))).toEqual(["cold-start", "hit", "unknown", "unknown"]);
    const renamed = { ...telegram, label: "Ana B (1234567890)" };
    expect(causes(switched(false, renamed))).toEqual(["cold-start", "hit", "unknown", "unknown"]);
  });

  it("channel-switch: members taking turns in one group, or a renamed group, are no switch; group → direct is", () => {
    const run = (second: string | undefined) => {
      const c = new Chat();
      const say = (at: number, who: typeof telegram, group: string | undefined) => {
        c.b.t = T0 + at;
        c.b.user(inbound(who, "x", at, group));
      };
      say(0, telegram, "Family (-100123)");
      c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
      say(2 * MIN, telegram, "Family (-100123)");
      c.call(2 * MIN + 100, { input: 10, cacheRead: 20_000, cacheWrite: 300 });
      say(2 * MIN + 20 * S, webchat, second);
      c.call(2 * MIN + 20 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 20_600 });
      return report(c.session("2026.3")).calls[2]?.cause;
    };
    expect(run("Family (-100123)")?.cause).toBe("unknown");
    // group subjects and labels are display text, not the chat's identity
    expect(run("Family & friends (-100123)")?.cause).toBe("unknown");
    const toDirect = run(undefined);
    expect(toDirect?.cause).toBe("channel-switch");
    expect(toDirect?.detail).toContain("a group chat, then a direct one");
    // not two direct chats: the DM-scope advice does not count it
    expect(toDirect?.channelSwitch).toBe("internal");
  });

  it("channel-switch per family: 2026.3 only when nothing was read; 2026.7+ only a read of the stable prefix, and never for the sender alone", () => {
    const run = (
      family: Family,
      read: number,
      second: typeof telegram | null,
      o: { appVersion?: string; api?: string } = {},
    ) => {
      const c = new Chat();
      twoChatRuns(c);
      c.b.t = T0 + 2 * MIN + 20 * S;
      c.b.user(second ? inbound(second, "c", 3) : "[Mon 2026-11-30 12:02 UTC] Subagent results: done");
      c.call(
        2 * MIN + 20 * S + 100,
        { input: 10, cacheRead: read, cacheWrite: 20_600 - read },
        o.api ? { api: o.api } : {},
      );
      const s = c.b.session({
        family,
        sessionKey: "agent:main:main",
        storage: "jsonl",
        ...(o.appVersion ? { appVersion: o.appVersion } : {}),
      });
      return causes(report(s))[2];
    };
    // 2026.3: the switch is in the one system block — a read contradicts it
    expect(run("2026.3", 0, webchat)).toBe("channel-switch");
    expect(run("2026.3", 15_000, webchat)).toBe("unknown");
    // 2026.7 / 2026.9: after the cache boundary — the stable prefix is read; the sender alone is no prompt input
    expect(run("2026.7", 7_500, null)).toBe("channel-switch");
    expect(run("2026.9", 7_500, null)).toBe("channel-switch");
    expect(run("2026.7", 0, null)).toBe("unknown");
    expect(run("2026.9", 7_500, webchat)).toBe("unknown");
    // 2026.4.5+ (a 2026.3-family release) splits the Anthropic system prompt at its cache boundary
    const anthropic = "anthropic-messages";
    expect(run("2026.3", 7_500, webchat, { appVersion: "2026.4.29", api: anthropic })).toBe("channel-switch");
    expect(run("2026.3", 7_500, webchat, { appVersion: "2026.4.2", api: anthropic })).toBe("unknown");
    expect(run("2026.3", 0, webchat, { appVersion: "2026.4.2", api: anthropic })).toBe("channel-switch");
    // an automatic prefix cache reads up to the changed Inbound Context, in any release
    expect(run("2026.3", 7_500, webchat, { api: "openai-completions" })).toBe("channel-switch");
  });

  it("channel-switch: an internal run without chat metadata (sub-agent results) after a chat run", () => {
    const c = new Chat();
    twoChatRuns(c);
    c.user(2 * MIN + 20 * S, "[Sun 2026-11-30 12:02 UTC] Subagent results: done");
    c.call(2 * MIN + 20 * S + 100, { input: 10, cacheRead: 0, cacheWrite: 20_600 });
    const r = report(c.session("2026.3"));
    expect(causes(r)).toEqual(["cold-start", "hit", "channel-switch"]);
    expect(r.calls[2]?.cause.detail).toContain("this run's message carries no chat / sender metadata");
  });

  const image = { type: "image", data: "aGk=", mimeType: "image/png" };
  function withImage(family: Family, turns: number) {
    const c = new Chat();
    c.b.t = T0;
    const pic = c.b.user([{ type: "text", text: "look" }, image]);
    c.call(100, { input: 10, cacheRead: 0, cacheWrite: 20_000 });
    for (let k = 1; k <= turns; k++) {
      c.user(k * 30 * S, `turn ${k}`);
      const last = k === turns;
      c.call(k * 30 * S + 100, {
        input: 10,
        cacheRead: last ? 5_000 : 20_000 + (k - 1) * 300,
        cacheWrite: last ? 15_600 : 300,
      });
    }
    return { r: report(c.session(family)), pic };
  }

  it("images-pruned: the next run replaces an answered turn's image (2026.3); 2026.9 once it is the 4th-newest turn", () => {
    const { r, pic } = withImage("2026.3", 1);
    expect(causes(r)).toEqual(["cold-start", "images-pruned"]);
    expect(r.calls[1]?.cause.entryIds).toEqual([pic]);
    expect(r.calls[1]?.cause.detail).toContain("2026.3.2: images of answered user turns");
    // 2026.9 keeps the 3 latest completed turns: one turn later nothing is cut yet …
    expect(causes(withImage("2026.9", 1).r)).toEqual(["cold-start", "unknown"]);
    // … the run that makes the image's turn the 4th newest cuts it
    expect(causes(withImage("2026.9", 3).r)).toEqual(["cold-start", "hit", "hit", "unknown"]);
    const late = withImage("2026.9", 4);
    expect(causes(late.r)).toEqual(["cold-start", "hit", "hit", "hit", "images-pruned"]);
    expect(late.r.calls[4]?.cause.entryIds).toEqual([late.pic]);
    expectSums(late.r);
  });
});

const ISSUE_CAUSES: SpendCause[] = [
  "hit",
  "cold-start",
  "ttl-expired",
  "compaction",
  "pruning",
  "system-prompt-changed",
  "bootstrap-edited",
  "model-switch",
  "thinking-change",
  "reset",
  "below-min-cacheable",
  "date-rollover",
  "unknown",
];
it("every cause the issue lists was produced above", () => {
  expect(ISSUE_CAUSES.filter((c) => !seen.has(c))).toEqual([]);
});
