// Unit tests of the cache-TTL pruning pieces, per OpenClaw generation (spec pruning.md §1–§5,
// transcript.md §6–§9). Synthetic transcripts are built to the real schema; the golden test
// (test/golden/prune-replay.test.ts) checks the same code against real captures.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildContextMessages } from "../../server/model/context-messages.ts";
import type { LoadedSession, Transcript, VersionInfo } from "../../server/model/session.ts";
import { BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX } from "../../server/model/summary-text.ts";
import { parseDurationMs } from "../../server/openclaw/duration.ts";
import {
  estimateMessageChars,
  weightedChars2026_7,
  weightedChars2026_9,
} from "../../server/openclaw/estimate.ts";
import { resolveContextWindow } from "../../server/openclaw/pruning/context-window.ts";
import { resolveEligibility } from "../../server/openclaw/pruning/eligibility.ts";
import { pruningGeneration } from "../../server/openclaw/pruning/generation.ts";
import {
  makePrunerInput,
  type PrunerSettings,
  softTrimCharsFor,
} from "../../server/openclaw/pruning/pruner-input.ts";
import { resolvePruneSettings } from "../../server/openclaw/pruning/settings.ts";
import {
  IMAGE_REMOVED_MARKER,
  joinToolResultText,
  softTrimText,
} from "../../server/openclaw/pruning/soft-trim.ts";
import { pruneStateless } from "../../server/openclaw/pruning/stateless-2026-7.ts";
import { pruneSticky, sourceHash } from "../../server/openclaw/pruning/sticky-2026-9.ts";
import { globMatches, makeToolPredicate } from "../../server/openclaw/pruning/tool-glob.ts";
import { tokensFromChars } from "../../server/openclaw/token-estimate.ts";
import { previewToolResultAtCall } from "../../server/reports/prune-replay/preview.ts";
import { type ReplayInput, runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import type { JsonObject, JsonValue } from "../../shared/json.ts";
import type { PruneOverrides, PruneReplayDTO } from "../../shared/prune.ts";
import { ttlSentence } from "../../shared/prune-next-text.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

/** The complete replay (every call with its tool-result states: the `prune --json` contract). */
const replayPruning = (input: ReplayInput): PruneReplayDTO => runReplay(input).full();

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");

// ---------------------------------------------------------------------------------------------------
// Synthetic transcript builder (real entry shapes, transcript.md §2–§3)

/** The pruning tests' vocabulary over the shared builder: no header row (entry index = row index), ids e0, e1, … */
class Builder {
  readonly b = new TranscriptBuilder({ start: 1_800_000_000_000, header: false, idPrefix: "e" });
  private tool = 0;
  private run = 0;

  get t(): number {
    return this.b.t;
  }
  set t(ms: number) {
    this.b.t = ms;
  }
  /** The rows so far (row i = entry i). */
  get rows(): JsonObject[] {
    return this.b.rows;
  }
  add(raw: JsonObject): string {
    return this.b.add(raw);
  }
  user(text: string, opts: { excluded?: boolean; sameRun?: boolean } = {}): string {
    if (!opts.sameRun) this.run++;
    const message: JsonObject = { role: "user", content: text, idempotencyKey: `run${this.run}:user` };
    if (opts.excluded) message.excludeFromContext = true;
    return this.b.message(message);
  }
  assistant(content: JsonObject[], opts: { provider?: string; model?: string; stop?: string } = {}): string {
    return this.b.message({
      role: "assistant",
      content,
      provider: opts.provider ?? "anthropic",
      model: opts.model ?? "claude-x",
      api: "anthropic-messages",
      stopReason: opts.stop ?? "stop",
      responseId: `resp${this.rows.length}`,
    });
  }
  /** assistant tool call + tool result of `text` (or content blocks). */
  toolTurn(toolName: string, text: string | JsonObject[]): { callId: string; resultId: string } {
    const callId = `toolu_${++this.tool}`;
    this.assistant([{ type: "toolCall", id: callId, name: toolName, arguments: { n: this.tool } }], {
      stop: "toolUse",
    });
    this.t += 10;
    const resultId = this.b.toolResult(callId, toolName, text);
    return { callId, resultId };
  }
  marker(provider = "anthropic", modelId = "claude-x"): void {
    this.b.cacheTouch(provider, modelId);
  }
  /** One attempt: user → tool turn → final assistant → cache-touch marker. */
  turn(toolName: string, text: string, gapMs: number): string {
    this.t += gapMs;
    this.user(`do ${toolName}`);
    this.t += 5;
    const { callId } = this.toolTurn(toolName, text);
    this.t += 5;
    this.assistant([{ type: "text", text: "ok" }]);
    this.t += 5;
    this.marker();
    return callId;
  }
  transcript(): Transcript {
    return this.b.transcript("synthetic");
  }
  session(family: VersionInfo["family"], appVersion: string | null = null): LoadedSession {
    return this.b.session({
      family,
      appVersion,
      sessionId: "syn",
      sessionKey: null,
      storage: "jsonl",
      model: "claude-x",
      provider: "anthropic",
      location: "syn",
    });
  }
}

function config(cp: JsonObject, contextWindow = 10_000): JsonObject {
  return {
    agents: { defaults: { contextPruning: cp } },
    models: {
      providers: {
        anthropic: {
          baseUrl: "http://127.0.0.1:1",
          api: "anthropic-messages",
          models: [{ id: "claude-x", contextWindow }],
        },
      },
    },
  };
}

const replay = (
  b: Builder,
  family: VersionInfo["family"],
  cp: JsonObject,
  overrides?: PruneOverrides,
  cw = 10_000,
  appVersion: string | null = null,
) =>
  replayPruning({
    session: b.session(family, appVersion),
    config: config(cp, cw),
    sha256Base64Url,
    ...(overrides ? { overrides } : {}),
  });

const statesOf = (r: ReturnType<typeof replay>): string[] =>
  r.calls.map((c) =>
    Object.values(c.toolResults)
      .map((s) => (s === "full" ? "F" : s === "soft-trim" ? "S" : "H"))
      .join(""),
  );

// ---------------------------------------------------------------------------------------------------

describe("ttl parsing (OpenClaw parseDurationMs, default unit minutes)", () => {
  it.each([
    ["5m", 300_000],
    ["20s", 20_000],
    ["1h", 3_600_000],
    ["1h30m", 5_400_000],
    ["2m500ms", 120_500],
    ["1.5h", 5_400_000],
    ["10", 600_000],
    ["0", 0],
    ["1D", 86_400_000],
    [" 7S ", 7_000],
  ])("%s → %d ms", (raw, ms) => {
    expect(parseDurationMs(raw, "m")).toBe(ms);
  });
  it.each(["", "abc", "1h 30m", "-5m", "5 m", "m5", "1h30"])("%j is not a duration", (raw) => {
    expect(parseDurationMs(raw, "m")).toBeNull();
  });
});

describe("settings per generation", () => {
  it("2026.7 defaults when only mode is set", () => {
    const s = resolvePruneSettings({ config: config({ mode: "cache-ttl" }), algorithm: "2026.7" });
    expect(s).toMatchObject({
      mode: "cache-ttl",
      ttlMs: 300_000,
      keepLastAssistants: 3,
      softTrimRatio: 0.3,
      hardClearRatio: 0.5,
      minPrunableToolChars: 50_000,
      softTrim: { maxChars: 4000, headChars: 1500, tailChars: 1500 },
      hardClear: { enabled: true, placeholder: "[Old tool result content cleared]" },
      tools: { allow: [], deny: [] },
    });
    expect(s.sources.ttl).toBe("default");
    expect(s.sources.mode).toBe("config");
    expect(s.sources.keepLastAssistants).toBe("default");
  });
  it("2026.7 knobs are floored and clamped", () => {
    const s = resolvePruneSettings({
      config: config({
        mode: "cache-ttl",
        ttl: "1h30m",
        keepLastAssistants: 2.7,
        softTrimRatio: 1.5,
        hardClearRatio: -1,
        minPrunableToolChars: 99.9,
        softTrim: { maxChars: 3000.5, headChars: -4, tailChars: 800 },
        hardClear: { enabled: false, placeholder: "  [gone]  " },
        tools: { allow: ["exec"], deny: ["ls", 5] },
      }),
      algorithm: "2026.7",
    });
    expect(s.ttlMs).toBe(5_400_000);
    expect(s.keepLastAssistants).toBe(2);
    expect(s.softTrimRatio).toBe(1);
    expect(s.hardClearRatio).toBe(0);
    expect(s.minPrunableToolChars).toBe(99);
    expect(s.softTrim).toEqual({ maxChars: 3000, headChars: 0, tailChars: 800 });
    expect(s.hardClear).toEqual({ enabled: false, placeholder: "[gone]" });
    expect(s.tools).toEqual({ allow: ["exec"], deny: ["ls"] });
    expect(s.sources.softTrimRatio).toBe("config");
  });
  it("2026.9 keeps the thresholds fixed and warns about removed knobs", () => {
    const s = resolvePruneSettings({
      config: config({ mode: "cache-ttl", softTrimRatio: 0.1, keepLastAssistants: 1 }),
      algorithm: "2026.9",
    });
    expect(s.softTrimRatio).toBe(0.3);
    expect(s.keepLastAssistants).toBe(3);
    expect(s.sources.softTrimRatio).toBe("fixed");
    expect(s.warnings.length).toBe(2);
  });
  it("bad ttl falls back to 5m; ttl 0 disables; empty placeholder keeps the default", () => {
    const bad = resolvePruneSettings({
      config: config({ mode: "cache-ttl", ttl: "soon" }),
      algorithm: "2026.9",
    });
    expect(bad.ttlMs).toBe(300_000);
    expect(bad.warnings[0]).toContain("soon");
    const nonString = resolvePruneSettings({
      config: config({ mode: "cache-ttl", ttl: 20 }),
      algorithm: "2026.9",
    });
    expect(nonString.ttlMs).toBe(300_000);
    const zero = resolvePruneSettings({
      config: config({ mode: "cache-ttl", ttl: "0", hardClear: { placeholder: "   " } }),
      algorithm: "2026.9",
    });
    expect(zero.ttlMs).toBe(0);
    expect(zero.hardClear.placeholder).toBe("[Old tool result content cleared]");
  });
  it("Anthropic smart defaults fill mode and ttl only while mode is unset (cache-ttl, ttl ?? 1h); a manual mode without ttl is 5m", () => {
    const smart = resolvePruneSettings({ config: null, algorithm: "2026.9", anthropicSmartDefaults: true });
    expect(smart).toMatchObject({ mode: "cache-ttl", ttlMs: 3_600_000 });
    expect(smart.sources.mode).toBe("smart-default");
    // applyAnthropicConfigDefaults: `if (contextPruning?.mode === undefined)` — a set mode leaves ttl alone
    const anthropicManual = resolvePruneSettings({
      config: config({ mode: "cache-ttl" }),
      algorithm: "2026.9",
      anthropicSmartDefaults: true,
    });
    expect(anthropicManual.ttlMs).toBe(300_000);
    expect(anthropicManual.sources.ttl).toBe("default");
    const ttlOnly = resolvePruneSettings({
      config: config({ ttl: "20m" }),
      algorithm: "2026.9",
      anthropicSmartDefaults: true,
    });
    expect(ttlOnly).toMatchObject({ mode: "cache-ttl", ttlMs: 1_200_000 });
    expect(ttlOnly.sources).toMatchObject({ mode: "smart-default", ttl: "config" });
    const off = resolvePruneSettings({
      config: config({ mode: "off" }),
      algorithm: "2026.9",
      anthropicSmartDefaults: true,
    });
    expect(off).toMatchObject({ mode: "off", ttlMs: 300_000 });
    const manual = resolvePruneSettings({ config: config({ mode: "cache-ttl" }), algorithm: "2026.9" });
    expect(manual.ttlMs).toBe(300_000);
    expect(resolvePruneSettings({ config: null, algorithm: "2026.9" }).mode).toBe("off");
  });
  it("overrides win and are labelled", () => {
    const s = resolvePruneSettings({
      config: config({ mode: "off", ttl: "20s" }),
      algorithm: "2026.9",
      overrides: { mode: "cache-ttl", ttl: "2m", softTrimRatio: 0.2, deny: ["read"], hardClear: false },
    });
    expect(s).toMatchObject({
      mode: "cache-ttl",
      ttlMs: 120_000,
      softTrimRatio: 0.2,
      tools: { deny: ["read"] },
    });
    expect(s.hardClear.enabled).toBe(false);
    expect(s.sources.ttl).toBe("override");
  });
});

describe("tool-name globs (pruning.md §4)", () => {
  it("matches case-insensitively, anchored, with literal specials", () => {
    expect(globMatches("READ*", " read_file ")).toBe(true);
    expect(globMatches("*file", "read_file")).toBe(true);
    expect(globMatches("read", "read_file")).toBe(false);
    expect(globMatches("a.b", "axb")).toBe(false);
    expect(globMatches("a.b", "A.B")).toBe(true);
    expect(globMatches("*", "anything")).toBe(true);
    expect(globMatches("  ", "x")).toBe(false);
  });
  it("deny wins; empty allow allows all; otherwise must match allow", () => {
    const p = makeToolPredicate(["exec", "read*"], ["read_secret", "LS"]);
    expect(p("exec")).toBe(true);
    expect(p("Read_File")).toBe(true);
    expect(p("read_secret")).toBe(false);
    expect(p("ls")).toBe(false);
    expect(p("write")).toBe(false);
    const all = makeToolPredicate([], ["ls"]);
    expect(all("write")).toBe(true);
    expect(all("ls")).toBe(false);
  });
});

describe("character estimates", () => {
  it("2026.7 CJK weighting: CJK code point 4, astral CJK 4 (surrogate pair once), Latin unchanged", () => {
    expect(weightedChars2026_7("abc")).toBe(3);
    expect(weightedChars2026_7("字")).toBe(4);
    expect(weightedChars2026_7("a字b")).toBe(6);
    expect(weightedChars2026_7("\u{20000}")).toBe(4);
    expect(weightedChars2026_7("한")).toBe(4);
    expect(weightedChars2026_7("é")).toBe(1);
  });
  it("2026.9 weighted table: A 4, B 12, Cc 8, D 12, E 16", () => {
    expect(weightedChars2026_9("字")).toBe(4); // U+5B57 class A
    expect(weightedChars2026_9("·")).toBe(4); // U+00B7 class A
    expect(weightedChars2026_9("\u9FA6")).toBe(12); // class B
    expect(weightedChars2026_9("\u1100")).toBe(12); // Hangul Jamo, class B
    expect(weightedChars2026_9("\u02C7")).toBe(8); // class Cc
    expect(weightedChars2026_9("\uFF61")).toBe(8); // halfwidth, class Cc
    expect(weightedChars2026_9("\u{1D360}")).toBe(12); // class D
    expect(weightedChars2026_9("\u{20000}")).toBe(16); // class E
    expect(weightedChars2026_9("\u{1F600}")).toBe(2); // emoji: plain length
    expect(weightedChars2026_9("plain ascii")).toBe(11);
  });
  it("per-role estimates", () => {
    const user: JsonObject = {
      role: "user",
      content: [
        { type: "text", text: "字字" },
        { type: "image", data: "x" },
      ],
    };
    expect(estimateMessageChars("user", user, "2026.3")).toBe(2 + 8000);
    expect(estimateMessageChars("user", user, "2026.7")).toBe(8 + 8000);
    const assistant: JsonObject = {
      role: "assistant",
      content: [
        { type: "text", text: "hi" },
        { type: "thinking", thinking: "abc", thinkingSignature: "sig" },
        { type: "toolCall", id: "t", name: "exec", arguments: { cmd: "字" } },
      ],
    };
    expect(estimateMessageChars("assistant", assistant, "2026.3")).toBe(
      2 + 3 + JSON.stringify({ cmd: "字" }).length,
    );
    expect(estimateMessageChars("assistant", assistant, "2026.9")).toBe(
      2 + 3 + 3 + JSON.stringify({ cmd: "字" }).length,
    );
    const tr: JsonObject = { role: "toolResult", content: [{ type: "text", text: { a: 1 } }] };
    expect(estimateMessageChars("toolResult", tr, "2026.9")).toBe(JSON.stringify({ a: 1 }).length);
    expect(estimateMessageChars("compactionSummary", { role: "compactionSummary" }, "2026.9")).toBe(256);
    expect(estimateMessageChars("custom", { role: "custom", content: "x".repeat(5000) }, "2026.7")).toBe(256);
    expect(tokensFromChars(4001)).toBe(1001);
  });
});

describe("soft-trim and hard-clear texts (byte-exact)", () => {
  const cfg = { maxChars: 4000, headChars: 1500, tailChars: 1500 };
  it("head … tail + note; 3,087 chars for a 5-digit N, 3,086 for a 4-digit N", () => {
    const text = `${"h".repeat(1500)}${"m".repeat(12_000)}${"t".repeat(1500)}`;
    const out = softTrimText({ text, hasImage: false }, cfg, { utf16Safe: true, imagesForceRewrite: true });
    expect(out).toBe(
      `${"h".repeat(1500)}\n...\n${"t".repeat(1500)}\n\n[Tool result trimmed: kept first 1500 chars and last 1500 chars of 15000 chars.]`,
    );
    expect(out?.length).toBe(3087);
    const four = softTrimText({ text: "x".repeat(4001), hasImage: false }, cfg, {
      utf16Safe: true,
      imagesForceRewrite: true,
    });
    expect(four?.length).toBe(3086);
    expect(
      softTrimText({ text: "x".repeat(4000), hasImage: false }, cfg, {
        utf16Safe: true,
        imagesForceRewrite: true,
      }),
    ).toBeNull();
  });
  it("joins text parts with \\n; 7.1+ turns images into markers, 3.2 drops them", () => {
    const content: JsonValue = [
      { type: "text", text: "a" },
      { type: "image", data: "x", mimeType: "image/png" },
      { type: "text", text: "b" },
    ];
    expect(joinToolResultText(content, true).text).toBe(`a\n${IMAGE_REMOVED_MARKER}\nb`);
    expect(joinToolResultText(content, false).text).toBe("a\nb");
    // 7.1 / 9.x: a short result with images is still rewritten to one text block.
    expect(
      softTrimText(joinToolResultText(content, true), cfg, { utf16Safe: true, imagesForceRewrite: true }),
    ).toBe(`a\n${IMAGE_REMOVED_MARKER}\nb`);
  });
  it("2026.9 slices UTF-16-safely; older generations slice plainly", () => {
    const emoji = "\u{1F600}";
    const text = `${"a".repeat(1499)}${emoji}${"b".repeat(5000)}${emoji}${"c".repeat(1499)}`;
    const safe =
      softTrimText({ text, hasImage: false }, cfg, { utf16Safe: true, imagesForceRewrite: true }) ?? "";
    const head = safe.slice(0, safe.indexOf("\n...\n"));
    expect(head).toBe("a".repeat(1499)); // the lone high surrogate is dropped
    const tail = safe.slice(safe.indexOf("\n...\n") + 5, safe.indexOf("\n\n[Tool result trimmed"));
    expect(tail).toBe("c".repeat(1499)); // the lone low surrogate is dropped
    const plain =
      softTrimText({ text, hasImage: false }, cfg, { utf16Safe: false, imagesForceRewrite: true }) ?? "";
    expect(plain.slice(0, 1500)).toBe(`${"a".repeat(1499)}\uD83D`);
  });
});

/** A pruner view over a built message list, with 7.1 knob settings. */
function settingsFor(
  messages: ReturnType<typeof buildContextMessages>,
  flavor: "2026.3" | "2026.7" | "2026.9",
  over: Partial<PrunerSettings> = {},
): PrunerSettings {
  const softTrim = { maxChars: 4000, headChars: 1500, tailChars: 1500 };
  return {
    keepLastAssistants: 3,
    softTrimRatio: 0.3,
    hardClearRatio: 0.5,
    minPrunableToolChars: 50_000,
    softTrim,
    hardClearEnabled: true,
    placeholder: "[Old tool result content cleared]",
    isToolPrunable: makeToolPredicate([], []),
    flavor,
    softTrimChars: softTrimCharsFor(messages, softTrim, flavor),
    ...over,
  };
}

describe("stateless pruner (≤2026.7.1, §1.6)", () => {
  /** bootstrap read before the first user message, then 5 tool turns of 20k chars each. */
  function history(): { transcript: Transcript; ids: string[] } {
    const b = new Builder();
    b.toolTurn("read", "B".repeat(20_000)); // before the first user message: protected
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      b.user(`q${i}`);
      ids.push(b.toolTurn("exec", String(i).repeat(20_000)).callId);
      b.assistant([{ type: "text", text: "done" }]);
    }
    return { transcript: b.transcript(), ids };
  }

  it("soft-trims only between the first user message and the 3rd-last assistant", () => {
    const { transcript } = history();
    const msgs = buildContextMessages(transcript);
    const view = makePrunerInput(msgs, "2026.7", 75_000 * 4); // ratio 0.4: soft only
    const r = pruneStateless(view, settingsFor(msgs, "2026.7"), false);
    // 11 assistants; the 3rd-last is the tool call of turn 4 → results of turns 0–3 prunable, turn 4 protected.
    const changed = [...r.changes.keys()].map(
      (i) => msgs.find((m) => m.entryIndex === i)?.message.toolCallId,
    );
    expect(changed).toEqual(["toolu_2", "toolu_3", "toolu_4", "toolu_5"]);
    expect([...r.changes.values()].every((c) => c.state === "soft-trim" && c.chars === 3087)).toBe(true);
    expect(r.totalAfter).toBe(r.totalBefore - 4 * (20_000 - 3087));
  });
  it("keepLastAssistants moves the cutoff; 0 protects nothing; too few assistants → unchanged", () => {
    const { transcript } = history();
    const msgs = buildContextMessages(transcript);
    const view = makePrunerInput(msgs, "2026.7", 75_000 * 4);
    expect(
      pruneStateless(view, settingsFor(msgs, "2026.7", { keepLastAssistants: 5 }), false).changes.size,
    ).toBe(3);
    expect(
      pruneStateless(view, settingsFor(msgs, "2026.7", { keepLastAssistants: 0 }), false).changes.size,
    ).toBe(5);
    const few = pruneStateless(view, settingsFor(msgs, "2026.7", { keepLastAssistants: 50 }), false);
    expect(few.reason).toBe("too-few-assistants");
  });
  it("below softTrimRatio nothing happens", () => {
    const { transcript } = history();
    const msgs = buildContextMessages(transcript);
    const r = pruneStateless(
      makePrunerInput(msgs, "2026.7", 1_000_000 * 4),
      settingsFor(msgs, "2026.7"),
      false,
    );
    expect(r.reason).toBe("below-soft-trim-ratio");
    expect(r.changes.size).toBe(0);
  });
  it("hard-clears oldest first, stopping once below hardClearRatio; respects minPrunableToolChars and enabled", () => {
    const { transcript } = history();
    const msgs = buildContextMessages(transcript);
    const view = makePrunerInput(msgs, "2026.7", 30_000 * 4); // total ≈ 120k chars → ratio ≈ 1
    const s = settingsFor(msgs, "2026.7", {
      softTrim: { maxChars: 100_000, headChars: 1500, tailChars: 1500 },
      minPrunableToolChars: 0,
    });
    s.softTrimChars = softTrimCharsFor(msgs, s.softTrim, "2026.7");
    const r = pruneStateless(view, s, false);
    const order = [...r.changes.entries()].filter(([, c]) => c.state === "hard-clear").map(([i]) => i);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(r.totalAfter / view.charWindow).toBeLessThan(0.5);
    // Clearing stopped as soon as the ratio fell below 0.5: one fewer clear would still be ≥ 0.5.
    expect((r.totalAfter + 20_000 - 33) / view.charWindow).toBeGreaterThanOrEqual(0.5);
    expect(pruneStateless(view, { ...s, minPrunableToolChars: 10_000_000 }, false).changes.size).toBe(0);
    expect(pruneStateless(view, { ...s, hardClearEnabled: false }, false).changes.size).toBe(0);
  });
  it("2026.3.2 never prunes results with images; 2026.7.1 turns them into markers", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) {
      b.user(`q${i}`);
      b.toolTurn("browser", [
        { type: "text", text: "shot" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]);
      b.assistant([{ type: "text", text: "ok" }]);
    }
    const msgs = buildContextMessages(b.transcript());
    const v32 = makePrunerInput(msgs, "2026.3", 1000 * 4);
    expect(pruneStateless(v32, settingsFor(msgs, "2026.3"), true).changes.size).toBe(0);
    const v71 = makePrunerInput(msgs, "2026.7", 1000 * 4);
    const r71 = pruneStateless(v71, settingsFor(msgs, "2026.7", { hardClearEnabled: false }), false);
    // 8 assistants: the 3rd-last is turn 2's reply → the results of turns 0–2 are rewritten.
    const markerText = `shot\n${IMAGE_REMOVED_MARKER}`;
    expect([...r71.changes.values()].map((c) => c.chars)).toEqual([
      markerText.length,
      markerText.length,
      markerText.length,
    ]);
  });
});

describe("sticky pruner (2026.9.x, §2.4)", () => {
  it("skips hard results, keeps soft ones soft but eligible for hard clear", () => {
    const b = new Builder();
    const resultIdx: number[] = [];
    for (let i = 0; i < 6; i++) {
      b.user(`q${i}`);
      b.toolTurn("exec", String(i).repeat(20_000));
      resultIdx.push(b.rows.length - 1);
      b.assistant([{ type: "text", text: "ok" }]);
    }
    const msgs = buildContextMessages(b.transcript());
    const view = makePrunerInput(msgs, "2026.9", 40_000 * 4);
    const [r0, r1] = resultIdx;
    const proj = new Map([
      [r0 ?? -1, { mode: "hard" as const, chars: 33 }],
      [r1 ?? -1, { mode: "soft" as const, chars: 3087 }],
    ]);
    const projected = { ...view, totalChars: view.totalChars - (20_000 - 33) - (20_000 - 3087) };
    const noSoft = settingsFor(msgs, "2026.9", { minPrunableToolChars: 0, softTrimChars: () => null });
    const r = pruneSticky({ ...projected, charWindow: 20_000 * 4 }, proj, noSoft);
    expect(r.changes.has(r0 ?? -1)).toBe(false); // hard stays hard, not re-cleared
    expect(r.changes.get(r1 ?? -1)?.state).toBe("hard-clear"); // soft → hard (oldest eligible first)
  });
});

describe("replay: TTL clock, rounds and stickiness", () => {
  it("never prunes on the first run; prunes after an idle gap ≥ ttl from the cache-touch marker", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000);
    const r = replay(b, "2026.9", { mode: "cache-ttl", ttl: "30s" });
    expect(r.calls[0]?.gate).toBe("no-cache-touch");
    expect(r.calls[2]?.gate).toBe("ttl-not-expired");
    const roundCall = r.calls.findIndex((c) => c.round !== "none");
    expect(roundCall).toBe(8); // first call of the 5th turn
    expect(r.calls[8]?.idleMs).toBeGreaterThanOrEqual(30_000);
    // 8 assistants in the list: the 3rd-last is turn 2's reply → turns 0–2 soft, turn 3 protected.
    expect(statesOf(r)[8]).toBe("SSSF");
    // 2026.9.x is sticky: the next call (inside the renewed TTL) still sends them soft-trimmed.
    expect(statesOf(r)[9]).toBe("SSSFF");
    expect(r.calls[9]?.ttlExpired).toBe(false);
  });
  it("≤2026.7.1 is stateless: the next call inside the renewed TTL goes out unpruned", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000);
    const r = replay(b, "2026.7", { mode: "cache-ttl", ttl: "30s" });
    expect(statesOf(r)[8]).toBe("SSSF");
    expect(statesOf(r)[9]).toBe("FFFFF");
    expect(r.calls[9]?.details.filter((d) => d.changedThisCall).length).toBe(3);
  });
  it("7.1 matches markers by provider/model; 3.2 ignores them", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.t += 60_000;
    b.marker("openai", "gpt-x"); // a recent marker for another model
    b.turn("exec", "z".repeat(100), 1000);
    const r71 = replay(b, "2026.7", { mode: "cache-ttl", ttl: "30s" });
    expect(r71.calls[8]?.ttlExpired).toBe(true);
    expect(r71.calls[8]?.round).toBe("soft-trim");
    const r32 = replay(b, "2026.3", { mode: "cache-ttl", ttl: "30s" });
    expect(r32.calls[8]?.ttlExpired).toBe(false);
    expect(r32.calls[8]?.gate).toBe("ttl-not-expired");
  });
  it("2026.9 refreshes the clock after every successful request inside a long tool loop", () => {
    const b = new Builder();
    b.turn("exec", "a".repeat(6000), 0);
    b.t += 1000;
    b.user("long loop");
    for (let i = 0; i < 5; i++) {
      b.t += 20_000; // each call 20 s after the previous one, ttl 30 s
      b.toolTurn("exec", String(i).repeat(6000));
    }
    b.t += 20_000;
    b.assistant([{ type: "text", text: "done" }]);
    const r9 = replay(b, "2026.9", { mode: "cache-ttl", ttl: "30s" });
    expect(r9.calls.slice(3).every((c) => !c.ttlExpired)).toBe(true);
    // 7.1 does not refresh on success: the clock stays at the attempt-start marker.
    const r7 = replay(b, "2026.7", { mode: "cache-ttl", ttl: "30s" });
    expect(r7.calls.slice(3).some((c) => c.ttlExpired)).toBe(true);
  });
  it("2026.8.1–2026.9.1: fixed thresholds, weighted estimate, but stateless — the next call is unpruned again", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000);
    // the 2026.7 knobs are gone from 8.1 on: configured, they are ignored with a warning
    const cp = { mode: "cache-ttl", ttl: "30s", softTrimRatio: 0.9 };
    for (const app of ["2026.8.1", "2026.8.2", "2026.9.1"]) {
      const r = replay(b, "2026.9", cp, undefined, 10_000, app);
      expect(r.algorithm).toBe("2026.8");
      expect(r.algorithmReason).toContain("persists no projection");
      expect(r.settings.softTrimRatio).toBe(0.3);
      expect(r.settings.warnings.some((w) => w.includes("softTrimRatio no longer exists"))).toBe(true);
      expect(statesOf(r)[8]).toBe("SSSF");
      expect(statesOf(r)[9]).toBe("FFFFF");
    }
    // 2026.9.2 keeps them soft (sticky) — like 2026.9.6
    const r92 = replay(b, "2026.9", cp, undefined, 10_000, "2026.9.2");
    expect(r92.algorithm).toBe("2026.9");
    expect(statesOf(r92)[9]).toBe("SSSFF");
  });
  it("2026.9.2 moves the TTL clock only when a round prunes; 2026.9.3 on, every successful request", () => {
    const b = new Builder();
    b.turn("exec", "a".repeat(6000), 0);
    b.t += 1000;
    b.user("long loop");
    for (let i = 0; i < 5; i++) {
      b.t += 20_000; // each call 20 s after the previous one, ttl 30 s
      b.toolTurn("exec", String(i).repeat(6000));
    }
    b.t += 20_000;
    b.assistant([{ type: "text", text: "done" }]);
    const cp = { mode: "cache-ttl", ttl: "30s" };
    const r93 = replay(b, "2026.9", cp, undefined, 10_000, "2026.9.3");
    expect(r93.calls.slice(3).every((c) => !c.ttlExpired)).toBe(true);
    const r92 = replay(b, "2026.9", cp, undefined, 10_000, "2026.9.2");
    expect(r92.algorithm).toBe("2026.9");
    expect(r92.calls.slice(3).some((c) => c.ttlExpired)).toBe(true);
    expect(r92.algorithmReason).toContain("recordCacheTouch arrived in 2026.9.3");
  });
  it("a reset starts an empty window and drops projections (E5)", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000); // round: three results soft
    b.add({ type: "reset", reason: "new" });
    b.turn("exec", "n".repeat(6000), 1000);
    const r = replay(b, "2026.9", { mode: "cache-ttl", ttl: "30s" });
    expect(statesOf(r)[9]).toBe("SSSFF");
    expect(Object.keys(r.calls[10]?.toolResults ?? {})).toEqual([]);
    expect(Object.keys(r.calls[11]?.toolResults ?? {})).toEqual(["toolu_6"]);
    expect(r.calls[11]?.messageCount).toBe(3);
  });
  it("custom placeholder and deny list in a hard-clear round", () => {
    const b = new Builder();
    // 20 results of 3,900 chars (below softTrim.maxChars, so only hard clear can shrink them).
    for (let i = 0; i < 20; i++) b.turn(i === 0 ? "ls" : "exec", String(i % 10).repeat(3900), 1000);
    b.turn("exec", "z", 60_000);
    const cp = {
      mode: "cache-ttl",
      ttl: "30s",
      tools: { deny: ["ls"] },
      hardClear: { placeholder: " [gone] " },
    };
    const r = replay(b, "2026.9", cp, undefined, 20_000); // 80k char window, ~78k chars of results
    const call = r.calls[40];
    expect(call?.round).toBe("hard-clear");
    // ls (turn 0) is denied: never touched; exec results are cleared oldest first until below 0.5.
    expect(statesOf(r)[40]?.[0]).toBe("F");
    const cleared = call?.details.filter((d) => d.state === "hard-clear") ?? [];
    expect(cleared.map((d) => d.toolCallId)).toEqual(cleared.map((_, i) => `toolu_${i + 2}`));
    expect(cleared.every((d) => d.charsSent === "[gone]".length)).toBe(true);
    expect(call?.ratioAfter).toBeLessThan(0.5);
    expect((call?.totalCharsAfter ?? 0) + 3900 - 6).toBeGreaterThanOrEqual(0.5 * 80_000);
  });
  it("2026.9 with a direct Anthropic API key: server-side clearing, no local rounds, flagged", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000);
    const direct: JsonObject = {
      agents: { defaults: { contextPruning: { mode: "cache-ttl", ttl: "30s" } } },
      models: {
        providers: {
          anthropic: { apiKey: "sk-ant-api03-x", models: [{ id: "claude-x", contextWindow: 10_000 }] },
        },
      },
    };
    const r = replayPruning({ session: b.session("2026.9"), config: direct, sha256Base64Url });
    expect(r.eligibility.path).toBe("server-side");
    expect(r.rounds).toBe(0);
    expect(r.calls[8]?.gate).toBe("server-side");
    expect(r.calls[8]?.flags.some((f) => f.includes("context_management"))).toBe(true);
    expect(r.next.prediction).toContain("server-side");
    expect(r.next.ttlEffect).toBeNull(); // the clock does not decide it
  });
  it("a transcript appended in place (live tail) is re-prepared, not served from a stale cache", () => {
    const b = new Builder();
    b.turn("exec", "a".repeat(100), 1000);
    const session = b.session("2026.9");
    const cfg = config({ mode: "cache-ttl", ttl: "30s" });
    expect(replayPruning({ session, config: cfg, sha256Base64Url }).calls.length).toBe(2);
    b.turn("read", "b".repeat(100), 1000);
    const grown = b.transcript();
    session.transcript.entries = grown.entries;
    session.transcript.activeBranch = grown.activeBranch;
    session.transcript.leafIndex = grown.leafIndex;
    const r = replayPruning({ session, config: cfg, sha256Base64Url });
    expect(Object.keys(r.calls.at(-1)?.toolResults ?? {})).toEqual(["toolu_1", "toolu_2"]);
  });
  it("mode off and ttl 0 never open a round; what-if overrides do", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", String(i).repeat(6000), 1000);
    b.turn("exec", "z".repeat(100), 60_000);
    expect(replay(b, "2026.9", { mode: "off", ttl: "30s" }).rounds).toBe(0);
    expect(
      replay(b, "2026.9", { mode: "cache-ttl", ttl: "0" }).calls.every((c) => c.gate === "ttl-disabled"),
    ).toBe(true);
    expect(replay(b, "2026.9", { mode: "off" }, { mode: "cache-ttl", ttl: "30s" }).rounds).toBe(1);
    // deny the tool: nothing prunable
    expect(replay(b, "2026.9", { mode: "cache-ttl", ttl: "30s", tools: { deny: ["EXEC"] } }).rounds).toBe(0);
  });
  it("next: TTL countdown and a prediction without mutating the replay", () => {
    const b = new Builder();
    for (let i = 0; i < 5; i++) b.turn("exec", String(i).repeat(6000), 1000);
    const last = b.t;
    const s = b.session("2026.9");
    const cfg = config({ mode: "cache-ttl", ttl: "30s" });
    const soon = replayPruning({ session: s, config: cfg, sha256Base64Url, at: last + 10_000 });
    expect(soon.next.ttlExpired).toBe(false);
    expect(soon.next.wouldPrune).toBe(false);
    expect(soon.next.msUntilTtlExpiry).toBe(20_000);
    expect(soon.next.prediction).toContain("TTL expires in 20s");
    const later = replayPruning({ session: s, config: cfg, sha256Base64Url, at: last + 60_000 });
    // the clock's sentence is ttlSentence(msUntilTtlExpiry, ttlEffect): what the dashboard re-says as it ticks
    for (const n of [soon.next, later.next]) {
      expect(n.ttlEffect).toEqual(expect.stringMatching(/^a round would |^nothing would change/));
      expect(n.prediction).toBe(ttlSentence(n.msUntilTtlExpiry ?? Number.NaN, n.ttlEffect ?? ""));
    }
    expect(later.next.prediction).toMatch(/^TTL expired 30s ago; the next message: a round would soft-trim/);
    expect(later.next.ttlExpired).toBe(true);
    expect(later.next.wouldPrune).toBe(true);
    // + the hypothetical user message: 10 assistants, the 3rd-last is turn 3's reply.
    expect(Object.values(later.next.toolResults)).toEqual([
      "soft-trim",
      "soft-trim",
      "soft-trim",
      "soft-trim",
      "full",
    ]);
    expect(later.calls).toEqual(soon.calls);
  });
  it("preview shows head … tail + note, or the placeholder", () => {
    const b = new Builder();
    for (let i = 0; i < 4; i++) b.turn("exec", `${"x".repeat(3000)}${i}${"y".repeat(3000)}`, 1000);
    b.turn("exec", "z", 60_000);
    const session = b.session("2026.9");
    const r = runReplay({ session, config: config({ mode: "cache-ttl", ttl: "30s" }), sha256Base64Url });
    const p = previewToolResultAtCall({ session, replay: r, callIndex: 8, toolCallId: "toolu_1" });
    expect(p?.state).toBe("soft-trim");
    expect(p?.after).toBe(
      `${"x".repeat(1500)}\n...\n${"y".repeat(1500)}\n\n[Tool result trimmed: kept first 1500 chars and last 1500 chars of 6001 chars.]`,
    );
    expect(p?.before.length).toBe(6001);
  });
});

describe("replay: snapshot restore (2026.9 markers)", () => {
  function withSnapshot(hashText: string): Builder {
    const b = new Builder();
    const ids: { callId: string; ts: number }[] = [];
    for (let i = 0; i < 4; i++) {
      b.turn("exec", String(i).repeat(6000), 1000);
      const tr = b.rows.findLast(
        (raw) => raw.message !== undefined && JSON.stringify(raw).includes('"toolResult"'),
      );
      const m = tr?.message;
      if (m && typeof m === "object" && !Array.isArray(m))
        ids.push({ callId: String(m.toolCallId), ts: Number(m.timestamp) });
    }
    const first = ids[0];
    if (!first) throw new Error("no result");
    const key = `tool:${first.callId}:${first.ts}`;
    b.add({
      type: "custom",
      customType: "openclaw.cache-ttl",
      data: {
        prunedToolResults: [{ key, mode: "hard", placeholder: "[cleared by snapshot]" }],
        ambiguousToolResultBaseKeys: [],
        frozenToolResults: [
          { key, sourceHash: sourceHash([{ type: "text", text: hashText }], sha256Base64Url) },
        ],
      },
    });
    b.turn("exec", "z", 1000);
    return b;
  }
  it("restores a hard projection whose sourceHash matches", () => {
    const r = replay(withSnapshot("0".repeat(6000)), "2026.9", { mode: "cache-ttl", ttl: "1h" });
    expect(statesOf(r).at(-1)).toBe("HFFFF");
    expect(r.calls.at(-1)?.details[0]?.charsSent).toBe("[cleared by snapshot]".length);
  });
  it("drops a mark whose sourceHash no longer matches, and flags the disagreement", () => {
    const r = replay(withSnapshot("something else"), "2026.9", { mode: "cache-ttl", ttl: "1h" });
    expect(statesOf(r).at(-1)).toBe("FFFFF");
    expect(r.calls.at(-1)?.snapshotCheck.status).toBe("mismatch");
    expect(r.snapshotMismatchCalls).toBeGreaterThan(0);
  });
});

describe("model-context list (transcript.md §6–§8)", () => {
  it("windows at the last compaction: summary + kept path entries + later entries", () => {
    const b = new Builder();
    b.user("old");
    b.assistant([{ type: "text", text: "a0" }]);
    const kept = b.user("kept");
    b.assistant([{ type: "text", text: "a1" }]);
    b.add({ type: "compaction", summary: "first", firstKeptEntryId: "e0", tokensBefore: 1 });
    b.user("mid");
    b.add({ type: "compaction", summary: "S", firstKeptEntryId: kept, tokensBefore: 1 });
    b.user("after");
    const msgs = buildContextMessages(b.transcript());
    expect(msgs.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user", "user"]);
    expect(msgs[0]?.message.content).toEqual([
      { type: "text", text: `${COMPACTION_SUMMARY_PREFIX}S\n</summary>` },
    ]);
    // beforeIndex: the list a call at entry 4 saw (before the compactions)
    expect(buildContextMessages(b.transcript(), { beforeIndex: 4 }).length).toBe(4);
  });
  it("drops transcript-only assistants, excludeFromContext pairs, custom/label rows; keeps custom_message and branch summaries", () => {
    const b = new Builder();
    b.user("hi");
    b.add({ type: "custom", customType: "model-snapshot", data: {} });
    b.add({ type: "label", targetId: "e0", label: "x" });
    b.assistant([{ type: "text", text: "injected" }], { provider: "openclaw", model: "gateway-injected" });
    b.user("/status", { excluded: true });
    b.add({
      type: "message",
      message: { role: "assistant", content: [], provider: "openclaw", model: "x", excludeFromContext: true },
    });
    b.add({ type: "custom_message", customType: "openclaw.sessions_yield", content: "wait", display: false });
    b.add({ type: "branch_summary", fromId: "e0", summary: "" });
    b.add({ type: "branch_summary", fromId: "e0", summary: "B" });
    b.add({ type: "model_change", provider: "anthropic", modelId: "m" });
    const msgs = buildContextMessages(b.transcript());
    expect(msgs.map((m) => m.role)).toEqual(["user", "custom", "branchSummary"]);
    expect(msgs[2]?.message.content).toEqual([{ type: "text", text: `${BRANCH_SUMMARY_PREFIX}B</summary>` }]);
  });
  it("starts after the newest reset", () => {
    const b = new Builder();
    b.user("before");
    b.add({ type: "reset", reason: "new" });
    b.user("after");
    expect(buildContextMessages(b.transcript()).map((m) => m.message.content)).toEqual(["after"]);
  });
});

describe("eligibility and context window", () => {
  const base = { modelId: "claude-x", config: null } as const;
  it("eligibility per generation", () => {
    expect(
      resolveEligibility({
        ...base,
        algorithm: "2026.7",
        provider: "openai",
        modelId: "gpt-5",
        api: "openai-responses",
      }).path,
    ).toBe("none");
    expect(
      resolveEligibility({ ...base, algorithm: "2026.7", provider: "custom", api: "anthropic-messages" })
        .path,
    ).toBe("client");
    expect(
      resolveEligibility({ ...base, algorithm: "2026.3", provider: "custom", api: "anthropic-messages" })
        .path,
    ).toBe("none");
    expect(
      resolveEligibility({
        ...base,
        algorithm: "2026.3",
        provider: "openrouter",
        modelId: "moonshotai/kimi",
        api: null,
      }).path,
    ).toBe("client");
    expect(
      resolveEligibility({
        ...base,
        algorithm: "2026.7",
        provider: "google",
        modelId: "gemini-2.5-pro",
        api: "google-generative-ai",
      }).path,
    ).toBe("client");
    expect(
      resolveEligibility({
        ...base,
        algorithm: "2026.7",
        provider: "amazon-bedrock",
        modelId: "anthropic.claude-3",
        api: null,
      }).path,
    ).toBe("client");
  });
  it("2026.9 direct Anthropic API → server-side; custom base URL or OAuth token → client", () => {
    const direct = resolveEligibility({
      ...base,
      algorithm: "2026.9",
      provider: "anthropic",
      api: "anthropic-messages",
    });
    expect(direct.path).toBe("server-side");
    const viaHost = (baseUrl: string, apiKey?: string) =>
      resolveEligibility({
        ...base,
        algorithm: "2026.9",
        provider: "anthropic",
        api: "anthropic-messages",
        config: { models: { providers: { anthropic: { baseUrl, ...(apiKey ? { apiKey } : {}) } } } },
      }).path;
    expect(viaHost("https://api.anthropic.com/v1")).toBe("server-side");
    expect(viaHost("http://127.0.0.1:18080")).toBe("client");
    expect(viaHost("", "sk-ant-oat01-abc")).toBe("client");
    expect(
      resolveEligibility({ ...base, algorithm: "2026.7", provider: "anthropic", api: "anthropic-messages" })
        .path,
    ).toBe("client");
  });
  it("2026.9.6: the OpenAI plugin makes provider openai eligible on OpenAI's own endpoints or with supportsPromptCacheKey", () => {
    const openai = (config: JsonObject | null, openaiHook = true) =>
      resolveEligibility({
        algorithm: "2026.9",
        provider: "openai",
        modelId: "gpt-5",
        api: "openai-responses",
        config,
        openaiHook,
      });
    expect(openai(null).path).toBe("client");
    expect(openai(null).reason).toContain("default base URL");
    const provider = (baseUrl: string, compat?: JsonObject) => ({
      models: {
        providers: { openai: { baseUrl, models: [{ id: "gpt-5", ...(compat ? { compat } : {}) }] } },
      },
    });
    expect(openai(provider("https://api.openai.com/v1")).path).toBe("client");
    expect(openai(provider("https://chatgpt.com/backend-api/codex")).path).toBe("client");
    expect(openai(provider("https://proxy.example/v1")).path).toBe("none");
    expect(openai(provider("http://api.openai.com/v1")).path).toBe("none");
    expect(openai(provider("https://proxy.example/v1", { supportsPromptCacheKey: true })).path).toBe(
      "client",
    );
    expect(openai(provider("https://api.openai.com/v1", { supportsPromptCacheKey: false })).path).toBe(
      "none",
    );
    // before 2026.9.6 no such hook: OpenAI is never eligible
    expect(openai(null, false).path).toBe("none");
  });
  it("the OpenAI hook is 2026.9.6's; OpenRouter's model families per release", () => {
    expect(pruningGeneration({ family: "2026.9", appVersion: "2026.9.6" }).openaiHook).toBe(true);
    expect(pruningGeneration({ family: "2026.9", appVersion: "2026.9.5" }).openaiHook).toBe(false);
    expect(pruningGeneration({ family: "2026.9", appVersion: null }).openaiHook).toBe(true);
    const or = (algorithm: "2026.7" | "2026.8", modelId: string) =>
      resolveEligibility({ algorithm, provider: "openrouter", modelId, api: null, config: null }).path;
    expect(or("2026.8", "z-ai/glm-4.6")).toBe("client");
    expect(or("2026.8", "openrouter/anthropic/claude-x")).toBe("client");
    expect(or("2026.7", "z-ai/glm-4.6")).toBe("none");
    expect(or("2026.7", "deepseek/deepseek-v3")).toBe("client");
  });
  it("context window: config → stored budget → stored contextTokens → 200000, capped by agents.defaults.contextTokens", () => {
    const cfg = config({}, 100_000);
    expect(
      resolveContextWindow({ config: cfg, provider: "anthropic", modelId: "claude-x", entry: null }).tokens,
    ).toBe(100_000);
    const entry = { contextTokens: 60_000, contextBudgetStatus: { contextTokenBudget: 120_000 } };
    expect(
      resolveContextWindow({ config: null, provider: "anthropic", modelId: "claude-x", entry }).tokens,
    ).toBe(120_000);
    expect(
      resolveContextWindow({
        config: null,
        provider: "anthropic",
        modelId: "claude-x",
        entry: { contextTokens: 60_000 },
      }).tokens,
    ).toBe(60_000);
    expect(resolveContextWindow({ config: null, provider: null, modelId: null, entry: null }).tokens).toBe(
      200_000,
    );
    const capped = { ...cfg, agents: { defaults: { contextTokens: 50_000 } } };
    const w = resolveContextWindow({
      config: capped,
      provider: "anthropic",
      modelId: "claude-x",
      entry: null,
    });
    expect(w).toEqual({ tokens: 50_000, source: "agents.defaults.contextTokens (cap)" });
  });
});
