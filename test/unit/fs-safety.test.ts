// fs-safety.ts: the one containment rule (was three copies that disagreed — architecture review §1.6 `isInside`).

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileIdentity, isInside, isInsideReal, sqliteFilesIdentity } from "../../server/sources/fs-safety.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-fs-safety-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("isInside", () => {
  it("counts the dir itself and everything below it, nothing else", () => {
    expect(isInside("/s", "/s")).toBe(true);
    expect(isInside("/s/agents/main/x.jsonl", "/s")).toBe(true);
    expect(isInside("/s/", "/s")).toBe(true);
    expect(isInside("/s/../t", "/s")).toBe(false);
    expect(isInside("/st", "/s")).toBe(false);
    expect(isInside("/", "/s")).toBe(false);
  });

  it("keeps a file whose name starts with two dots inside (the old copies rejected it)", () => {
    expect(isInside("/s/..notes.jsonl", "/s")).toBe(true);
    expect(isInside("/s/sessions/..x", "/s")).toBe(true);
  });
});

describe("isInsideReal", () => {
  it("follows symlinks of the existing prefix, also for paths that do not exist yet", () => {
    const state = path.join(tmp, "state");
    mkdirSync(path.join(state, "agents"), { recursive: true });
    const link = path.join(tmp, "link-to-agents");
    symlinkSync(path.join(state, "agents"), link);
    expect(isInsideReal(path.join(link, "new.html"), state)).toBe(true);
    expect(isInsideReal(path.join(tmp, "elsewhere.html"), state)).toBe(false);
  });
});

describe("file identity", () => {
  it("changes on append and on replacement; a SQLite identity names its sidecars", () => {
    const f = path.join(tmp, "a.jsonl");
    writeFileSync(f, "x\n");
    const before = fileIdentity(f);
    writeFileSync(f, "x\ny\n");
    expect(fileIdentity(f)).not.toBe(before);
    expect(fileIdentity(path.join(tmp, "none"))).toBeNull();
    const db = path.join(tmp, "openclaw-agent.sqlite");
    expect(sqliteFilesIdentity(db)).toBeNull();
    writeFileSync(db, "");
    const noWal = sqliteFilesIdentity(db);
    expect(noWal?.split("|").slice(1)).toEqual(["-", "-"]);
    writeFileSync(`${db}-wal`, "w");
    expect(sqliteFilesIdentity(db)).not.toBe(noWal);
  });
});
