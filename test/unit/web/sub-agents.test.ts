// underParents (web/views/sessions/sub-agents.ts): sub-agent sessions follow the session that spawned them, nested,
// in the list's own order; an unlisted parent, a self-reference or a spawn cycle never hides a session.
import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../../shared/session.ts";
import { underParents } from "../../../web/views/sessions/sub-agents.ts";

function s(id: string, key: string | null, spawnedBy?: string): SessionSummary {
  return {
    agentId: "main",
    sessionId: id,
    sessionKey: key,
    storage: "jsonl",
    archived: null,
    updatedAt: null,
    model: null,
    provider: null,
    entryCount: null,
    parseErrorCount: 0,
    location: `${id}.jsonl`,
    sizeBytes: null,
    ...(spawnedBy === undefined ? {} : { spawnedBy }),
  };
}

const view = (rows: ReturnType<typeof underParents>) =>
  rows.map((r) => `${"  ".repeat(r.depth)}${r.s.sessionId}:${r.children}`);

describe("underParents", () => {
  it("puts sub-agents under their parent, nested, keeping the list order", () => {
    const rows = [
      s("c1", "agent:main:subagent:1", "agent:main:main"),
      s("x", "agent:main:telegram:1"),
      s("g1", "agent:main:subagent:3", "agent:main:subagent:1"),
      s("p", "agent:main:main"),
      s("c2", "agent:main:subagent:2", "agent:main:main"),
    ];
    expect(view(underParents(rows))).toEqual(["x:0", "p:2", "  c1:1", "    g1:0", "  c2:0"]);
  });

  it("keeps a sub-agent whose parent is not listed, a self-reference and a cycle at the top, each once", () => {
    const rows = [
      s("orphan", "agent:main:subagent:9", "agent:main:gone"),
      s("self", "agent:main:subagent:self", "agent:main:subagent:self"),
      s("a", "agent:main:subagent:a", "agent:main:subagent:b"),
      s("b", "agent:main:subagent:b", "agent:main:subagent:a"),
    ];
    const out = underParents(rows);
    expect(out.map((r) => r.s.sessionId).sort()).toEqual(["a", "b", "orphan", "self"]);
    expect(view(out).slice(0, 2)).toEqual(["orphan:0", "self:0"]);
    expect(out).toHaveLength(4);
  });
});
