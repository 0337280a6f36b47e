// JSONL transcript parser on hand-built bad and tricky inputs (spec transcript.md §1, §5).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../server/model/session.ts";
import { detectJsonlVersion, familyFromAppVersion } from "../../server/sources/detect-version.ts";
import {
  countLineErrors,
  parseTranscriptBytes,
  parseTranscriptLines,
} from "../../server/sources/jsonl/read-transcript.ts";

/** Text → the production bytes parser (the only one there is). */
const parseTranscriptText = (text: string, source: string) =>
  parseTranscriptBytes(Buffer.from(text, "utf8"), source);
const SRC = "agents/main/sessions/t.jsonl";
const HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: "sess-1",
  timestamp: "2026-03-08T11:22:09.712Z",
  cwd: "/w",
});

function msg(id: string, parentId: string | null, role: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2026-03-08T11:22:10.000Z",
    message: { role, content: [{ type: "text", text: id }] },
    ...extra,
  });
}

function lines(...l: string[]): string {
  return `${l.join("\n")}\n`;
}

function branchIds(t: Transcript): (string | null)[] {
  return t.activeBranch.map((i) => t.entries[i]?.id ?? null);
}

function codes(t: Transcript): string[] {
  return t.issues.map((i) => i.code);
}

describe("parseTranscriptText", () => {
  it("parses a clean file: header, entries, active branch, 1-based lines", () => {
    const t = parseTranscriptText(lines(HEADER, msg("a1", null, "user"), msg("a2", "a1", "assistant")), SRC);
    expect(t.issues).toEqual([]);
    expect(t.version).toBe(3);
    expect(t.header?.id).toBe("sess-1");
    expect(t.entries.map((e) => [e.index, e.type, e.line])).toEqual([
      [0, "session", 1],
      [1, "message", 2],
      [2, "message", 3],
    ]);
    expect(branchIds(t)).toEqual(["a1", "a2"]);
    expect(t.leafIndex).toBe(2);
  });

  it("garbage, broken JSON and non-object lines are located issues; the rest still loads", () => {
    const text = lines(
      HEADER,
      msg("a1", null, "user"),
      "this is not json",
      '{"type":"message",',
      "[1,2,3]",
      "42",
      msg("a2", "a1", "assistant"),
    );
    const t = parseTranscriptText(text, SRC);
    expect(t.entries.map((e) => e.id)).toEqual(["sess-1", "a1", "a2"]);
    expect(t.entries[2]?.line).toBe(7);
    expect(t.issues.map((i) => [i.code, i.line, i.severity, i.source])).toEqual([
      ["invalid-json", 3, "error", SRC],
      ["invalid-json", 4, "error", SRC],
      ["not-an-object", 5, "error", SRC],
      ["not-an-object", 6, "error", SRC],
    ]);
    expect(countLineErrors(t)).toBe(4);
    expect(branchIds(t)).toEqual(["a1", "a2"]);
  });

  it("a truncated last line without newline is a warning, not an error", () => {
    const text = `${lines(HEADER, msg("a1", null, "user"))}{"type":"message","id":"a2","par`;
    const t = parseTranscriptText(text, SRC);
    expect(t.entries).toHaveLength(2);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0]).toMatchObject({ code: "truncated-line", line: 3, severity: "warning" });
    expect(countLineErrors(t)).toBe(0);
  });

  it("a complete last line without newline is kept; blank lines and CRLF are fine", () => {
    const text = `${HEADER}\r\n\r\n   \n${msg("a1", null, "user")}\r\n${msg("a2", "a1", "assistant")}`;
    const t = parseTranscriptText(text, SRC);
    expect(t.issues).toEqual([]);
    expect(t.entries.map((e) => [e.id, e.line])).toEqual([
      ["sess-1", 1],
      ["a1", 4],
      ["a2", 5],
    ]);
  });

  it("a broken line in the middle without trailing newline elsewhere is still an error", () => {
    const t = parseTranscriptText(lines(HEADER, "{oops", msg("a1", null, "user")), SRC);
    expect(t.issues.map((i) => [i.code, i.line])).toEqual([["invalid-json", 2]]);
  });

  it("a file without header is reported but its entries are still loaded", () => {
    const t = parseTranscriptText(lines(msg("a1", null, "user"), msg("a2", "a1", "assistant")), SRC);
    expect(t.header).toBeNull();
    expect(t.version).toBeNull();
    expect(t.entries).toHaveLength(2);
    expect(t.issues.map((i) => [i.code, i.line, i.severity])).toEqual([["missing-header", 1, "error"]]);
    expect(branchIds(t)).toEqual(["a1", "a2"]);
  });

  it("a header without string id does not count; a second header is flagged", () => {
    const bad = parseTranscriptText(lines('{"type":"session","version":3}', msg("a1", null, "user")), SRC);
    expect(codes(bad)).toContain("missing-header");
    const twice = parseTranscriptText(lines(HEADER, msg("a1", null, "user"), HEADER), SRC);
    expect(twice.header?.id).toBe("sess-1");
    expect(twice.issues.map((i) => [i.code, i.line])).toEqual([["extra-header", 3]]);
    expect(branchIds(twice)).toEqual(["a1"]);
  });

  it("keeps unknown entry types and unknown fields as opaque entries", () => {
    const weird = JSON.stringify({
      type: "future_thing",
      id: "f1",
      parentId: "a1",
      timestamp: "x",
      payload: { deep: [1] },
    });
    const noType = JSON.stringify({ id: "n1", parentId: "f1" });
    const t = parseTranscriptText(lines(HEADER, msg("a1", null, "user"), weird, noType), SRC);
    expect(t.entries[2]?.type).toBe("future_thing");
    expect(t.entries[2]?.raw.payload).toEqual({ deep: [1] });
    expect(t.entries[3]?.type).toBe("");
    expect(t.issues.map((i) => [i.code, i.line])).toEqual([["missing-type", 4]]);
    expect(branchIds(t)).toEqual(["a1", "f1", "n1"]);
  });

  it("reports a missing parent on the branch (error) and off the branch (warning)", () => {
    const t = parseTranscriptText(
      lines(
        HEADER,
        msg("a1", null, "user"),
        msg("x1", "ghost-1", "assistant"),
        msg("a2", "ghost-2", "assistant"),
      ),
      SRC,
    );
    expect(branchIds(t)).toEqual(["a2"]);
    expect(t.issues.map((i) => [i.code, i.line, i.severity])).toEqual([
      ["missing-parent", 3, "warning"],
      ["missing-parent", 4, "error"],
    ]);
  });

  it("reports a parent cycle and cuts the branch", () => {
    const t = parseTranscriptText(lines(HEADER, msg("c1", "c2", "user"), msg("c2", "c1", "assistant")), SRC);
    expect(codes(t)).toContain("parent-cycle");
    expect(branchIds(t)).toEqual(["c1", "c2"]);
  });

  it("reports duplicate ids; the later entry wins", () => {
    const t = parseTranscriptText(
      lines(
        HEADER,
        msg("a1", null, "user"),
        msg("d1", "a1", "assistant"),
        msg("d1", "a1", "assistant", { dup: 2 }),
        msg("a3", "d1", "user"),
      ),
      SRC,
    );
    expect(t.issues.map((i) => [i.code, i.line])).toEqual([["duplicate-id", 4]]);
    expect(branchIds(t)).toEqual(["a1", "d1", "a3"]);
    const d1 = t.entries[t.activeBranch[1] ?? -1];
    expect(d1?.raw.dup).toBe(2);
  });

  it("E1/E2: the leaf is the last entry in file order, branch points respected", () => {
    // a2 and b2 share parent a1 (branch point); the last appended entry (b2) is the leaf.
    const t = parseTranscriptText(
      lines(
        HEADER,
        msg("a1", null, "user"),
        msg("a2", "a1", "assistant"),
        msg("a3", "a2", "user"),
        msg("b2", "a1", "assistant"),
      ),
      SRC,
    );
    expect(branchIds(t)).toEqual(["a1", "b2"]);
  });

  it("E3: `leaf` rows move the leaf, side appends do not, unknown leaf targets are reported", () => {
    const leaf = (id: string, parentId: string, targetId: string | null) =>
      JSON.stringify({ type: "leaf", id, parentId, timestamp: "t", targetId });
    const side = JSON.stringify({
      type: "custom",
      customType: "openclaw.cache-ttl",
      data: { timestamp: 1, provider: "anthropic", modelId: "m" },
      id: "s1",
      parentId: "a3",
      timestamp: "t",
      appendMode: "side",
    });
    const t = parseTranscriptText(
      lines(
        HEADER,
        msg("a1", null, "user"),
        msg("a2", "a1", "assistant"),
        msg("a3", "a2", "user"),
        leaf("l1", "a3", "a1"),
        msg("b2", "a1", "assistant"),
        side,
        leaf("l2", "b2", "nope"),
      ),
      SRC,
    );
    expect(branchIds(t)).toEqual(["a1", "b2"]);
    expect(t.issues.map((i) => [i.code, i.line])).toEqual([["unknown-leaf-target", 8]]);
    const v = detectJsonlVersion(null, t);
    expect(v.family).toBe("2026.7");
    expect(v.reason).toContain("leaf");
  });

  it("an empty text is an empty transcript without issues", () => {
    const t = parseTranscriptText("", SRC);
    expect(t).toMatchObject({ header: null, entries: [], activeBranch: [], leafIndex: null, issues: [] });
  });

  it("whole-buffer and line-by-line decoding give the same transcript", () => {
    const text = `\uFEFF${HEADER}\r\n\n${msg("字😀", null, "user")}\r\n{broken\n  \n${msg("a2", "字😀", "assistant")}\n{"trunc`;
    const bytes = Buffer.from(text, "utf8");
    const whole = parseTranscriptBytes(bytes, SRC);
    const byLine = parseTranscriptBytes(bytes, SRC, { wholeDecodeMaxBytes: 0 });
    expect(byLine).toEqual(whole);
    expect(parseTranscriptText(text, SRC)).toEqual(whole);
    expect(whole.entries.map((e) => [e.id, e.line])).toEqual([
      ["sess-1", 1],
      ["字😀", 3],
      ["a2", 6],
    ]);
    expect(whole.issues.map((i) => [i.code, i.line])).toEqual([
      ["invalid-json", 4],
      ["truncated-line", 7],
    ]);
  });

  it("counts the physical lines it read: one per newline, blank, cut, big and CRLF lines included", () => {
    const long = JSON.stringify({
      type: "message",
      id: "t1",
      parentId: null,
      message: { role: "toolResult", content: [{ type: "text", text: "x\\n".repeat(3000) }] },
    });
    const big = msg("b".repeat(70_000), null, "user");
    const texts = [
      "",
      "\n",
      "\n\n\n",
      `\uFEFF${HEADER}\r\n\n${msg("a", null, "user")}\r\n{broken\n  \n`,
      `${HEADER}\n${long}\n\n${big}\n${long}\r\n\n`,
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text, "utf8");
      const newlines = text.split("\n").length - 1;
      for (const opts of [{}, { wholeDecodeMaxBytes: 0 }, { stepBytes: 7 }]) {
        expect({ text: text.slice(0, 40), lines: parseTranscriptLines(bytes, SRC, opts).lines }).toEqual({
          text: text.slice(0, 40),
          lines: newlines,
        });
      }
    }
  });

  it("handles multi-byte UTF-8 (CJK, astral) across lines", () => {
    const t = parseTranscriptText(lines(HEADER, msg("字😀", null, "user")), SRC);
    expect(t.entries[1]?.id).toBe("字😀");
  });
});

describe("a transcript file read through the production bytes path", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clawscope-jsonl-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a file with a BOM", () => {
    const file = path.join(dir, "x.jsonl");
    writeFileSync(file, `\uFEFF${lines(HEADER, msg("a1", null, "user"))}`);
    const t = parseTranscriptBytes(readFileSync(file), "x.jsonl");
    expect(t.issues).toEqual([]);
    expect(t.header?.id).toBe("sess-1");
  });
});

describe("era detection", () => {
  it("maps app versions to rule families", () => {
    expect(familyFromAppVersion("2026.9.6")).toBe("2026.9");
    expect(familyFromAppVersion("2026.7.2-beta.1")).toBe("2026.7");
    expect(familyFromAppVersion("2026.7.1")).toBe("2026.7");
    expect(familyFromAppVersion("2026.3.2")).toBe("2026.3");
    expect(familyFromAppVersion("2025.12.1")).toBe("2026.3");
    expect(familyFromAppVersion("2027.1.0")).toBe("2026.9");
    expect(familyFromAppVersion("garbage")).toBe("2026.9");
  });

  it("JSONL without E3 signals is 2026.3; report hashes / currentTurn / listChars 0 make it 2026.7", () => {
    const plain = parseTranscriptText(lines(HEADER, msg("a1", null, "user")), SRC);
    const e1 = detectJsonlVersion({ systemPromptReport: { tools: { listChars: 1926 } } }, plain);
    expect(e1.family).toBe("2026.3");
    expect(e1.reason).toContain("no bootstrapTotalMaxChars");
    const e2 = detectJsonlVersion({ systemPromptReport: { bootstrapTotalMaxChars: 150000 } }, plain);
    expect(e2.family).toBe("2026.3");
    expect(e2.reason).toContain("150000");
    expect(
      detectJsonlVersion({ systemPromptReport: { currentTurn: { promptChars: 3 } } }, plain).family,
    ).toBe("2026.7");
    expect(detectJsonlVersion({ systemPromptReport: { tools: { listChars: 0 } } }, null).family).toBe(
      "2026.7",
    );
    expect(detectJsonlVersion({ systemPromptReport: { systemPrompt: { hash: "ab" } } }, null).family).toBe(
      "2026.7",
    );
    expect(detectJsonlVersion(null, null).family).toBe("2026.3");
  });

  it("E5 transcript signals (header v4, reset rows) give 2026.9", () => {
    const v4 = parseTranscriptText(
      lines(HEADER.replace('"version":3', '"version":4'), msg("a1", null, "user")),
      SRC,
    );
    expect(detectJsonlVersion(null, v4).family).toBe("2026.9");
    const reset = parseTranscriptText(
      lines(
        HEADER,
        msg("a1", null, "user"),
        JSON.stringify({ type: "reset", id: "r1", parentId: "a1", timestamp: "t", reason: "new" }),
      ),
      SRC,
    );
    expect(detectJsonlVersion(null, reset).family).toBe("2026.9");
  });
});
