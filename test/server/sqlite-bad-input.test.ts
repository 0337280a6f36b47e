// Bad input for the SQLite reader: every damaged store gives a located ParseIssue or a typed error, never a
// throw, and undamaged agents/sessions still load. Each case damages a tmp-dir COPY of the real s1 store.

import { spawn, spawnSync } from "node:child_process";
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
  haveScenario,
} from "../fixtures/sqlite/helpers.ts";

const S1 = "s1-cache-ttl-default";
const present = haveScenario(S1);
afterAll(cleanupTmp);

function damage(fn: (db: Database.Database) => void): { stateDir: string; dbPath: string } {
  const copy = copyState(S1);
  const w = new Database(copy.dbPath);
  w.pragma("foreign_keys = OFF");
  fn(w);
  w.close();
  return copy;
}

function loadOk(stateDir: string, id: string) {
  const r = loadSqliteSession(stateDir, "main", DB_REL, id);
  if ("error" in r) throw new Error(`load failed: ${r.error.code} ${r.error.message}`);
  return r;
}

describe.skipIf(!present)("SQLite reader on damaged stores", () => {
  const id = present ? exportedSessionId(S1) : "";

  it("truncated database file: located error, never a throw", () => {
    const copy = copyState(S1);
    const size = fs.statSync(copy.dbPath).size;
    fs.truncateSync(copy.dbPath, Math.floor(size / 3));
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    const codes = list.issues.map((i) => i.code);
    expect(codes).toContain("database-truncated");
    expect(list.issues.every((i) => i.source.startsWith(DB_REL))).toBe(true);
    const issue = list.issues.find((i) => i.code === "database-truncated");
    expect(issue?.severity).toBe("error");
    expect(issue?.message).toMatch(/header declares 218 pages of 4096 bytes/);
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    if ("error" in r) {
      expect(r.error.status).toBe(422);
      expect(r.error.code).toBe("database-corrupt");
    } else {
      expect(r.issues.map((i) => i.code)).toContain("database-truncated");
    }
  });

  it("garbage in place of the database: not-a-database (422)", () => {
    const copy = copyState(S1);
    fs.writeFileSync(copy.dbPath, Buffer.alloc(8192, 0x41));
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions).toEqual([]);
    expect(list.issues).toEqual([
      expect.objectContaining({ source: DB_REL, code: "not-a-database", severity: "error" }),
    ]);
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    expect(r).toEqual({ error: expect.objectContaining({ code: "not-a-database", status: 422 }) });
  });

  it("empty file and missing file", () => {
    const copy = copyState(S1);
    fs.writeFileSync(copy.dbPath, "");
    expect(listSqliteSessions(copy.stateDir, "main", DB_REL).issues[0]?.message).toMatch(/empty/);
    fs.rmSync(copy.dbPath);
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    expect(r).toEqual({ error: expect.objectContaining({ code: "database-missing", status: 404 }) });
    expect(fs.existsSync(copy.dbPath)).toBe(false);
  });

  it("corrupt b-tree page: database-corrupt, the header still readable", () => {
    const copy = copyState(S1);
    // Overwrite every page after the schema page with garbage (keeps the 100-byte header and page 1).
    const buf = fs.readFileSync(copy.dbPath);
    for (let i = 4096 * 2; i < buf.length; i += 1) buf[i] = (i * 7919) % 251;
    fs.writeFileSync(copy.dbPath, buf);
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(
      list.issues.some(
        (i) => i.severity === "error" && /corrupt|malformed|query/i.test(`${i.code} ${i.message}`),
      ),
    ).toBe(true);
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    if ("error" in r) expect([404, 422, 500]).toContain(r.error.status);
    else expect(r.issues.length + r.transcript.issues.length).toBeGreaterThan(0);
  });

  it("undecodable zstd blob (bad magic): that seq is a located issue, every other event loads", () => {
    let seq = -1;
    const copy = damage((w) => {
      const row = w
        .prepare("SELECT seq FROM transcript_events WHERE event_zstd IS NOT NULL ORDER BY seq LIMIT 1")
        .get();
      seq = typeof row === "object" && row !== null && "seq" in row ? Number(row.seq) : -1;
      w.prepare("UPDATE transcript_events SET event_zstd = ? WHERE session_id = ? AND seq = ?").run(
        Buffer.from("this is not a zstd frame at all"),
        id,
        seq,
      );
    });
    expect(seq).toBeGreaterThan(0);
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.entries).toHaveLength(75);
    expect(r.transcript.entries.some((e) => e.seq === seq)).toBe(false);
    const issue = r.transcript.issues.find((i) => i.seq === seq);
    expect(issue).toMatchObject({
      source: `${DB_REL}#transcript_events`,
      code: "zstd-error",
      severity: "error",
    });
    expect(issue?.message).toMatch(/bad zstd magic/);
    expect(r.summary.parseErrorCount).toBeGreaterThanOrEqual(1);
    // The active row of the lost event no longer resolves: branch recomputed from the tree, with an issue.
    expect(sqliteExtras(r)?.activeBranchSource).toBe("tree-fallback");
  });

  it("zstd blob with garbage bytes inside a valid frame: located issue, no throw", () => {
    let seq = -1;
    const copy = damage((w) => {
      const row = w
        .prepare(
          "SELECT seq, event_zstd FROM transcript_events WHERE event_zstd IS NOT NULL ORDER BY seq LIMIT 1",
        )
        .get();
      if (
        typeof row !== "object" ||
        row === null ||
        !("event_zstd" in row) ||
        !(row.event_zstd instanceof Uint8Array)
      )
        return;
      seq = "seq" in row ? Number(row.seq) : -1;
      const blob = Buffer.from(row.event_zstd);
      for (let i = 20; i < blob.length - 8; i += 3) blob[i] = 0xff ^ (blob[i] ?? 0);
      w.prepare("UPDATE transcript_events SET event_zstd = ? WHERE session_id = ? AND seq = ?").run(
        blob,
        id,
        seq,
      );
    });
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.entries).toHaveLength(75);
    expect(r.transcript.issues.find((i) => i.seq === seq)?.severity).toBe("error");
  });

  it("zstd frame declaring an absurd size is refused before allocating", () => {
    let seq = -1;
    const copy = damage((w) => {
      const row = w
        .prepare("SELECT seq FROM transcript_events WHERE event_zstd IS NOT NULL ORDER BY seq LIMIT 1")
        .get();
      seq = typeof row === "object" && row !== null && "seq" in row ? Number(row.seq) : -1;
      // Single-segment frame, 8-byte content size 2^40, one empty raw last block.
      const frame = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0]);
      w.prepare("UPDATE transcript_events SET event_zstd = ? WHERE session_id = ? AND seq = ?").run(
        frame,
        id,
        seq,
      );
    });
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.issues.find((i) => i.seq === seq)?.message).toMatch(/above the .*limit/);
  });

  it("invalid JSON in event_json: located issue with seq", () => {
    const copy = damage((w) => {
      w.prepare("UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = 3").run(
        '{"type":"message",',
        id,
      );
    });
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.entries).toHaveLength(75);
    expect(r.transcript.issues.find((i) => i.seq === 3)).toMatchObject({
      source: `${DB_REL}#transcript_events`,
      code: "invalid-json",
      severity: "error",
    });
  });

  it("non-object event and event without type", () => {
    const copy = damage((w) => {
      w.prepare(
        "UPDATE transcript_events SET event_json = '[1,2]', event_zstd = NULL WHERE session_id = ? AND seq = 2",
      ).run(id);
      w.prepare(
        `UPDATE transcript_events SET event_json = '{"id":"x","parentId":null}', event_zstd = NULL WHERE session_id = ? AND seq = 75`,
      ).run(id);
    });
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.issues.find((i) => i.seq === 2)?.code).toBe("not-an-object");
    expect(r.transcript.issues.find((i) => i.seq === 75)?.code).toBe("missing-type");
    expect(r.transcript.entries.find((e) => e.seq === 75)?.type).toBe("");
  });

  it("invalid JSON in entry_json: located issue, transcript still loads, entry null", () => {
    const copy = damage((w) => {
      w.prepare("UPDATE session_nodes SET entry_json = '{not json'").run();
    });
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions).toHaveLength(1);
    expect(list.issues).toEqual([
      expect.objectContaining({ source: `${DB_REL}#session_nodes`, code: "invalid-json", severity: "error" }),
    ]);
    expect(list.issues[0]?.message).toContain("agent:main:main");
    const r = loadOk(copy.stateDir, id);
    expect(r.entry).toBeNull();
    expect(r.transcript.entries).toHaveLength(76);
    expect(r.issues.map((i) => i.code)).toEqual(["invalid-json"]);
  });

  it("missing optional table: active branch from the tree with a warning", () => {
    const copy = damage((w) => {
      w.exec("DROP TABLE session_transcript_active_events");
    });
    const r = loadOk(copy.stateDir, id);
    expect(sqliteExtras(r)?.activeBranchSource).toBe("tree-fallback");
    expect(r.transcript.issues[0]).toMatchObject({ code: "active-index-untrusted", severity: "warning" });
    expect(r.transcript.issues[0]?.message).toMatch(/missing/);
    expect(r.transcript.activeBranch).toHaveLength(75);
  });

  it("missing session_windows: listed with a warning", () => {
    const copy = damage((w) => {
      w.exec("DROP TABLE session_windows");
    });
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions.map((s) => s.sessionId)).toEqual([id]);
    expect(list.issues).toEqual([expect.objectContaining({ code: "missing-table", severity: "warning" })]);
    expect(loadOk(copy.stateDir, id).transcript.entries).toHaveLength(76);
  });

  it("missing required table: clear error naming it", () => {
    const copy = damage((w) => {
      w.exec("DROP TABLE transcript_events");
    });
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions).toEqual([]);
    expect(list.issues).toEqual([expect.objectContaining({ code: "missing-table", severity: "error" })]);
    expect(list.issues[0]?.message).toBe("agent schema 23, but missing table transcript_events");
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    expect(r).toEqual({ error: expect.objectContaining({ code: "missing-table", status: 422 }) });
  });

  it("unknown schema version with the needed tables: read with a warning", () => {
    const copy = damage((w) => {
      w.exec("UPDATE schema_meta SET schema_version = 99 WHERE role = 'agent'");
    });
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions).toHaveLength(1);
    expect(list.issues).toEqual([
      expect.objectContaining({
        source: `${DB_REL}#schema_meta`,
        code: "unsupported-schema-version",
        severity: "warning",
      }),
    ]);
    expect(list.issues[0]?.message).toMatch(/agent schema 99 is outside the supported range 14–23/);
    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.entries).toHaveLength(76);
    expect(sqliteExtras(r)?.schemaVersion).toBe(99);
  });

  it("unknown schema version without the needed tables: unsupported agent schema N (supported: 14–23)", () => {
    const copy = damage((w) => {
      w.exec("UPDATE schema_meta SET schema_version = 9 WHERE role = 'agent'");
      w.exec("DROP TABLE session_nodes");
    });
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(list.sessions).toEqual([]);
    expect(list.issues[0]?.code).toBe("unsupported-schema");
    expect(list.issues[0]?.message).toMatch(
      /^unsupported agent schema 9 \(supported: 14–23\); missing table session_nodes/,
    );
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id);
    expect(r).toEqual({ error: expect.objectContaining({ code: "unsupported-schema", status: 422 }) });
  });

  it("a 2026.7.x app_version maps to the 2026.7 family unless projection snapshots are present", () => {
    const copy = damage((w) => {
      w.exec(
        "UPDATE schema_meta SET app_version = '2026.7.2-beta.7', schema_version = 8 WHERE role = 'agent'",
      );
    });
    const r = loadOk(copy.stateDir, id);
    // s1 holds projection snapshots (openclaw.cache-ttl with prunedToolResults) → 2026.9 rules.
    expect(r.version.family).toBe("2026.9");
    expect(r.version.reason).toMatch(/projection snapshots/);
    const copy2 = damage((w) => {
      w.exec("UPDATE schema_meta SET app_version = '2026.7.2', schema_version = 14 WHERE role = 'agent'");
      w.exec(
        "DELETE FROM transcript_events WHERE session_id = (SELECT current_session_id FROM session_nodes) AND (event_json LIKE '%prunedToolResults%' OR event_zstd IS NOT NULL AND seq IN (SELECT seq FROM transcript_events WHERE navigation_json LIKE '%openclaw.cache-ttl%'))",
      );
    });
    const r2 = loadOk(copy2.stateDir, id);
    expect(r2.version).toMatchObject({ appVersion: "2026.7.2", family: "2026.7" });
  });

  it("locked database: retried, then a typed error; released lock is picked up by the retries", async () => {
    const copy = copyState(S1);
    const w = new Database(copy.dbPath);
    w.exec("BEGIN EXCLUSIVE");
    const t0 = Date.now();
    const list = listSqliteSessions(copy.stateDir, "main", DB_REL, { busyTimeoutMs: 20, retries: 2 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(20 * 3 + 50 + 150 - 10);
    expect(list.sessions).toEqual([]);
    expect(list.issues).toEqual([expect.objectContaining({ code: "database-locked", severity: "error" })]);
    const r = loadSqliteSession(copy.stateDir, "main", DB_REL, id, { busyTimeoutMs: 20, retries: 1 });
    expect(r).toEqual({ error: expect.objectContaining({ code: "database-locked", status: 500 }) });
    w.exec("COMMIT");
    w.close();

    // A writer in another process holds an exclusive lock for ~300 ms; the back-off retries outlast it.
    const betterSqlite = require.resolve("better-sqlite3");
    const script = `
      const Database = require(${JSON.stringify(betterSqlite)});
      const db = new Database(${JSON.stringify(copy.dbPath)});
      db.exec("BEGIN EXCLUSIVE");
      process.stdout.write("locked\\n");
      setTimeout(() => { db.exec("COMMIT"); db.close(); process.stdout.write("released\\n"); }, 300);
    `;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const held = listSqliteSessions(copy.stateDir, "main", DB_REL, { busyTimeoutMs: 50, retries: 4 });
    await new Promise((resolve) => child.once("exit", resolve));
    expect(held.issues).toEqual([]);
    expect(held.sessions.map((s) => s.sessionId)).toEqual([id]);
  });

  it("hot rollback journal from a crashed writer: read the rolled-back state from a copy, touch nothing", () => {
    const copy = copyState(S1);
    // A writer rewrites every event_json, spills the pages into the database file (tiny cache) and is
    // SIGKILLed before COMMIT: the file holds uncommitted pages, the -journal the committed ones.
    const script = `
      const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
      const db = new Database(${JSON.stringify(copy.dbPath)});
      db.pragma("cache_size = 2");
      db.exec("BEGIN");
      db.prepare("UPDATE transcript_events SET event_json = '{\\"type\\":\\"junk-uncommitted\\"}' WHERE event_json IS NOT NULL").run();
      process.kill(process.pid, "SIGKILL");
    `;
    const res = spawnSync(process.execPath, ["-e", script]);
    expect(res.signal).toBe("SIGKILL");
    expect(fs.existsSync(`${copy.dbPath}-journal`)).toBe(true);
    expect(fs.readFileSync(copy.dbPath).includes("junk-uncommitted")).toBe(true);
    const sums = [fs.readFileSync(copy.dbPath), fs.readFileSync(`${copy.dbPath}-journal`)];

    const r = loadOk(copy.stateDir, id);
    expect(r.transcript.entries).toHaveLength(76);
    expect(r.transcript.entries.some((e) => e.type === "junk-uncommitted")).toBe(false);
    expect(r.transcript.issues).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ code: "snapshot-copy", severity: "warning" })]);
    expect(sqliteExtras(r)?.snapshotCopy).toMatch(/hot rollback journal/);
    // The state dir keeps the journal for OpenClaw to recover; nothing was rolled back in place.
    expect(fs.readFileSync(copy.dbPath).equals(sums[0] ?? Buffer.alloc(0))).toBe(true);
    expect(fs.readFileSync(`${copy.dbPath}-journal`).equals(sums[1] ?? Buffer.alloc(0))).toBe(true);
  });

  it("a damaged agent does not stop another agent in the same state dir", () => {
    const copy = copyState(S1);
    copyState(S1, "ops", copy.stateDir);
    fs.writeFileSync(copy.dbPath, Buffer.alloc(4096, 0x00));
    const bad = listSqliteSessions(copy.stateDir, "main", DB_REL);
    const good = listSqliteSessions(copy.stateDir, "ops", "agents/ops/agent/openclaw-agent.sqlite");
    expect(bad.sessions).toEqual([]);
    expect(good.issues).toEqual([]);
    expect(good.sessions).toEqual([
      expect.objectContaining({
        agentId: "ops",
        sessionId: id,
        location: "agents/ops/agent/openclaw-agent.sqlite",
      }),
    ]);
    expect(path.isAbsolute(good.sessions[0]?.location ?? "/")).toBe(false);
  });
});
