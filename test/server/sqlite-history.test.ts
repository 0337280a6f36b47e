// Session history in a SQLite store (spec storage.md §2, §4.2): earlier session windows ("ended"), cold archives
// (file under sessions/cold and blob in the table) and deleted/reset archives (identity and zstd). The 2026.9.6
// captures hold none of these, so a tmp copy of s1 is extended with rows built from REAL transcripts (s2, s3,
// s5 exports) and real zstd frames taken from the s2 store; each decoded archive must equal its source export.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../server/sources/sqlite/archives.ts";
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
  readJsonl,
  scenarioDir,
  zstdRawFrame,
} from "../fixtures/sqlite/helpers.ts";
import { resolveLazyTexts } from "../helpers/resolve-lazy.ts";

const S1 = "s1-cache-ttl-default";
const S2 = "s2-pruning-off";
const S3 = "s3-aggressive-hardclear";
const S5 = "s5-local-cli";
const present = [S1, S2, S3, S5].every(haveScenario);
afterAll(cleanupTmp);

function exportPath(sc: string): string {
  return path.join(scenarioDir(sc), "state-export", "main", "transcripts", `${exportedSessionId(sc)}.jsonl`);
}

/** JSONL of a store's transcript as zstd frames: the store's own event_zstd frames + raw frames for the rest. */
function framesFromStore(sc: string): Buffer {
  const db = new Database(fixtureDb(sc), { readonly: true, fileMustExist: true });
  const parts: Uint8Array[] = [];
  for (const r of db.prepare("SELECT event_json, event_zstd FROM transcript_events ORDER BY seq").all()) {
    if (typeof r !== "object" || r === null) continue;
    const z = "event_zstd" in r ? r.event_zstd : null;
    const j = "event_json" in r ? r.event_json : null;
    if (z instanceof Uint8Array) parts.push(z);
    else if (typeof j === "string") parts.push(zstdRawFrame(Buffer.from(j, "utf8")));
    parts.push(zstdRawFrame(Buffer.from("\n")));
  }
  db.close();
  return Buffer.concat(parts);
}

function loadOk(stateDir: string, id: string) {
  const r = loadSqliteSession(stateDir, "main", DB_REL, id);
  if ("error" in r) throw new Error(`load failed: ${r.error.code} ${r.error.message}`);
  return r;
}

describe.skipIf(!present)("SQLite history: windows, cold archives, deleted/reset archives", () => {
  const x = present ? exportedSessionId(S1) : "";
  const copy = present ? copyState(S1) : { stateDir: "", dbPath: "" };
  const coldFileBytes = present ? framesFromStore(S2) : Buffer.alloc(0);
  const coldSha = sha256Hex(coldFileBytes);
  const coldName = `${coldSha}.jsonl.zst`;
  const s5Jsonl = present ? fs.readFileSync(exportPath(S5)) : Buffer.alloc(0);
  const s3Frames = present ? framesFromStore(S3) : Buffer.alloc(0);

  if (present) {
    const w = new Database(copy.dbPath);
    w.pragma("foreign_keys = OFF");
    const now = 1796000000000;
    const win = w.prepare(
      "INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, created_at, updated_at, model_provider, model) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    // Y: the key rolled over from X (reset) — Y is current, X becomes "ended".
    win.run("win-y", "agent:main:main", x, "reset", now, now + 5, "anthropic", "claude-mock-2");
    const ev = w.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
    );
    ev.run(
      "win-y",
      0,
      JSON.stringify({
        type: "session",
        version: 4,
        id: "win-y",
        timestamp: "2026-11-30T01:00:00.000Z",
        cwd: "/w",
      }),
      now,
    );
    ev.run(
      "win-y",
      1,
      JSON.stringify({
        type: "message",
        id: "y1",
        parentId: null,
        timestamp: "2026-11-30T01:00:01.000Z",
        message: { role: "user", content: "hi", timestamp: now },
      }),
      now,
    );
    w.prepare("UPDATE session_nodes SET current_session_id = 'win-y'").run();
    // Z: cold archive stored as a file; W: cold archive stored in the table.
    win.run("win-z", "agent:main:main", null, null, now - 100, now - 90, null, null);
    win.run("win-w", "agent:main:main", null, null, now - 200, now - 190, null, null);
    const cold = w.prepare(
      "INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (?, 'g1', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const s2Events = readJsonl(exportPath(S2)).length;
    cold.run(
      "win-z",
      coldName,
      coldSha,
      s2Events,
      0,
      coldFileBytes.length,
      s2Events - 1,
      now - 50,
      "file",
      null,
    );
    const wBlob = zstdRawFrame(s5Jsonl);
    cold.run(
      "win-w",
      "w-cold.jsonl.zst",
      sha256Hex(wBlob),
      readJsonl(exportPath(S5)).length,
      s5Jsonl.length,
      wBlob.length,
      46,
      now - 60,
      "sqlite",
      wBlob,
    );
    // Deleted (identity) and reset (zstd) archives; one zstd archive that cannot be decoded; one wrong checksum.
    const arch = w.prepare(
      "INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at) VALUES (?, ?, 'agent:main:main', ?, ?, ?, ?, ?, ?)",
    );
    arch.run(
      x,
      "g1",
      "deleted",
      "identity",
      s5Jsonl,
      sha256Hex(s5Jsonl),
      `${x}.jsonl.deleted.2026-11-30T02-00-00-000Z`,
      now + 10,
    );
    arch.run(
      x,
      "g2",
      "reset",
      "zstd",
      s3Frames,
      sha256Hex(s3Frames),
      `${x}.jsonl.reset.2026-11-30T03-00-00-000Z.zst`,
      now + 20,
    );
    arch.run(
      x,
      "g3",
      "deleted",
      "zstd",
      Buffer.from("garbage, not zstd"),
      "0".repeat(64),
      "broken.jsonl.deleted.zst",
      now + 30,
    );
    arch.run(x, "g4", "deleted", "identity", s5Jsonl, "f".repeat(64), "badsum.jsonl.deleted", now + 40);
    w.close();
    const coldDir = path.join(copy.stateDir, "agents", "main", "sessions", "cold");
    fs.mkdirSync(coldDir, { recursive: true });
    fs.writeFileSync(path.join(coldDir, coldName), coldFileBytes);
    // A cold file no table row names.
    fs.writeFileSync(path.join(coldDir, "orphan-abc.jsonl.zst"), zstdRawFrame(s5Jsonl));
  }

  it("lists current, ended, cold and archived sessions", () => {
    const { sessions, issues } = listSqliteSessions(copy.stateDir, "main", DB_REL);
    expect(issues).toEqual([]);
    const byId = new Map(sessions.map((s) => [s.sessionId, s]));
    expect(byId.get("win-y")).toMatchObject({
      archived: null,
      sessionKey: "agent:main:main",
      entryCount: 2,
      location: DB_REL,
    });
    expect(byId.get(x)).toMatchObject({
      archived: "ended",
      sessionKey: "agent:main:main",
      entryCount: 76,
      updatedAt: 1795998631851,
    });
    expect(byId.get("win-z")).toMatchObject({
      archived: "cold",
      entryCount: 65,
      location: `agents/main/sessions/cold/${coldName}`,
      sizeBytes: coldFileBytes.length,
    });
    expect(byId.get("win-w")).toMatchObject({ archived: "cold", entryCount: 47, location: DB_REL });
    expect(byId.get(`${x}.jsonl.deleted.2026-11-30T02-00-00-000Z`)).toMatchObject({
      archived: "deleted",
      sizeBytes: s5Jsonl.length,
    });
    expect(byId.get(`${x}.jsonl.reset.2026-11-30T03-00-00-000Z.zst`)).toMatchObject({
      archived: "reset",
      sessionKey: "agent:main:main",
    });
    expect(byId.get("orphan-abc")).toMatchObject({
      archived: "cold",
      sessionKey: null,
      location: "agents/main/sessions/cold/orphan-abc.jsonl.zst",
    });
    expect(sessions.every((s) => s.storage === "sqlite" && s.agentId === "main")).toBe(true);
    expect(sessions).toHaveLength(9);
  });

  it("loads the current window with its SessionEntry and the previous_session_id chain", () => {
    const y = loadOk(copy.stateDir, "win-y");
    expect(y.entry?.sessionId).toBe(x);
    expect(y.transcript.entries.map((e) => e.id)).toEqual(["win-y", "y1"]);
    expect(sqliteExtras(y)?.windowChain).toEqual([x, "win-y"]);
    expect(sqliteExtras(y)?.window).toEqual({
      sessionKey: "agent:main:main",
      previousSessionId: x,
      reason: "reset",
    });
  });

  it("loads an ended window without the key's (newer) SessionEntry", () => {
    const ended = loadOk(copy.stateDir, x);
    expect(ended.summary.archived).toBe("ended");
    expect(ended.entry).toBeNull();
    expect(ended.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(readJsonl(exportPath(S1)));
    expect(sqliteExtras(ended)?.activeBranchSource).toBe("active-events-table");
  });

  it("decodes cold archives on demand (file with real multi-frame zstd, and table blob)", () => {
    const z = loadOk(copy.stateDir, "win-z");
    expect(z.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(readJsonl(exportPath(S2)));
    expect(z.transcript.issues).toEqual([]);
    expect(sqliteExtras(z)?.source).toBe("cold-archive");
    expect(z.summary).toMatchObject({ archived: "cold", entryCount: 65 });
    expect(z.transcript.version).toBe(4);
    expect(z.transcript.activeBranch.length).toBe(64);
    const wl = loadOk(copy.stateDir, "win-w");
    expect(wl.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(readJsonl(exportPath(S5)));
    expect(wl.transcript.entries[1]?.line).toBe(2);
    const orphan = loadOk(copy.stateDir, "orphan-abc");
    expect(orphan.transcript.entries).toHaveLength(47);
  });

  it("decodes deleted (identity) and reset (zstd) archives by archive_name", () => {
    const del = loadOk(copy.stateDir, `${x}.jsonl.deleted.2026-11-30T02-00-00-000Z`);
    expect(del.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(readJsonl(exportPath(S5)));
    expect(del.summary).toMatchObject({ archived: "deleted", entryCount: 47 });
    expect(del.entry).toBeNull();
    expect(sqliteExtras(del)?.source).toBe("transcript-archive");
    const reset = loadOk(copy.stateDir, `${x}.jsonl.reset.2026-11-30T03-00-00-000Z.zst`);
    expect(reset.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(readJsonl(exportPath(S3)));
    expect(reset.transcript.issues).toEqual([]);
  });

  it("an undecodable archive is a 422, a wrong checksum a located warning", () => {
    const broken = loadSqliteSession(copy.stateDir, "main", DB_REL, "broken.jsonl.deleted.zst");
    expect(broken).toEqual({ error: expect.objectContaining({ code: "archive-undecodable", status: 422 }) });
    const bad = loadOk(copy.stateDir, "badsum.jsonl.deleted");
    expect(bad.transcript.issues).toEqual([
      expect.objectContaining({
        code: "checksum-mismatch",
        severity: "warning",
        source: `${DB_REL}#session_transcript_archives/badsum.jsonl.deleted`,
      }),
    ]);
    expect(bad.transcript.entries).toHaveLength(47);
  });

  it("a cold row whose file is gone is a 404 naming the file", () => {
    const gone = copyState(S1);
    const w = new Database(gone.dbPath);
    w.pragma("foreign_keys = OFF");
    w.prepare(
      "INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('gone', 'agent:main:main', 1, 1)",
    ).run();
    w.prepare(
      "INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage) VALUES ('gone', 'g', 'gone.jsonl.zst', ?, 1, 1, 1, 0, 1, 'file')",
    ).run("a".repeat(64));
    w.close();
    const r = loadSqliteSession(gone.stateDir, "main", DB_REL, "gone");
    expect(r).toEqual({ error: expect.objectContaining({ code: "archive-missing", status: 404 }) });
    if ("error" in r) expect(r.error.message).toContain("agents/main/sessions/cold/gone.jsonl.zst");
  });
});
