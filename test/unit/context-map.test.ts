// OpenClaw's `/context map` data (spec context-report.md §5.4) and clawscope's complete map tree, on the s1 final
// state (test/fixtures/s1-cache-ttl-default: SessionEntry + transcript copied from the real 2026.9.6 capture) and on
// hand-built cases whose layout is computed by hand.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ContextMessage, LoadedSession } from "../../server/model/session.ts";
import { readSystemPromptReport } from "../../server/model/system-prompt-report.ts";
import { binarySplitLayout } from "../../server/openclaw/context-map/binary-split.ts";
import { fitLabel, sanitizeLabel } from "../../server/openclaw/context-map/bitmap-font.ts";
import {
  conversationBuckets,
  openClawMessageEstimate,
} from "../../server/openclaw/context-map/conversation.ts";
import { openClawMapGroups } from "../../server/openclaw/context-map/groups.ts";
import { mapFreshTotalTokens, openClawMapMessages } from "../../server/openclaw/context-map/inputs.ts";
import { layoutOpenClawMap, openClawMapUnavailable } from "../../server/openclaw/context-map/picture.ts";
import { weightedChars2026_9 } from "../../server/openclaw/estimate.ts";
import { unknownModeText } from "../../server/openclaw/texts.ts";
import { buildContextMap, type LastCallUsage } from "../../server/reports/context-map/context-map.ts";
import { buildOpenClawMap } from "../../server/reports/context-map/openclaw-picture.ts";
import { contextMapTokenTexts } from "../../server/reports/context-map/token-texts.ts";
import { lastCallUsage } from "../../server/reports/run-report.ts";
import { createTokenCounter } from "../../server/tokens/tokenizer.ts";
import type { MapNode } from "../../shared/context-map.ts";
import { arr, isObject, type JsonObject, num, obj, str } from "../../shared/json.ts";
import { css, GROUP_DARK, mix, parseRgb, WHITE } from "../../shared/openclaw-colors.ts";
import { sessionFromJsonl } from "../helpers/transcript.ts";

/** 2026.3.2 has no `map` mode: its reply to `/context map` (spec context-report.md §5). */
const MAP_UNKNOWN_MODE_2026_3 = unknownModeText("2026.3");

/** The last call's prompt buckets, as the service hands them to buildContextMap (run-report's lastCallUsage). */
function lastCallUsageOf(session: LoadedSession): LastCallUsage | null {
  const u = lastCallUsage(session.transcript);
  return u ? { input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// s1 fixture (copied from ../shared/fixtures/s1-cache-ttl-default/state-export/main/)

const FIXTURES = path.resolve(__dirname, "../fixtures");

function loadS1(): { entry: JsonObject; report: JsonObject; session: LoadedSession } {
  return loadScenario("s1-cache-ttl-default", "c50b7fb8-120b-44a9-a477-545eec87c0a7", "2026.9");
}

function loadScenario(
  scenario: string,
  SESSION_ID: string,
  family: "2026.7" | "2026.9",
): { entry: JsonObject; report: JsonObject; session: LoadedSession } {
  const FIX = path.join(FIXTURES, scenario);
  const nodes: unknown = JSON.parse(readFileSync(path.join(FIX, "session_nodes.json"), "utf8"));
  const first = Array.isArray(nodes) ? nodes[0] : null;
  const entry = isObject(first) ? obj(first, "entry") : undefined;
  const report = obj(entry, "systemPromptReport");
  if (!entry || !report) throw new Error("s1 fixture: no SessionEntry / systemPromptReport");
  const lines = gunzipSync(readFileSync(path.join(FIX, "transcripts", `${SESSION_ID}.jsonl.gz`)))
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return { entry, report, session: sessionFromLines(lines, entry, SESSION_ID, scenario, family) };
}

function sessionFromLines(
  lines: string[],
  entry: JsonObject,
  SESSION_ID: string,
  scenario: string,
  family: "2026.3" | "2026.7" | "2026.9",
): LoadedSession {
  return sessionFromJsonl(`${lines.join("\n")}\n`, {
    entry,
    family,
    sessionId: SESSION_ID,
    sessionKey: "agent:main:main",
    storage: family === "2026.9" ? "sqlite" : "jsonl",
    model: "claude-mock-1",
    provider: "anthropic",
    location: scenario,
  });
}

/** Model-context list for s1 (no compaction): branch messages minus excludeFromContext and transcript-only replies. */
function s1ContextMessages(session: LoadedSession): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const i of session.transcript.activeBranch) {
    const e = session.transcript.entries[i];
    const m = e && e.type === "message" ? obj(e.raw, "message") : undefined;
    if (!e || !m) continue;
    if (m.excludeFromContext === true) continue;
    if (str(m, "provider") === "openclaw") continue; // gateway-injected / delivery mirror (transcript.md §8)
    out.push({ role: str(m, "role") ?? "", message: m, entryIndex: e.index });
  }
  return out;
}

function leaves(n: MapNode): MapNode[] {
  return n.children?.length ? n.children.flatMap(leaves) : [n];
}

function walk(n: MapNode, f: (n: MapNode) => void): void {
  f(n);
  for (const c of n.children ?? []) walk(c, f);
}

const s1 = loadS1();

// ---------------------------------------------------------------------------------------------------------------

describe("binarySplitLayout (spec §5.4 layout)", () => {
  it("two items: split along the longer side by value ratio", () => {
    const out = binarySplitLayout([{ value: 4 }, { value: 6 }], { x: 0, y: 0, width: 10, height: 5 });
    expect(out.map((o) => [o.item.value, o.rect])).toEqual([
      [6, { x: 0, y: 0, width: 6, height: 5 }],
      [4, { x: 6, y: 0, width: 4, height: 5 }],
    ]);
  });

  it("greedy first part closest to half, then recursion on both parts (vertical when taller)", () => {
    // total 10, half 5: 3 → 6 (closer) → 8 (further, stop): [3,3] | [2,2], ratio 0.6.
    const out = binarySplitLayout([{ value: 2 }, { value: 3 }, { value: 2 }, { value: 3 }], {
      x: 0,
      y: 0,
      width: 100,
      height: 100,
    });
    expect(out.map((o) => o.rect)).toEqual([
      { x: 0, y: 0, width: 60, height: 50 },
      { x: 0, y: 50, width: 60, height: 50 },
      { x: 60, y: 0, width: 40, height: 50 },
      { x: 60, y: 50, width: 40, height: 50 },
    ]);
  });

  it("an item that keeps the distance equal is still added (ties move on)", () => {
    // total 6, half 3: 2 (dist 1) → 4 (dist 1, not further: add) → 5 (dist 2, stop). Ratio 4/6.
    const out = binarySplitLayout([{ value: 2 }, { value: 2 }, { value: 1 }, { value: 1 }], {
      x: 0,
      y: 0,
      width: 60,
      height: 10,
    });
    expect(out.map((o) => o.rect)).toEqual([
      { x: 0, y: 0, width: 20, height: 10 },
      { x: 20, y: 0, width: 20, height: 10 },
      { x: 40, y: 0, width: 10, height: 10 },
      { x: 50, y: 0, width: 10, height: 10 },
    ]);
  });

  it("stops at the first item that moves away from half", () => {
    // total 4, half 2: 2 (dist 0) → 3 (dist 1): stop. [2] | [1,1].
    const out = binarySplitLayout([{ value: 1 }, { value: 2 }, { value: 1 }], {
      x: 0,
      y: 0,
      width: 40,
      height: 10,
    });
    expect(out.map((o) => [o.item.value, o.rect.x, o.rect.width])).toEqual([
      [2, 0, 20],
      [1, 20, 10],
      [1, 30, 10],
    ]);
  });

  it("drops values ≤ 0, keeps ties in input order, and lays out nothing in an empty rect", () => {
    const items = [
      { name: "a", value: 0 },
      { name: "b", value: 1 },
      { name: "c", value: -3 },
      { name: "d", value: 1 },
    ];
    const out = binarySplitLayout(items, { x: 10, y: 20, width: 2, height: 1 });
    expect(out.map((o) => o.item.name)).toEqual(["b", "d"]);
    expect(out.map((o) => o.rect)).toEqual([
      { x: 10, y: 20, width: 1, height: 1 },
      { x: 11, y: 20, width: 1, height: 1 },
    ]);
    expect(binarySplitLayout(items, { x: 0, y: 0, width: 0, height: 5 })).toEqual([]);
  });

  it("areas are proportional to values and tile the rectangle (10,000 items)", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ value: ((i * 7919) % 997) + 1 }));
    const area = { x: 22, y: 110, width: 940, height: 674 };
    const t0 = performance.now();
    const out = binarySplitLayout(items, area);
    expect(performance.now() - t0).toBeLessThan(1000);
    const total = items.reduce((s, i) => s + i.value, 0);
    let sumArea = 0;
    for (const o of out) {
      const a = o.rect.width * o.rect.height;
      sumArea += a;
      expect(a / (area.width * area.height)).toBeCloseTo(o.item.value / total, 9);
      expect(o.rect.x).toBeGreaterThanOrEqual(area.x - 1e-6);
      expect(o.rect.x + o.rect.width).toBeLessThanOrEqual(area.x + area.width + 1e-6);
    }
    expect(out).toHaveLength(10_000);
    expect(sumArea).toBeCloseTo(area.width * area.height, 3);
  });
});

describe("drawing rules (spec §5.4 canvas)", () => {
  it("mix truncates channels and clamps t", () => {
    expect(mix([201, 82, 96], WHITE, 0.3)).toEqual([217, 133, 143]);
    expect(mix([201, 82, 96], GROUP_DARK, 0.16)).toEqual([171, 72, 84]);
    expect(mix([10, 10, 10], [20, 20, 20], 2)).toEqual([20, 20, 20]);
  });

  it("labels: sanitised, upper-cased, cut to max − 1 chars, only lines that fit", () => {
    expect(sanitizeLabel("Tool results (exec) ~1,234 TOK")).toBe("TOOL RESULTS EXEC 1 234 TOK");
    // w 100 → max chars floor(88/6) = 14; h 30 → max lines floor(18/9) = 2.
    const lines = fitLabel(
      { x: 10, y: 20, width: 100, height: 30 },
      ["Workspace files long", "12 CH", "x"],
      1,
      "c",
    );
    expect(lines).toEqual([
      { x: 17, y: 27, scale: 1, text: "WORKSPACE FIL", color: "c" },
      { x: 17, y: 36, scale: 1, text: "12 CH", color: "c" },
    ]);
    expect(fitLabel({ x: 0, y: 0, width: 35, height: 100 }, ["abc"], 1, "c")).toEqual([]); // max chars 3 < 4
  });
});

describe("OpenClaw map values from the s1 final report", () => {
  const { report, entry, session } = s1;
  const sp = obj(report, "systemPrompt");
  const files = (arr(report, "injectedWorkspaceFiles") ?? []).filter(isObject);
  const skills = (arr(obj(report, "skills"), "entries") ?? []).filter(isObject);
  const injected = files.reduce((s, f) => s + (num(f, "injectedChars") ?? 0), 0);
  const skillSum = skills.reduce((s, f) => s + (num(f, "blockChars") ?? 0), 0);
  const messages = openClawMapMessages(session.transcript.entries, session.transcript.activeBranch);
  const buckets = conversationBuckets(messages);
  const groups = openClawMapGroups("2026.9", readSystemPromptReport(report), buckets);
  const byName = new Map(groups.map((g) => [g.name, g]));

  it("workspace files: injectedChars per file (24,809, as /context list prints) + project context frame", () => {
    expect(injected).toBe(24_809);
    const ws = byName.get("Workspace files");
    expect(ws?.leaves.map((l) => l.name)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "IDENTITY.md",
      "USER.md",
      "MEMORY.md", // BOOTSTRAP.md (missing, 0) dropped
      "Project context frame",
    ]);
    expect(ws?.leaves.at(-1)?.value).toBe((num(sp, "projectContextChars") ?? 0) - 24_809);
    expect(ws?.value).toBe(num(sp, "projectContextChars")); // 32,765 in the final /context list
  });

  it("system prompt = nonProjectContextChars − Σ skill blockChars; tools = schemaChars; skills = Σ blockChars", () => {
    expect(byName.get("System prompt")?.value).toBe((num(sp, "nonProjectContextChars") ?? 0) - skillSum);
    expect(byName.get("Tool schemas")?.value).toBe(5_917); // `Tool schemas (JSON): 5,917 chars` in 018-context-list
    expect(byName.get("Tool schemas")?.leaves).toHaveLength(11);
    expect(byName.get("Skills")?.value).toBe(skillSum);
    // Report groups together = the whole system prompt (55,536 chars in the final /context list) + tool schemas.
    const reportGroups = ["Workspace files", "System prompt", "Skills"].reduce(
      (s, n) => s + (byName.get(n)?.value ?? 0),
      0,
    );
    expect(reportGroups).toBe(55_536);
  });

  it("conversation: tool results with the weight-2 floor = 283,830 (spec §5.4 illustrative value)", () => {
    expect(buckets.toolResults).toBe(283_830);
    const conv = byName.get("Conversation");
    expect(conv?.leaves.map((l) => l.name)).toEqual(["User", "Assistant", "Tool results", "Runtime context"]);
    expect(conv?.leaves.find((l) => l.name === "Runtime context")?.value).toBe(52);
    expect(groups.map((g) => g.name)).toEqual([
      "Conversation",
      "Workspace files",
      "System prompt",
      "Tool schemas",
      "Skills",
    ]);
  });

  it("caption and footer", () => {
    const fresh = mapFreshTotalTokens(entry, "2026.9");
    expect(fresh).toBe(29_192); // `Session tokens (cached): 29,192 total` in 018-context-list
    const pic = layoutOpenClawMap({
      family: "2026.9",
      report,
      conversation: buckets,
      freshTotalTokens: fresh,
      windowTokens: 100_000,
    });
    const tracked = groups.reduce((s, g) => s + g.value, 0);
    const conv = byName.get("Conversation")?.value ?? 0;
    const f = (n: number) => n.toLocaleString("en-US");
    expect(pic.caption).toBe(
      [
        "Context treemap",
        "Source: run",
        `Tracked: ${f(tracked)} chars (~${f(Math.ceil(tracked / 4))} tok)`,
        `Conversation: ${f(conv)} chars (~${f(Math.ceil(conv / 4))} tok)`,
        "Actual cached context: 29,192 tok",
      ].join("\n"),
    );
    expect(pic.footer.text).toBe(
      `${f(tracked)} CH /  ${f(Math.ceil(tracked / 4))} TOK / ACTUAL CTX 29 192 TOK / WINDOW 100 000 TOK`.replaceAll(
        ",",
        " ",
      ),
    );
    expect(pic.header.subtitle.text).toBe("RUN / ANTHROPIC / CLAUDE-MOCK-1");
  });

  it("picture: groups tile the treemap area by value, leaves tile each children area, shades per index", () => {
    const pic = layoutOpenClawMap({
      family: "2026.9",
      report,
      conversation: buckets,
      freshTotalTokens: null,
      windowTokens: null,
    });
    const A = pic.area.width * pic.area.height;
    for (const g of pic.groups) {
      expect((g.rect.width * g.rect.height) / A).toBeCloseTo(g.value / pic.trackedChars, 9);
      const ca = g.childrenArea.width * g.childrenArea.height;
      for (const l of g.leaves) expect((l.rect.width * l.rect.height) / ca).toBeCloseTo(l.value / g.value, 9);
    }
    // Largest group first in layout order; legend keeps OpenClaw's order and rounds percentages.
    expect(pic.groups[0]?.name).toBe("Conversation");
    expect(pic.legend.items.map((i) => i.name)).toEqual(groups.map((g) => g.name));
    expect(pic.legend.items.map((i) => i.swatch.y)).toEqual([168, 222, 276, 330, 384]);
    expect(pic.footer.text).toContain("ACTUAL CTX UNKNOWN / WINDOW UNKNOWN");
    // Leaf shade = (leafIndex mod 7)/10 + (groupIndex mod 2)·0.08.
    const g1 = pic.groups[1];
    expect(g1?.leaves.map((l) => l.shade)).toEqual(g1?.leaves.map((_, i) => (i % 7) / 10 + 0.08));
    const base = parseRgb(g1?.color);
    expect(base).not.toBeNull();
    expect(g1?.fill).toBe(css(mix(base ?? WHITE, GROUP_DARK, 0.16)));
    // Every leaf carries OpenClaw's token estimate of its chars, as the picture's tooltips print it.
    expect(g1?.leaves.map((l) => l.tokens)).toEqual(g1?.leaves.map((l) => Math.ceil(l.value / 4)));
  });

  it("2026.7.1: Current turn group instead of Conversation; Room event by kind; map unavailable without a run report", () => {
    const g7 = openClawMapGroups("2026.7", readSystemPromptReport(report), buckets);
    expect(g7[0]?.name).toBe("Current turn");
    expect(g7[0]?.leaves).toEqual([
      { name: "Model prompt", value: 63 },
      { name: "Runtime context", value: 52 },
    ]);
    expect(g7[0]?.color).toEqual([72, 135, 197]);
    const room = { ...report, currentTurn: { kind: "room_event", promptChars: 5, runtimeContextChars: 0 } };
    expect(openClawMapGroups("2026.7", readSystemPromptReport(room), buckets)[0]?.name).toBe("Room event");
    const cap = layoutOpenClawMap({
      family: "2026.7",
      report,
      conversation: buckets,
      freshTotalTokens: null,
      windowTokens: 1,
    });
    expect(cap.caption.split("\n")).toHaveLength(4);
    expect(cap.caption).not.toContain("Conversation:");
    expect(openClawMapUnavailable(null)).toBe(true);
    expect(openClawMapUnavailable({ ...report, source: "estimate" })).toBe(true);
    expect(openClawMapUnavailable(report)).toBe(false);
  });

  it("weight-2 floor: every unweighted UTF-16 unit doubles, weighted classes keep their total", () => {
    expect(weightedChars2026_9("abc", 2)).toBe(6);
    expect(weightedChars2026_9("字字", 2)).toBe(8); // class A: 4 each
    expect(weightedChars2026_9("字a", 1)).toBe(5);
    expect(weightedChars2026_9("😀", 2)).toBe(4); // surrogate pair outside the classes: 2 units × 2
    expect(weightedChars2026_9("é", 2)).toBe(2);
    expect(weightedChars2026_9("𠀀", 2)).toBe(16); // class E
    expect(weightedChars2026_9(String.fromCodePoint(0x1d360), 2)).toBe(12); // class D
  });

  it("per-message estimate follows OpenClaw's estimator (non-object blocks, string content, summaries, roles)", () => {
    const est = (m: JsonObject) => openClawMessageEstimate(m);
    expect(est({ role: "user", content: ["abc", { type: "image" }, { type: "text", text: "hi" }] })).toEqual({
      bucket: "user",
      chars: 3 + 8000 + 2,
    });
    expect(est({ role: "assistant", content: "plain string" }).chars).toBe(0);
    expect(
      est({
        role: "assistant",
        content: [
          "skipped",
          { type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
          { type: "toolCall", id: "t", name: "x", arguments: { a: 1 } },
          { type: "text", text: "ok" },
        ],
      }).chars,
    ).toBe(3 + '{"a":1}'.length + 2);
    expect(est({ role: "toolResult", content: "abc" })).toEqual({ bucket: "toolResults", chars: 6 });
    expect(est({ role: "toolResult", content: [{ type: "image" }, "xy"] }).chars).toBe(16000 + 4);
    expect(est({ role: "tool", content: "abc" })).toEqual({ bucket: "other", chars: 6 });
    expect(est({ role: "compactionSummary", summary: "S" }).chars).toBe(
      "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
        .length +
        1 +
        "\n</summary>".length,
    );
    expect(est({ role: "branchSummary", content: "ignored" }).chars).toBe(
      "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n</summary>"
        .length,
    );
    expect(est({ role: "custom", content: "abcd" })).toEqual({ bucket: "other", chars: 4 });
    expect(est({ role: "mystery" }).chars).toBe(256);
    expect(est({ role: "bashExecution", command: "ls", output: "a\nb", exitCode: 2 }).chars).toBe(
      "Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2".length,
    );
    expect(est({ role: "bashExecution", command: "true", output: "", exitCode: 0 }).chars).toBe(
      "Ran `true`\n(no output)".length,
    );
    expect(est({ role: "user", content: "abc", excludeFromContext: true }).chars).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("buildContextMap (clawscope's complete map)", () => {
  const { report, session } = s1;
  const messages = s1ContextMessages(session);
  const sp = obj(report, "systemPrompt");

  it("report groups carry OpenClaw's values; every group is the sum of its children; ids unique", () => {
    const dto = buildContextMap({
      session,
      report,
      contextMessages: messages,
      lastCallUsage: null,
      windowTokens: 100_000,
    });
    const groups = new Map((dto.root.children ?? []).map((g) => [g.id, g]));
    expect(groups.get("workspace")?.chars).toBe(num(sp, "projectContextChars"));
    expect((groups.get("system")?.chars ?? 0) + (groups.get("skills")?.chars ?? 0)).toBe(
      num(sp, "nonProjectContextChars"),
    );
    expect(groups.get("tools")?.chars).toBe(5_917);
    expect(groups.get("current-turn")?.chars).toBe(52);
    const ids = new Set<string>();
    walk(dto.root, (n) => {
      expect(ids.has(n.id)).toBe(false);
      ids.add(n.id);
      expect(n.source.length).toBeGreaterThan(0);
      if (n.children?.length) {
        expect(n.chars).toBe(n.children.reduce((s, c) => s + c.chars, 0));
        expect(n.estTokens).toBe(n.children.reduce((s, c) => s + c.estTokens, 0));
      } else {
        expect(n.estTokens).toBe(Math.ceil(n.chars / 4));
      }
    });
    expect(dto.trackedChars).toBe(dto.root.chars);
    // The footer's token figure comes with the DTO: the Σ of the tiles' own chars/4 estimates (no rounding left
    // between the tiles and the total, issue 15).
    expect(dto.trackedTokens).toBe(dto.root.estTokens);
    expect(dto.numbers.trackedTokens).toBe(dto.trackedTokens);
    expect(dto.untracked).toEqual({ tokens: null, reason: expect.stringContaining("not observed") });
    expect(dto.tokenizer.state).toBe("unavailable");
    expect(dto.groups.map((g) => g.key)).toEqual([
      "workspace",
      "system",
      "tools",
      "skills",
      "current-turn",
      "conversation",
    ]);
  });

  it("conversation: one leaf per tool result (id = toolCallId, grouped by tool), summing to the text sent", () => {
    const dto = buildContextMap({
      session,
      report,
      contextMessages: messages,
      lastCallUsage: null,
      windowTokens: null,
    });
    const conv = dto.root.children?.find((c) => c.id === "conversation");
    const results = conv?.children?.find((c) => c.id === "conversation/tool-results");
    const toolMsgs = messages.filter((m) => m.role === "toolResult");
    const resultLeaves = results ? leaves(results) : [];
    expect(resultLeaves).toHaveLength(toolMsgs.length);
    for (const m of toolMsgs) {
      const id = `conversation/tool-results/${encodeURIComponent(str(m.message, "toolName") ?? "")}/${encodeURIComponent(str(m.message, "toolCallId") ?? "")}`;
      const leaf = resultLeaves.find((l) => l.id === id);
      const text = (arr(m.message, "content") ?? [])
        .filter(isObject)
        .map((b) => str(b, "text") ?? "")
        .join("");
      expect(leaf?.chars).toBe(text.length);
    }
    expect(results?.children?.map((c) => c.name).sort()).toEqual(
      [...new Set(toolMsgs.map((m) => str(m.message, "toolName")))].sort(),
    );
    const texts = contextMapTokenTexts(session, messages);
    expect(texts.filter((t) => t.id.startsWith("conversation/tool-results/"))).toHaveLength(toolMsgs.length);
  });

  it("tool results as sent: the caller's wire text (pruning projections) replaces the stored text", () => {
    const first = messages.find((m) => m.role === "toolResult");
    const callId = str(first?.message, "toolCallId") ?? "";
    const tool = str(first?.message, "toolName") ?? "";
    const sent = new Map([[callId, "[Old tool result content cleared]"]]);
    const dto = buildContextMap({
      session,
      report,
      contextMessages: messages,
      lastCallUsage: null,
      windowTokens: null,
      sentToolResultText: sent,
    });
    const leaf = leaves(dto.root).find(
      (l) => l.id === `conversation/tool-results/${encodeURIComponent(tool)}/${encodeURIComponent(callId)}`,
    );
    expect(leaf?.chars).toBe("[Old tool result content cleared]".length);
    expect(leaf?.source).toContain("as sent at the last call");
    const item = contextMapTokenTexts(session, messages, sent).find((t) => t.id === leaf?.id);
    expect(item && "text" in item ? item.text : item?.load()).toBe("[Old tool result content cleared]");
  });

  it("untracked: billed tokens − tracked estimate of the last call's prompt, never negative", () => {
    // A small synthetic session: 400-char base prompt, one 400-char user message, one reply with usage.
    const small: JsonObject = {
      source: "run",
      systemPrompt: { chars: 400, projectContextChars: 0, nonProjectContextChars: 400 },
      injectedWorkspaceFiles: [],
      skills: { entries: [] },
      tools: { entries: [] },
    };
    const msgs: ContextMessage[] = [
      { role: "user", message: { role: "user", content: "u".repeat(400) }, entryIndex: 1 },
      {
        role: "assistant",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "r".repeat(40) }],
          usage: { input: 1 },
        },
        entryIndex: 2,
      },
    ];
    const usage = { input: 120, cacheRead: 100, cacheWrite: 0 };
    const dto = buildContextMap({
      session,
      report: small,
      contextMessages: msgs,
      lastCallUsage: usage,
      windowTokens: null,
    });
    expect(dto.actualTokens).toBe(220);
    expect(dto.untracked.tokens).toBe(220 - 200); // the reply (40 chars) came after the call: not in its prompt
    const untracked = dto.root.children?.find((c) => c.id === "untracked");
    expect(untracked?.estTokens).toBe(20);
    // The map is that call's prompt: the reply is counted aside, not drawn; the tiles add up to the bill.
    expect(dto.numbers.afterLastCall).toEqual({ messages: 1, chars: 40 });
    expect(dto.root.estTokens).toBe(220);
    // Cache: the first 100 tokens (system prompt) were read, the user message was uncached, the reply is unknown.
    const all = leaves(dto.root);
    expect(all.find((l) => l.id === "system/base-instructions")?.cache).toBe("read");
    const user = all.find((l) => l.id.startsWith("conversation/user/"));
    expect(user?.cache).toBe("uncached");
    expect(user?.cacheTokens).toEqual({ read: 0, write: 0, uncached: 100 });
    expect(all.some((l) => l.id.startsWith("conversation/assistant/"))).toBe(false);

    const tiny = buildContextMap({
      session,
      report: small,
      contextMessages: msgs,
      lastCallUsage: { input: 10, cacheRead: 0, cacheWrite: 0 },
      windowTokens: null,
    });
    expect(tiny.untracked.tokens).toBeNull();
    expect(tiny.untracked.reason).toMatch(/^not observed/);
    expect(tiny.root.children?.some((c) => c.id === "untracked")).toBe(false);
  });

  it("tiktoken counts by node id: leaves get counts, groups once complete, progress reported", () => {
    const texts = contextMapTokenTexts(session, messages);
    const partial = new Map(texts.slice(0, 3).map((t) => [t.id, 7]));
    const dto = buildContextMap({
      session,
      report,
      contextMessages: messages,
      lastCallUsage: null,
      windowTokens: null,
      tiktoken: partial,
    });
    expect(dto.tokenizer.state).toBe("pending");
    expect(dto.tokenizer.progress).toBeGreaterThan(0);
    expect(dto.tokenizer.progress).toBeLessThan(1);
    const first = texts[0];
    const node = leaves(dto.root).find((l) => l.id === first?.id);
    expect(node?.tiktokenTokens).toBe(7);
    expect(dto.root.tiktokenTokens).toBeNull();
  });

  it("with the real tokenizer: every conversation text counted → ready, groups summed (report leaves as chars/4)", async () => {
    const texts = contextMapTokenTexts(session, messages);
    const counter = createTokenCounter({ mode: "inline" });
    try {
      counter.requestCounts(texts);
      await counter.idle();
      const { counts, pending } = counter.requestCounts(texts);
      expect(pending).toBe(0);
      const dto = buildContextMap({
        session,
        report,
        contextMessages: messages,
        lastCallUsage: lastCallUsageOf(session),
        windowTokens: 100_000,
        tiktoken: counts,
      });
      expect(dto.tokenizer).toMatchObject({ state: "ready", encoding: "cl100k_base", progress: 1 });
      // The report stores sizes, not text: its groups are named as still chars/4; the conversation is counted.
      expect(dto.tokenizer.estimatedGroups).toEqual(
        expect.arrayContaining(["Workspace files", "System prompt", "Tool schemas"]),
      );
      expect(dto.tokenizer.estimatedGroups).not.toContain("Conversation");
      const all = leaves(dto.root);
      const sample = texts.find((t) => t.id.startsWith("conversation/tool-results/"));
      expect(all.find((l) => l.id === sample?.id)?.tiktokenTokens).toBe(counts.get(sample?.id ?? ""));
      const tools = dto.root.children?.find((c) => c.id === "tools");
      expect(tools?.tiktokenTokens).toBe(tools?.estTokens); // no text in the report → estimate
      const conv = dto.root.children?.find((c) => c.id === "conversation");
      expect(conv?.tiktokenTokens).toBe(
        leaves(conv ?? dto.root).reduce((s, l) => s + (l.tiktokenTokens ?? 0), 0),
      );
    } finally {
      await counter.close();
    }
  });

  it("builds a 10,000-tool-result map quickly", () => {
    const many: ContextMessage[] = [
      { role: "user", message: { role: "user", content: "go" }, entryIndex: 0 },
    ];
    for (let i = 0; i < 10_000; i++) {
      many.push({
        role: "toolResult",
        message: {
          role: "toolResult",
          toolName: i % 3 === 0 ? "exec" : "read",
          toolCallId: `call_${i}`,
          content: [{ type: "text", text: `result ${i} `.repeat(5) }],
        },
        entryIndex: i + 1,
      });
    }
    many.push({
      role: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "done" }], usage: {} },
      entryIndex: 10_001,
    });
    const t0 = performance.now();
    const dto = buildContextMap({
      session,
      report,
      contextMessages: many,
      lastCallUsage: { input: 10, cacheRead: 100_000, cacheWrite: 50_000 },
      windowTokens: 200_000,
    });
    // Generous bound: the test machine is shared (2 cores); a quadratic step would take far longer.
    expect(performance.now() - t0).toBeLessThan(8000);
    const results = dto.root.children
      ?.find((c) => c.id === "conversation")
      ?.children?.find((c) => c.id === "conversation/tool-results");
    expect(results ? leaves(results) : []).toHaveLength(10_000);
    expect(results?.children?.map((c) => c.id)).toEqual([
      "conversation/tool-results/exec",
      "conversation/tool-results/read",
    ]);
    // Σ cache splits of a group = Σ of its leaves' estimated tokens.
    const split = results?.cacheTokens;
    expect((split?.read ?? 0) + (split?.write ?? 0) + (split?.uncached ?? 0)).toBe(results?.estTokens);
  });
});

describe("buildOpenClawMap (the OpenClaw map toggle)", () => {
  it("s1 (2026.9.6): five groups, caption with the fresh total", () => {
    const r = buildOpenClawMap(s1.session);
    expect(r.available).toBe(true);
    if (!r.available) return;
    expect(r.picture.groups.map((g) => g.name).sort()).toEqual(
      ["Conversation", "Skills", "System prompt", "Tool schemas", "Workspace files"].sort(),
    );
    expect(r.picture.caption.split("\n").at(-1)).toBe("Actual cached context: 29,192 tok");
    expect(r.picture.footer.text).toMatch(/WINDOW 100 000 TOK$/);
  });

  it("j1 (2026.7.1): Current turn group, TOOLS.md injected, fresh total without totalTokensVersion", () => {
    const j1 = loadScenario("j1-jsonl-cache-ttl-default", "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84", "2026.7");
    const r = buildOpenClawMap(j1.session);
    expect(r.available).toBe(true);
    if (!r.available) return;
    const names = r.picture.legend.items.map((i) => i.name);
    expect(names).toEqual(["Current turn", "Workspace files", "System prompt", "Tool schemas", "Skills"]);
    const ws = r.picture.groups.find((g) => g.name === "Workspace files");
    expect(ws?.leaves.find((l) => l.name === "TOOLS.md")?.value).toBe(14_116); // spec §6: j1 TOOLS.md 14,116 chars
    expect(r.picture.groups.find((g) => g.name === "Tool schemas")?.leaves).toHaveLength(31); // 31 tool schemas
    expect(r.picture.caption).not.toContain("Conversation:");
    expect(r.picture.caption.split("\n").at(-1)).toBe("Actual cached context: 44,240 tok"); // j1 final `44,240 total`
  });

  it("unavailable: no run report, estimate report, or 2026.3.2 (no map mode)", () => {
    const noReport = { ...s1.session, entry: { ...s1.entry, systemPromptReport: null } };
    expect(buildOpenClawMap(noReport)).toEqual({
      available: false,
      text: "Context treemap unavailable.\nNo actual run context is cached for this session yet.\nSend a normal message, then run /context map again.",
    });
    const old = {
      ...s1.session,
      version: { appVersion: "2026.3.2", family: "2026.3" as const, reason: "t" },
    };
    expect(buildOpenClawMap(old)).toEqual({ available: false, text: MAP_UNKNOWN_MODE_2026_3 });
  });

  it("the last call's usage (run-report's lastCallUsage, as the service passes it; s1: the stored entry's 66 / 0 / 29,126)", () => {
    const usage = lastCallUsageOf(s1.session);
    expect(usage).toEqual({
      input: num(s1.entry, "inputTokens"),
      cacheRead: num(s1.entry, "cacheRead"),
      cacheWrite: num(s1.entry, "cacheWrite"),
    });
    expect((usage?.input ?? 0) + (usage?.cacheRead ?? 0) + (usage?.cacheWrite ?? 0)).toBe(29_192);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Real JSONL-era data (2026.2–2026.4, scrubbed): ../shared/corpus, read in place.

const CORPUS = path.resolve(__dirname, "../../../shared/corpus/state-branches-images/agents/main/sessions");
const corpusPresent = existsSync(path.join(CORPUS, "sessions.json"));
if (!corpusPresent) console.warn(`context-map corpus test skipped: ${CORPUS} not found`);

describe.skipIf(!corpusPresent)("corpus state-branches-images (E1/E2 report, images, thinking)", () => {
  it("builds the map: image tiles count 8,000 chars, sums hold, base64 never reaches the tokenizer texts", () => {
    const store: unknown = JSON.parse(readFileSync(path.join(CORPUS, "sessions.json"), "utf8"));
    const entry = isObject(store) ? obj(store, "agent:main:main") : undefined;
    const sessionId = str(entry, "sessionId") ?? "";
    const lines = readFileSync(path.join(CORPUS, `${sessionId}.jsonl`), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    if (!entry) throw new Error("corpus entry missing");
    const session = sessionFromLines(lines, entry, sessionId, "corpus", "2026.3");
    const messages = s1ContextMessages(session);
    const report = obj(entry, "systemPromptReport") ?? null;
    const dto = buildContextMap({
      session,
      report,
      contextMessages: messages,
      lastCallUsage: lastCallUsageOf(session),
      windowTokens: num(entry, "contextTokens") ?? null,
    });
    walk(dto.root, (n) => {
      if (n.children?.length) expect(n.chars).toBe(n.children.reduce((s, c) => s + c.chars, 0));
    });
    const imageUsers = messages.filter(
      (m) =>
        m.role === "user" && (arr(m.message, "content") ?? []).some((b) => isObject(b) && b.type === "image"),
    );
    expect(imageUsers.length).toBeGreaterThan(0); // the corpus README: 1 user image message
    const ids = new Set(leaves(dto.root).map((l) => l.id));
    const imageLeaf = leaves(dto.root).find((l) => l.source.includes("image(s)"));
    expect(imageLeaf?.chars).toBeGreaterThanOrEqual(8000);
    expect(ids.size).toBe(leaves(dto.root).length);
    const texts = contextMapTokenTexts(session, messages);
    expect(texts.some((t) => /[A-Za-z0-9+/]{2000,}/.test("text" in t ? t.text : (t.load() ?? "")))).toBe(
      false,
    );
    expect(buildOpenClawMap(session)).toEqual({ available: false, text: MAP_UNKNOWN_MODE_2026_3 });
    expect(dto.untracked.tokens === null || dto.untracked.tokens >= 0).toBe(true);
  });
});
