// The context window of a call across a reset and a compaction (wire-format.md §2 step 2), decided from the
// OpenClaw code since no capture has them: openclaw@2026.9.6 session.ts `iterateSessionContextEntries` with
// tool-result-pairing.ts `selectResetKeptEntries` (a reset with firstKeptEntryId keeps user/assistant messages
// and paired tool results, stored as they are — excludeFromContext not honoured), and the compaction window
// (summary + [firstKept, compaction) + after, the summary a user message that never merges with the next one).

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { WireMessage } from "../../server/openclaw/wire/wire-message.ts";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { sentWireCalls } from "../../server/reports/sent/sent-calls.ts";
import { type Family, TranscriptBuilder } from "../helpers/transcript.ts";

const sha256 = (s: string): string => createHash("sha256").update(s).digest("base64url");

function wireOf(b: TranscriptBuilder, family: Family): WireMessage[][] {
  const session = b.session({ family, provider: "anthropic", model: "claude-mock-1" });
  const config = { agents: { defaults: { userTimezone: "UTC" } } };
  const replay = runReplay({ session, config, sha256Base64Url: sha256 });
  const input = { session, config, replay, env: { hostTimeZone: "UTC", otherSessions: [] } };
  return sentWireCalls(input, () => true, true).calls.map((c) => c.messages ?? []);
}

function texts(messages: WireMessage[]): string[] {
  return messages.map((m) =>
    typeof m.content === "string"
      ? m.content
      : m.content
          .map((b) =>
            b.type === "text"
              ? b.text
              : b.type === "tool_result"
                ? `[result ${b.tool_use_id}]`
                : `[${b.type}]`,
          )
          .join("|"),
  );
}

const ASSISTANT = { model: "claude-mock-1", provider: "anthropic" };
const stamp = (t: number) => {
  const d = new Date(t);
  const dow = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
  return `[${dow} ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC] `;
};

describe("a 2026.9 reset with firstKeptEntryId", () => {
  const b = new TranscriptBuilder({ version: 4 });
  const t0 = b.t;
  const first = b.user("first question");
  b.tick(1000).assistant({
    ...ASSISTANT,
    content: [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }],
  });
  b.tick(1000).toolResult("t1", "read", "file text");
  b.tick(1000).assistant({ ...ASSISTANT, text: "answer one" });
  b.tick(1000).add({ type: "custom_message", customType: "note", content: "a custom note", display: true });
  const tStatus = b.tick(60_000).t;
  b.message({ role: "user", content: "/status", excludeFromContext: true });
  b.injected("status reply", { excludeFromContext: true });
  b.tick(1000).add({ type: "reset", reason: "new", firstKeptEntryId: first });
  const tSecond = b.tick(1000).t;
  b.user("second question");
  b.tick(1000).assistant({ ...ASSISTANT, text: "answer two" });
  const calls = wireOf(b, "2026.9");

  it("keeps the user/assistant messages and paired results before it, not the custom message", () => {
    const last = calls.at(-1) ?? [];
    expect(texts(last)).toEqual([
      `${stamp(t0)}first question`,
      "[tool_use]",
      "[result t1]",
      "answer one",
      // reset-retained: the stored /status message stays in, although it is excludeFromContext
      `${stamp(tStatus)}/status`,
      `${stamp(tSecond)}second question`,
      expect.stringContaining("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"),
    ]);
  });

  it("the call before the reset saw the custom message and not the excluded /status", () => {
    // calls: t1 tool call, answer one, answer two
    expect(calls).toHaveLength(3);
    expect(texts(calls[1] ?? [])).toEqual([
      `${stamp(t0)}first question`,
      "[tool_use]",
      "[result t1]",
      expect.stringContaining("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"),
    ]);
  });
});

describe("a reset without firstKeptEntryId keeps nothing before it", () => {
  const b = new TranscriptBuilder({ version: 4 });
  b.user("before");
  b.tick(1000).assistant({ ...ASSISTANT, text: "old" });
  b.tick(1000).add({ type: "reset", reason: "new" });
  const t = b.tick(1000).t;
  b.user("after");
  b.tick(1000).assistant({ ...ASSISTANT, text: "new" });
  it("sends only the new turn and the carrier", () => {
    expect(texts(wireOf(b, "2026.9").at(-1) ?? [])).toEqual([
      `${stamp(t)}after`,
      expect.stringContaining("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"),
    ]);
  });
});

describe.each(["2026.9", "2026.7"] as const)("a compaction (%s)", (family) => {
  const b = new TranscriptBuilder({ version: family === "2026.9" ? 4 : 3 });
  b.user("u1");
  b.tick(1000).assistant({ ...ASSISTANT, text: "a1" });
  const t2 = b.tick(1000).t;
  const kept = b.user("u2");
  b.tick(1000).assistant({ ...ASSISTANT, text: "a2" });
  b.tick(1000).add({ type: "compaction", summary: "S", firstKeptEntryId: kept, tokensBefore: 1000 });
  const t3 = b.tick(1000).t;
  b.user("u3");
  b.tick(1000).assistant({ ...ASSISTANT, text: "a3" });
  const last = wireOf(b, family).at(-1) ?? [];

  it("sends the summary as its own user message, then the kept turn and the new one", () => {
    const expected = [
      "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
      `${stamp(t2)}u2`,
      "a2",
      `${stamp(t3)}u3`,
    ];
    if (family === "2026.9") expected.push(expect.stringContaining("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"));
    expect(texts(last)).toEqual(expected);
    // the breakpoint is on the prompt, never on the carrier
    const prompt = last[3];
    expect(Array.isArray(prompt?.content) && prompt.content.at(-1)).toMatchObject({
      cache_control: { type: "ephemeral" },
    });
  });
});
