// Issue 9: long tool-result texts of compressed SQLite events are not kept in memory; they are read back on
// demand (server/sources/sqlite/event-byte-reader.ts) — from the event's own zstd frame when it is small
// (OpenClaw's real frames: no database access at all), else by selecting the row again. Either way the text
// read back is the stored one, and a text that can no longer be read is never replaced by other text.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeSqliteStateDir } from "../../server/bench/generate-session.ts";
import { blockText, lazyTextOf, readLazyText } from "../../server/model/lazy-text.ts";
import type { LoadedSession } from "../../server/model/session.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { isObject, type JsonObject } from "../../shared/json.ts";

const DEMO = path.resolve(__dirname, "../../server/demo/state");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-readback-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function cutBlocks(s: LoadedSession): { block: JsonObject; seq: number; index: number }[] {
  const out: { block: JsonObject; seq: number; index: number }[] = [];
  for (const e of s.transcript.entries) {
    const content = isObject(e.raw.message) ? e.raw.message.content : undefined;
    if (!Array.isArray(content)) continue;
    content.forEach((b, index) => {
      if (isObject(b) && lazyTextOf(b) && e.seq !== undefined) out.push({ block: b, seq: e.seq, index });
    });
  }
  return out;
}

/** The text as stored, decoded straight from the row (a reference independent of the reader under test). */
function storedText(
  dbPath: string,
  sessionId: string,
  seq: number,
  index: number,
  decode: (b: Uint8Array) => string,
): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT event_json, event_zstd FROM transcript_events WHERE session_id = ? AND seq = ?")
      .get(sessionId, seq);
    if (!isObject(row)) throw new Error("row missing");
    const text =
      typeof row.event_json === "string"
        ? row.event_json
        : row.event_zstd instanceof Uint8Array
          ? decode(row.event_zstd)
          : "";
    const ev: unknown = JSON.parse(text);
    const content = isObject(ev) && isObject(ev.message) ? ev.message.content : undefined;
    const b = Array.isArray(content) ? content[index] : undefined;
    return isObject(b) && typeof b.text === "string" ? b.text : "";
  } finally {
    db.close();
  }
}

function loadOnly(stateDir: string): { s: LoadedSession; dbPath: string } {
  const reader = openStateReader(stateDir);
  const ref = reader.listSessions().sessions.find((x) => x.agentId === "main" && x.storage === "sqlite");
  if (!ref) throw new Error("no sqlite session");
  const r = reader.loadSession({ agentId: ref.agentId, sessionId: ref.sessionId });
  if ("error" in r) throw new Error(r.error.message);
  return { s: r, dbPath: path.join(stateDir, "agents/main/agent/openclaw-agent.sqlite") };
}

describe("SQLite read-back of cut texts", () => {
  it("real OpenClaw frames: texts read back from the kept frame, even with the database gone", async () => {
    const dir = path.join(tmp, "demo");
    fs.cpSync(DEMO, dir, { recursive: true });
    const { s, dbPath } = loadOnly(dir);
    const cut = cutBlocks(s);
    expect(cut.length).toBeGreaterThan(0);
    const { decompress } = await import("fzstd");
    const dec = (b: Uint8Array) => new TextDecoder().decode(decompress(b));
    const expected = cut.map((c) => storedText(dbPath, s.summary.sessionId, c.seq, c.index, dec));
    fs.rmSync(path.dirname(dbPath), { recursive: true });
    expect(cut.map((c) => blockText(c.block))).toEqual(expected);
  });

  it("frames that do not compress: the row is selected again; a vanished row is a failure, not other text", async () => {
    const w = writeSqliteStateDir(path.join(tmp, "raw"), { targetBytes: 400_000, seed: 3, rawFrames: true });
    const { s, dbPath } = loadOnly(w.stateDir);
    const cut = cutBlocks(s);
    expect(cut.length).toBeGreaterThan(0);
    const { decompress } = await import("fzstd");
    const dec = (b: Uint8Array) => new TextDecoder().decode(decompress(b));
    const first = cut[0];
    if (!first) throw new Error("no cut block");
    expect(blockText(first.block)).toBe(storedText(dbPath, s.summary.sessionId, first.seq, first.index, dec));
    const db = new Database(dbPath);
    db.prepare("DELETE FROM transcript_events WHERE seq = ?").run(first.seq);
    db.close();
    const lazy = lazyTextOf(first.block);
    expect(lazy && readLazyText(lazy)).toBeNull();
    expect(blockText(first.block)).toContain("no longer readable");
  });
});
