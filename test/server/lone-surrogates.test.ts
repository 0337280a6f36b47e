// A tool-call id holding a lone UTF-16 surrogate (JSON allows `"\ud800"`; OpenClaw stores what the provider
// sent) made `encodeURIComponent` throw "URI malformed": a 500 on the map and the export, a stack from the CLI
// (issue 20). Ids are made well-formed for URLs; two ids differing only in their lone surrogates stay distinct.

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { idSegment } from "../../server/reports/context-map/leaf-spec.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const SESSION = "0a1b2c3d-0000-4000-8000-00000000d800";
let stateDir: string;

beforeAll(() => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), "clawscope-surrogate-"));
  const b = new TranscriptBuilder();
  b.user("read both files");
  b.assistant({
    content: [
      { type: "toolCall", id: "call_\ud800a", name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: "call_\udc00a", name: "read", arguments: { path: "b" } },
    ],
    stopReason: "toolUse",
  });
  b.toolResult("call_\ud800a", "read", "content of a");
  b.toolResult("call_\udc00a", "read", "content of b");
  b.assistant({ text: "done" });
  b.writeJsonlStateDir(stateDir, { sessionId: SESSION });
});

afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe("lone surrogates in ids (issue 20)", () => {
  it("idSegment is well-formed for any string and keeps lone surrogates apart", () => {
    const a = idSegment("call_\ud800a");
    const b = idSegment("call_\udc00a");
    expect(a).not.toBe(b);
    for (const s of [a, b, idSegment("\ud83e"), idSegment("ok 🦞 \udfff")])
      expect(decodeURIComponent(s)).toBeTypeOf("string");
    // Well-formed text keeps its old segment (ids in saved links do not change).
    expect(idSegment("call 🦞/x")).toBe(encodeURIComponent("call 🦞/x"));
  });

  it("the map, export and issue Markdown answer 200 with both tool results", async () => {
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    const app = createApp({ service, boundHost: "127.0.0.1", port: null });
    const base = `/api/sessions/main/${SESSION}`;
    const map = await app.request(`${base}/map`);
    expect(map.status).toBe(200);
    const ids = JSON.stringify(await map.json());
    expect(ids).toContain(idSegment("call_\ud800a"));
    expect(ids).toContain(idSegment("call_\udc00a"));
    for (const part of ["export", "export?redact=0", "issue.md"])
      expect((await app.request(`${base}/${part}`)).status, part).toBe(200);
    service.close();
  });
});
