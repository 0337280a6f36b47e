// Mixed-era state dir (spec storage.md §2 "An upgraded install can contain both"): one agent with a SQLite
// store (s1, 2026.9.6) AND an old JSONL sessions/ folder (j1, 2026.7.1). The SQLite side lists and loads only
// the store's sessions and never touches the legacy files; the JSONL side is composed by the state reader.

import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listSqliteSessions, loadSqliteSession } from "../../server/sources/sqlite/sqlite-source.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  FIXTURES,
  haveScenario,
  readJsonl,
  scenarioDir,
  sha256File,
} from "../fixtures/sqlite/helpers.ts";
import { resolveLazyTexts } from "../helpers/resolve-lazy.ts";

const S1 = "s1-cache-ttl-default";
const J1 = "j1-jsonl-cache-ttl-default";
const j1Sessions = path.join(FIXTURES, J1, "state", "agents", "main", "sessions");
const present = haveScenario(S1) && fs.existsSync(j1Sessions);
afterAll(cleanupTmp);

describe.skipIf(!present)("mixed-era state dir (SQLite store + legacy sessions/ folder)", () => {
  it("lists and loads the SQLite sessions only, leaving the JSONL files untouched", () => {
    const { stateDir } = copyState(S1);
    const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
    fs.cpSync(j1Sessions, sessionsDir, { recursive: true });
    const jsonlFiles = fs.readdirSync(sessionsDir).filter((f) => f.endsWith(".jsonl"));
    expect(jsonlFiles.length).toBeGreaterThan(0);
    const sums = jsonlFiles.map((f) => sha256File(path.join(sessionsDir, f)));
    const listingBefore = fs.readdirSync(sessionsDir).sort();

    const id = exportedSessionId(S1);
    const { sessions, issues } = listSqliteSessions(stateDir, "main", DB_REL);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => [s.sessionId, s.storage, s.archived, s.location])).toEqual([
      [id, "sqlite", null, DB_REL],
    ]);
    // The j1 transcript id is not a SQLite session.
    const j1Id = jsonlFiles[0]?.replace(/\.jsonl$/, "") ?? "";
    expect(loadSqliteSession(stateDir, "main", DB_REL, j1Id)).toEqual({
      error: expect.objectContaining({ code: "session-not-found", status: 404 }),
    });
    const loaded = loadSqliteSession(stateDir, "main", DB_REL, id);
    if ("error" in loaded) throw new Error(loaded.error.message);
    expect(loaded.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(
      readJsonl(path.join(scenarioDir(S1), "state-export", "main", "transcripts", `${id}.jsonl`)),
    );
    expect(loaded.version.family).toBe("2026.9");

    expect(fs.readdirSync(sessionsDir).sort()).toEqual(listingBefore);
    expect(jsonlFiles.map((f) => sha256File(path.join(sessionsDir, f)))).toEqual(sums);
  });
});
