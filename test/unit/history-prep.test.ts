// HistoryPreparer (openclaw/wire/history-prep.ts) extends the prepared history run by run instead of redoing it:
// for every run of a session it must give exactly what prepareHistory gives on the whole history — with the
// thinking-drop policy on (only the newest assistant with content keeps its thinking), user and assistant runs
// merging, dangling tool calls stripped, and silent / failed / transcript-only assistants dropped.

import { describe, expect, it } from "vitest";
import { ContextBuilder } from "../../server/model/context-messages.ts";
import { type AgentMessage, agentMessageOf } from "../../server/openclaw/wire/agent-message.ts";
import { HistoryPreparer } from "../../server/openclaw/wire/history-prep.ts";
import { prepareHistory, type WirePolicy } from "../../server/openclaw/wire/wire-pipeline.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

function policy(dropThinking: boolean, mergeUsers: boolean): WirePolicy {
  return {
    family: "2026.9",
    runtimeCarrier: true,
    imageCut: "2026.9",
    mergeUsers,
    dropThinking,
    replayThinking: false,
    imageInput: false,
    target: { provider: "anthropic", api: "anthropic-messages", id: "claude-mock-1" },
    timeZone: "UTC",
    escapeDelimiters: true,
    media: {},
    resolveText: false,
  };
}

const thinking = (t: string) => ({ type: "thinking", thinking: t, thinkingSignature: `sig-${t}` });

/** A session with every shape the preparation rules act on, in many runs. */
function session() {
  const b = new TranscriptBuilder({ version: 4 });
  for (let run = 0; run < 6; run++) {
    b.tick(1000).user(`question ${run}`);
    if (run % 2 === 0) b.tick(10).user(`follow-up ${run}`); // two users in a row: merged in history
    b.tick(1000).assistant({
      content: [
        thinking(`t${run}`),
        { type: "toolCall", id: `c${run}`, name: "read", arguments: { n: run } },
      ],
    });
    b.tick(10).toolResult(`c${run}`, "read", `result ${run}`);
    if (run === 3)
      b.tick(10).assistant({ content: [{ type: "toolCall", id: "dangling", name: "exec", arguments: {} }] });
    b.tick(1000).assistant({ content: [thinking(`u${run}`), { type: "text", text: `answer ${run}` }] });
    if (run === 2) b.tick(10).assistant({ text: "NO_REPLY" });
    if (run === 4) b.tick(10).assistant({ content: [], stopReason: "error" });
    b.tick(10).injected(`/status reply ${run}`);
  }
  b.tick(1000).user("last");
  b.tick(1000).assistant({ text: "done" });
  return b.session({ family: "2026.9" });
}

/** The history (before the prompt) of each call, as WireRun hands it to the preparer. */
function histories(): { generation: number; history: AgentMessage[] }[] {
  const s = session();
  const builder = new ContextBuilder();
  const out: { generation: number; history: AgentMessage[] }[] = [];
  for (const idx of s.transcript.activeBranch) {
    const e = s.transcript.entries[idx];
    if (!e) continue;
    const m = e.raw.message;
    if (
      e.type === "message" &&
      typeof m === "object" &&
      m !== null &&
      !Array.isArray(m) &&
      m.role === "assistant"
    ) {
      const all = builder.messages.map(agentMessageOf);
      let p = all.length - 1;
      while (p >= 0 && all[p]?.role !== "user") p--;
      out.push({ generation: builder.generation, history: all.slice(0, Math.max(0, p)) });
    }
    builder.push(e);
  }
  return out;
}

describe.each([
  [true, true],
  [false, true],
  [true, false],
])("HistoryPreparer (dropThinking %s, mergeUsers %s)", (drop, merge) => {
  it("gives prepareHistory's list for every run", () => {
    const p = policy(drop, merge);
    const preparer = new HistoryPreparer();
    let finals = 0;
    for (const { generation, history } of histories()) {
      const got = preparer.prepare(history, generation, p);
      expect(JSON.stringify(got.list)).toBe(JSON.stringify(prepareHistory(history, p)));
      finals = Math.max(finals, got.finalCount);
    }
    // the final prefix really grows (else the incremental path is never exercised)
    expect(finals).toBeGreaterThan(10);
  });
});
