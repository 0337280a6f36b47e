// server/reports/context-numbers.ts: the one definition of tracked, untracked, image chars, skills size and the
// context window (issue 15), as the map builds them and every view prints them.

import { describe, expect, it } from "vitest";
import { buildContextMessages } from "../../server/model/context-messages.ts";
import { buildContextMap } from "../../server/reports/context-map/context-map.ts";
import { contextWindowOf, trackedOf, untrackedOf } from "../../server/reports/context-numbers.ts";
import { buildRunReport, lastCallUsage } from "../../server/reports/run-report.ts";
import type { MapNode } from "../../shared/context-map.ts";
import type { JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

function leaves(n: MapNode): MapNode[] {
  return n.children?.length ? n.children.flatMap(leaves) : [n];
}

const report: JsonObject = {
  source: "run",
  systemPrompt: { chars: 1_003, projectContextChars: 401, nonProjectContextChars: 602 },
  // A hook-added row with only a path: named by its basename, as /context and the truncation tab name it.
  injectedWorkspaceFiles: [
    { name: "AGENTS.md", path: "/w/AGENTS.md", missing: false, rawChars: 301, injectedChars: 301 },
    { path: "/w/notes/EXTRA.md", missing: false, rawChars: 99, injectedChars: 99 },
  ],
  skills: {
    promptChars: 250,
    entries: [
      { name: "a", blockChars: 101 },
      { name: "b", blockChars: 99 },
    ],
  },
  tools: { listChars: 0, schemaChars: 203, entries: [{ name: "exec", schemaChars: 203 }] },
  currentTurn: { promptChars: 9, runtimeContextChars: 11, modelOnlyPromptChars: 0 },
};

/** user (with an image) → assistant reply with usage (the last call) → one more user message after it. */
function session(usage: { input: number; cacheRead?: number; cacheWrite?: number }) {
  const b = new TranscriptBuilder();
  b.user([
    { type: "text", text: "look at this" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
  ]);
  b.assistant({ text: "r".repeat(41), usage });
  b.user("and now?");
  return b.session({
    entry: { sessionId: "test-session", contextTokens: 50_000, systemPromptReport: report },
  });
}

function mapOf(usage: { input: number; cacheRead?: number; cacheWrite?: number }) {
  const s = session(usage);
  const run = buildRunReport(s);
  const u = lastCallUsage(s.transcript);
  const map = buildContextMap({
    session: s,
    report,
    contextMessages: contextMessagesOf(s),
    lastCallUsage: u,
    windowTokens: 50_000,
  });
  return { s, run, map };
}

/** The model-context list as the run report sees it without a replay (tool results as stored). */
function contextMessagesOf(s: ReturnType<typeof session>) {
  return buildContextMessages(s.transcript);
}

describe("context numbers", () => {
  it("Σ groups[].tokens = billed; untracked = billed − Σ of the tiles' own chars/4 estimates", () => {
    const { map } = mapOf({ input: 3_000, cacheRead: 1_000 });
    const n = map.numbers;
    expect(n.billedPromptTokens).toBe(4_000);
    const tracked = leaves(map.root).filter((l) => l.id !== "untracked");
    expect(n.trackedTokens).toBe(tracked.reduce((s, l) => s + Math.ceil(l.chars / 4), 0));
    expect(n.untrackedTokens).toBe(4_000 - n.trackedTokens);
    expect(n.groups.reduce((s, g) => s + g.tokens, 0)).toBe(4_000);
    expect(n.groups.at(-1)?.key).toBe("untracked");
    // The map draws the same: its root is the bill, its untracked tile the rest.
    expect(map.root.estTokens).toBe(4_000);
    expect(map.untracked.tokens).toBe(n.untrackedTokens);
    expect(map.trackedTokens).toBe(n.trackedTokens);
  });

  it("an estimate above the bill: untracked is negative, the groups still add up, no tile is drawn", () => {
    const { map } = mapOf({ input: 100 });
    const n = map.numbers;
    expect(n.untrackedTokens).toBe(100 - n.trackedTokens);
    expect(n.untrackedTokens ?? 0).toBeLessThan(0);
    expect(n.groups.reduce((s, g) => s + g.tokens, 0)).toBe(100);
    expect(n.untrackedReason).toMatch(/^not observed: the tracked estimate exceeds/);
    expect(map.untracked.tokens).toBeNull();
    expect(map.root.children?.some((c) => c.id === "untracked")).toBe(false);
  });

  it("the map is the last call's prompt: the message after it is counted aside, not drawn", () => {
    const { map } = mapOf({ input: 3_000 });
    expect(map.numbers.afterLastCall).toEqual({ messages: 2, chars: 41 + "and now?".length });
    expect(leaves(map.root).some((l) => l.name.includes("and now?"))).toBe(false);
  });

  it("images count 8,000 chars each, in the tiles and in the numbers", () => {
    const { map } = mapOf({ input: 3_000 });
    expect(map.numbers.images).toEqual({ count: 1, chars: 8_000 });
    const user = leaves(map.root).find((l) => l.id.startsWith("conversation/user/"));
    expect(user?.chars).toBe("look at this".length + 8_000);
  });

  it("skills size: promptChars = the Skills group (entries) + the list frame under System prompt", () => {
    const { map } = mapOf({ input: 3_000 });
    expect(map.numbers.skills).toEqual({ promptChars: 250, entriesChars: 200, frameChars: 50 });
    const all = new Map(leaves(map.root).map((l) => [l.id, l.chars]));
    expect(all.get("system/skills-list-frame")).toBe(50);
    // OpenClaw's Base instructions (nonProject − Σ blockChars = 402) = the two system tiles.
    expect(all.get("system/base-instructions")).toBe(602 - 250);
    const groups = new Map((map.root.children ?? []).map((g) => [g.id, g.chars]));
    expect(groups.get("skills")).toBe(200);
    expect(groups.get("system")).toBe(602 - 200);
  });

  it("report rows are read through the decoded report: a path-only row is named by its basename", () => {
    const { map } = mapOf({ input: 3_000 });
    const ws = leaves(map.root).filter((l) => l.group === "workspace");
    expect(ws.map((l) => l.name)).toEqual(["AGENTS.md", "EXTRA.md", "Project context frame"]);
  });

  it("the run report prints the map's numbers; OpenClaw's own are beside them", () => {
    const { run, map } = mapOf({ input: 3_000, cacheRead: 1_000 });
    expect(run.numbers).toEqual(map.numbers);
    expect(run.reconciliation.clawscopeTracked).toEqual({
      chars: map.numbers.trackedChars,
      estTokens: map.numbers.trackedTokens,
    });
    expect(run.reconciliation.clawscopeUntrackedTokens).toBe(map.numbers.untrackedTokens);
    // OpenClaw's "Tracked prompt estimate": system prompt + schemas + turn prompt + runtime context.
    expect(map.numbers.openclaw?.trackedChars).toBe(1_003 + 203 + 9 + 11);
    expect(run.totals?.openclawTracked.chars).toBe(map.numbers.openclaw?.trackedChars);
  });

  it("context window: a recorded window is used; OpenClaw's default is an assumption, with no % used", () => {
    expect(contextWindowOf({ tokens: 100_000, source: "SessionEntry.contextTokens" })).toEqual({
      tokens: 100_000,
      source: "SessionEntry.contextTokens",
      assumed: false,
    });
    expect(contextWindowOf({ tokens: 200_000, source: "default 200000" }).assumed).toBe(true);
    const { map } = mapOf({ input: 3_000 });
    expect(map.numbers.windowUsed).toBeCloseTo(3_000 / 50_000, 12);
    const s = session({ input: 3_000 });
    const none = buildContextMap({
      session: s,
      report,
      contextMessages: contextMessagesOf(s),
      lastCallUsage: lastCallUsage(s.transcript),
      windowTokens: null,
    });
    expect(none.numbers.contextWindow.assumed).toBe(true);
    expect(none.numbers.windowUsed).toBeNull();
    expect(none.windowTokens).toBeNull();
  });

  it("trackedOf / untrackedOf", () => {
    expect(trackedOf([{ chars: 5 }, { chars: 5 }])).toEqual({ chars: 10, tokens: 4 });
    expect(untrackedOf(null, { tokens: 4, tiles: 2 }).tokens).toBeNull();
    expect(untrackedOf(10, { tokens: 4, tiles: 2 }, "why").reason).toBe("not observed: why");
    expect(untrackedOf(10, { tokens: 4, tiles: 2 }).tokens).toBe(6);
  });
});
