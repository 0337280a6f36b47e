// Run report on hand-built sessions: no-report notice and reason, conversation buckets over the messages actually
// sent (transcript-only assistants and excludeFromContext dropped, compaction window applied), last call usage
// and the reconciliation numbers. Fixture-based checks are in test/golden/context-text.test.ts.

import { describe, expect, it } from "vitest";
import type { LoadedSession, Transcript, TranscriptEntry } from "../../server/model/session.ts";
import { NO_RUN_REPORT_NOTICE } from "../../server/openclaw/context-text/context-text.ts";
import { MAP_UNAVAILABLE_TEXT } from "../../server/openclaw/texts.ts";
import { buildRunReport } from "../../server/reports/run-report.ts";
import type { JsonObject } from "../../shared/json.ts";

function transcriptOf(rows: JsonObject[]): Transcript {
  const entries: TranscriptEntry[] = rows.map((raw, index) => ({
    index,
    type: typeof raw.type === "string" ? raw.type : "",
    id: typeof raw.id === "string" ? raw.id : null,
    parentId: typeof raw.parentId === "string" ? raw.parentId : null,
    timestamp: null,
    raw,
  }));
  return {
    header: null,
    version: 4,
    entries,
    activeBranch: entries.map((e) => e.index),
    leafIndex: entries.length - 1,
    issues: [],
  };
}

let n = 0;
const msg = (message: JsonObject): JsonObject => ({ type: "message", id: `e${n++}`, message });
const usage = (input: number, cacheRead: number, cacheWrite: number): JsonObject => ({
  input,
  output: 5,
  cacheRead,
  cacheWrite,
  totalTokens: input + cacheRead + cacheWrite + 5,
});

function session(entry: JsonObject | null, rows: JsonObject[]): LoadedSession {
  return {
    summary: {
      agentId: "main",
      sessionId: "s",
      sessionKey: "agent:main:main",
      storage: "sqlite",
      archived: null,
      updatedAt: null,
      model: null,
      provider: null,
      entryCount: rows.length,
      parseErrorCount: 0,
      location: "agents/main/agent/openclaw-agent.sqlite",
      sizeBytes: null,
    },
    entry,
    transcript: transcriptOf(rows),
    version: { appVersion: "2026.9.6", family: "2026.9", reason: "test" },
    rebasedPaths: [],
    issues: [],
  };
}

const rows: JsonObject[] = [
  msg({ role: "user", content: "old question" }),
  msg({ role: "assistant", content: [{ type: "text", text: "old answer" }], usage: usage(1, 0, 100) }),
  { type: "compaction", id: "c1", summary: "S", firstKeptEntryId: "keep", tokensBefore: 1000 },
  { type: "message", id: "keep", message: { role: "user", content: "read it" } }, // 7 chars
  msg({
    role: "assistant",
    content: [
      { type: "text", text: "ok" }, // 2
      { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }, // {"path":"a"} = 12
    ],
    usage: usage(10, 200, 30),
    provider: "anthropic",
    model: "m",
  }),
  msg({
    role: "toolResult",
    toolCallId: "t1",
    toolName: "read",
    content: [{ type: "text", text: "x".repeat(40) }],
  }),
  msg({
    role: "toolResult",
    toolCallId: "t2",
    toolName: "exec",
    content: [{ type: "text", text: "y".repeat(9) }],
  }),
  msg({ role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }),
  msg({ role: "user", content: "/status", excludeFromContext: true }),
  msg({
    role: "assistant",
    content: [{ type: "text", text: "status" }],
    provider: "openclaw",
    model: "gateway-injected",
    usage: usage(0, 0, 0),
  }),
];

const report: JsonObject = {
  source: "run",
  workspaceDir: "/ws",
  bootstrapMaxChars: 20000,
  bootstrapTotalMaxChars: 60000,
  systemPrompt: { chars: 1000, projectContextChars: 400, nonProjectContextChars: 600 },
  injectedWorkspaceFiles: [
    {
      name: "AGENTS.md",
      path: "/ws/AGENTS.md",
      missing: false,
      rawChars: 400,
      injectedChars: 400,
      truncated: false,
    },
    {
      name: "BOOTSTRAP.md",
      path: "/ws/BOOTSTRAP.md",
      missing: true,
      rawChars: 0,
      injectedChars: 66,
      truncated: false,
    },
  ],
  skills: { promptChars: 50, entries: [{ name: "a", blockChars: 40 }] },
  tools: {
    listChars: 0,
    schemaChars: 200,
    entries: [{ name: "read", summaryChars: 5, schemaChars: 200, propertiesCount: 1 }],
  },
  currentTurn: { promptChars: 7, runtimeContextChars: 20, modelOnlyPromptChars: 4 },
};

describe("buildRunReport", () => {
  it("without a run report: notice, OpenClaw's map text, reason, no totals", () => {
    const none = buildRunReport(session({ sessionId: "s", totalTokens: 240 }, rows));
    expect(none.systemPromptReport).toEqual({
      available: false,
      report: null,
      reason: "the SessionEntry has no systemPromptReport (no embedded run yet)",
    });
    expect(none.texts).toMatchObject({
      available: false,
      notice: NO_RUN_REPORT_NOTICE,
      mapUnavailable: MAP_UNAVAILABLE_TEXT,
    });
    expect(none.totals).toBeNull();
    const estimate = buildRunReport(
      session({ sessionId: "s", systemPromptReport: { source: "estimate" } }, rows),
    );
    expect(estimate.systemPromptReport.available).toBe(false);
    if (!estimate.systemPromptReport.available) {
      expect(estimate.systemPromptReport.reason).toBe('systemPromptReport.source is "estimate", not "run"');
      expect(estimate.systemPromptReport.report).toEqual({ source: "estimate" });
    }
  });

  it("conversation counts only what is sent: compaction window, no transcript-only or excluded messages", () => {
    // A last call after everything: its prompt is the whole context list (the reply itself was not in it).
    const last = msg({ role: "assistant", content: [{ type: "text", text: "done" }], usage: usage(5, 0, 0) });
    const dto = buildRunReport(session(null, [...rows, last]));
    const c = dto.conversation;
    // compaction summary + kept user + assistant + 2 tool results + image user
    expect(c.total.count).toBe(6);
    // The image counts OpenClaw's 8,000 chars, as on the map (issue 15: one definition of image chars).
    expect(c.byRole.user).toEqual({ count: 2, images: 1, chars: 7 + 8000, estTokens: 2002 });
    expect(c.byRole.assistant).toEqual({ count: 1, images: 0, chars: 14, estTokens: 4 });
    expect(c.toolResultsByTool).toEqual([
      { toolName: "read", count: 1, images: 0, chars: 40, estTokens: 10 },
      { toolName: "exec", count: 1, images: 0, chars: 9, estTokens: 3 },
    ]);
    expect(c.compactionSummary?.count).toBe(1);
    // old user + old assistant (before the window) + /status pair + gateway-injected reply... = 4 not sent
    expect(c.notSent.count).toBe(4);
  });

  it("last call skips transcript-only assistants; reconciliation splits OpenClaw's and clawscope's views", () => {
    const entry: JsonObject = {
      sessionId: "s",
      totalTokens: 240,
      totalTokensFresh: true,
      totalTokensVersion: 1,
      contextTokens: 1000,
      systemPromptReport: report,
    };
    const dto = buildRunReport(session(entry, rows));
    expect(dto.lastCall).toMatchObject({
      input: 10,
      cacheRead: 200,
      cacheWrite: 30,
      promptTokens: 240,
      model: "m",
    });
    expect(dto.texts.available).toBe(true);
    expect(dto.totals?.openclawTracked).toEqual({ chars: 1227, estTokens: 307 });
    expect(dto.totals?.filesInjected.chars).toBe(400);
    expect(dto.totals?.files.map((f) => f.status)).toEqual(["OK", "MISSING"]);
    const r = dto.reconciliation;
    expect(r.actualTokens).toBe(240);
    expect(r.entryTotalTokens).toBe(240);
    expect(r.openclawUntrackedTokens).toBe(240 - 307);
    // The map's tiles of the last call's prompt: workspace 400 + the missing BOOTSTRAP.md's 66-char marker (OpenClaw's
    // map counts it; this report's projectContextChars does not), system 600 − 40, tools 200, skills 40, runtime
    // context 20 + model-only prompt 4, and the conversation sent before the call (summary + "read it").
    expect(r.clawscopeTracked.chars).toBe(466 + 560 + 200 + 40 + 24 + dto.conversation.total.chars);
    expect(dto.conversation.total.count).toBe(2);
    expect(r.clawscopeUntrackedTokens).toBe(240 - r.clawscopeTracked.estTokens);
    expect(dto.contextWindowTokens).toBe(1000);
  });
});
