// live/change-map.ts: what a batch of file-system changes means (pure; the watcher only gathers the facts).

import { describe, expect, it } from "vitest";
import {
  ChangeSet,
  entryChanges,
  scopeOf,
  storeChanges,
  transcriptChanges,
} from "../../server/live/change-map.ts";

describe("change map", () => {
  it("scopes a batch: config names, new dirs, sessions dirs by name, store files only", () => {
    const scope = scopeOf(
      [
        { dir: "/s", kind: "root", agentId: null, name: "openclaw.json" },
        { dir: "/s/agents", kind: "agents", agentId: null, name: "ops" },
        { dir: "/s/agents/main/sessions", kind: "sessions", agentId: "main", name: "a.jsonl" },
        { dir: "/s/agents/main/sessions", kind: "sessions", agentId: "main", name: null },
        { dir: "/s/agents/main/agent", kind: "store", agentId: "main", name: "openclaw-agent.sqlite-shm" },
        { dir: "/s/agents/r/agent", kind: "store", agentId: "r", name: "openclaw-agent.sqlite-wal" },
      ],
      null,
    );
    expect(scope.config).toBe(true);
    expect(scope.resync).toBe(true);
    expect([...(scope.sessionsDirs.get("/s/agents/main/sessions")?.names ?? [])]).toEqual(["a.jsonl", null]);
    expect([...scope.stores]).toEqual(["r"]);
  });

  it("transcripts: a changed signature is its session's, appearing/vanishing and archives change the list", () => {
    const out = new ChangeSet();
    const changed = transcriptChanges(out, "main", [
      { name: "a.jsonl", before: "1:10:5", after: "1:20:6" },
      { name: "b.jsonl", before: "2:1:1", after: "2:1:1" },
      { name: "c.jsonl", before: "3:1:1", after: null },
    ]);
    expect(out.ordered()).toEqual([
      { type: "sessions-changed" },
      { type: "session-changed", agentId: "main", sessionId: "a" },
    ]);
    expect(changed.map((c) => [c.sessionId, c.signature])).toEqual([
      ["a", "1:20:6"],
      ["c", null],
    ]);
    const archive = new ChangeSet();
    transcriptChanges(archive, "main", [
      { name: "a.jsonl.deleted.2026-01-01T00-00-00.000Z", before: undefined, after: "x" },
    ]);
    expect(archive.ordered()).toEqual([{ type: "sessions-changed" }]);
  });

  it("sessions.json and SQLite probes: only what changed, plus the list", () => {
    const out = new ChangeSet();
    entryChanges(
      out,
      "main",
      new Map([
        ["a", "1"],
        ["b", "1"],
      ]),
      new Map([
        ["a", "2"],
        ["b", "1"],
      ]),
    );
    storeChanges(
      out,
      "r",
      { events: new Map([["x", "3:2"]]), nodes: new Map([["x", "k"]]) },
      {
        events: new Map([
          ["x", "4:3"],
          ["y", "1:0"],
        ]),
        nodes: new Map([["x", "k"]]),
      },
    );
    expect(out.ordered()).toEqual([
      { type: "sessions-changed" },
      { type: "session-changed", agentId: "main", sessionId: "a" },
      { type: "session-changed", agentId: "r", sessionId: "x" },
      { type: "session-changed", agentId: "r", sessionId: "y" },
    ]);
    const quiet = new ChangeSet();
    storeChanges(
      quiet,
      "r",
      { events: new Map(), nodes: new Map() },
      { events: new Map(), nodes: new Map() },
    );
    expect(quiet.ordered()).toEqual([]);
  });
});
