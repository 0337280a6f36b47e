// Agent-schema check and version family (spec README.md "Version eras", storage.md §4.2) and the zstd frame
// guard, as pure functions. Expectations are the spec's statements: 2026.9.x → "2026.9"; 2026.7.2–2026.8.x →
// "2026.7" unless 2026.9 projection snapshots are present; supported agent schemas 14–23.

import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  checkSchema,
  parseAppVersion,
  type TableColumns,
  versionInfo,
} from "../../server/sources/sqlite/schema.ts";
import { xxh64 } from "../../server/sources/sqlite/xxh64.ts";
import { decodeZstd, walkZstdFrames } from "../../server/sources/sqlite/zstd.ts";
import { fixtureDb, haveScenario, SCENARIOS, zstdRawFrame } from "../fixtures/sqlite/helpers.ts";

const fullTables: TableColumns = new Map([
  ["session_nodes", new Set(["session_key", "current_session_id", "entry_json", "updated_at"])],
  ["transcript_events", new Set(["session_id", "seq", "event_json", "event_zstd"])],
]);

describe("versionInfo", () => {
  it.each([
    ["2026.9.6", 23, false, "2026.9"],
    ["2026.9.0", 22, false, "2026.9"],
    ["2026.10.1", 24, false, "2026.9"],
    ["2027.1.0", 30, false, "2026.9"],
    // 2026.8.1 brought in the 2026.9.6 rules (docs/openclaw-facts.md §8); 2026.7.35 is still 7.1's
    ["2026.8.1", 19, false, "2026.9"],
    ["2026.8.4", 21, false, "2026.9"],
    ["2026.7.35", 1, false, "2026.7"],
    ["2026.7.2-beta.7", 8, false, "2026.7"],
    ["2026.7.2-beta.1", 4, false, "2026.7"],
    ["2026.7.2", 14, true, "2026.9"],
    ["2026.8.9", 22, true, "2026.9"],
  ] as const)("app_version %s (schema %i, snapshots %s) → %s", (app, schema, snaps, family) => {
    const v = versionInfo({ appVersion: app, schemaVersion: schema }, snaps);
    expect(v.family).toBe(family);
    expect(v.appVersion).toBe(app);
    expect(v.reason).toContain(app);
  });

  it("without app_version falls back to schema and transcript signals, saying so", () => {
    expect(versionInfo({ appVersion: null, schemaVersion: 23 }, false)).toMatchObject({
      family: "2026.9",
      appVersion: null,
    });
    expect(versionInfo({ appVersion: null, schemaVersion: 18 }, false).family).toBe("2026.7");
    expect(versionInfo(null, true).family).toBe("2026.9");
    expect(versionInfo({ appVersion: "nightly", schemaVersion: 18 }, false).reason).toMatch(
      /unparseable app_version "nightly"/,
    );
  });

  it("parses OpenClaw version strings", () => {
    expect(parseAppVersion("2026.9.6")).toEqual({ year: 2026, month: 9, patch: 6 });
    expect(parseAppVersion("2026.7.2-beta.1")).toEqual({ year: 2026, month: 7, patch: 2 });
    expect(parseAppVersion("9.6")).toBeNull();
  });
});

describe("checkSchema", () => {
  it("accepts 14–23 silently, reads other versions with a warning when the tables exist", () => {
    for (const v of [14, 18, 23])
      expect(checkSchema({ schemaVersion: v, appVersion: null }, fullTables)).toEqual({
        ok: true,
        warnings: [],
      });
    const r = checkSchema({ schemaVersion: 24, appVersion: null }, fullTables);
    expect(r.ok && r.warnings[0]).toMatch(/agent schema 24 is outside the supported range 14–23/);
    const none = checkSchema(null, fullTables);
    expect(none.ok && none.warnings[0]).toMatch(/no schema_meta row/);
  });

  it("names the version found, the range supported and what is missing", () => {
    const tables: TableColumns = new Map([["transcript_events", new Set(["session_id", "seq"])]]);
    expect(checkSchema({ schemaVersion: 7, appVersion: "2026.7.3" }, tables)).toEqual({
      ok: false,
      code: "unsupported-schema",
      message:
        "unsupported agent schema 7 (supported: 14–23); missing table session_nodes, column transcript_events.event_json",
    });
    expect(checkSchema({ schemaVersion: 23, appVersion: null }, tables)).toMatchObject({
      ok: false,
      code: "missing-table",
    });
  });
});

describe("zstd frame guard", () => {
  it("walks raw frames and decodes them", () => {
    const data = Buffer.from("x".repeat(300_000));
    const frame = zstdRawFrame(data);
    expect(walkZstdFrames(frame)).toEqual({
      ok: true,
      walk: {
        declaredSize: 300_000,
        boundSize: 300_000,
        maxWindow: 0,
        frames: 1,
        parts: [{ size: 300_000, checksum: null }],
      },
    });
    const out = decodeZstd(Buffer.concat([frame, zstdRawFrame(Buffer.from("\n"))]), 1_000_000);
    expect(out.ok && Buffer.from(out.bytes).toString()).toBe(`${"x".repeat(300_000)}\n`);
  });

  it("rejects truncated frames, bad magic and sizes over the limit without throwing", () => {
    const frame = zstdRawFrame(Buffer.from("hello world"));
    expect(decodeZstd(frame.subarray(0, frame.length - 3), 100)).toMatchObject({ ok: false });
    expect(decodeZstd(Buffer.from([1, 2, 3, 4, 5]), 100)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/bad zstd magic/),
    });
    expect(decodeZstd(frame, 5)).toMatchObject({ ok: false, error: expect.stringMatching(/limit/) });
    expect(decodeZstd(new Uint8Array(0), 5)).toMatchObject({ ok: false });
  });
});

describe("zstd content checksum (XXH64)", () => {
  it("matches the XXH64 reference vectors", () => {
    expect(xxh64(Buffer.from("")).toString(16)).toBe("ef46db3751d8e999");
    expect(xxh64(Buffer.from("a")).toString(16)).toBe("d24ec4f1a98c6e5b");
    expect(xxh64(Buffer.from("abc")).toString(16)).toBe("44bc2cf5ad770999");
  });

  it("verifies every checksummed frame OpenClaw wrote in the fixtures", () => {
    let frames = 0;
    for (const sc of SCENARIOS) {
      if (!haveScenario(sc.name)) continue;
      const db = new Database(fixtureDb(sc.name), { readonly: true, fileMustExist: true });
      for (const r of db
        .prepare("SELECT event_zstd FROM transcript_events WHERE event_zstd IS NOT NULL")
        .all()) {
        const z = typeof r === "object" && r !== null && "event_zstd" in r ? r.event_zstd : null;
        if (!(z instanceof Uint8Array)) continue;
        const walk = walkZstdFrames(z);
        expect(walk.ok && walk.walk.parts.every((p) => p.checksum !== null)).toBe(true);
        expect(decodeZstd(z, 4_194_304).ok).toBe(true);
        frames += 1;
      }
      db.close();
    }
    expect(frames).toBe(SCENARIOS.reduce((n, s) => n + (haveScenario(s.name) ? s.zstd : 0), 0));
  });

  it("rejects a frame whose content no longer matches its checksum", () => {
    const frame = Buffer.from(zstdRawFrame(Buffer.from('{"type":"message","text":"hello"}'), true));
    expect(decodeZstd(frame, 100).ok).toBe(true);
    frame[frame.length - 10] = "X".charCodeAt(0); // a content byte of the raw block
    expect(decodeZstd(frame, 100)).toEqual({ ok: false, error: "zstd content checksum mismatch in frame 0" });
  });
});
