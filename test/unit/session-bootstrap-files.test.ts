// Which bootstrap files a session gets by its kind (OpenClaw filterBootstrapFilesForSession, per family:
// server/openclaw/bootstrap/session-files.ts), and the truncation view that lists them.

import { describe, expect, it } from "vitest";
import { bootstrapFileNames } from "../../server/openclaw/bootstrap/files-and-limits.ts";
import {
  chatTypeOfKey,
  isCronSessionKey,
  isSubagentSessionKey,
  sessionBootstrapFiles,
} from "../../server/openclaw/bootstrap/session-files.ts";
import { buildTruncationReport } from "../../server/reports/truncation/truncation-report.ts";

const files = (family: "2026.3" | "2026.7" | "2026.9", key: string | null, chatType: string | null = null) =>
  sessionBootstrapFiles(family, bootstrapFileNames(family), key, chatType);

describe("session kinds from the key", () => {
  it.each([
    ["agent:main:subagent:abc", true, false],
    ["subagent:abc", true, false],
    ["agent:ops:cron:nightly", false, true],
    ["agent:ops:cron:nightly:run:r1", false, true],
    ["agent:main:main", false, false],
    ["cron:nightly", false, false],
  ])("%s: sub-agent %s, cron %s", (key, subagent, cron) => {
    expect(isSubagentSessionKey(key)).toBe(subagent);
    expect(isCronSessionKey(key)).toBe(cron);
  });
  it.each([
    ["agent:main:telegram:group:-100123", "group"],
    ["agent:main:discord:acct:channel:42", "channel"],
    ["agent:main:telegram:direct:77", "direct"],
    ["agent:main:dm:77", "direct"],
    ["agent:main:group:team", "group"],
    ["agent:main:discord:guild-1:channel-2", "channel"],
    ["agent:main:12345@g.us", "group"],
    ["agent:main:main", "unknown"],
    // two shapes fit (canonical `group:dm:x` and legacy `group:…`): the canonical one is ambiguous, legacy wins
    ["agent:main:group:dm:x", "group"],
  ])("%s → %s", (key, type) => {
    expect(chatTypeOfKey(key)).toBe(type);
  });
});

describe("sessionBootstrapFiles", () => {
  it("2026.9 (8.1+): sub-agents AGENTS.md only; cron AGENTS/SOUL/IDENTITY/USER; no root MEMORY.md in groups", () => {
    expect(files("2026.9", "agent:main:subagent:x")).toEqual(["AGENTS.md"]);
    expect(files("2026.9", "agent:main:cron:job")).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "IDENTITY.md",
      "USER.md",
    ]);
    expect(files("2026.9", "agent:main:telegram:group:1")).not.toContain("MEMORY.md");
    expect(files("2026.9", "agent:main:main", "group")).not.toContain("MEMORY.md");
    expect(files("2026.9", "agent:main:main")).toEqual(bootstrapFileNames("2026.9"));
    expect(files("2026.9", null)).toEqual(bootstrapFileNames("2026.9"));
  });
  it("2026.7.1: sub-agents AGENTS + TOOLS; cron adds SOUL/IDENTITY/USER; MEMORY.md kept in groups", () => {
    expect(files("2026.7", "agent:main:subagent:x")).toEqual(["AGENTS.md", "TOOLS.md"]);
    expect(files("2026.7", "agent:main:cron:job")).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
    ]);
    expect(files("2026.7", "agent:main:telegram:group:1")).toContain("MEMORY.md");
  });
  it("2026.3.2: one minimal list for both", () => {
    expect(files("2026.3", "agent:main:subagent:x")).toEqual(files("2026.3", "agent:main:cron:job"));
    expect(files("2026.3", "agent:main:cron:job")).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
    ]);
  });
});

describe("truncation view of a sub-agent session without a stored report", () => {
  it("lists only the files OpenClaw gives it, and says why", () => {
    const workspace = {
      dir: "/w",
      files: new Map<string, string | null>([
        ["AGENTS.md", "# agents\n"],
        ["SOUL.md", "soul\n"],
        ["USER.md", "user\n"],
        ["MEMORY.md", "memory\n"],
      ]),
    };
    const dto = buildTruncationReport({
      report: null,
      family: "2026.9",
      session: {
        sessionId: "s",
        entrySessionId: null,
        sessionKey: "agent:main:subagent:abc",
        chatType: null,
      },
      workspace,
    });
    expect(dto.files.map((f) => f.name)).toEqual(["AGENTS.md"]);
    expect(dto.notes.join(" ")).toContain("agent:main:subagent:abc gets only AGENTS.md");
  });
});
