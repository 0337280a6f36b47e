// A WAL-mode store OpenClaw closed cleanly (neither -wal nor -shm) is read from a temp snapshot copy
// (snapshot-fallback.ts). The copy is made once and reused while the source is unchanged — `cost --json` reads a
// store three times and copied the whole store each time (3 × 135 MB on the 100 MB bench session) — and made
// again when the source changes; kept copies are deleted when idle, on a change and at exit.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { SnapshotCopies, snapshotCopies } from "../../server/sources/sqlite/snapshot-fallback.ts";
import { listSqliteSessions, loadSqliteSession } from "../../server/sources/sqlite/sqlite-source.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  haveScenario,
  sha256File,
  sidecarFiles,
} from "../fixtures/sqlite/helpers.ts";

const S1 = "s1-cache-ttl-default";

afterEach(() => {
  vi.restoreAllMocks();
  snapshotCopies.clear();
});
afterAll(cleanupTmp);

/** A copy of s1 switched to WAL mode and closed: header in WAL mode, -wal/-shm removed. */
function walStoreWithoutSidecars(): { stateDir: string; dbPath: string } {
  const src = copyState(S1);
  const w = new Database(src.dbPath);
  w.pragma("journal_mode = WAL");
  w.close();
  expect(sidecarFiles(src.dbPath)).toEqual([]);
  return src;
}

/** How many times the store's main file was copied. */
function copiesOf(spy: { mock: { calls: unknown[][] } }, dbPath: string): number {
  return spy.mock.calls.filter((c) => c[0] === dbPath).length;
}

describe.skipIf(!haveScenario(S1))("snapshot copy reuse", () => {
  it("copies an unchanged store once for a list and two loads; the reads equal fresh copies", () => {
    const src = walStoreWithoutSidecars();
    const id = exportedSessionId(S1);
    const before = sha256File(src.dbPath);
    const spy = vi.spyOn(fs, "copyFileSync");
    const list = listSqliteSessions(src.stateDir, "main", DB_REL);
    const a = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    const b = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    expect(copiesOf(spy, src.dbPath)).toBe(1);
    expect(list.sessions).toHaveLength(1);
    if ("error" in a || "error" in b) throw new Error("load failed");
    expect(b.transcript.entries.map((e) => e.raw)).toEqual(a.transcript.entries.map((e) => e.raw));
    expect(a.issues.map((i) => i.code)).toContain("snapshot-copy");
    const kept = snapshotCopies.keptPaths();
    expect(kept).toHaveLength(1);
    expect(fs.existsSync(kept[0] ?? "")).toBe(true);
    // a fresh copy per read (the behaviour before) gives the same transcript
    snapshotCopies.clear();
    expect(fs.existsSync(kept[0] ?? "")).toBe(false);
    const fresh = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    if ("error" in fresh) throw new Error(fresh.error.message);
    expect(fresh.transcript.entries.map((e) => e.raw)).toEqual(a.transcript.entries.map((e) => e.raw));
    expect(copiesOf(spy, src.dbPath)).toBe(2);
    expect(sidecarFiles(src.dbPath)).toEqual([]);
    expect(sha256File(src.dbPath)).toBe(before);
  });

  it("copies again after the store changed, and the read sees the change", () => {
    const src = walStoreWithoutSidecars();
    const id = exportedSessionId(S1);
    const first = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    if ("error" in first) throw new Error(first.error.message);
    const [oldCopy] = snapshotCopies.keptPaths();
    // OpenClaw appends an event and closes (checkpointed: -wal/-shm removed again)
    const w = new Database(src.dbPath);
    const max = w.prepare("SELECT max(seq) AS m FROM transcript_events").get();
    const seq = typeof max === "object" && max !== null && "m" in max ? Number(max.m) + 1 : 0;
    const event = { type: "custom", customType: "test.reuse", data: {}, id: "reuse-1", parentId: null };
    w.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
    ).run(id, seq, JSON.stringify(event), Date.now());
    w.close();
    expect(sidecarFiles(src.dbPath)).toEqual([]);
    const spy = vi.spyOn(fs, "copyFileSync");
    const second = loadSqliteSession(src.stateDir, "main", DB_REL, id);
    if ("error" in second) throw new Error(second.error.message);
    expect(copiesOf(spy, src.dbPath)).toBe(1);
    expect(second.transcript.entries).toHaveLength(first.transcript.entries.length + 1);
    expect(second.transcript.entries.at(-1)?.id).toBe("reuse-1");
    expect(fs.existsSync(oldCopy ?? "")).toBe(false);
    expect(snapshotCopies.keptPaths()).toHaveLength(1);
  });

  it("deletes a kept copy once it has been idle", async () => {
    const src = walStoreWithoutSidecars();
    const copies = new SnapshotCopies(20);
    const a = copies.acquire(src.dbPath);
    expect(copies.acquire(src.dbPath).dbPath).toBe(a.dbPath);
    expect(fs.existsSync(a.dbPath)).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(copies.keptPaths()).toEqual([]);
    expect(fs.existsSync(path.dirname(a.dbPath))).toBe(false);
  });
});
