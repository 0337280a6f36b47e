// Unit tests for the `/context` formatting rules and the differences between the 2026.3 / 2026.7 / 2026.9 rule
// families, on hand-built reports (spec context-report.md §3–§6, bootstrap.md §6). The byte-for-byte checks
// against real OpenClaw replies are in test/golden/context-text.test.ts.

import { describe, expect, it } from "vitest";
import type { Transcript, TranscriptEntry } from "../../server/model/session.ts";
import { countTranscriptMessages, findCommandMessageIndex } from "../../server/openclaw/compactable-count.ts";
import { NO_RUN_REPORT_NOTICE, renderContextText } from "../../server/openclaw/context-text/context-text.ts";
import {
  formatCharsAndTokens,
  formatInt,
  formatListTop,
  formatNameList,
} from "../../server/openclaw/format.ts";
import { contextHelpText, MAP_UNAVAILABLE_TEXT } from "../../server/openclaw/texts.ts";
import { tokensFromChars } from "../../server/openclaw/token-estimate.ts";
import type { JsonObject } from "../../shared/json.ts";

interface FileSpec {
  name: string;
  raw: number;
  injected: number;
  truncated?: boolean;
  missing?: boolean;
  injectionStatus?: string;
}

function file(f: FileSpec): JsonObject {
  return {
    name: f.name,
    path: `/ws/${f.name}`,
    missing: f.missing ?? false,
    rawChars: f.raw,
    injectedChars: f.injected,
    truncated: f.truncated ?? false,
    ...(f.injectionStatus ? { injectionStatus: f.injectionStatus } : {}),
  };
}

function report(over: Partial<Record<string, JsonObject[keyof JsonObject]>> = {}): JsonObject {
  const base: JsonObject = {
    source: "run",
    generatedAt: 1,
    sessionId: "s",
    sessionKey: "agent:main:main",
    provider: "anthropic",
    model: "m",
    workspaceDir: "/ws",
    bootstrapMaxChars: 20000,
    bootstrapTotalMaxChars: 60000,
    sandbox: { mode: "off", sandboxed: false },
    systemPrompt: { chars: 10000, projectContextChars: 4000, nonProjectContextChars: 6000 },
    injectedWorkspaceFiles: [file({ name: "AGENTS.md", raw: 4000, injected: 4000 })],
    skills: { promptChars: 500, entries: [{ name: "a", blockChars: 100 }] },
    tools: {
      listChars: 0,
      schemaChars: 300,
      entries: [{ name: "read", summaryChars: 10, schemaChars: 300, propertiesCount: 2 }],
    },
    currentTurn: { promptChars: 40, runtimeContextChars: 8, modelOnlyPromptChars: 0 },
  };
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = v;
  return out;
}

function entry(rep: JsonObject | null, over: JsonObject = {}): JsonObject {
  return {
    sessionId: "s",
    totalTokens: 12345,
    totalTokensFresh: true,
    totalTokensVersion: 1,
    inputTokens: 10,
    outputTokens: 20,
    contextTokens: 200000,
    ...(rep ? { systemPromptReport: rep } : {}),
    ...over,
  };
}

const lines = (text: string): string[] => text.split("\n");

describe("format (spec §3)", () => {
  it("groups integers en-US and estimates tokens as ceil(max(0, chars) / 4)", () => {
    expect(formatInt(1234567)).toBe("1,234,567");
    expect(formatInt(999)).toBe("999");
    expect([0, 1, 4, 5, -7].map(tokensFromChars)).toEqual([0, 1, 1, 2, 0]);
    expect(formatCharsAndTokens(16640)).toBe("16,640 chars (~4,160 tok)");
    expect(formatCharsAndTokens(5263)).toBe("5,263 chars (~1,316 tok)");
  });

  it("name lists cut after the cap with `, … (+N more)`", () => {
    const names = Array.from({ length: 23 }, (_, i) => `n${i}`);
    expect(formatNameList(names, 20)).toBe(`${names.slice(0, 20).join(", ")}, … (+3 more)`);
    expect(formatNameList(names.slice(0, 20), 20)).toBe(names.slice(0, 20).join(", "));
  });

  it("top lists sort descending, stable for ties, cap 30 with an omitted count", () => {
    const items = Array.from({ length: 35 }, (_, i) => ({ name: `t${i}`, value: i % 3 === 0 ? 50 : 10 }));
    const { lines: top, omitted } = formatListTop(items);
    expect(omitted).toBe(5);
    expect(top).toHaveLength(30);
    // All 12 value-50 items first in report order, then value-10 items in report order.
    const fifties = items.filter((x) => x.value === 50).map((x) => `- ${x.name}: 50 chars (~13 tok)`);
    expect(top.slice(0, 12)).toEqual(fifties);
    expect(top[12]).toBe("- t1: 10 chars (~3 tok)");
    expect(top[13]).toBe("- t2: 10 chars (~3 tok)");
  });
});

describe("help, map-unavailable and the no-run-report notice", () => {
  it("2026.3.2 help has no map line and the short detail line; 7.1/9.x add both", () => {
    const h32 = contextHelpText("2026.3");
    expect(h32).toContain("- /context detail (per-file + per-tool + per-skill + system prompt size)\n");
    expect(h32).not.toContain("/context map");
    for (const fam of ["2026.7", "2026.9"] as const) {
      const h = renderContextText({ mode: "help", family: fam, entry: {} });
      expect(lines(h)).toEqual([
        "🧠 /context",
        "",
        "What counts as context (high-level), plus a breakdown mode.",
        "",
        "Try:",
        "- /context list   (short breakdown)",
        "- /context detail (per-file + per-tool + per-skill + system prompt size + compactable transcript counts)",
        "- /context map    (WinDirStat-style treemap image)",
        "- /context json   (same, machine-readable)",
        "",
        "Inline shortcut = a command token inside a normal message (e.g. “hey /status”). It runs immediately (allowlisted senders only) and is stripped before the model sees the remaining text.",
      ]);
    }
  });

  it("without a stored run report list/detail/json give clawscope's notice; map gives OpenClaw's 3 lines", () => {
    for (const e of [entry(null), entry(report({ source: "estimate" }))]) {
      for (const mode of ["list", "detail", "json"] as const) {
        expect(renderContextText({ mode, family: "2026.9", entry: e })).toBe(NO_RUN_REPORT_NOTICE);
      }
    }
    expect(NO_RUN_REPORT_NOTICE.startsWith("clawscope:")).toBe(true);
    expect(renderContextText({ mode: "map-unavailable", family: "2026.9", entry: entry(null) })).toBe(
      "Context treemap unavailable.\nNo actual run context is cached for this session yet.\nSend a normal message, then run /context map again.",
    );
    expect(MAP_UNAVAILABLE_TEXT.split("\n")).toHaveLength(3);
  });
});

describe("unknown sub-command (spec §5)", () => {
  it("names map from 2026.7 on; 2026.3.2 answers /context map with the unknown-mode reply", () => {
    expect(renderContextText({ mode: "unknown", family: "2026.9", entry: {} })).toBe(
      "Unknown /context mode.\nUse: /context, /context list, /context detail, /context map, or /context json",
    );
    const u32 = "Unknown /context mode.\nUse: /context, /context list, /context detail, or /context json";
    expect(renderContextText({ mode: "unknown", family: "2026.3", entry: {} })).toBe(u32);
    expect(renderContextText({ mode: "map-unavailable", family: "2026.3", entry: {} })).toBe(u32);
    expect(renderContextText({ mode: "map-unavailable", family: "2026.7", entry: {} })).toBe(
      MAP_UNAVAILABLE_TEXT,
    );
  });
});

describe("Session tokens line per version (spec §4)", () => {
  const sessionLine = (family: "2026.3" | "2026.7" | "2026.9", e: JsonObject): string | undefined =>
    lines(renderContextText({ mode: "list", family, entry: e })).at(-3);

  it("2026.3.2 shows any stored total and prints ctx ungrouped", () => {
    expect(sessionLine("2026.3", entry(report(), { totalTokensFresh: false }))).toBe(
      "Session tokens (cached): 12,345 total / ctx=200000",
    );
    expect(sessionLine("2026.3", entry(report(), { contextTokens: null }))).toBe(
      "Session tokens (cached): 12,345 total / ctx=?",
    );
  });

  it("2026.7.1 hides a total marked not fresh and groups ctx; a missing fresh flag still shows it", () => {
    expect(sessionLine("2026.7", entry(report(), { totalTokensFresh: false }))).toBe(
      "Session tokens (cached): unknown / ctx=200,000",
    );
    const noFlag = entry(report());
    delete noFlag.totalTokensFresh;
    delete noFlag.totalTokensVersion;
    expect(sessionLine("2026.7", noFlag)).toBe("Session tokens (cached): 12,345 total / ctx=200,000");
  });

  it("2026.9.x needs totalTokensFresh === true and totalTokensVersion === 1", () => {
    expect(sessionLine("2026.9", entry(report()))).toBe(
      "Session tokens (cached): 12,345 total / ctx=200,000",
    );
    const noVersion = entry(report());
    delete noVersion.totalTokensVersion;
    expect(sessionLine("2026.9", noVersion)).toBe("Session tokens (cached): unknown / ctx=200,000");
    const noFlag = entry(report());
    delete noFlag.totalTokensFresh;
    expect(sessionLine("2026.9", noFlag)).toBe("Session tokens (cached): unknown / ctx=200,000");
  });
});

describe("bootstrap warning block per version (spec §5.1, §6; bootstrap.md §6)", () => {
  const files = [
    file({ name: "AGENTS.md", raw: 25000, injected: 20000, truncated: true }),
    file({ name: "SOUL.md", raw: 21000, injected: 21000 }), // over max/file but not truncated
    file({ name: "USER.md", raw: 5000, injected: 3999, truncated: true }),
    file({ name: "BOOTSTRAP.md", raw: 0, injected: 66, missing: true }),
  ];
  const rep = report({ injectedWorkspaceFiles: files });

  it("2026.3.2: counts every non-missing file over max/file, 3.2 tip, MISSING prints 0", () => {
    const l = lines(renderContextText({ mode: "list", family: "2026.3", entry: entry(rep) }));
    expect(l).toContain(
      "⚠ Bootstrap context is over configured limits: 2 file(s) truncated (51,000 raw chars -> 44,999 injected chars).",
    );
    expect(l).toContain("Causes: 2 file(s) exceeded max/file.");
    expect(l).toContain(
      "Tip: increase `agents.defaults.bootstrapMaxChars` and/or `agents.defaults.bootstrapTotalMaxChars` if this truncation is not intentional.",
    );
    expect(l).toContain("- BOOTSTRAP.md: MISSING | raw 0 | injected 0");
  });

  it("2026.3.2: raw total over the total cap; `? chars` when a cap is absent", () => {
    const r = report({ injectedWorkspaceFiles: files, bootstrapTotalMaxChars: 50000 });
    expect(lines(renderContextText({ mode: "list", family: "2026.3", entry: entry(r) }))).toContain(
      "Causes: 2 file(s) exceeded max/file; raw total exceeded max/total.",
    );
    const noCaps = report({ injectedWorkspaceFiles: files });
    delete noCaps.bootstrapTotalMaxChars;
    delete noCaps.bootstrapMaxChars;
    const l = lines(renderContextText({ mode: "list", family: "2026.3", entry: entry(noCaps) }));
    expect(l[2]).toBe("Bootstrap max/file: ? chars");
    expect(l[3]).toBe("Bootstrap max/total: ? chars");
    // No cap → no per-file cause; no cause line at all.
    expect(l.some((x) => x.startsWith("Causes:"))).toBe(false);
  });

  it("2026.7.1: only truncated files get causes; total-limit when Σinjected ≥ total cap; agents.list[] tip", () => {
    const l = lines(renderContextText({ mode: "list", family: "2026.7", entry: entry(rep) }));
    expect(l).toContain("Causes: 1 file(s) exceeded max/file.");
    expect(l).toContain(
      "Tip: increase this agent's `agents.list[].bootstrapMaxChars` / `agents.list[].bootstrapTotalMaxChars` override, or the matching `agents.defaults.*` fallback, if this truncation is not intentional.",
    );
    const tight = report({ injectedWorkspaceFiles: files, bootstrapTotalMaxChars: 44999 });
    expect(lines(renderContextText({ mode: "list", family: "2026.7", entry: entry(tight) }))).toContain(
      "Causes: 1 file(s) exceeded max/file; 2 file(s) hit max/total.",
    );
    // Missing caps fall back to the config defaults, not `?`.
    const noCaps = report({ injectedWorkspaceFiles: files });
    delete noCaps.bootstrapTotalMaxChars;
    const l2 = lines(renderContextText({ mode: "list", family: "2026.7", entry: entry(noCaps) }));
    expect(l2[3]).toBe("Bootstrap max/total: 60,000 chars");
  });

  it("2026.9.x: USER.md fixed 4,000 cap counts as max/file; remaining-budget walk for max/total; entries tip", () => {
    const l = lines(renderContextText({ mode: "list", family: "2026.9", entry: entry(rep) }));
    expect(l).toContain("Causes: 2 file(s) exceeded max/file.");
    expect(l).toContain(
      "Tip: increase this agent's `agents.entries.*.bootstrapMaxChars` / `agents.entries.*.bootstrapTotalMaxChars` override, or the matching `agents.defaults.*` fallback, if this truncation is not intentional.",
    );
    // Total cap 9000, per-file 3000: MEMORY.md gets the 1,444 chars left (bootstrap.md §8 held-back shape).
    const walk = report({
      bootstrapMaxChars: 3000,
      bootstrapTotalMaxChars: 9000,
      injectedWorkspaceFiles: [
        file({ name: "AGENTS.md", raw: 16640, injected: 2999, truncated: true }),
        file({ name: "USER.md", raw: 5263, injected: 2999, truncated: true }),
        file({ name: "IDENTITY.md", raw: 1558, injected: 1558 }),
        file({ name: "MEMORY.md", raw: 2613, injected: 1378, truncated: true }),
      ],
    });
    expect(lines(renderContextText({ mode: "list", family: "2026.9", entry: entry(walk) }))).toContain(
      "Causes: 2 file(s) exceeded max/file; 1 file(s) hit max/total.",
    );
  });

  it("2026.9.x: native_unverified rows print NATIVE/UNVERIFIED, get the Codex block, leave the totals", () => {
    const r = report({
      injectedWorkspaceFiles: [
        file({
          name: "AGENTS.md",
          raw: 30000,
          injected: 0,
          truncated: true,
          injectionStatus: "native_unverified",
        }),
        file({ name: "USER.md", raw: 5000, injected: 3999, truncated: true }),
      ],
    });
    const l = lines(renderContextText({ mode: "list", family: "2026.9", entry: entry(r) }));
    expect(l).toContain(
      "- AGENTS.md: NATIVE/UNVERIFIED | raw(local) 30,000 chars (~7,500 tok) | injected unknown",
    );
    expect(l).toContain(
      "⚠ Bootstrap context is over configured limits: 1 file(s) truncated (5,000 raw chars -> 3,999 injected chars).",
    );
    const at = l.indexOf(
      "⚠ Native Codex project instructions are unverified: Codex applies one aggregate root-to-CWD byte budget, and app-server does not report exact per-file retained bytes, so later AGENTS.md files can be partial.",
    );
    expect(at).toBeGreaterThan(0);
    expect(l[at - 1]).toBe("");
    expect(l[at + 1]).toBe(
      "Keep earlier/root files concise and read the relevant scoped file directly if guidance appears missing.",
    );
    // 2026.7.1 has no native handling: the same row is a plain TRUNCATED file.
    const l71 = lines(renderContextText({ mode: "list", family: "2026.7", entry: entry(r) }));
    expect(l71).toContain(
      "- AGENTS.md: TRUNCATED | raw 30,000 chars (~7,500 tok) | injected 0 chars (~0 tok)",
    );
  });

  it("no truncated file → no warning block", () => {
    const text = renderContextText({ mode: "list", family: "2026.9", entry: entry(report()) });
    expect(text).not.toContain("⚠");
  });
});

describe("list and detail layout", () => {
  const manyTools = Array.from({ length: 35 }, (_, i) => ({
    name: `tool${i}`,
    summaryChars: 10,
    schemaChars: i < 3 ? 900 : 100,
    propertiesCount: i === 7 ? null : i % 4,
  }));
  const skills = Array.from({ length: 24 }, (_, i) => ({
    name: `skill${i % 22}`,
    blockChars: 200 + (i % 5),
  }));
  const rep = report({
    skills: { promptChars: 6000, entries: skills },
    tools: { listChars: 0, schemaChars: 6000, entries: manyTools },
  });

  it("list: unique skill count, first 20 skill names, first 30 tool names", () => {
    const l = lines(renderContextText({ mode: "list", family: "2026.9", entry: entry(rep) }));
    expect(l).toContain("Skills list (system prompt text): 6,000 chars (~1,500 tok) (22 skills)");
    expect(l.find((x) => x.startsWith("Skills: "))?.endsWith("skill19, … (+2 more)")).toBe(true);
    expect(l.find((x) => x.startsWith("Tools: "))?.endsWith("tool29, … (+5 more)")).toBe(true);
    expect(l.at(-1)).toBe(
      "Inline shortcut: a command token inside normal text (e.g. “hey /status”) that runs immediately (allowlisted senders only) and is stripped before the model sees the remaining message.",
    );
    expect(l.at(-2)).toBe("");
  });

  it("detail: no empty lines, top-30 lists with overflow lines, param counts skip null", () => {
    const text = renderContextText({
      mode: "detail",
      family: "2026.9",
      entry: entry(rep),
      transcriptCounts: { messages: 10, real: 8 },
    });
    const l = lines(text);
    expect(l.includes("")).toBe(false);
    expect(l[0]).toBe("🧠 Context breakdown (detailed)");
    expect(l).toContain("… (+5 more tools)");
    expect(l.filter((x) => x === "… (+5 more tools)")).toHaveLength(2);
    const schemaAt = l.indexOf("Top tools (schema size):");
    expect(l.slice(schemaAt + 1, schemaAt + 4)).toEqual([
      "- tool0: 900 chars (~225 tok)",
      "- tool1: 900 chars (~225 tok)",
      "- tool2: 900 chars (~225 tok)",
    ]);
    const paramsAt = l.indexOf("Tools (param count):");
    const params = l.slice(paramsAt + 1, paramsAt + 31);
    expect(params[0]).toBe("- tool3: 3 params");
    expect(params.some((x) => x.startsWith("- tool7:"))).toBe(false);
    expect(l[paramsAt + 31]?.startsWith("Tracked prompt estimate:")).toBe(true);
    // 24 skill entries (duplicates included) → no skill overflow line.
    expect(l.some((x) => x.includes("more skills"))).toBe(false);
  });

  it("detail tail: tracked = system prompt + schemas + current turn; actual, overhead, compactable", () => {
    const e = entry(report(), { totalTokens: 5000 });
    const tail = lines(
      renderContextText({
        mode: "detail",
        family: "2026.9",
        entry: e,
        transcriptCounts: { messages: 12, real: 10 },
      }),
    ).slice(-6);
    expect(tail).toEqual([
      "Tracked prompt estimate: 10,348 chars (~2,587 tok)",
      "Actual context usage (cached): 5,000 tok",
      "Untracked provider/runtime overhead: ~2,413 tok",
      "Compactable transcript: 10 real conversation message(s) / 12 transcript message(s)",
      "Session tokens (cached): 5,000 total / ctx=200,000",
      tail[5] ?? "",
    ]);
    const low = lines(
      renderContextText({
        mode: "detail",
        family: "2026.7",
        entry: entry(report(), { totalTokens: 2000 }),
        transcriptCounts: { messages: 3, real: 0 },
      }),
    );
    expect(low).toContain("Untracked provider/runtime overhead: not observed in cached usage");
    expect(low).toContain(
      "Compaction note: prompt/cache usage may be high even when there are no compactable conversation messages.",
    );
    const unknown = lines(
      renderContextText({
        mode: "detail",
        family: "2026.9",
        entry: entry(report(), { totalTokensFresh: false }),
        transcriptCounts: { unavailable: "no transcript messages found" },
      }),
    );
    expect(unknown).toContain("Actual context usage (cached): unavailable");
    expect(unknown.some((x) => x.startsWith("Untracked"))).toBe(false);
    expect(unknown).toContain("Compactable transcript: unavailable (no transcript messages found)");
    const noSession = entry(report());
    delete noSession.sessionId;
    expect(lines(renderContextText({ mode: "detail", family: "2026.9", entry: noSession }))).toContain(
      "Compactable transcript: unavailable (no active transcript session)",
    );
  });

  it("2026.3.2 detail ends after the param counts with the session line (no Tracked/Compactable)", () => {
    const l = lines(renderContextText({ mode: "detail", family: "2026.3", entry: entry(report()) }));
    expect(l.slice(-4)).toEqual([
      "Tools (param count):",
      "- read: 2 params",
      "Session tokens (cached): 12,345 total / ctx=200000",
      l.at(-1) ?? "",
    ]);
  });
});

describe("json session per version (spec §5.3)", () => {
  const parse = (text: string): unknown => JSON.parse(text);

  it("3.2 copies totals, 7.1 copies totalTokensFresh, 9.x computes it", () => {
    const e = entry(report(), { totalTokensFresh: false });
    delete e.totalTokensVersion;
    expect(parse(renderContextText({ mode: "json", family: "2026.3", entry: e }))).toMatchObject({
      session: { totalTokens: 12345, inputTokens: 10, outputTokens: 20, contextTokens: 200000 },
    });
    expect(parse(renderContextText({ mode: "json", family: "2026.7", entry: e }))).toMatchObject({
      session: { totalTokens: 12345, totalTokensFresh: false },
    });
    expect(parse(renderContextText({ mode: "json", family: "2026.9", entry: e }))).toMatchObject({
      session: { totalTokens: null, totalTokensFresh: false },
    });
    const text = renderContextText({ mode: "json", family: "2026.9", entry: entry(report()) });
    expect(text.startsWith('{\n  "report": {\n    "source": "run",\n    "generatedAt": 1,')).toBe(true);
    expect(text.endsWith('"contextTokens": 200000\n  }\n}')).toBe(true);
  });
});

// --- compactable transcript counts (spec §5.2) --------------------------------------------------------------

function transcriptOf(rows: JsonObject[]): Transcript {
  const entries: TranscriptEntry[] = rows.map((raw, index) => ({
    index,
    type: typeof raw.type === "string" ? raw.type : "",
    id: typeof raw.id === "string" ? raw.id : null,
    parentId: typeof raw.parentId === "string" ? raw.parentId : null,
    timestamp: null,
    raw,
  }));
  return {
    header: null,
    version: 3,
    entries,
    activeBranch: entries.filter((e) => e.type !== "session").map((e) => e.index),
    leafIndex: entries.length - 1,
    issues: [],
  };
}

let seq = 0;
const msg = (message: JsonObject): JsonObject => ({ type: "message", id: `m${seq++}`, message });
const user = (content: JsonObject[keyof JsonObject], extra: JsonObject = {}): JsonObject =>
  msg({ role: "user", content, ...extra });
const assistant = (content: JsonObject[], extra: JsonObject = {}): JsonObject =>
  msg({ role: "assistant", content, ...extra });
const toolResult = (text: string): JsonObject =>
  msg({ role: "toolResult", toolCallId: "c", toolName: "exec", content: [{ type: "text", text }] });

describe("countTranscriptMessages", () => {
  it("excludes silent, heartbeat-only, empty, thinking/tool-call-only and excludeFromContext messages from R", () => {
    const t = transcriptOf([
      { type: "session", id: "h" },
      user("hello"), // real
      assistant([{ type: "text", text: "NO_REPLY" }]), // silent
      assistant([{ type: "text", text: "  HEARTBEAT_OK  " }]), // heartbeat only
      assistant([{ type: "text", text: "<b>HEARTBEAT_OK</b>" }]), // markup-wrapped heartbeat only
      assistant([{ type: "text", text: "HEARTBEAT_OK all good" }]), // heartbeat + text → real
      assistant([
        { type: "thinking", thinking: "hmm" },
        { type: "toolCall", id: "c", name: "exec", arguments: {} },
      ]),
      toolResult("output"), // real: a real user message within 20 before
      user("/status", { excludeFromContext: true }),
      assistant([{ type: "text", text: "status" }], { excludeFromContext: true }),
      user([{ type: "image", data: "x", mimeType: "image/png" }]), // non-text block → real
      user("   "),
      { type: "custom", customType: "openclaw.cache-ttl", data: {} }, // not a message: not counted
    ]);
    expect(countTranscriptMessages(t, "2026.9")).toEqual({ messages: 11, real: 4 });
  });

  it("a toolResult is real only with a real user/custom/summary message among the 20 before it", () => {
    const rows: JsonObject[] = [user("start")];
    for (let i = 0; i < 20; i += 1)
      rows.push(assistant([{ type: "toolCall", id: `c${i}`, name: "x", arguments: {} }]));
    rows.push(toolResult("late")); // 21 messages after the user message → outside the lookback
    rows.push(msg({ role: "custom", content: "injected", display: true }));
    rows.push(toolResult("near")); // custom anchor right before
    const t = transcriptOf(rows);
    expect(countTranscriptMessages(t, "2026.9")).toEqual({ messages: 24, real: 3 });
  });

  it("counts only messages before `beforeIndex`; compaction rows are in M, never in R", () => {
    const t = transcriptOf([
      { type: "session", id: "h" },
      user("a"),
      assistant([{ type: "text", text: "b" }]),
      { type: "compaction", id: "k", summary: "sum", firstKeptEntryId: "x", tokensBefore: 1 },
      user("/context detail"),
      assistant([{ type: "text", text: "reply" }], { provider: "openclaw", model: "gateway-injected" }),
    ]);
    const at = findCommandMessageIndex(t, "/context detail");
    expect(at).toBe(4);
    expect(countTranscriptMessages(t, "2026.7", at)).toEqual({ messages: 3, real: 2 });
    // 2026.9.6 lists the compaction as a "Compaction" system row too (docs/openclaw-facts.md §1.2; before, clawscope
    // guessed it was left out — UNVERIFIED then): see test/unit/compactable-count.test.ts.
    expect(countTranscriptMessages(t, "2026.9", at)).toEqual({ messages: 3, real: 2 });
    expect(countTranscriptMessages(t, "2026.9")).toEqual({ messages: 5, real: 4 });
    expect(countTranscriptMessages(t, "2026.9", 1)).toEqual({ unavailable: "no transcript messages found" });
  });

  it("2026.9 follows the active branch; 2026.7 reads every row", () => {
    const t = transcriptOf([user("a"), user("side branch"), user("b")]);
    t.activeBranch = [0, 2];
    expect(countTranscriptMessages(t, "2026.9")).toEqual({ messages: 2, real: 2 });
    expect(countTranscriptMessages(t, "2026.7")).toEqual({ messages: 3, real: 3 });
  });
});
