// On-screen redaction (web/ui/redact.ts): the same masking rules as the redacted export
// (server/export/redact.ts), checked on the real context maps of the bundled demo state dir (OpenClaw 2026.9.6
// SQLite + 2026.7.1 JSONL captures): every tile name equals the export's redacted name, and no message text,
// tool output or path survives. Plus the single-string rules.

import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactContextMap } from "../../../server/export/redact.ts";
import { createSessionService, type SessionService } from "../../../server/service/session-service.ts";
import type { MapNode } from "../../../shared/context-map.ts";
import {
  agentId,
  basename,
  hashId,
  mapId,
  mapName,
  REDACTED,
  sentence,
  sessionKey,
  toolName,
} from "../../../shared/redact-rules.ts";
import { HIDDEN_NOTICE, makeRedactor, redactFromParams } from "../../../web/ui/redact.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "../../../server/demo/state");

function flatten(n: MapNode, out: MapNode[] = []): MapNode[] {
  out.push(n);
  for (const c of n.children ?? []) flatten(c, out);
  return out;
}

describe("redact: single strings", () => {
  it("hashes stably and opaquely, with the export's hash (SHA-256 of the UTF-8 bytes, first 8 hex digits)", () => {
    expect(hashId("abc")).toBe(hashId("abc"));
    expect(hashId("abc")).not.toBe(hashId("abd"));
    // The published SHA-256 test vectors of "" and "abc".
    expect(hashId("")).toBe("#e3b0c442");
    expect(hashId("abc")).toBe("#ba7816bf");
    for (const v of ["bc255ab3-b341-464a-a811-4d1115e16ed8", "toolu_01XyZ", "ünï 🎉", "agent:main:main"])
      expect(hashId(v), v).toBe(`#${createHash("sha256").update(v).digest("hex").slice(0, 8)}`);
    // On screen, an id shows the hash the redacted export prints.
    expect(makeRedactor(true).id("bc255ab3-b341-464a-a811-4d1115e16ed8")).toBe(
      hashId("bc255ab3-b341-464a-a811-4d1115e16ed8"),
    );
  });

  it("map ids keep their structure and hash their data segments (the tooltip's id)", () => {
    expect(mapId("conversation/tool-results/exec/toolu_01XyZ")).toBe(
      `conversation/tool-results/${hashId("exec").slice(1)}/${hashId("toolu_01XyZ").slice(1)}`,
    );
    expect(mapId("workspace/project-context-frame")).toBe("workspace/project-context-frame");
    expect(makeRedactor(true).mapId("conversation/user/abc")).not.toContain("abc");
    expect(makeRedactor(false).mapId("conversation/user/abc")).toBe("conversation/user/abc");
  });

  it("keeps session-key structure, main and keywords; hashes free parts", () => {
    expect(sessionKey("agent:main:main")).toBe("agent:main:main");
    const k = sessionKey("agent:research:telegram:dm:12345");
    expect(k).toMatch(/^agent:agent-[0-9a-f]{8}:[0-9a-f]{6}:dm:[0-9a-f]{6}$/);
    expect(k).not.toContain("research");
    expect(k).not.toContain("12345");
    expect(agentId("main")).toBe("main");
    expect(agentId("legacy")).not.toContain("legacy");
  });

  it("keeps bootstrap basenames and tool names, nothing of a path", () => {
    expect(basename("/home/user/.openclaw/workspace/AGENTS.md")).toBe("AGENTS.md");
    expect(basename("C:\\Users\\x\\ws\\SOUL.md")).toBe("SOUL.md");
    expect(basename("/tmp/<script>")).toBe(REDACTED);
    expect(toolName("apply_patch")).toBe("apply_patch");
    expect(toolName("rm -rf /")).toMatch(/^tool-[0-9a-f]{8}$/);
  });

  it("masks ids and paths inside clawscope sentences, keeps the rest", () => {
    const s = sentence(
      "text length of context message #5 (transcript entry 7f0afe06-29d5-4a72-814a-5434d78c8fa6) in /home/user/.openclaw/agents/main/x.jsonl, call toolu_mock_0001_74cb9525",
    );
    expect(s).toContain("text length of context message #5 (transcript entry #");
    expect(s).not.toContain("7f0afe06");
    expect(s).not.toContain("/home/user");
    expect(s).toContain("…/x.jsonl");
    expect(s).not.toContain("toolu_mock_0001_74cb9525");
  });

  it("is the identity when off, masks when on", () => {
    const off = makeRedactor(false);
    const on = makeRedactor(true);
    const text = "Turn 1 request. {{mock: read=docs/big-a.txt}}";
    expect(off.text(text)).toBe(text);
    expect(off.path("/home/user/.openclaw")).toBe("/home/user/.openclaw");
    expect(on.text(text)).toBe(REDACTED);
    expect(on.block(text)).toBe(HIDDEN_NOTICE);
    expect(on.path("/home/user/.openclaw")).toBe(REDACTED);
    expect(on.file("/ws/MEMORY.md")).toBe("MEMORY.md");
    expect(on.id("4b707e2a-5983-497f-a2d7-d3ea6b3a5e84")).toBe(
      hashId("4b707e2a-5983-497f-a2d7-d3ea6b3a5e84"),
    );
    expect(redactFromParams(new URLSearchParams("redact=1"))).toBe(true);
    expect(redactFromParams(new URLSearchParams("tab=map"))).toBe(false);
  });

  it("names message leaves only by their number", () => {
    expect(mapName("#5 Turn 2 request. {{mock: exec=node", "conversation/user/7f0afe06")).toBe(
      `#5 ${REDACTED}`,
    );
    expect(mapName('read {"path":"docs/big-a.txt"}', "conversation/assistant/tool-calls/toolu_1")).toBe(
      `read ${REDACTED}`,
    );
    expect(mapName("Tool results", "conversation/tool-results")).toBe("Tool results");
  });
});

describe("redact: demo context maps agree with the redacted export", () => {
  let service: SessionService;
  beforeAll(() => {
    service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
  });
  afterAll(() => service.close?.());

  it("every tile name equals the export's; no original message/tool text survives", () => {
    const { sessions } = service.listSessions();
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    for (const s of sessions) {
      const r = service.contextMap(s.agentId, s.sessionId);
      if ("error" in r) throw new Error(r.error.message);
      const dto = r.value;
      const web = flatten(makeRedactor(true).mapTree(dto.root));
      const exported = flatten(redactContextMap(dto).root);
      const original = flatten(dto.root);
      expect(web.length).toBe(original.length);
      expect(web.map((n) => n.name)).toEqual(exported.map((n) => n.name));
      // Sizes are untouched.
      expect(web.map((n) => n.chars)).toEqual(original.map((n) => n.chars));
      const conv = original.filter((n) => n.id.split("/").length >= 3 && n.id.startsWith("conversation/"));
      expect(conv.length, `${s.sessionId}: message leaves`).toBeGreaterThan(5);
      const webById = new Map(web.map((n) => [n.id, n]));
      for (const n of conv) {
        const masked = webById.get(n.id);
        // The text after the leading "#N " / tool name is gone.
        const rest = n.name.replace(/^#\d+ /, "").replace(/^[A-Za-z0-9_.:-]+ /, "");
        if (rest.length >= 8) expect(masked?.name ?? "").not.toContain(rest);
        expect(masked?.source ?? "").not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      }
    }
  });
});
