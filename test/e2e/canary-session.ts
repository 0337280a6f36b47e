// A session with a distinct planted string ("canary") in every field that holds data (issue 15 "Redaction from
// one rule table"): message text, thinking, tool-call arguments, tool output, a compaction summary, file
// contents, paths, the workspace dir, session-key and agent labels, entry / tool-call / session ids. Written as a
// JSONL-era state dir (2026.7-style) in a folder the caller owns. Used by the redacted export test
// (test/server/export.test.ts) and the on-screen Redact test (share.e2e.test.ts): no canary may survive either.

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "../../shared/json.ts";

function line(o: JsonValue): string {
  return `${JSON.stringify(o)}\n`;
}

export const CANARY_SESSION_ID = "canary00-sess-4000-8000-CANARYSESSN";
export const CANARIES = {
  userText: "CANARYUSERTEXT",
  assistantText: "CANARYASSISTANT",
  thinking: "CANARYTHINKING",
  toolArgs: "CANARYTOOLARGS",
  toolOutput: "CANARYTOOLOUTPUT",
  summary: "CANARYSUMMARY",
  fileContents: "CANARYFILECONTENTS",
  workspaceDir: "CANARYWORKSPACEDIR",
  filePath: "CANARYFILEPATH",
  agentLabel: "CANARYAGENTLABEL",
  chatLabel: "CANARYCHATLABEL",
  entryId: "CANARYENTRYID",
  toolCallId: "CANARYTOOLCALLID",
  sessionId: "CANARYSESSN",
};

/** The agent id (a user-chosen label, so redaction hashes it). */
export const CANARY_AGENT = "canaryagentlabel";

export function buildCanaryStateDir(root: string): string {
  const state = path.join(root, "canary-state");
  const agent = CANARY_AGENT;
  const sessions = path.join(state, `agents/${agent}/sessions`);
  const workspace = path.join(state, "workspace");
  mkdirSync(sessions, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const agents = `# Agents\nThe line ${CANARIES.fileContents} must never leave this machine.\n`;
  writeFileSync(path.join(workspace, "AGENTS.md"), agents);
  const t0 = Date.parse("2026-11-30T10:00:00.000Z");
  const iso = (ms: number) => new Date(ms).toISOString();
  const wsDir = `/home/u/${CANARIES.workspaceDir}`;
  const sessionKey = `agent:${agent}:telegram:dm:${CANARIES.chatLabel}`;
  const report = {
    source: "run",
    generatedAt: t0 + 2000,
    sessionId: CANARY_SESSION_ID,
    sessionKey,
    provider: "anthropic",
    model: "claude-mock-1",
    workspaceDir: wsDir,
    bootstrapMaxChars: 20000,
    bootstrapTotalMaxChars: 60000,
    systemPrompt: { chars: 9000, projectContextChars: 600, nonProjectContextChars: 8400 },
    injectedWorkspaceFiles: [
      {
        name: "AGENTS.md",
        path: `${wsDir}/${CANARIES.filePath}/AGENTS.md`,
        missing: false,
        rawChars: agents.trimEnd().length,
        injectedChars: agents.trimEnd().length,
        truncated: false,
      },
    ],
    skills: { promptChars: 0, entries: [] },
    tools: {
      listChars: 0,
      schemaChars: 150,
      entries: [{ name: "exec", summaryChars: 20, schemaChars: 150 }],
    },
  };
  const entry = {
    sessionId: CANARY_SESSION_ID,
    updatedAt: t0 + 9000,
    modelProvider: "anthropic",
    model: "claude-mock-1",
    contextTokens: 100000,
    totalTokens: 5000,
    totalTokensFresh: true,
    systemPromptReport: report,
  };
  writeFileSync(path.join(sessions, "sessions.json"), JSON.stringify({ [sessionKey]: entry }, null, 2));
  const usage = (input: number, read: number, write: number) => ({
    input,
    output: 20,
    cacheRead: read,
    cacheWrite: write,
    totalTokens: input + read + write + 20,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const id = (n: number) => `${CANARIES.entryId}${n}`;
  const rows: JsonValue[] = [
    { type: "session", version: 3, id: CANARY_SESSION_ID, timestamp: iso(t0), cwd: wsDir },
    {
      type: "message",
      id: id(1),
      parentId: null,
      timestamp: iso(t0 + 1000),
      message: { role: "user", content: `Please ${CANARIES.userText}`, timestamp: t0 + 1000 },
    },
    {
      type: "message",
      id: id(2),
      parentId: id(1),
      timestamp: iso(t0 + 2000),
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: `Hmm ${CANARIES.thinking}` },
          { type: "text", text: `Sure ${CANARIES.assistantText}` },
          { type: "toolCall", id: CANARIES.toolCallId, name: "exec", arguments: { cmd: CANARIES.toolArgs } },
        ],
        provider: "anthropic",
        model: "claude-mock-1",
        usage: usage(3000, 0, 2000),
        stopReason: "toolUse",
        timestamp: t0 + 2000,
      },
    },
    {
      type: "message",
      id: id(3),
      parentId: id(2),
      timestamp: iso(t0 + 3000),
      message: {
        role: "toolResult",
        toolCallId: CANARIES.toolCallId,
        toolName: "exec",
        content: [{ type: "text", text: `out ${CANARIES.toolOutput}\n${"filler line\n".repeat(20)}` }],
        isError: false,
        timestamp: t0 + 3000,
      },
    },
    {
      type: "compaction",
      id: id(4),
      parentId: id(3),
      timestamp: iso(t0 + 4000),
      summary: `Earlier: ${CANARIES.summary}`,
      firstKeptEntryId: id(1),
      tokensBefore: 5000,
    },
    {
      type: "message",
      id: id(5),
      parentId: id(4),
      timestamp: iso(t0 + 9000),
      message: {
        role: "assistant",
        content: [{ type: "text", text: `Done ${CANARIES.assistantText}` }],
        provider: "anthropic",
        model: "claude-mock-1",
        usage: usage(5, 2000, 3000),
        stopReason: "stop",
        timestamp: t0 + 9000,
      },
    },
  ];
  writeFileSync(path.join(sessions, `${CANARY_SESSION_ID}.jsonl`), rows.map(line).join(""));
  return state;
}
