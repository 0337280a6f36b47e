// The `sessions --json` listing cache (issue 18, warm list; server/service/listing-cache.ts): in process, the way
// server/cli/sessions-listing.ts uses it — read, else list through a fresh service and write. After every change
// to a state dir the cached path must print the bytes a `--no-cache` listing prints, and each change that the
// listing can see must be a miss: a key that left out the transcripts' stamps, the dir's entries, sessions.json,
// a link's target or a recorded path outside the sessions dir fails one of these. Also: every state dir at hand
// (demo, test/fixtures, ../shared/fixtures, ../shared/corpus) gives the same bytes cold, warm and uncached.

import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonText } from "../../server/cli/json-out.ts";
import { ListingCache } from "../../server/service/listing-cache.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { stateDirs } from "../helpers/state-dirs.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const REPO = path.resolve(__dirname, "../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-listing-cache-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Listed {
  json: string;
  issues: string;
}

/** What `sessions --json` prints without any persistent cache (a fresh process's service). */
function uncached(stateDir: string): Listed {
  const service = createSessionService({ stateDir, demo: false, reason: "test", cacheDir: null });
  try {
    const { sessions, issues } = service.listSessions();
    return { json: jsonText(sessions), issues: JSON.stringify(issues) };
  } finally {
    service.close();
  }
}

/** The CLI's cached path (sessions-listing.ts): a hit prints the stored bytes, a miss lists and keeps them. */
function cached(stateDir: string, cacheDir: string): Listed & { hit: boolean } {
  // racyMs 0: these tests list right after each change; every change below alters a size, a name, an inode or
  // a link, or moves an mtime by seconds, so no stamp depends on the file system's clock granularity.
  const cache = ListingCache.open(cacheDir, stateDir, { racyMs: 0 });
  if (!cache) throw new Error("cache refused");
  const hit = cache.read();
  if (hit) return { json: hit.json.toString("utf8"), issues: JSON.stringify(hit.issues), hit: true };
  const before = cache.before();
  const service = createSessionService({ stateDir, demo: false, reason: "test", cacheDir });
  try {
    const { sessions, issues } = service.listSessions();
    const json = jsonText(sessions);
    if (before) cache.write(before, issues, json);
    return { json, issues: JSON.stringify(issues), hit: false };
  } finally {
    service.close();
  }
}

/** A change must be seen: the next cached listing misses, equals the uncached one, and the one after hits. */
function expectSeen(stateDir: string, cacheDir: string, what: string): Listed {
  const first = cached(stateDir, cacheDir);
  expect(first.hit, `${what}: a miss`).toBe(false);
  const want = uncached(stateDir);
  expect(first, what).toEqual({ ...want, hit: false });
  const again = cached(stateDir, cacheDir);
  expect(again, `${what}: then a hit`).toEqual({ ...want, hit: true });
  return want;
}

/** mtime + 5 s, bytes unchanged. */
function touch(file: string): void {
  const t = statSync(file).mtimeMs / 1000 + 5;
  utimesSync(file, t, t);
}

function build(text: string, model = "claude-sonnet-4-5"): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.user(text);
  b.assistant({ text: `re: ${text}`, model });
  return b;
}

describe("sessions --json listing cache", () => {
  const stateDir = path.join(tmp, "state");
  const cacheDir = path.join(tmp, "xdg", "clawscope");
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const file = build("hello").writeJsonlStateDir(stateDir);
  const store = path.join(sessionsDir, "sessions.json");

  it("hits when nothing changed, and prints the uncached bytes", () => {
    const want = uncached(stateDir);
    expect(cached(stateDir, cacheDir)).toEqual({ ...want, hit: false });
    expect(cached(stateDir, cacheDir)).toEqual({ ...want, hit: true });
  });

  it("sees a transcript touched, appended to, or replaced by another file of the same size and mtime", () => {
    touch(file);
    expectSeen(stateDir, cacheDir, "touched");
    const before = uncached(stateDir).json;
    appendFileSync(file, `${readFileSync(file, "utf8").split("\n")[1]}\n`);
    expect(expectSeen(stateDir, cacheDir, "appended").json).not.toBe(before);
    // Same bytes, size and mtime, another inode (a rename over it): still a miss.
    const st = statSync(file);
    const copy = `${file}.tmp-copy`;
    copyFileSync(file, copy);
    utimesSync(copy, st.atime, st.mtime);
    renameSync(copy, file);
    expectSeen(stateDir, cacheDir, "replaced");
  });

  it("sees sessions.json edited", () => {
    const body: unknown = JSON.parse(readFileSync(store, "utf8"));
    const next = JSON.stringify(body).replace(/"updatedAt":/, '"model":"edited-model","updatedAt":');
    writeFileSync(store, next);
    expect(expectSeen(stateDir, cacheDir, "store edited").json).toContain("edited-model");
  });

  it("sees a transcript added and removed", () => {
    const orphan = path.join(sessionsDir, "0a1b2c3d-0000-4000-8000-0000000000ff.jsonl");
    writeFileSync(orphan, build("orphan").jsonl());
    expect(expectSeen(stateDir, cacheDir, "added").json).toContain("0000000000ff");
    unlinkSync(orphan);
    expect(expectSeen(stateDir, cacheDir, "removed").json).not.toContain("0000000000ff");
  });

  it("sees a linked transcript pointed elsewhere (same name, same dir entry type)", () => {
    const a = path.join(stateDir, "store-a.jsonl");
    const b = path.join(stateDir, "store-b.jsonl");
    writeFileSync(a, build("linked a").jsonl());
    writeFileSync(b, build("linked b, a longer transcript", "claude-opus-4-5").jsonl());
    const link = path.join(sessionsDir, "0a1b2c3d-0000-4000-8000-0000000000aa.jsonl");
    symlinkSync(a, link);
    expectSeen(stateDir, cacheDir, "link added");
    unlinkSync(link);
    symlinkSync(b, link);
    expect(expectSeen(stateDir, cacheDir, "link retargeted").json).toContain("claude-opus-4-5");
    unlinkSync(link);
    expectSeen(stateDir, cacheDir, "link removed");
  });

  it("sees a recorded sessionFile outside the sessions dir start resolving (no file of the dir changed)", () => {
    // Agent `other` has its own transcript; main's entry records a path under `elsewhere/`, which does not
    // exist: main's row is its own file, rebased by name. Then `elsewhere` becomes a link to other's sessions
    // dir — outside the state dir's sessions dirs, nothing they hold changes — and the row is other's file.
    const dir = path.join(tmp, "outside");
    const otherSessions = path.join(dir, "agents", "other", "sessions");
    build("other agent").writeJsonlStateDir(dir, { agentId: "other", sessionId: "shared-name" });
    build("main agent").writeJsonlStateDir(dir, { agentId: "main", sessionId: "shared-name" });
    const mainStore = path.join(dir, "agents", "main", "sessions", "sessions.json");
    const elsewhere = path.join(tmp, "elsewhere");
    const entries: unknown = JSON.parse(readFileSync(mainStore, "utf8"));
    writeFileSync(
      mainStore,
      JSON.stringify(entries).replace(
        /"sessionFile":"[^"]*"/,
        `"sessionFile":"${elsewhere}/shared-name.jsonl"`,
      ),
    );
    const cache = path.join(tmp, "xdg-outside");
    const rebased = expectSeen(dir, cache, "recorded path missing");
    symlinkSync(otherSessions, elsewhere);
    const linked = expectSeen(dir, cache, "recorded path resolves");
    expect(linked.json).not.toBe(rebased.json);
    expect(linked.json).toContain("agents/other/sessions/shared-name.jsonl");
  });

  it("keeps nothing when a file changed while the listing was made, or just before it", () => {
    const dir = path.join(tmp, "racing");
    const f = build("racing").writeJsonlStateDir(dir);
    const cache = ListingCache.open(path.join(tmp, "xdg-racing"), dir, { racyMs: 0 });
    const before = cache?.before();
    if (!cache || !before) throw new Error("cacheable");
    const { json } = uncached(dir);
    appendFileSync(f, "\n{}\n");
    cache.write(before, [], json);
    expect(cache.read()).toBeNull();
    // The default: a file changed in the 2 s before the listing may hide a same-size rewrite in its stamp.
    const strict = ListingCache.open(path.join(tmp, "xdg-racing"), dir);
    const now = strict?.before();
    if (!strict || !now) throw new Error("cacheable");
    strict.write(now, [], uncached(dir).json);
    expect(strict.read()).toBeNull();
    expect(cache.read()).toBeNull();
    const relaxed = cache.before();
    if (!relaxed) throw new Error("cacheable");
    cache.write(relaxed, [], uncached(dir).json);
    expect(cache.read()?.json.toString("utf8")).toBe(uncached(dir).json);
  });

  it("ignores a corrupt or other-version file, and refuses a cache dir inside the state dir", () => {
    const cache = ListingCache.open(cacheDir, stateDir, { racyMs: 0 });
    if (!cache) throw new Error("cache refused");
    const want = uncached(stateDir);
    expect(cached(stateDir, cacheDir).hit).toBe(true);
    const good = readFileSync(cache.file);
    writeFileSync(cache.file, good.subarray(0, good.length - 10));
    expect(cached(stateDir, cacheDir)).toEqual({ ...want, hit: false });
    writeFileSync(cache.file, good.toString("utf8").replace('{"version":1,', '{"version":0,'));
    expect(cached(stateDir, cacheDir)).toEqual({ ...want, hit: false });
    writeFileSync(cache.file, "{not json\n\n");
    expect(cached(stateDir, cacheDir)).toEqual({ ...want, hit: false });
    expect(cached(stateDir, cacheDir).hit).toBe(true);
    expect(ListingCache.open(path.join(stateDir, "cache"), stateDir)).toBeNull();
    expect(ListingCache.open(stateDir, stateDir)).toBeNull();
  });

  it("never caches a state dir with a SQLite store", () => {
    const dir = path.join(tmp, "sqlite");
    new TranscriptBuilder().writeSqliteStateDir(dir, path.join(REPO, "server/demo/state"));
    const cache = ListingCache.open(path.join(tmp, "xdg-sqlite"), dir);
    expect(cache?.before()).toBeNull();
  });
});

describe("sessions --json listing cache on every state dir at hand", () => {
  const roots = [
    path.join(REPO, "test/fixtures"),
    path.join(REPO, "server/demo/state"),
    path.resolve(REPO, "../shared/fixtures"),
    path.resolve(REPO, "../shared/corpus"),
  ];
  const dirs = roots.flatMap((r) => stateDirs(r));
  it("cold, warm and uncached print the same bytes and warnings", { timeout: 120_000 }, () => {
    expect(dirs.length).toBeGreaterThan(3);
    let hits = 0;
    for (const [i, dir] of dirs.entries()) {
      const cacheDir = path.join(tmp, "every", String(i));
      mkdirSync(cacheDir, { recursive: true });
      const want = uncached(dir);
      const label = path.relative(REPO, dir);
      expect(cached(dir, cacheDir), label).toEqual({ ...want, hit: false });
      const warm = cached(dir, cacheDir);
      expect({ ...warm, hit: false }, label).toEqual({ ...want, hit: false });
      if (warm.hit) hits++;
    }
    // Only the SQLite-era dirs are never cached.
    expect(hits).toBeGreaterThan(dirs.length / 2);
  });
});
