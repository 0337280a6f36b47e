// Live OpenClaw-style writer vs the read-only reader (spec storage.md §5): a copy of the s1 store is switched
// to WAL by a real writer process that appends transcript rows in a loop while this test reads repeatedly.
// Readers must see one consistent snapshot per read, the writer must never hit SQLITE_BUSY, and commits
// still only in -wal must be visible.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
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
  haveScenario,
  sha256File,
} from "../fixtures/sqlite/helpers.ts";

const S1 = "s1-cache-ttl-default";
const present = haveScenario(S1);
afterAll(cleanupTmp);

const ROWS = 300;
const PAUSE_MS = 4;

function lines(child: ChildProcessWithoutNullStreams): {
  all: string[];
  wait: (prefix: string) => Promise<string>;
} {
  const all: string[] = [];
  const waiters: { prefix: string; resolve: (l: string) => void }[] = [];
  let buf = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    for (;;) {
      const i = buf.indexOf("\n");
      if (i < 0) break;
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      all.push(line);
      for (const w of waiters.splice(0)) {
        if (line.startsWith(w.prefix) || line.startsWith("error")) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  const wait = (prefix: string): Promise<string> => {
    const seen = all.find((l) => l.startsWith(prefix) || l.startsWith("error"));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ prefix, resolve }));
  };
  return { all, wait };
}

describe.skipIf(!present)("SQLite reader with a live WAL writer", () => {
  it("sees consistent, monotonic snapshots including -wal-only commits; the writer never fails", async () => {
    const id = exportedSessionId(S1);
    const { stateDir, dbPath } = copyState(S1);
    const writerScript = path.resolve(__dirname, "../fixtures/sqlite/live-writer.cjs");
    const child = spawn(
      process.execPath,
      [writerScript, require.resolve("better-sqlite3"), dbPath, id, String(ROWS), String(PAUSE_MS)],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const out = lines(child);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      expect(await out.wait("ready")).toBe("ready");
      expect(fs.existsSync(`${dbPath}-wal`)).toBe(true);
      expect(fs.existsSync(`${dbPath}-shm`)).toBe(true);
      const mainAtStart = sha256File(dbPath);

      let done = false;
      void out.wait("done").then(() => {
        done = true;
      });
      let last = -1;
      let reads = 0;
      const seenMidway = new Set<number>();
      while (!done || last < ROWS) {
        const loaded = loadSqliteSession(stateDir, "main", DB_REL, id);
        if ("error" in loaded) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
        const t = loaded.transcript;
        const writerEntries = t.entries.filter((e) => e.raw.customType === "test.writer");
        const w = writerEntries.length;
        // One snapshot: events, active table, index state and SessionEntry all agree.
        expect(writerEntries.map((e) => e.id)).toEqual(
          Array.from({ length: w }, (_, i) => `writer-${i + 1}`),
        );
        expect(t.entries).toHaveLength(76 + w);
        expect(t.issues).toEqual([]);
        expect(loaded.issues).toEqual([]);
        expect(sqliteExtras(loaded)?.activeBranchSource).toBe("active-events-table");
        expect(sqliteExtras(loaded)?.snapshotCopy).toBeNull();
        expect(t.activeBranch).toHaveLength(75 + w);
        expect(loaded.entry?.writerCount).toBe(w === 0 ? undefined : w);
        if (w > 0) expect(t.entries[t.leafIndex ?? -1]?.id).toBe(`writer-${w}`);
        expect(w).toBeGreaterThanOrEqual(last);
        const list = listSqliteSessions(stateDir, "main", DB_REL);
        expect(list.issues).toEqual([]);
        expect(list.sessions[0]?.entryCount).toBeGreaterThanOrEqual(76 + w);
        if (w > 0 && w < ROWS) seenMidway.add(w);
        last = w;
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (reads > 5000) throw new Error("writer did not finish");
      }
      expect(out.all.filter((l) => l.startsWith("error"))).toEqual([]);
      expect(seenMidway.size).toBeGreaterThanOrEqual(3);
      expect(last).toBe(ROWS);
      // Nothing was checkpointed: every appended row is visible although it exists only in -wal.
      expect(sha256File(dbPath)).toBe(mainAtStart);
      expect(fs.statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);
    } finally {
      child.stdin.end();
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });
});
