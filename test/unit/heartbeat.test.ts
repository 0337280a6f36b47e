// The heartbeat-only reply has one home (server/openclaw/heartbeat.ts), used by the cost report's heartbeat
// signal and by `/context detail`'s real-conversation count (compactable-count.ts). Cases follow OpenClaw
// 2026.9.6 src/auto-reply/heartbeat.ts stripHeartbeatToken and heartbeat-filter.ts isHeartbeatOkResponse
// (spec cache-and-cost.md §7; context-report.md §5.2).

import { describe, expect, it } from "vitest";
import { isHeartbeatAckReply, stripHeartbeatToken } from "../../server/openclaw/heartbeat.ts";
import { buildCostReport } from "../../server/reports/cost/cost-report.ts";
import type { JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

describe("stripHeartbeatToken (OpenClaw)", () => {
  it.each([
    // [raw, message mode {didStrip, text}, heartbeat mode shouldSkip]
    ["HEARTBEAT_OK", true, "", true],
    ["  HEARTBEAT_OK  ", true, "", true],
    // The markup is kept when the plain strip already found the token: OpenClaw's message mode leaves "****".
    ["**HEARTBEAT_OK**", true, "****", true],
    ["<b>HEARTBEAT_OK</b>", true, "", true],
    ["HEARTBEAT_OK.", true, ".", true],
    ["All quiet. HEARTBEAT_OK!", true, "All quiet.!", true],
    ["HEARTBEAT_OK all good", true, "all good", true],
    ["check HEARTBEAT_OK in the middle now", false, "check HEARTBEAT_OK in the middle now", false],
    ["nothing to report", false, "nothing to report", false],
  ])("%j", (raw, didStrip, text, skip) => {
    const m = stripHeartbeatToken(raw, { mode: "message" });
    expect({ didStrip: m.didStrip, text: m.text }).toEqual({ didStrip, text });
    expect(stripHeartbeatToken(raw, { mode: "heartbeat" }).shouldSkip).toBe(skip);
  });

  it("heartbeat mode acknowledges at most 300 more chars", () => {
    expect(stripHeartbeatToken(`HEARTBEAT_OK ${"x".repeat(300)}`, { mode: "heartbeat" }).shouldSkip).toBe(
      true,
    );
    expect(stripHeartbeatToken(`HEARTBEAT_OK ${"x".repeat(301)}`, { mode: "heartbeat" }).shouldSkip).toBe(
      false,
    );
    expect(
      stripHeartbeatToken(`HEARTBEAT_OK ${"x".repeat(20)}`, { mode: "heartbeat", maxAckChars: 10 }),
    ).toEqual({
      shouldSkip: false,
      text: "x".repeat(20),
      didStrip: true,
    });
  });
});

describe("isHeartbeatAckReply", () => {
  const reply = (content: JsonObject[] | string): JsonObject => ({ role: "assistant", content });
  it.each([
    [reply("HEARTBEAT_OK"), true],
    [reply([{ type: "text", text: "**HEARTBEAT_OK**" }]), true],
    [
      reply([
        { type: "thinking", thinking: "nothing due" },
        { type: "text", text: "HEARTBEAT_OK" },
      ]),
      true,
    ],
    [
      reply([
        { type: "text", text: "HEARTBEAT_" },
        { type: "text", text: "OK" },
      ]),
      true,
    ],
    // A real reply, a tool call, an image, silence: no acknowledgement.
    [reply([{ type: "text", text: "Your build failed: see the log." }]), false],
    [
      reply([
        { type: "text", text: "HEARTBEAT_OK" },
        { type: "toolCall", id: "t", name: "exec", arguments: {} },
      ]),
      false,
    ],
    [reply([{ type: "image", data: "", mimeType: "image/png" }]), false],
    [reply(""), false],
    [reply("NO_REPLY"), false],
    [{ role: "user", content: "HEARTBEAT_OK" }, false],
  ])("%j → %s", (message, expected) => {
    expect(isHeartbeatAckReply(message)).toBe(expected);
  });
});

describe("the cost report flags heartbeat calls by the acknowledgement rule", () => {
  it("a markup-wrapped or punctuated HEARTBEAT_OK reply is a heartbeat call; a real reply is not", () => {
    const b = new TranscriptBuilder();
    b.user("status?");
    b.tick(100).assistant({ text: "**HEARTBEAT_OK**", usage: { input: 10, cacheWrite: 2_000 } });
    b.tick(60_000).user("and now?");
    b.tick(100).assistant({ text: "HEARTBEAT_OK.", usage: { input: 10, cacheRead: 2_000 } });
    b.tick(60_000).user("what broke?");
    b.tick(100).assistant({ text: "The deploy failed at step 3.", usage: { input: 10, cacheRead: 2_000 } });
    const r = buildCostReport({ session: b.session(), config: null });
    expect(r.calls.map((c) => c.heartbeat)).toEqual([true, true, false]);
    expect(r.calls[0]?.heartbeatSignals).toEqual(["reply is a HEARTBEAT_OK acknowledgement"]);
    expect(r.heartbeat.heartbeatCalls).toBe(2);
  });
});
