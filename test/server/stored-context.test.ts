// `/context list|json` from the stored report without loading the transcript (issue 17): for every session of
// every state dir at hand (the demo, test/fixtures, ../shared/fixtures and ../shared/corpus when present) the
// stored path prints exactly what the loaded run report prints, and where the reader can decide the release
// family from what is stored (SessionEntry, header line, a byte scan for the row signals) no transcript is parsed.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import { jsonlFamilyWithoutParse } from "../../server/sources/jsonl/stored-family.ts";
import { TranscriptCache } from "../../server/sources/transcript-cache.ts";
import { stateDirs } from "../helpers/state-dirs.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, "../..");
const SHARED = path.resolve(REPO, "../shared");

const sharedDirs = [...stateDirs(path.join(SHARED, "fixtures")), ...stateDirs(path.join(SHARED, "corpus"))];
if (sharedDirs.length === 0)
  console.warn("stored-context: ../shared/fixtures and ../shared/corpus absent, skipped");
const DIRS = [
  path.join(REPO, "server/demo/state"),
  ...stateDirs(path.join(REPO, "test/fixtures")),
  ...sharedDirs,
];

afterEach(() => vi.restoreAllMocks());

describe("the stored path prints what the loaded run report prints", () => {
  it.each(DIRS.map((d) => [path.relative(REPO, d), d]))("%s", (_name, stateDir) => {
    const stored = createSessionService({ stateDir, demo: false, reason: "test" });
    const loaded = createSessionService({ stateDir, demo: false, reason: "test" });
    let compared = 0;
    for (const s of stored.listSessions().sessions) {
      const report = loaded.runReport(s.agentId, s.sessionId);
      for (const mode of ["list", "json"] as const) {
        const r = stored.storedContextText(s.agentId, s.sessionId, mode);
        if (!report.ok) {
          // A session that does not load: the stored path fails too, or prints the report its entry holds.
          continue;
        }
        const texts = report.value.texts;
        const want = mode === "json" ? texts.json : texts.available ? texts.list : texts.notice;
        // and the same owner: a report of another session id is said either way (issue 13)
        const owner = report.value.reportOwner;
        const value = { available: texts.available, text: want, ...(owner ? { owner } : {}) };
        expect(r).toEqual({ ok: true, value });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
    stored.close();
    loaded.close();
  });
});

describe("no transcript is parsed when the stored data decide", () => {
  it("demo: the JSONL session and both SQLite sessions print list and json without a transcript load", () => {
    const jsonl = vi.spyOn(TranscriptCache.prototype, "jsonl");
    const sqlite = vi.spyOn(TranscriptCache.prototype, "sqlite");
    const service = createSessionService({
      stateDir: path.join(REPO, "server/demo/state"),
      demo: true,
      reason: "t",
    });
    const sessions = service.listSessions().sessions;
    expect(sessions.map((s) => s.storage)).toEqual(["jsonl", "sqlite", "sqlite"]);
    for (const s of sessions) {
      for (const mode of ["list", "json"] as const) {
        const r = service.storedContextText(s.agentId, s.sessionId, mode);
        expect(r.ok && r.value.available).toBe(true);
      }
    }
    expect(jsonl).not.toHaveBeenCalled();
    expect(sqlite).not.toHaveBeenCalled();
    // The full run report does load them (the spies see it).
    expect(service.runReport("legacy", sessions[0]?.sessionId ?? "").ok).toBe(true);
    expect(jsonl).toHaveBeenCalledTimes(1);
    service.close();
  });
});

describe("jsonlFamilyWithoutParse", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-stored-family-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  let n = 0;
  const file = (...lines: string[]) => {
    const f = path.join(tmp, `t${n++}.jsonl`);
    fs.writeFileSync(f, lines.map((l) => `${l}\n`).join(""));
    return f;
  };
  const header = (version: number) => JSON.stringify({ type: "session", id: "s1", version });
  const message = (id: string, text: string) =>
    JSON.stringify({ type: "message", id, parentId: null, message: { role: "user", content: text } });
  // A 2026.7.x report (hashes, currentTurn) and a 2026.3-era report (neither).
  const e3 = {
    systemPromptReport: { source: "run", systemPrompt: { chars: 1, hash: "h" }, currentTurn: {} },
  };
  const e2 = {
    systemPromptReport: { source: "run", systemPrompt: { chars: 1 }, bootstrapTotalMaxChars: 150000 },
  };

  it("the report's and the header's signals when no row signal is in the bytes", () => {
    expect(jsonlFamilyWithoutParse(e3, file(header(3), message("a", "hi")))).toBe("2026.7");
    expect(jsonlFamilyWithoutParse(e2, file(header(3), message("a", "hi")))).toBe("2026.3");
    expect(jsonlFamilyWithoutParse(e2, file("", header(3), message("a", "hi")))).toBe("2026.3");
  });

  it("a header version 4 decides 2026.9 whatever the rows", () => {
    expect(jsonlFamilyWithoutParse(e2, file(header(4), JSON.stringify({ type: "leaf", id: "l" })))).toBe(
      "2026.9",
    );
  });

  it("a row signal's text anywhere (also past the first 8 MB step, or across its end): only the parse can tell", () => {
    expect(
      jsonlFamilyWithoutParse(e3, file(header(3), JSON.stringify({ type: "reset", id: "r" }))),
    ).toBeNull();
    expect(
      jsonlFamilyWithoutParse(e2, file(header(3), JSON.stringify({ type: "leaf", id: "l" }))),
    ).toBeNull();
    expect(
      jsonlFamilyWithoutParse(e2, file(header(3), JSON.stringify({ appendMode: "side", id: "x" }))),
    ).toBeNull();
    const marker = { type: "custom", customType: "openclaw.cache-ttl", data: { prunedToolResults: [] } };
    expect(jsonlFamilyWithoutParse(e3, file(header(3), JSON.stringify(marker)))).toBeNull();
    for (const pad of [8 << 20, (8 << 20) - 40, (8 << 20) - 10]) {
      // `"reset"` starting before and ending after a step boundary, or wholly after it.
      const filler = message("f", "x".repeat(pad - header(3).length - 60));
      const f = file(header(3), filler, JSON.stringify({ type: "reset", id: "r" }));
      expect(jsonlFamilyWithoutParse(e3, f)).toBeNull();
    }
    // Rows that cannot raise the verdict are not looked for: leaf rows under a 2026.7 report.
    expect(jsonlFamilyWithoutParse(e3, file(header(3), JSON.stringify({ type: "leaf", id: "l" })))).toBe(
      "2026.7",
    );
    // A user typing "reset" in quotes is escaped in the line: not a candidate.
    expect(jsonlFamilyWithoutParse(e3, file(header(3), message("a", 'say "reset"')))).toBe("2026.7");
  });

  it("a first line that is not a JSON object (the parse may skip it) or an empty file: the parse decides", () => {
    expect(jsonlFamilyWithoutParse(e3, file("{not json", header(3)))).toBeNull();
    expect(jsonlFamilyWithoutParse(e3, file())).toBeNull();
  });
});
