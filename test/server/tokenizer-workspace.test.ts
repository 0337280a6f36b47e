// The Tokenizer size mode counts the workspace files' tiles on their injected text (issue 15): the text OpenClaw's
// bootstrap rules build from the file on disk (the truncation report's segments), counted only when its length
// is the report's injectedChars — the tile's chars. On the bundled demo (its workspace is beside its state), every
// file tile's count equals js-tiktoken's on that text; the project-context frame (no text) stays chars/4, so the
// Workspace files group is still named as estimated in part.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { afterAll, describe, expect, it } from "vitest";
import { readSystemPromptReport } from "../../server/model/system-prompt-report.ts";
import { injectedTextsOf, workspaceTokenTexts } from "../../server/reports/context-map/token-texts.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { createTokenCounter } from "../../server/tokens/tokenizer.ts";
import type { MapNode } from "../../shared/context-map.ts";
import { isObject } from "../../shared/json.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");
const counter = createTokenCounter({ mode: "inline" });
const service = createSessionService({
  stateDir: DEMO,
  demo: true,
  reason: "test",
  hostTimeZone: "UTC",
  tokenCounter: counter,
});
afterAll(async () => {
  await counter.close();
  service.close?.();
});
const reference = new Tiktoken(cl100k);

function leavesOf(n: MapNode, out: MapNode[] = []): MapNode[] {
  if (!n.children?.length) out.push(n);
  else for (const c of n.children) leavesOf(c, out);
  return out;
}

const main = service.listSessions().sessions.find((s) => s.sessionKey === "agent:main:main");
if (!main) throw new Error("no demo main session");

describe("Tokenizer mode: workspace files", () => {
  it("counts each file tile on its injected text; the frame stays chars/4 and is named", async () => {
    service.contextMap(main.agentId, main.sessionId);
    await counter.idle();
    const map = service.contextMap(main.agentId, main.sessionId);
    const trunc = service.truncation(main.agentId, main.sessionId, {});
    if (!map.ok || !trunc.ok) throw new Error("no map / truncation");
    expect(map.value.tokenizer.state).toBe("ready");
    const texts = injectedTextsOf(trunc.value);
    const files = leavesOf(map.value.root).filter(
      (l) => l.id.startsWith("workspace/") && l.id !== "workspace/project-context-frame",
    );
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      const text = texts.get(f.name);
      expect(text?.length, f.id).toBe(f.chars);
      expect(f.tiktokenTokens, f.id).toBe(reference.encode(text ?? "", [], []).length);
      expect(f.tiktokenTokens, f.id).not.toBe(f.estTokens);
    }
    const frame = leavesOf(map.value.root).find((l) => l.id === "workspace/project-context-frame");
    expect(frame?.tiktokenTokens ?? null).toBeNull();
    expect(map.value.tokenizer.estimatedGroups).toContain("Workspace files");
    expect(map.value.tokenizer.estimatedGroups).not.toContain("Conversation");
  });

  it("never counts a text whose length is not the report's injectedChars (a file edited since the run)", () => {
    const loaded = service.load(main.agentId, main.sessionId);
    if (!loaded.ok || !isObject(loaded.value.entry?.systemPromptReport)) throw new Error("no report");
    const report = readSystemPromptReport(loaded.value.entry.systemPromptReport);
    const first = report.files.find((f) => !f.nativeUnverified && f.injectedChars > 0);
    if (!first) throw new Error("no file");
    const exact = "x".repeat(first.injectedChars);
    expect(workspaceTokenTexts(report, new Map([[first.name, exact]]))).toEqual([
      { id: `workspace/${encodeURIComponent(first.name)}`, text: exact },
    ]);
    expect(workspaceTokenTexts(report, new Map([[first.name, `${exact}!`]]))).toEqual([]);
    expect(workspaceTokenTexts(report, undefined)).toEqual([]);
    expect(workspaceTokenTexts(null, new Map([[first.name, exact]]))).toEqual([]);
  });
});
