// OpenClaw's history turn limit (2026.3.2 getHistoryLimitFromSessionKey): which key and config keys set it.
import { describe, expect, it } from "vitest";
import { historyLimitFor, noHistoryLimit } from "../../server/openclaw/history-limit.ts";

const config = {
  channels: {
    telegram: { dmHistoryLimit: 20, historyLimit: 50, dms: { "42": { historyLimit: 5 } } },
    discord: { historyLimit: 0 },
  },
};

describe("history limit (OpenClaw getHistoryLimitFromSessionKey)", () => {
  it("DMs take the per-DM override, else the provider's dmHistoryLimit; groups and channels historyLimit", () => {
    expect(historyLimitFor("agent:main:telegram:dm:42", config)).toBe(5);
    expect(historyLimitFor("agent:main:telegram:direct:42:thread:7", config)).toBe(5);
    expect(historyLimitFor("agent:main:telegram:dm:7", config)).toBe(20);
    expect(historyLimitFor("agent:main:telegram:group:-100", config)).toBe(50);
    expect(historyLimitFor("agent:main:main", config)).toBeUndefined();
    expect(historyLimitFor("agent:main:telegram:dm:42", null)).toBeUndefined();
  });

  it("no limit: a key without one, a limit of 0 (limitHistoryTurns replays everything), no config", () => {
    expect(noHistoryLimit("agent:main:main", config)).toBe(true);
    expect(noHistoryLimit("agent:main:discord:channel:1", config)).toBe(true);
    expect(noHistoryLimit("agent:main:telegram:dm:7", config)).toBe(false);
    expect(noHistoryLimit("agent:main:telegram:dm:7", null)).toBe(true);
  });

  it("an unknown key (an archived transcript) has no limit only when none is configured anywhere", () => {
    expect(noHistoryLimit(null, config)).toBe(false);
    expect(noHistoryLimit(null, { channels: { discord: { historyLimit: 0 } } })).toBe(true);
    expect(noHistoryLimit(null, { channels: { x: { dms: { a: { historyLimit: 3 } } } } })).toBe(false);
    expect(noHistoryLimit(null, null)).toBe(true);
  });
});
