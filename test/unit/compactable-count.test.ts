// `/context detail`'s "Compactable transcript: R … / M …" after a reset and after a compaction, per OpenClaw's own
// code (docs/openclaw-facts.md §1: 2026.9.6 resolveTranscriptCompactabilityReport → readSessionMessagesAsync "full" →
// readSessionTranscriptHistoryEventsFromProjection / projectTranscriptEntryMessage; 2026.7.1 readSessionMessages).
// The 2026.9.6 cases run on synthetic SQLite stores (the demo's real schema-23 database with the session's events
// replaced, TranscriptBuilder.writeSqliteStateDir) read back through the production state reader; the 2026.7.1
// cases through the production JSONL parser. Each case is one row of docs/openclaw-facts.md §1.8.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../server/model/session.ts";
import { countTranscriptMessages } from "../../server/openclaw/compactable-count.ts";
import { isSilentReplyText } from "../../server/openclaw/real-conversation.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import type { JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "../../server/demo/state");
const tmp = mkdtempSync(path.join(tmpdir(), "clawscope-compactable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let stores = 0;
/** The rows as a 2026.9.6 SQLite store, loaded back as the reports load it. */
function fromSqlite(b: TranscriptBuilder): Transcript {
  const dir = path.join(tmp, `store-${stores++}`);
  b.writeSqliteStateDir(dir, DEMO);
  const reader = openStateReader(dir);
  const row = reader.listSessions().sessions.find((s) => s.agentId === "main" && s.archived === null);
  if (!row) throw new Error("synthetic store lists no session");
  const loaded = reader.loadSession({ agentId: row.agentId, sessionId: row.sessionId });
  if ("error" in loaded) throw new Error(loaded.error.message);
  return loaded.transcript;
}

const text = (t: string): JsonObject[] => [{ type: "text", text: t }];
const x = { excludeFromContext: true };

describe("2026.9.6: the chat-history list of the latest reset window (SQLite stores)", () => {
  it("case 1: excludeFromContext pairs are in M, never real", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("hello");
    b.assistant({ text: "hi" });
    b.user("/status", x);
    b.injected("status", x);
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 4, real: 2 });
  });

  it("case 2: a compaction does not window the history; its row counts in M only", () => {
    const b = new TranscriptBuilder({ version: 4 });
    const u1 = b.user("first question");
    b.assistant({ text: "first answer" });
    b.add({ type: "compaction", summary: "what happened so far", firstKeptEntryId: u1, tokensBefore: 1000 });
    b.user("second question");
    b.assistant({ text: "second answer" });
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 5, real: 4 });
  });

  it("case 3: an explicit /new reset (no firstKeptEntryId) drops what came before; the Reset row is in M", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("old question");
    b.assistant({ text: "old answer" });
    b.add({ type: "reset", reason: "new" });
    b.user("new question");
    b.assistant({ text: "new answer" });
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 3, real: 2 });
  });

  it("case 4: a rollover reset keeps its user/assistant tail from firstKeptEntryId (tool results dropped)", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("u1");
    b.assistant({ text: "a1" });
    const u2 = b.user("u2");
    b.assistant({ content: [{ type: "toolCall", id: "c1", name: "exec", arguments: {} }] });
    b.toolResult("c1", "exec", "output");
    b.assistant({ text: "a3" });
    b.add({ type: "reset", reason: "idle", firstKeptEntryId: u2 });
    b.user("u4");
    // kept: u2, a2 (tool call only: not real), a3; then Reset, u4.
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 5, real: 3 });
  });

  it("case 5: a compaction before the latest reset is outside the window", () => {
    const b = new TranscriptBuilder({ version: 4 });
    const u1 = b.user("u1");
    b.add({ type: "compaction", summary: "s", firstKeptEntryId: u1, tokensBefore: 10 });
    b.user("u2");
    b.assistant({ text: "a2" });
    b.add({ type: "reset", reason: "reset" });
    b.user("u3");
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 2, real: 1 });
  });

  it("case 6: a compaction after the reset counts in M", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("u1");
    b.add({ type: "reset", reason: "new" });
    const u2 = b.user("u2");
    b.assistant({ text: "a2" });
    b.add({ type: "compaction", summary: "s", firstKeptEntryId: u2, tokensBefore: 10 });
    b.user("u3");
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 5, real: 3 });
  });

  it("case 7: only displayed custom_message rows (not the runtime context) are listed, as role custom", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("u");
    b.add({ type: "custom_message", customType: "note", content: "a note", display: true });
    b.add({ type: "custom_message", customType: "note", content: "hidden", display: false });
    b.add({ type: "custom_message", customType: "openclaw.runtime-context", content: "ctx", display: true });
    expect(countTranscriptMessages(fromSqlite(b), "2026.9")).toEqual({ messages: 2, real: 2 });
    // custom_message rows joined the display list in 2026.9.4 (isVisibleTranscriptRecord)
    const t = fromSqlite(b);
    expect(countTranscriptMessages(t, "2026.9", undefined, "2026.9.4")).toEqual({ messages: 2, real: 2 });
    expect(countTranscriptMessages(t, "2026.9", undefined, "2026.9.3")).toEqual({ messages: 1, real: 1 });
    expect(countTranscriptMessages(t, "2026.9", undefined, "2026.8.2")).toEqual({ messages: 1, real: 1 });
  });

  it("the snake_case tool-call types are not conversation from 2026.9.5 (isToolCallBlockType); before, they are", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.assistant({ content: [{ type: "tool_use", id: "t", name: "exec", input: {} }] });
    const t = b.transcript();
    expect(countTranscriptMessages(t, "2026.9", undefined, "2026.9.5")).toEqual({ messages: 1, real: 0 });
    expect(countTranscriptMessages(t, "2026.9", undefined, "2026.9.4")).toEqual({ messages: 1, real: 1 });
    expect(countTranscriptMessages(t, "2026.9", undefined, null)).toEqual({ messages: 1, real: 0 });
  });

  it("the command's own message and what follows are not counted (a stored reply after a reset)", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("old");
    b.add({ type: "reset", reason: "new" });
    b.user("new");
    b.assistant({ text: "answer" });
    b.user("/context detail");
    b.injected("…");
    const t = fromSqlite(b);
    const cmd = t.entries.find(
      (e) => e.type === "message" && JSON.stringify(e.raw).includes("/context detail"),
    );
    expect(countTranscriptMessages(t, "2026.9", cmd?.index)).toEqual({ messages: 3, real: 2 });
  });
});

describe("isRealConversationMessage details (research §1.8)", () => {
  it("case 8: a tool result is real only with a meaningful anchor among the 20 list entries before it", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("go");
    for (let i = 0; i < 11; i += 1) {
      b.assistant({ content: [{ type: "toolCall", id: `c${i}`, name: "exec", arguments: {} }] });
      b.toolResult(`c${i}`, "exec", `out ${i}`);
    }
    expect(countTranscriptMessages(b.transcript(), "2026.9")).toEqual({ messages: 23, real: 11 });
  });

  it("case 9: silent replies (repeated, any case, edge punctuation) and heartbeat-only texts are not real", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.user("HEARTBEAT_OK");
    b.assistant({ text: "NO_REPLY" });
    b.assistant({ text: "**NO_REPLY**." });
    b.user("HEARTBEAT_OK thanks");
    expect(countTranscriptMessages(b.transcript(), "2026.9")).toEqual({ messages: 4, real: 1 });
    expect(isSilentReplyText("no_reply NO_REPLY")).toBe(true);
    expect(isSilentReplyText("NO_REPLY, really")).toBe(false);
  });

  it("case 10: a thinking-only reply is not real; an image-only one is", () => {
    const b = new TranscriptBuilder({ version: 4 });
    b.assistant({ content: [{ type: "thinking", thinking: "hmm" }] });
    b.assistant({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] });
    expect(countTranscriptMessages(b.transcript(), "2026.9")).toEqual({ messages: 2, real: 1 });
  });

  it("cases 11–13: 2026.7.1 honours excludeFromContext only for bashExecution, counts snake_case tool blocks, adds compaction rows", () => {
    const j = new TranscriptBuilder();
    j.user(text("/status"), x);
    j.assistant({ text: "status", extra: x });
    expect(countTranscriptMessages(j.transcript(), "2026.7")).toEqual({ messages: 2, real: 2 });
    expect(countTranscriptMessages(j.transcript(), "2026.9")).toEqual({ messages: 2, real: 0 });

    const snake = new TranscriptBuilder();
    snake.assistant({ content: [{ type: "tool_use", id: "t", name: "exec", input: {} }] });
    expect(countTranscriptMessages(snake.transcript(), "2026.7")).toEqual({ messages: 1, real: 1 });
    expect(countTranscriptMessages(snake.transcript(), "2026.9")).toEqual({ messages: 1, real: 0 });

    const c = new TranscriptBuilder();
    const u = c.user("u");
    c.assistant({ text: "a" });
    c.add({ type: "compaction", summary: "s", firstKeptEntryId: u, tokensBefore: 10 });
    c.user("u2");
    c.assistant({ text: "a2" });
    expect(countTranscriptMessages(c.transcript(), "2026.7")).toEqual({ messages: 5, real: 4 });
  });
});

describe("2026.7 counts continued over appended lines (issue 18: only the new lines are classified)", () => {
  it("equal a count over a fresh parse at every step, with and without a command position", async () => {
    const { readFileSync } = await import("node:fs");
    const { growingTranscripts, transcriptFromJsonl } = await import("../helpers/transcript.ts");
    const file = path.join(DEMO, "agents/legacy/sessions/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84.jsonl");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    for (const step of growingTranscripts(lines, 3)) {
      const fresh = transcriptFromJsonl(lines.slice(0, step.lines).join("\n"));
      const i = step.lines;
      for (const before of [undefined, 1, Math.floor(i / 2), i - 1, i + 5]) {
        expect(countTranscriptMessages(step.transcript, "2026.7", before)).toEqual(
          countTranscriptMessages(fresh, "2026.7", before),
        );
      }
    }
  });

  it("continues a session of 300,000 list entries (the copy is no argument spread: that overflowed the stack)", () => {
    const b = new TranscriptBuilder({ start: Date.UTC(2026, 10, 30), idPrefix: "big" });
    for (let i = 0; i < 150_000; i++) {
      b.user(`u${i}`);
      b.assistant({ text: `a${i}` });
    }
    const first = b.transcript();
    expect(countTranscriptMessages(first, "2026.7")).toEqual({ messages: 300_000, real: 300_000 });
    b.user("one more");
    const grown: Transcript = { ...first, entries: [...first.entries, ...b.transcript().entries.slice(-1)] };
    expect(countTranscriptMessages(grown, "2026.7")).toEqual({ messages: 300_001, real: 300_001 });
  });
});
