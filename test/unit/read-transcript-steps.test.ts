// Issue 9: the JSONL parser decodes in newline-aligned steps and drops base64 image payloads. Every step
// size must give the transcript a single whole-buffer decode gives (same lines, numbers, issues), and an
// image keeps its block and exact `data.length` while its bytes are not kept.

import { describe, expect, it } from "vitest";
import { placeholderOfLength } from "../../server/sources/elide-image-data.ts";
import { parseTranscriptBytes } from "../../server/sources/jsonl/read-transcript.ts";

const IMG = "iVBORw0KGgo".repeat(400); // 4,400 chars of base64-looking payload

const TEXT = [
  '\uFEFF{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z"}',
  '{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"héllo 中文 😀"}}\r',
  "",
  "{broken",
  '{"type":"message","id":"b","parentId":"a","message":{"role":"toolResult","toolCallId":"t","content":[' +
    `{"type":"text","text":"see image"},{"type":"image","data":"${IMG}","mimeType":"image/png"}]}}`,
  '{"type":"message","id":"c","parentId":"b","message":{"role":"user","content":[{"type":"image","data":"c21hbGw=","mimeType":"image/png"}]}}',
  "[1,2]",
  '{"type":"custom","id":"d","parentId":"c"',
].join("\n");

describe("parseTranscriptBytes steps", () => {
  const bytes = Buffer.from(TEXT, "utf8");
  const whole = parseTranscriptBytes(bytes, "t.jsonl", { stepBytes: bytes.length + 10 });

  it("every step size gives the whole-buffer transcript", () => {
    expect(whole.entries).toHaveLength(4);
    expect(whole.issues.map((i) => [i.line, i.code])).toEqual([
      [4, "invalid-json"],
      [7, "not-an-object"],
      [8, "truncated-line"],
    ]);
    for (const step of [1, 2, 3, 7, 16, 50, 100, 333, 1000]) {
      expect(parseTranscriptBytes(bytes, "t.jsonl", { stepBytes: step }), `step ${step}`).toEqual(whole);
    }
    expect(parseTranscriptBytes(bytes, "t.jsonl", { wholeDecodeMaxBytes: 0 })).toEqual(whole);
  });

  it("keeps line numbers and multi-byte text across step boundaries", () => {
    const user = whole.entries.find((e) => e.id === "a");
    expect(user?.line).toBe(2);
    expect(JSON.stringify(user?.raw.message)).toContain("héllo 中文 😀");
    expect(whole.entries.find((e) => e.id === "c")?.line).toBe(6);
  });

  it("drops large image payloads but keeps the block, its mimeType and the exact data length", () => {
    const tr = whole.entries.find((e) => e.id === "b")?.raw.message;
    const blocks = tr && typeof tr === "object" && !Array.isArray(tr) ? tr.content : undefined;
    const image = Array.isArray(blocks) ? blocks[1] : undefined;
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const data = image && typeof image === "object" && !Array.isArray(image) ? image.data : undefined;
    expect(typeof data === "string" ? data.length : -1).toBe(IMG.length);
    expect(data).not.toBe(IMG);
    expect(data).toBe(placeholderOfLength(IMG.length));
  });

  it("leaves small image payloads as stored", () => {
    expect(JSON.stringify(whole.entries.find((e) => e.id === "c")?.raw)).toContain('"data":"c21hbGw="');
  });
});

describe("long image lines", () => {
  const big = "QUJD".repeat(20_000); // 80,000 chars: long enough to be cut out before parsing
  const lines = [
    '{"type":"session","version":3,"id":"s1"}',
    `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"pic"},{"type":"image","data":"${big}","mimeType":"image/png"}]}}`,
    // a long base64 `data` that is not an image block is kept exactly as stored
    `{"type":"custom","id":"b","parentId":"a","customType":"x","data":"${big}","note":"image"}`,
  ];
  const bytes = Buffer.from(`${lines.join("\n")}\n`, "utf8");

  it("parses cut image lines to the same transcript for every step layout", () => {
    const base = parseTranscriptBytes(bytes, "t.jsonl");
    for (const opts of [
      { stepBytes: 10, bigLineBytes: 10 },
      { bigLineBytes: 1 << 30 },
      { wholeDecodeMaxBytes: 0 },
    ]) {
      expect(parseTranscriptBytes(bytes, "t.jsonl", opts)).toEqual(base);
    }
    const image = JSON.stringify(base.entries[1]?.raw);
    expect(image).toContain(`"data":"${placeholderOfLength(big.length)}"`);
    expect(image).not.toContain("QUJD");
    expect(base.entries[2]?.raw.data).toBe(big);
  });
});
