// The DM-scope advisor: runs of the agent's main session that came from another chat or sender (cost cause
// `channel-switch`, kind `chat`) → session.dmScope "per-channel-peer", at most their miss cost saved.
import { describe, expect, it } from "vitest";
import { dmScopeAdvice } from "../../server/reports/advice/dm-scope-advice.ts";
import { retentionAdvice } from "../../server/reports/advice/retention-advice.ts";
import { type SessionAdviceFacts, sessionAdviceFacts } from "../../server/reports/advice/session-facts.ts";
import { buildCostReport } from "../../server/reports/cost/cost-report.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const S = 1000;

/** A user message with OpenClaw's untrusted chat metadata (buildInboundUserContextPrefix). */
function fromChat(id: string, text: string): string {
  const fence = "```";
  return `Sender (untrusted metadata):\n${fence}json\n${JSON.stringify({ label: id, id }, null, 2)}\n${fence}\n\n${text}`;
}

/** Telegram DM, a read, then a WhatsApp DM and a sub-agent result 20 s apart: one chat switch, one internal. */
function facts(sessionKey: string): SessionAdviceFacts {
  const b = new TranscriptBuilder({ start: T0, idPrefix: "d" });
  const turn = (at: number, text: string, usage: { cacheRead: number; cacheWrite: number }) => {
    b.t = T0 + at;
    b.user(text);
    b.t = T0 + at + 100;
    b.assistant({
      usage: { input: 10, ...usage },
      envelope: { timestamp: new Date(T0 + at + 500).toISOString() },
    });
  };
  turn(0, fromChat("tg:1", "a"), { cacheRead: 0, cacheWrite: 20_000 });
  turn(120 * S, fromChat("tg:1", "b"), { cacheRead: 20_000, cacheWrite: 300 });
  turn(140 * S, fromChat("wa:+15550001", "c"), { cacheRead: 0, cacheWrite: 20_600 });
  turn(160 * S, "[Mon 2026-11-30 12:02 UTC] Subagent results: done", { cacheRead: 0, cacheWrite: 20_900 });
  const session = b.session({
    family: "2026.3",
    sessionKey,
    storage: "jsonl",
    sessionId: "s",
    location: "t.jsonl",
  });
  const report = buildCostReport({ session, config: null });
  expect(report.calls.map((c) => c.cause.channelSwitch ?? c.cause.cause)).toEqual([
    "cold-start",
    "hit",
    "chat",
    "internal",
  ]);
  return sessionAdviceFacts(report, null);
}

describe("DM-scope advisor", () => {
  it("counts the chat switches of the main session, not internal runs, and recommends per-channel-peer", () => {
    const f = facts("agent:main:main");
    expect(f.switches.calls).toBe(1);
    const a = dmScopeAdvice("main", [f]);
    if (!a) throw new Error("no card");
    expect(a.kind).toBe("dm-scope");
    expect(a.current).toContain("1 run(s) in 1 session(s) of agent main came from another direct chat");
    expect(a.recommended).toContain('session.dmScope "per-channel-peer"');
    expect(a.recommended.endsWith('— { session: { dmScope: "per-channel-peer" } }')).toBe(true);
    expect(a.evidence.join("\n")).toContain("AT MOST");
    expect(retentionAdvice([f]).map((x) => x.kind)).toContain("dm-scope");
  });

  it("no card without a switch", () => {
    const quiet = { ...facts("agent:main:main"), switches: { calls: 0, missUsd: 0, unpriced: 0 } };
    expect(dmScopeAdvice("main", [quiet])).toBeNull();
  });
});
