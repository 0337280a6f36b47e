// The SQLite reader never writes (spec storage.md §5): fixture stores are byte-identical after reading and no
// -wal/-shm/-journal appears next to them; WAL stores missing -shm (or -wal) are read from a temp snapshot copy
// instead of letting SQLite create files in the state dir, and -wal-only commits stay visible in that copy.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  listSqliteSessions,
  loadSqliteSession,
  sqliteExtras,
} from "../../server/sources/sqlite/sqlite-source.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  fixtureDb,
  haveScenario,
  SCENARIOS,
  scenarioDir,
  sha256File,
  sidecarFiles,
  tmpDir,
  walOnlyCommit,
} from "../fixtures/sqlite/helpers.ts";

afterAll(cleanupTmp);

function dirListing(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

for (const sc of SCENARIOS) {
  describe.skipIf(!haveScenario(sc.name))(`read-only access to ${sc.name}`, () => {
    it("leaves the fixture database byte-identical and creates no sidecar files", () => {
      const db = fixtureDb(sc.name);
      const before = sha256File(db);
      const filesBefore = dirListing(path.dirname(db));
      expect(sidecarFiles(db)).toEqual([]);
      const stateDir = path.join(scenarioDir(sc.name), "state");
      const list = listSqliteSessions(stateDir, "main", DB_REL);
      expect(list.sessions).toHaveLength(1);
      const loaded = loadSqliteSession(stateDir, "main", DB_REL, exportedSessionId(sc.name));
      expect("error" in loaded).toBe(false);
      expect(sidecarFiles(db)).toEqual([]);
      expect(dirListing(path.dirname(db))).toEqual(filesBefore);
      expect(sha256File(db)).toBe(before);
    });
  });
}

const S1 = "s1-cache-ttl-default";

describe.skipIf(!haveScenario(S1))("snapshot fallback for WAL stores without -shm", () => {
  it("-wal present, -shm missing: reads a temp copy, sees the -wal-only commit, writes nothing", () => {
    const id = exportedSessionId(S1);
    const src = copyState(S1);
    const w = walOnlyCommit(src.dbPath, id);
    try {
      expect(fs.statSync(`${src.dbPath}-wal`).size).toBeGreaterThan(0);
      // Copy the main file and its -wal (not -shm) while the writer keeps the commit un-checkpointed.
      const dst = tmpDir();
      const dbPath = path.join(dst, DB_REL);
      fs.mkdirSync(path.dirname(dbPath), { recursive: true });
      fs.copyFileSync(src.dbPath, dbPath);
      fs.copyFileSync(`${src.dbPath}-wal`, `${dbPath}-wal`);
      const sums = [sha256File(dbPath), sha256File(`${dbPath}-wal`)];
      const files = dirListing(path.dirname(dbPath));

      const list = listSqliteSessions(dst, "main", DB_REL);
      expect(list.issues).toEqual([
        expect.objectContaining({ source: DB_REL, code: "snapshot-copy", severity: "warning" }),
      ]);
      expect(list.issues[0]?.message).toMatch(/read from a snapshot copy.*-shm is missing/);
      expect(list.sessions[0]?.entryCount).toBe(77);

      const loaded = loadSqliteSession(dst, "main", DB_REL, id);
      if ("error" in loaded) throw new Error(loaded.error.message);
      expect(loaded.transcript.entries.at(-1)?.id).toBe("wal-only-1");
      expect(sqliteExtras(loaded)?.snapshotCopy).toMatch(/-shm is missing/);
      expect(loaded.issues.map((i) => i.code)).toContain("snapshot-copy");

      expect(dirListing(path.dirname(dbPath))).toEqual(files);
      expect([sha256File(dbPath), sha256File(`${dbPath}-wal`)]).toEqual(sums);
    } finally {
      w.close();
    }
  });

  it("WAL-mode file without -wal and -shm: reads a temp copy, creates nothing next to it", () => {
    const id = exportedSessionId(S1);
    const src = copyState(S1);
    const w = new Database(src.dbPath);
    w.pragma("journal_mode = WAL");
    w.close(); // checkpointed; the header stays in WAL mode, -wal/-shm are removed
    expect(sidecarFiles(src.dbPath)).toEqual([]);
    const before = sha256File(src.dbPath);
    const list = listSqliteSessions(src.stateDir, "main", DB_REL);
    expect(list.issues.map((i) => i.code)).toEqual(["snapshot-copy"]);
    const loaded = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    if ("error" in loaded) throw new Error(loaded.error.message);
    expect(loaded.transcript.entries).toHaveLength(76);
    expect(sidecarFiles(src.dbPath)).toEqual([]);
    expect(sha256File(src.dbPath)).toBe(before);
  });

  it("WAL store with both sidecars present is read in place (no copy)", () => {
    const id = exportedSessionId(S1);
    const src = copyState(S1);
    const w = new Database(src.dbPath);
    try {
      w.pragma("journal_mode = WAL");
      w.prepare("SELECT count(*) FROM transcript_events").get();
      expect(sidecarFiles(src.dbPath)).toEqual(["-wal", "-shm"]);
      const loaded = loadSqliteSession(src.stateDir, "main", DB_REL, id);
      if ("error" in loaded) throw new Error(loaded.error.message);
      expect(sqliteExtras(loaded)?.snapshotCopy).toBeNull();
      expect(loaded.issues).toEqual([]);
      expect(dirListing(path.dirname(src.dbPath))).toEqual([
        "openclaw-agent.sqlite",
        "openclaw-agent.sqlite-shm",
        "openclaw-agent.sqlite-wal",
      ]);
    } finally {
      w.close();
    }
  });
});
