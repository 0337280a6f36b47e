// The CLI's text output against hostile and broken state (issue 20): stored terminal control sequences are shown
// escaped, never sent raw (not in --json, which stays the exact data); thousands of identical warnings from
// `sessions` collapse into one line with a count.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeControls, issueLines } from "../../server/cli/terminal-text.ts";
import type { ParseIssue } from "../../shared/session.ts";
import { runCli } from "../helpers/cli.ts";

const SESSION_ID = "0a0b0c0d-1111-4222-8333-444455556666";
/** OSC 52 (write the clipboard), CSI 2 J (clear the screen), a C1 CSI, BEL. */
const OSC52 = "\u001b]52;c;ZWNobyBwd25lZA==\u0007";
const CLEAR = "\u001b[2J";
const C1_CSI = "\u009b31m";
const BROKEN_ENTRIES = 3000;

let tmp: string;
let state: string;

function cli(args: string[]) {
  return runCli(args);
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-cli-text-"));
  state = path.join(tmp, "state");
  const sessions = path.join(state, "agents/main/sessions");
  mkdirSync(sessions, { recursive: true });
  const ts = "2026-11-30T10:00:00.000Z";
  const model = `claude${CLEAR}${C1_CSI}`;
  const lines = [
    { type: "session", version: 3, id: SESSION_ID, timestamp: ts, cwd: "/tmp" },
    { type: "message", id: "a1", parentId: null, timestamp: ts, message: { role: "user", content: "hi" } },
    {
      type: "message",
      id: "a2",
      parentId: "a1",
      timestamp: ts,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `hello${OSC52}` }],
        provider: "anthropic",
        model,
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
        stopReason: "stop",
      },
    },
  ];
  writeFileSync(
    path.join(sessions, `${SESSION_ID}.jsonl`),
    lines.map((l) => `${JSON.stringify(l)}\n`).join(""),
  );
  const store: Record<string, unknown> = {
    [`agent:main:telegram:dm:${OSC52}`]: {
      sessionId: SESSION_ID,
      updatedAt: Date.parse(ts),
      model,
      modelProvider: "anthropic",
    },
  };
  for (let i = 0; i < BROKEN_ENTRIES; i++) store[`agent:main:broken:${i}`] = { updatedAt: 1 };
  writeFileSync(path.join(sessions, "sessions.json"), JSON.stringify(store));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Any C0 control but \t \n, DEL, or C1. */
const RAW_CONTROL = {
  test(s: string): boolean {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f)) return true;
    }
    return false;
  },
};

describe("terminal control sequences (issue 20)", () => {
  it("escapeControls writes C0 (but \\t, \\n), DEL and C1 visibly and leaves the rest alone", () => {
    expect(escapeControls(`a${OSC52}b`)).toBe("a\\x1b]52;c;ZWNobyBwd25lZA==\\x07b");
    expect(escapeControls(`${CLEAR}${C1_CSI}\r\u007f`)).toBe("\\x1b[2J\\u009b31m\\x0d\\x7f");
    expect(escapeControls("tab\tnew\nline, ünïcödé, 中文, 🦞")).toBe("tab\tnew\nline, ünïcödé, 中文, 🦞");
    for (let c = 0; c < 0x100; c++) {
      const escaped = escapeControls(String.fromCharCode(c));
      expect(RAW_CONTROL.test(escaped), `U+${c.toString(16)}`).toBe(false);
    }
  });

  it("`sessions` prints the stored key and model escaped; --json keeps them exact", () => {
    const text = cli(["sessions", "--state-dir", state]);
    expect(text.status, text.stderr).toBe(0);
    expect(RAW_CONTROL.test(text.stdout)).toBe(false);
    expect(RAW_CONTROL.test(text.stderr)).toBe(false);
    expect(text.stdout).toContain("agent:main:telegram:dm:\\x1b]52;c;ZWNobyBwd25lZA==\\x07");
    expect(text.stdout).toContain("anthropic/claude\\x1b[2J\\u009b31m");
    const json = cli(["sessions", "--state-dir", state, "--json"]);
    expect(json.status, json.stderr).toBe(0);
    const rows: { sessionKey: string | null; model: string | null }[] = JSON.parse(json.stdout);
    expect(rows.map((r) => r.sessionKey)).toContain(`agent:main:telegram:dm:${OSC52}`);
    expect(rows.map((r) => r.model)).toContain(`claude${CLEAR}${C1_CSI}`);
  });

  it("`cost` text output shows the stored model escaped", () => {
    const r = cli(["cost", "--state-dir", state, "--session", SESSION_ID]);
    expect(r.status, r.stderr).toBe(0);
    expect(RAW_CONTROL.test(r.stdout)).toBe(false);
    expect(r.stdout).toContain("claude\\x1b[2J\\u009b31m");
  });
});

describe("collapsed warnings (issue 20)", () => {
  it("`sessions` prints 3,000 broken entries of one store as one line with a count", () => {
    const r = cli(["sessions", "--state-dir", state]);
    expect(r.status, r.stderr).toBe(0);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning: "));
    expect(warnings).toEqual([
      "warning: agents/main/sessions/sessions.json: entry agent:main:broken:0 has no sessionId; skipped (and 2,999 more invalid-entry in this file)",
    ]);
  });

  it("issueLines groups by file and code, keeps the first location and different kinds apart", () => {
    const issue = (source: string, code: string, line: number): ParseIssue => ({
      source,
      code,
      line,
      message: `${code} at ${line}`,
      severity: "error",
    });
    expect(
      issueLines([
        issue("a.jsonl", "invalid-json", 3),
        issue("a.jsonl", "invalid-json", 9),
        issue("b.jsonl", "invalid-json", 1),
        issue("a.jsonl", "truncated-line", 12),
      ]),
    ).toEqual([
      "warning: a.jsonl:3: invalid-json at 3 (and 1 more invalid-json in this file)",
      "warning: b.jsonl:1: invalid-json at 1",
      "warning: a.jsonl:12: truncated-line at 12",
    ]);
  });
});
