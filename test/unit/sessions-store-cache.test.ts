// readSessionsStore's cache key: a store rewritten with the same size and the same mtime (OpenClaw writes it
// by rename; a rewrite inside one timestamp tick keeps the mtime) is read again — the key holds inode and ctime.
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSessionsStore } from "../../server/sources/jsonl/sessions-json.ts";

const dir = mkdtempSync(path.join(tmpdir(), "clawscope-store-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const store = (id: string) => JSON.stringify({ "agent:main:main": { sessionId: id, updatedAt: 1 } });

describe("sessions.json cache", () => {
  it("reads a same-size, same-mtime rewrite by rename again", () => {
    const file = path.join(dir, "sessions.json");
    writeFileSync(file, store("aaaa"));
    const tick = new Date(Date.UTC(2026, 11, 1, 12, 0, 0));
    utimesSync(file, tick, tick);
    const first = statSync(file);
    const ids = () => readSessionsStore(file, "sessions.json").entries.map(([, v]) => v.sessionId);
    expect(ids()).toEqual(["aaaa"]);
    const tmp = path.join(dir, "sessions.json.tmp");
    writeFileSync(tmp, store("bbbb"));
    utimesSync(tmp, tick, tick);
    renameSync(tmp, file);
    const second = statSync(file);
    expect([second.size, second.mtimeMs]).toEqual([first.size, first.mtimeMs]);
    expect(ids()).toEqual(["bbbb"]);
  });
});
