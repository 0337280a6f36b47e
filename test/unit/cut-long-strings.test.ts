// Issue 9: long tool-result texts and image payloads are cut out of the stored bytes before parsing
// (server/sources/cut-long-strings.ts) and read back on demand (server/model/lazy-text.ts). Every number must
// stay exact (same-length placeholder of an ASCII text) and every read-back must give the stored text.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blockText, blockTextHead, HEAD_CHARS, lazyTextOf } from "../../server/model/lazy-text.ts";
import { weightedChars2026_7 } from "../../server/openclaw/estimate.ts";
import { joinToolResultText } from "../../server/openclaw/pruning/soft-trim.ts";
import { CUT_MIN_VALUE_BYTES, findCuts } from "../../server/sources/cut-long-strings.ts";
import { parseTranscriptBytes } from "../../server/sources/jsonl/read-transcript.ts";
import { loadJsonlIncremental } from "../../server/sources/jsonl/tail.ts";
import { isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";

const LONG = `line one "quoted" \\ back\tslash\n${"x".repeat(CUT_MIN_VALUE_BYTES)}\nend`;

function toolResultLine(
  id: string,
  parent: string | null,
  content: JsonValue,
  extra: JsonObject = {},
): string {
  return JSON.stringify({
    type: "message",
    id,
    parentId: parent,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "toolResult", toolCallId: `call-${id}`, toolName: "exec", content, ...extra },
  });
}

const HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: "s",
  timestamp: "2026-01-01T00:00:00.000Z",
});

function firstBlock(raw: JsonObject | undefined, i = 0): JsonObject {
  const m = raw?.message;
  const c = isObject(m) ? m.content : undefined;
  const b = Array.isArray(c) ? c[i] : undefined;
  if (!isObject(b)) throw new Error("no block");
  return b;
}

describe("findCuts", () => {
  it("cuts long ASCII tool-result texts (escapes counted as one char) and image data", () => {
    const line = Buffer.from(
      toolResultLine("a", null, [
        { type: "text", text: LONG },
        { type: "image", data: "QUJD".repeat(400), mimeType: "image/png" },
      ]),
    );
    const cuts = findCuts(line);
    expect(cuts.map((c) => [c.kind, c.chars])).toEqual([
      ["text", LONG.length],
      ["image", 1600],
    ]);
  });

  it("escape-dense texts (printed JSON, paths, trailing backslashes): the value's exact end and length", () => {
    // a seeded walk over the characters JSON escapes, so quotes, backslashes and their runs land everywhere
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const alphabet = ['"', "\\", "a", "/", "\n", "\t", "{", ":"];
    for (let round = 0; round < 60; round++) {
      let text = "";
      const n = CUT_MIN_VALUE_BYTES + (next() % 600);
      for (let i = 0; i < n; i++) text += alphabet[next() % alphabet.length];
      if (round % 2 === 0) text += "\\"; // a backslash right before the closing quote
      const line = Buffer.from(
        toolResultLine("a", null, [
          { type: "text", text },
          { type: "text", text: "tail" },
        ]),
      );
      const cuts = findCuts(line);
      expect(cuts.length, `round ${round}`).toBe(1);
      const cut = cuts[0];
      if (!cut) throw new Error("no cut");
      expect(cut.chars).toBe(text.length);
      expect(JSON.parse(`"${line.subarray(cut.start, cut.end).toString("latin1")}"`)).toBe(text);
    }
  });

  it("leaves short, non-ASCII and \\u-escaped texts, texts of other roles and escaped keys alone", () => {
    const nonAscii = `${"x".repeat(CUT_MIN_VALUE_BYTES)} 中文`;
    const control = `${"x".repeat(CUT_MIN_VALUE_BYTES)}\u0001`; // JSON.stringify writes \u0001
    for (const text of ["short", nonAscii, control]) {
      expect(
        findCuts(Buffer.from(toolResultLine("a", null, [{ type: "text", text }]))),
        text.slice(-8),
      ).toEqual([]);
    }
    const user = JSON.stringify({
      type: "message",
      message: { role: "user", content: [{ type: "text", text: LONG }] },
    });
    expect(findCuts(Buffer.from(user))).toEqual([]);
    // `"text":"` inside a text (escaped) is not a key: only the outer value is cut, with its decoded length
    const nested = JSON.stringify({ text: "y".repeat(CUT_MIN_VALUE_BYTES) });
    const cuts = findCuts(Buffer.from(toolResultLine("a", null, [{ type: "text", text: nested }])));
    expect(cuts.map((c) => c.chars)).toEqual([nested.length]);
  });
});

describe("only valid JSON string bodies are cut", () => {
  it("a raw control character or an escape JSON rejects leaves the line to JSON.parse (reported, as OpenClaw would)", () => {
    const good = toolResultLine("a", null, [{ type: "text", text: LONG }]);
    // a raw TAB inside the text (JSON.stringify writes \t) and an invalid escape \x
    for (const bad of [good.replace("back\\tslash", "back\tslash"), good.replace("\\tslash", "\\xslash")]) {
      expect(bad).not.toBe(good);
      expect(findCuts(Buffer.from(bad))).toEqual([]);
      const t = parseTranscriptBytes(Buffer.from(`${HEADER}\n${bad}\n`), "bad.jsonl");
      expect(t.issues.map((i) => i.code)).toEqual(["invalid-json"]);
    }
    // control bytes at every alignment of the 4-byte check
    for (let at = 0; at < 8; at++) {
      // a raw BEL byte (JSON.stringify would write \u0007) at a different offset each time
      const text = `${"x".repeat(CUT_MIN_VALUE_BYTES + at)}\u0007${"y".repeat(9)}`;
      const raw = toolResultLine("a", null, [{ type: "text", text: "PLACEHOLDER" }]).replace(
        "PLACEHOLDER",
        text,
      );
      expect(raw).toContain("\u0007");
      expect(findCuts(Buffer.from(raw)), `offset ${at}`).toEqual([]);
      // the same text without the control byte is cut
      expect(findCuts(Buffer.from(raw.replace("\u0007", "z")))).toHaveLength(1);
    }
  });
});

describe("a stored string that looks like a marker", () => {
  it("is never mistaken for one: the line is parsed as stored", () => {
    for (const content of [
      [
        { type: "text", text: "@@clawscope-cut-0@@" },
        { type: "text", text: LONG },
      ],
      [{ type: "text", text: "@@clawscope-cut-0@@" }],
    ]) {
      const extra: JsonObject = content.length === 1 ? { details: { text: LONG } } : {};
      const line = toolResultLine("a", null, content, extra);
      expect(findCuts(Buffer.from(line))).toEqual([]);
      const t = parseTranscriptBytes(Buffer.from(`${HEADER}\n${line}\n`), "m.jsonl");
      expect(t.entries[1]?.raw).toEqual(JSON.parse(line));
    }
  });
});

describe("parse with cut texts", () => {
  const lines = [
    HEADER,
    toolResultLine("a", null, [
      { type: "text", text: LONG },
      { type: "text", text: `second ${"z".repeat(2000)}` },
    ]),
    // a long `text` outside a content block: the marker would land in `details`, so the line is parsed whole
    toolResultLine("b", "a", [{ type: "text", text: "ok" }], { details: { text: LONG } }),
  ];
  const bytes = Buffer.from(`${lines.join("\n")}\n`);
  const t = parseTranscriptBytes(bytes, "t.jsonl");

  it("the kept head is the text's first HEAD_CHARS chars, an escape on the head's byte edge included", () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = `${"p".repeat(pad)}${'\n"\\'.repeat(400)}${"q".repeat(1000)}`;
      const parsed = parseTranscriptBytes(
        Buffer.from(`${toolResultLine("h", null, [{ type: "text", text }])}\n`),
        "h.jsonl",
      );
      const block = firstBlock(parsed.entries.find((e) => e.id === "h")?.raw);
      expect(lazyTextOf(block)).toBeDefined();
      expect({ pad, head: blockTextHead(block, HEAD_CHARS) }).toEqual({
        pad,
        head: text.slice(0, HEAD_CHARS),
      });
    }
  });

  it("keeps exact lengths and estimates, and reads the real text back", () => {
    const a = t.entries.find((e) => e.id === "a")?.raw;
    const b0 = firstBlock(a, 0);
    const b1 = firstBlock(a, 1);
    expect(lazyTextOf(b0)).toBeDefined();
    expect(b0.text).not.toBe(LONG);
    expect(typeof b0.text === "string" ? b0.text.length : -1).toBe(LONG.length);
    expect(blockText(b0)).toBe(LONG);
    expect(blockText(b1)).toBe(`second ${"z".repeat(2000)}`);
    expect(blockTextHead(b0, 20)).toBe(LONG.slice(0, 20));
    const content = isObject(a?.message) ? a.message.content : undefined;
    const placeholder = joinToolResultText(content, true);
    const real = joinToolResultText(content, true, true);
    expect(real.text).toBe(`${LONG}\nsecond ${"z".repeat(2000)}`);
    expect(placeholder.text.length).toBe(real.text.length);
    expect(weightedChars2026_7(placeholder.text)).toBe(weightedChars2026_7(real.text));
  });

  it("falls back to the stored line when a cut value is not in a text block", () => {
    const b = t.entries.find((e) => e.id === "b")?.raw;
    const details = isObject(b?.message) ? b.message.details : undefined;
    expect(isObject(details) ? details.text : undefined).toBe(LONG);
    expect(t.issues).toEqual([]);
  });
});

describe("JSONL file reads", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-cut-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads in steps (any step size gives the whole parse) and reads cut texts back from the file", () => {
    const file = path.join(dir, "s.jsonl");
    const body = [HEADER];
    for (let i = 0; i < 30; i++) {
      body.push(
        toolResultLine(`e${i}`, i === 0 ? null : `e${i - 1}`, [{ type: "text", text: `${i} ${LONG}` }]),
      );
    }
    fs.writeFileSync(file, `${body.join("\n")}\n`);
    const whole = parseTranscriptBytes(fs.readFileSync(file), "s.jsonl");
    for (const stepBytes of [64, 1000, 5000, 1 << 20]) {
      const load = loadJsonlIncremental(file, "s.jsonl", null, { stepBytes });
      expect(load.transcript, `step ${stepBytes}`).toEqual(whole);
      const last = firstBlock(load.transcript.entries[30]?.raw);
      expect(blockText(last)).toBe(`29 ${LONG}`);
    }
  });

  it("a text whose file was replaced reads back as a same-length notice, never as other text", () => {
    const file = path.join(dir, "r.jsonl");
    fs.writeFileSync(file, `${HEADER}\n${toolResultLine("a", null, [{ type: "text", text: LONG }])}\n`);
    const load = loadJsonlIncremental(file, "r.jsonl", null);
    const block = firstBlock(load.transcript.entries[1]?.raw);
    fs.rmSync(file);
    fs.writeFileSync(
      file,
      `${HEADER}\n${toolResultLine("a", null, [{ type: "text", text: LONG.toUpperCase() }])}\n`,
    );
    const text = blockText(block);
    expect(text.length).toBe(LONG.length);
    expect(text).toContain("no longer readable");
  });
});
