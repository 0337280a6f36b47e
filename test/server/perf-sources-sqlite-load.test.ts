// Issue 9, cold SQLite load: the speed changes of the sources layer keep the results of the slower code.
// - XXH64 from @node-rs/xxhash equals the JavaScript reference on every tail length and offset;
// - a load takes the stored byte total from the rows it read instead of a second SQL pass, and it equals
//   the SQL sum the session list still uses (full and incremental reads).

import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  listSqliteSessions,
  loadSqliteSession,
  sqliteEventsState,
  sqliteExtras,
} from "../../server/sources/sqlite/sqlite-source.ts";
import { xxh64, xxh64Js, xxh64Source, zstdContentChecksum } from "../../server/sources/sqlite/xxh64.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  haveScenario,
  zstdRawFrame,
} from "../fixtures/sqlite/helpers.ts";

afterAll(cleanupTmp);

describe("XXH64 (@node-rs/xxhash, JavaScript reference as the fallback)", () => {
  it("uses the native binding here, and it equals the reference for every length up to 3 stripes + tail and any byte offset", () => {
    expect(xxh64Source()).toBe("@node-rs/xxhash");
    for (let len = 0; len <= 3 * 32 + 31; len += 1) {
      for (const offset of [0, 1, 3, 7]) {
        const data = randomBytes(len + offset).subarray(offset);
        const js = xxh64Js(data);
        expect(xxh64(data)).toBe(js);
        expect(zstdContentChecksum(data)).toBe(Number(js & 0xffffffffn));
      }
    }
  });

  it("equals the reference on large inputs", () => {
    const big = randomBytes(3 * 1024 * 1024 + 5);
    expect(xxh64(big)).toBe(xxh64Js(big));
  });

  it("keeps the published test vectors", () => {
    expect(xxh64(Buffer.from("")).toString(16)).toBe("ef46db3751d8e999");
    expect(xxh64(Buffer.from("abc")).toString(16)).toBe("44bc2cf5ad770999");
    expect(xxh64Js(Buffer.from("abc")).toString(16)).toBe("44bc2cf5ad770999");
  });
});

const S1 = "s1-cache-ttl-default";

describe.skipIf(!haveScenario(S1))("stored bytes of a loaded session", () => {
  function listedBytes(stateDir: string, id: string): number | null {
    return (
      listSqliteSessions(stateDir, "main", DB_REL).sessions.find((s) => s.sessionId === id)?.sizeBytes ?? null
    );
  }

  it("equal the SQL sum of the session list, before and after an incremental read", () => {
    const { stateDir, dbPath } = copyState(S1);
    const id = exportedSessionId(S1);
    const first = loadSqliteSession(stateDir, "main", DB_REL, id);
    if ("error" in first) throw new Error(first.error.message);
    expect(first.summary.sizeBytes).toBe(listedBytes(stateDir, id));
    expect(first.summary.sizeBytes).toBeGreaterThan(0);

    // Append one compressed and one plain row (with a non-ASCII char: UTF-8 bytes ≠ string length).
    const db = new Database(dbPath);
    const maxSeq = Number(
      db.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").pluck().get(id),
    );
    const big = JSON.stringify({
      type: "custom",
      customType: "x",
      id: "p1",
      parentId: null,
      data: "é".repeat(900),
    });
    const bytes = Buffer.from(big, "utf8");
    const nav = JSON.stringify({
      version: 1,
      report: { kind: "ignored" },
      navigation: {},
      reset: {},
      model: {},
      modelBytes: 0,
      modelWithoutCheckpointBytes: 0,
      withoutCustomDataBytes: 0,
    });
    db.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, NULL, 0, ?, ?, ?)",
    ).run(id, maxSeq + 1, zstdRawFrame(bytes, true), bytes.length, nav);
    db.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, 0)",
    ).run(
      id,
      maxSeq + 2,
      JSON.stringify({ type: "custom", customType: "x", id: "p2", parentId: "p1", data: "ü" }),
    );
    db.close();

    const second = loadSqliteSession(stateDir, "main", DB_REL, id, undefined, sqliteEventsState(first));
    if ("error" in second) throw new Error(second.error.message);
    expect(sqliteExtras(second)?.eventsRead).toEqual({ mode: "incremental", rows: 2 });
    expect(second.summary.sizeBytes).toBe(listedBytes(stateDir, id));
    expect(second.summary.entryCount).toBe(
      first.summary.entryCount === null ? null : first.summary.entryCount + 2,
    );

    const full = loadSqliteSession(stateDir, "main", DB_REL, id);
    if ("error" in full) throw new Error(full.error.message);
    expect(full.summary.sizeBytes).toBe(second.summary.sizeBytes);
  });
});
