// server/model/message-blocks.ts: the one content walker (spec transcript.md §2 "Content blocks").

import { describe, expect, it } from "vitest";
import { blocksOf } from "../../server/model/message-blocks.ts";
import { isObject, type JsonValue } from "../../shared/json.ts";
import { transcriptFromJsonl } from "../helpers/transcript.ts";

describe("blocksOf", () => {
  const content: JsonValue[] = [
    { type: "text", text: "hello" },
    { type: "text", text: { not: "a string" } },
    { type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
    { type: "redacted_thinking", data: "opaque" },
    { type: "toolCall", id: "call_1", name: "exec", arguments: { cmd: "ls -la" } },
    { type: "toolCall", id: "call_2", name: "noop" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "audio", data: "x" },
    "a bare string",
    42,
  ];

  it("classifies by `type` and gives string payloads as they are", () => {
    const b = blocksOf(content);
    expect(b.map((x) => x.kind)).toEqual([
      "text",
      "text",
      "thinking",
      "redactedThinking",
      "toolCall",
      "toolCall",
      "image",
      "other",
      "other",
      "other",
    ]);
    const [t, badText, think, red, call, bareCall, , audio, bare] = b;
    expect(t?.kind === "text" && t.text).toBe("hello");
    expect(badText?.kind === "text" && badText.text).toBeUndefined();
    expect(think?.kind === "thinking" && [think.text, think.signature]).toEqual(["hmm", "sig"]);
    expect(red?.kind === "redactedThinking" && red.data).toBe("opaque");
    expect(call?.kind === "toolCall" && [call.id, call.name, call.argsJson]).toEqual([
      "call_1",
      "exec",
      '{"cmd":"ls -la"}',
    ]);
    // Absent arguments serialise as `{}` (OpenClaw's `arguments ?? {}`).
    expect(bareCall?.kind === "toolCall" && bareCall.argsJson).toBe("{}");
    expect(audio?.kind === "other" && audio.type).toBe("audio");
    expect(bare?.kind === "other" && bare.raw).toBe("a bare string");
  });

  it("jsonLength is the block's JSON length, computed on first read", () => {
    const b = blocksOf(content);
    content.forEach((item, i) => {
      expect(b[i]?.jsonLength, String(i)).toBe(JSON.stringify(item).length);
    });
  });

  it("a string content is one text part; anything else that is not an array has no blocks", () => {
    const [only, ...rest] = blocksOf("just text");
    expect(rest).toEqual([]);
    expect(only?.kind === "text" && [only.block, only.text]).toEqual([null, "just text"]);
    expect(blocksOf(undefined)).toEqual([]);
    expect(blocksOf({ type: "text", text: "x" })).toEqual([]);
  });

  it("decodes an array once (same records on the next call)", () => {
    expect(blocksOf(content)).toBe(blocksOf(content));
    expect(blocksOf([...content])).not.toBe(blocksOf(content));
  });

  it("keeps a cut text lazy: its placeholder and its LazyText, never the text read back", () => {
    // A long pure-ASCII tool result is cut out of memory by the production parser (sources/cut-long-strings.ts).
    const long = "x".repeat(200_000);
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z" },
      {
        type: "message",
        id: "m1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: {
          role: "toolResult",
          toolCallId: "c1",
          toolName: "read",
          content: [{ type: "text", text: long }],
        },
      },
    ];
    const t = transcriptFromJsonl(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const message = t.entries[1]?.raw.message;
    const [block] = blocksOf(isObject(message) ? message.content : undefined);
    expect(block?.kind).toBe("text");
    if (block?.kind !== "text") return;
    expect(block.lazy).toBeDefined();
    expect(block.text?.length).toBe(long.length);
    expect(block.text).not.toBe(long); // the same-length placeholder, not the text
    expect(block.lazy?.head).toBe(long.slice(0, block.lazy?.head.length));
  });
});
