// Golden test: `/context list|detail|json` rendered from the stored SessionEntry + transcript must equal, byte for
// byte, what the real OpenClaw 2026.9.6 (s1–s5) and 2026.7.1 (j1) replied (fixture `commands/*.txt`, one trailing
// `\n` stripped). Inputs are copies of the fixture files in test/fixtures/<scenario>/ (see README there).
// Spec: context-report.md §5–§7, fixtures.md §3.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { LoadedSession, Transcript } from "../../server/model/session.ts";
import { countTranscriptMessages, findCommandMessageIndex } from "../../server/openclaw/compactable-count.ts";
import { renderContextText } from "../../server/openclaw/context-text/context-text.ts";
import type { ContextFamily } from "../../server/openclaw/context-text/types.ts";
import { formatInt } from "../../server/openclaw/format.ts";
import { buildRunReport } from "../../server/reports/run-report.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { arr, isObject, type JsonObject, num, obj, str, tryParseJson } from "../../shared/json.ts";
import { transcriptFromJsonl } from "../helpers/transcript.ts";

const FIXTURES = path.resolve(__dirname, "../fixtures");

const SCENARIOS: { dir: string; family: ContextFamily }[] = [
  { dir: "s1-cache-ttl-default", family: "2026.9" },
  { dir: "s2-pruning-off", family: "2026.9" },
  { dir: "s3-aggressive-hardclear", family: "2026.9" },
  { dir: "s4-long-36turns", family: "2026.9" },
  { dir: "s5-local-cli", family: "2026.9" },
  { dir: "j1-jsonl-cache-ttl-default", family: "2026.7" },
];

// --- small local loaders (the real ones live in server/sources; these only read the copied exports) -----------

function readJsonLines(file: string): JsonObject[] {
  const text = file.endsWith(".gz")
    ? gunzipSync(readFileSync(file)).toString("utf8")
    : readFileSync(file, "utf8");
  const out: JsonObject[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const parsed = tryParseJson(line);
    if (parsed.ok && isObject(parsed.value)) out.push(parsed.value);
  }
  return out;
}

function loadTranscript(file: string): Transcript {
  const text = file.endsWith(".gz")
    ? gunzipSync(readFileSync(file)).toString("utf8")
    : readFileSync(file, "utf8");
  return transcriptFromJsonl(text, file);
}

function loadEntry(dir: string): JsonObject {
  const parsed = tryParseJson(readFileSync(path.join(dir, "session_nodes.json"), "utf8"));
  if (!parsed.ok || !Array.isArray(parsed.value)) throw new Error(`bad session_nodes.json in ${dir}`);
  const node = parsed.value.find(isObject);
  const entry = obj(node, "entry");
  if (!entry) throw new Error(`no entry in ${dir}`);
  return entry;
}

/** Fixture files carry exactly one extra trailing newline. */
function readReply(file: string): string {
  const text = readFileSync(file, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text.slice(0, -1);
}

interface CommandFile {
  step: number;
  mode: "list" | "detail" | "json";
  file: string;
}

function commandFiles(dir: string): CommandFile[] {
  return readdirSync(path.join(dir, "commands"))
    .flatMap((name): CommandFile[] => {
      const m = /^(\d+)-context-(list|detail|json)\.txt$/.exec(name);
      const mode = m?.[2];
      if (!m?.[1] || (mode !== "list" && mode !== "detail" && mode !== "json")) return [];
      return [{ step: Number(m[1]), mode, file: path.join(dir, "commands", name) }];
    })
    .sort((a, b) => a.step - b.step);
}

/** Index of the user message sent as driver step `key` (`idempotencyKey: "<key>:user"`). */
function userMessageIndex(transcript: Transcript, key: string): number | undefined {
  return transcript.entries.find((e) => {
    const m = obj(e.raw, "message");
    return e.type === "message" && str(m, "role") === "user" && str(m, "idempotencyKey") === `${key}:user`;
  })?.index;
}

const stepKey = (scenario: string, step: number): string => `${scenario}-${String(step).padStart(3, "0")}`;

for (const { dir: scenario, family } of SCENARIOS) {
  const dir = path.join(FIXTURES, scenario);
  describe(`/context golden — ${scenario} (${family})`, () => {
    const entry = loadEntry(dir);
    const sessionId = str(entry, "sessionId") ?? "";
    const transcript = loadTranscript(path.join(dir, "transcripts", `${sessionId}.jsonl.gz`));
    const files = commandFiles(dir);
    const trio = files.slice(-3);
    const timeline = readJsonLines(path.join(dir, "timeline.jsonl.gz"));

    it("final trio is list, detail, json", () => {
      expect(trio.map((f) => f.mode)).toEqual(["list", "detail", "json"]);
    });

    it("final /context list equals the stored state byte for byte", () => {
      const expected = readReply(trio[0]?.file ?? "");
      expect(renderContextText({ mode: "list", family, entry })).toBe(expected);
    });

    it("final /context detail equals the stored state byte for byte (M/R before the last /context detail)", () => {
      const detailFile = trio[1];
      if (!detailFile) throw new Error("no detail file");
      const before = findCommandMessageIndex(transcript, "/context detail");
      // The last `/context detail` user message is the one sent at the trio's detail step.
      expect(before).toBeDefined();
      expect(before).toBe(userMessageIndex(transcript, stepKey(scenario, detailFile.step)));
      const transcriptCounts = countTranscriptMessages(transcript, family, before);
      const expected = readReply(detailFile.file);
      expect(renderContextText({ mode: "detail", family, entry, transcriptCounts })).toBe(expected);
    });

    it("final /context json equals the stored state byte for byte", () => {
      const expected = readReply(trio[2]?.file ?? "");
      expect(renderContextText({ mode: "json", family, entry })).toBe(expected);
    });

    // Earlier replies (spec §7 item 5): the SessionEntry numbers come from the timeline `done` sessionInfo of the
    // command step; the report is the one in effect then — from a `/context json` reply of the same
    // window (no model run in between) when there is one, else the final stored report, which is exact when no
    // model run followed. Otherwise `list` uses the final report (its lines do not depend on the per-run
    // `currentTurn`), and `detail` is compared without the two currentTurn-dependent lines.
    const sends = timeline.filter((e) => e.type === "send");
    const stepOf = (e: JsonObject): number => Number((str(e, "key") ?? "").slice(-3));
    const modelRunBetween = (from: number, to: number): boolean =>
      sends.some((e) => e.kind === "message" && stepOf(e) > from && stepOf(e) < to);
    const lastStep = Math.max(...sends.map(stepOf));

    for (const cmd of files.slice(0, -3)) {
      it(`step ${cmd.step} /context ${cmd.mode} matches with the entry numbers of that step`, () => {
        const key = stepKey(scenario, cmd.step);
        // SessionEntry numbers as of this step: the `sessionInfo` of the command's own `done` event. `/context`
        // writes nothing to the entry, so this equals the state the command read; the `done` snapshot of the
        // preceding model step can be stale (s2 step 005 shows 44,077 while the store already held 49,334).
        const done = timeline.find((e) => e.type === "done" && e.key === key);
        const info = obj(done, "sessionInfo");
        if (!info) throw new Error(`no done sessionInfo for ${key}`);

        const jsonReply = files.find(
          (f) => f.mode === "json" && f.step >= cmd.step && !modelRunBetween(cmd.step - 1, f.step),
        );
        let report = obj(entry, "systemPromptReport");
        let exactReport = !modelRunBetween(cmd.step, lastStep + 1);
        if (jsonReply && jsonReply.step !== cmd.step) {
          const parsed = tryParseJson(readReply(jsonReply.file));
          report = parsed.ok && isObject(parsed.value) ? obj(parsed.value, "report") : undefined;
          exactReport = true;
        }
        if (cmd.mode === "json") {
          // The json reply is the only record of its own report: take `report` from it and check that the
          // `session` part is rebuilt from the step's entry numbers (and the whole text re-serializes identically).
          const parsed = tryParseJson(readReply(cmd.file));
          report = parsed.ok && isObject(parsed.value) ? obj(parsed.value, "report") : undefined;
          exactReport = true;
        }
        if (!report) throw new Error("no report");
        const stepEntry: JsonObject = {
          ...entry,
          systemPromptReport: report,
          totalTokens: info.totalTokens ?? null,
          totalTokensFresh: info.totalTokensFresh ?? null,
          inputTokens: info.inputTokens ?? null,
          outputTokens: info.outputTokens ?? null,
          contextTokens: info.contextTokens ?? null,
          // sessionInfo does not carry totalTokensVersion; the final entry's value (1 in 2026.9.6) is used.
        };
        const before = userMessageIndex(transcript, key);
        expect(before).toBeDefined();
        const transcriptCounts = countTranscriptMessages(transcript, family, before);
        const actual = renderContextText({ mode: cmd.mode, family, entry: stepEntry, transcriptCounts });
        const expected = readReply(cmd.file);
        if (cmd.mode !== "detail" || exactReport) {
          expect(actual).toBe(expected);
        } else {
          const dropTurnLines = (t: string): string =>
            t
              .split("\n")
              .filter(
                (l) =>
                  !l.startsWith("Tracked prompt estimate:") && !l.startsWith("Untracked provider/runtime"),
              )
              .join("\n");
          expect(dropTurnLines(actual)).toBe(dropTurnLines(expected));
        }
      });
    }
  });
}

// --- corpus (real 2026.2–2026.4 JSONL-era stores, read in place): 2026.3.2 rules on real stored reports ---------

const CORPUS = path.resolve(__dirname, "../../../shared/corpus");
const corpusStores: string[] = existsSync(CORPUS)
  ? readdirSync(CORPUS).flatMap((state) => {
      const agents = path.join(CORPUS, state, "agents");
      if (!existsSync(agents)) return [];
      return readdirSync(agents)
        .map((agent) => path.join(agents, agent, "sessions", "sessions.json"))
        .filter((f) => existsSync(f));
    })
  : [];
if (corpusStores.length === 0)
  console.warn(`corpus not found at ${CORPUS}: 2026.3 /context corpus tests skipped`);

describe.skipIf(corpusStores.length === 0)("/context 2026.3 rules on the corpus' stored run reports", () => {
  const entries: { where: string; entry: JsonObject; report: JsonObject }[] = [];
  for (const store of corpusStores) {
    const parsed = tryParseJson(readFileSync(store, "utf8"));
    if (!parsed.ok || !isObject(parsed.value)) continue;
    for (const [key, value] of Object.entries(parsed.value)) {
      const report = obj(isObject(value) ? value : undefined, "systemPromptReport");
      if (isObject(value) && report && report.source === "run") {
        entries.push({ where: `${path.relative(CORPUS, store)} ${key}`, entry: value, report });
      }
    }
  }

  it("finds stored run reports, some without a total cap (E1) and some with more than 30 tools", () => {
    expect(entries.length).toBeGreaterThan(50);
    expect(entries.some((e) => e.report.bootstrapTotalMaxChars === undefined)).toBe(true);
    expect(entries.some((e) => (arr(obj(e.report, "tools"), "entries")?.length ?? 0) > 30)).toBe(true);
  });

  it("list: `? chars` without a total cap, ungrouped ctx=, name-list truncation, one line per file", () => {
    for (const { where, entry, report } of entries) {
      const text = renderContextText({ mode: "list", family: "2026.3", entry });
      const lines = text.split("\n");
      const totalCap = num(report, "bootstrapTotalMaxChars");
      const totalLine = lines.find((l) => l.startsWith("Bootstrap max/total: "));
      expect(totalLine, where).toBe(
        totalCap === undefined
          ? "Bootstrap max/total: ? chars"
          : `Bootstrap max/total: ${formatInt(totalCap)} chars`,
      );
      const ctx = num(entry, "contextTokens");
      const total = num(entry, "totalTokens");
      // 2026.3.2: any stored totalTokens is shown (no freshness check); the window is printed ungrouped.
      const shown = total === undefined ? "unknown" : `${formatInt(total)} total`;
      expect(lines.at(-3), where).toBe(
        `Session tokens (cached): ${shown} / ctx=${ctx === undefined ? "?" : String(ctx)}`,
      );
      const toolCount = arr(obj(report, "tools"), "entries")?.length ?? 0;
      const toolsLine = lines.find((l) => l.startsWith("Tools: ")) ?? "";
      if (toolCount > 30) expect(toolsLine.endsWith(`, … (+${toolCount - 30} more)`), where).toBe(true);
      else expect(toolsLine.includes("…"), where).toBe(false);
      const fileRows = arr(report, "injectedWorkspaceFiles")?.length ?? 0;
      const start = lines.indexOf("Injected workspace files:");
      expect(
        lines.slice(start + 1, start + 1 + fileRows).every((l) => l.startsWith("- ")),
        where,
      ).toBe(true);
      expect(lines[start + 1 + fileRows], where).toBe("");
    }
  });

  it("detail: no empty lines, no 7.1+ tail (Tracked/Compactable), ends with the session line", () => {
    for (const { where, entry } of entries) {
      const lines = renderContextText({ mode: "detail", family: "2026.3", entry }).split("\n");
      expect(lines.includes(""), where).toBe(false);
      expect(
        lines.some((l) => l.startsWith("Tracked prompt estimate")),
        where,
      ).toBe(false);
      expect(
        lines.some((l) => l.startsWith("Compactable transcript")),
        where,
      ).toBe(false);
      expect(lines.at(-2)?.startsWith("Session tokens (cached): "), where).toBe(true);
    }
  });

  it("json: the stored report with its key order, and the 3.2 session shape", () => {
    for (const { where, entry, report } of entries) {
      const text = renderContextText({ mode: "json", family: "2026.3", entry });
      const parsed = tryParseJson(text);
      expect(parsed.ok && isObject(parsed.value), where).toBe(true);
      if (!parsed.ok || !isObject(parsed.value)) continue;
      expect(parsed.value.report, where).toEqual(report);
      expect(Object.keys(obj(parsed.value, "session") ?? {}), where).toEqual([
        "totalTokens",
        "inputTokens",
        "outputTokens",
        "contextTokens",
      ]);
      // Key order of the stored object survives (the report block is the stored JSON re-indented).
      const indented = JSON.stringify({ report }, null, 2).slice(0, -2);
      expect(text.startsWith(indented), where).toBe(true);
    }
  });
});

// --- the same through the real loaders (openStateReader on the fixture state dirs, read in place) -------------
// and the run report built from the loaded session.

const SHARED_FIXTURES = path.resolve(__dirname, "../../../shared/fixtures");

for (const { dir: scenario, family } of SCENARIOS) {
  const stateDir = path.join(SHARED_FIXTURES, scenario, "state");
  const present = existsSync(stateDir);
  if (!present) console.warn(`fixture state dir ${stateDir} not found: loader-based /context tests skipped`);
  describe.skipIf(!present)(`/context + run report via openStateReader — ${scenario}`, () => {
    const expectedEntry = loadEntry(path.join(FIXTURES, scenario));
    const trio = commandFiles(path.join(FIXTURES, scenario)).slice(-3);
    const load = (): LoadedSession => {
      const reader = openStateReader(stateDir);
      const loaded = reader.loadSession({
        agentId: "main",
        sessionId: str(expectedEntry, "sessionId") ?? "",
      });
      if ("error" in loaded) throw new Error(loaded.error.message);
      return loaded;
    };

    it("loads the session in the expected rule family with its stored entry", () => {
      const session = load();
      expect(session.version.family).toBe(family);
      expect(session.entry).toEqual(expectedEntry);
    });

    it("final trio renders byte-identical from the loaded session", () => {
      const session = load();
      const entry = session.entry;
      if (!entry) throw new Error("no entry");
      const before = findCommandMessageIndex(session.transcript, "/context detail");
      const transcriptCounts = countTranscriptMessages(session.transcript, family, before);
      const [list, detail, json] = trio.map((f) => readReply(f.file));
      expect(renderContextText({ mode: "list", family, entry })).toBe(list);
      expect(renderContextText({ mode: "detail", family, entry, transcriptCounts })).toBe(detail);
      expect(renderContextText({ mode: "json", family, entry })).toBe(json);
    });

    it("run report: the final trio byte for byte, each matching OpenClaw's stored reply; last call = totalTokens", () => {
      const session = load();
      const dto = buildRunReport(session);
      expect(dto.systemPromptReport.available).toBe(true);
      if (!dto.texts.available) throw new Error("texts unavailable");
      const [list, detail, json] = trio.map((f) => readReply(f.file));
      expect(dto.texts.list).toBe(list);
      expect(dto.texts.json).toBe(json);
      // No model call followed the final `/context detail`: its counts are OpenClaw's answer for this state.
      expect(dto.texts.detail).toBe(detail);
      expect(dto.texts.detailAsOf.kind).toBe("last-invocation");
      expect(dto.texts.matchesStoredReply).toEqual({ list: true, detail: true, json: true });
      // storage.md §6.4: the entry's totalTokens is the prompt of the last non-transcript-only assistant.
      expect(dto.lastCall?.promptTokens).toBe(num(expectedEntry, "totalTokens"));
      expect(dto.reconciliation.actualTokens).toBe(num(expectedEntry, "totalTokens"));
      expect(dto.reconciliation.entryTotalTokens).toBe(num(expectedEntry, "totalTokens"));
      expect(dto.lastCall?.model).not.toBe("gateway-injected");
      // Totals are the report's numbers.
      const report = obj(expectedEntry, "systemPromptReport");
      expect(dto.totals?.systemPrompt.chars).toBe(num(obj(report, "systemPrompt"), "chars"));
      expect(dto.totals?.toolSchemas.chars).toBe(num(obj(report, "tools"), "schemaChars"));
      expect(dto.totals?.files.map((f) => f.name)).toEqual(
        (arr(report, "injectedWorkspaceFiles") ?? []).filter(isObject).map((f) => str(f, "name")),
      );
    });

    it("run report conversation: only messages sent to the model, tool results by tool", () => {
      const session = load();
      const dto = buildRunReport(session);
      const conv = dto.conversation;
      // Gateway-injected replies are never sent; every fixture has some (the /context replies).
      expect(conv.notSent.count).toBeGreaterThan(0);
      const byRoleCount = Object.values(conv.byRole).reduce((s, b) => s + b.count, 0);
      expect(byRoleCount).toBe(conv.total.count);
      const toolCount = conv.toolResultsByTool.reduce((s, b) => s + b.count, 0);
      expect(toolCount).toBe(conv.byRole.toolResult?.count ?? 0);
      expect(toolCount).toBeGreaterThan(0);
      expect(conv.total.estTokens).toBe(Math.ceil(conv.total.chars / 4));
      // j1 compacted twice (2026.7.1): the newest compaction summary opens the model context.
      if (scenario.startsWith("j1")) expect(conv.compactionSummary?.count).toBe(1);
      else expect(conv.compactionSummary).toBeNull();
    });
  });
}
