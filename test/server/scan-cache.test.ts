// The persistent cache of the session list (issue 18, big state dirs): `sessions --json` run as a user runs it,
// with $XDG_CACHE_HOME pointing at a temp dir. The cache file lands there and never in the state dir (whose
// every file keeps its bytes and mtime); a later process reads it (a planted scan shows up), a changed
// transcript is scanned again, `--no-cache` bypasses it, a corrupt or other-version file is ignored, and a
// cache dir inside the state dir is refused. The listing cache beside it (server/service/listing-cache.ts): the
// second process prints the first one's bytes from the cache file (a planted body shows the hit path printed it,
// not a listing), `--no-cache` and a changed transcript list again, the text table and `--pricing` behave as
// before, and the state dir keeps every byte and mtime.

import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SCAN_STORE_FILE, ScanStore } from "../../server/sources/jsonl/scan-store.ts";
import { isObject } from "../../shared/json.ts";
import { runCli } from "../helpers/cli.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-scan-cache-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const stateDir = path.join(tmp, "state");
const b = new TranscriptBuilder();
b.user("hello");
b.assistant({ text: "hi" });
const transcript = b.writeJsonlStateDir(stateDir);
/** Stamp a transcript `seconds` before now (negative: ahead); one changed in the last 2 s is not kept across processes. */
function age(file: string, seconds = 60): void {
  const t = Date.now() / 1000 - seconds;
  utimesSync(file, t, t);
}
age(transcript);
const cacheHome = path.join(tmp, "xdg");
const cacheFile = path.join(cacheHome, "clawscope", SCAN_STORE_FILE);

/** Every file of the state dir with its size and mtime. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    const st = statSync(p);
    out.push(`${path.relative(dir, p)} ${e.isDirectory() ? "dir" : st.size} ${st.mtimeMs}`);
  }
  return out.sort();
}

function cli(
  env: Record<string, string>,
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  const r = runCli(["sessions", ...args], { env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sessions(
  env: Record<string, string>,
  ...flags: string[]
): { status: number | null; rows: unknown[] } {
  const r = cli(env, "--json", "--state-dir", stateDir, ...flags);
  const rows: unknown = r.status === 0 ? JSON.parse(r.stdout) : [];
  return { status: r.status, rows: Array.isArray(rows) ? rows : [] };
}

const entryCount = (rows: unknown[]): unknown => {
  const first = rows[0];
  return isObject(first) ? first.entryCount : undefined;
};

/** Rewrite every cached scan's line count (a planted value only a read of the cache can produce). */
function plant(lineCount: number): void {
  const body: unknown = JSON.parse(readFileSync(cacheFile, "utf8"));
  if (!isObject(body) || !isObject(body.scans)) throw new Error("cache shape");
  for (const v of Object.values(body.scans)) if (isObject(v)) v.lineCount = lineCount;
  writeFileSync(cacheFile, JSON.stringify(body));
}

describe("persistent scan cache (sessions --json)", () => {
  it("lives outside the state dir, is read back, follows the file, and --no-cache bypasses it", {
    timeout: 120_000,
  }, () => {
    const before = snapshot(stateDir);
    const env = { XDG_CACHE_HOME: cacheHome };
    const first = sessions(env);
    expect(first.status).toBe(0);
    expect(entryCount(first.rows)).toBe(3);
    expect(existsSync(cacheFile)).toBe(true);
    expect(snapshot(stateDir)).toEqual(before);

    plant(777);
    expect(entryCount(sessions(env).rows)).toBe(777);
    expect(entryCount(sessions(env, "--no-cache").rows)).toBe(3);

    // Same bytes, new mtime: a new key, scanned again.
    const t = statSync(transcript).mtimeMs / 1000 + 5;
    utimesSync(transcript, t, t);
    expect(entryCount(sessions(env).rows)).toBe(3);

    // Corrupt, then another version: ignored (and replaced).
    writeFileSync(cacheFile, "{not json");
    expect(entryCount(sessions(env).rows)).toBe(3);
    plant(555);
    const body: unknown = JSON.parse(readFileSync(cacheFile, "utf8"));
    writeFileSync(cacheFile, JSON.stringify({ ...(isObject(body) ? body : {}), version: 0 }));
    expect(entryCount(sessions(env).rows)).toBe(3);
    expect(snapshot(stateDir).filter((l) => !l.startsWith("agents/main/sessions/0a1b"))).toEqual(
      before.filter((l) => !l.startsWith("agents/main/sessions/0a1b")),
    );
  });

  it("keeps no scan of a transcript changed in the last 2 s (a same-size rewrite in one tick keeps the stamp)", {
    timeout: 60_000,
  }, () => {
    const dir = path.join(tmp, "racy");
    const tb = new TranscriptBuilder();
    tb.user("hello");
    tb.assistant({ text: "hi" });
    const file = tb.writeJsonlStateDir(dir);
    const env = { XDG_CACHE_HOME: path.join(tmp, "xdg-racy") };
    const own = path.join(tmp, "xdg-racy", "clawscope", SCAN_STORE_FILE);
    const keys = (): string[] => {
      if (!existsSync(own)) return [];
      const body: unknown = JSON.parse(readFileSync(own, "utf8"));
      return isObject(body) && isObject(body.scans) ? Object.keys(body.scans) : [];
    };
    const run = () => cli(env, "--json", "--state-dir", dir);
    // changed "just now" for the first run however slow the machine is: a stamp a minute ahead of the clock
    age(file, -60);
    expect(run().status).toBe(0);
    expect(keys().filter((k) => k.startsWith(file))).toEqual([]);
    age(file);
    expect(run().status).toBe(0);
    expect(keys().filter((k) => k.startsWith(file))).toHaveLength(1);
  });

  it("refuses a cache dir inside the state dir (and a link into it)", () => {
    expect(ScanStore.open(path.join(stateDir, "cache"), stateDir)).toBeNull();
    expect(ScanStore.open(stateDir, stateDir)).toBeNull();
    // a symlink from outside that resolves into the state dir
    const link = path.join(tmp, "link-into-state");
    symlinkSync(stateDir, link);
    expect(ScanStore.open(path.join(link, "clawscope"), stateDir)).toBeNull();
    expect(ScanStore.open(path.join(tmp, "elsewhere"), stateDir)).not.toBeNull();
  });
});

function listingFile(): string {
  const dir = path.join(tmp, "xdg-listing", "clawscope");
  const name = readdirSync(dir).find((n) => n.startsWith("sessions-list-v1-"));
  if (!name) throw new Error("no listing cache file");
  return path.join(dir, name);
}

/** Replace the cached body with `body` (header byte count kept right): only a hit can print it. */
function plantListing(body: string): void {
  const file = listingFile();
  const [header = "", key = ""] = readFileSync(file, "utf8").split("\n");
  const h: unknown = JSON.parse(header);
  if (!isObject(h)) throw new Error("header shape");
  writeFileSync(file, `${JSON.stringify({ ...h, bytes: Buffer.byteLength(body) })}\n${key}\n${body}`);
}

describe("sessions (--json and the table) with the listing cache (whole process)", () => {
  const stateDir = path.join(tmp, "listed");
  const b = new TranscriptBuilder();
  b.user("hello");
  b.assistant({ text: "hi" });
  const transcript = b.writeJsonlStateDir(stateDir);
  age(transcript);
  const env = { XDG_CACHE_HOME: path.join(tmp, "xdg-listing") };

  it("prints the stored bytes when nothing changed, lists again otherwise, never writes the state dir", {
    timeout: 120_000,
  }, async () => {
    // A listing is kept only when its files are older than 2 s (listing-cache.ts RACY_MS).
    await new Promise((r) => setTimeout(r, 2100));
    const before = snapshot(stateDir);
    const json = ["--json", "--state-dir", stateDir];
    const cold = cli(env, ...json);
    expect(cold.status).toBe(0);
    const uncached = cli(env, ...json, "--no-cache");
    expect(uncached.stdout).toBe(cold.stdout);
    const warm = cli(env, ...json);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toBe(cold.stderr);

    plantListing('["planted"]\n');
    expect(cli(env, ...json).stdout).toBe('["planted"]\n');
    expect(cli(env, ...json, "--no-cache").stdout).toBe(cold.stdout);
    // The table is served from stored rows only: bytes that are not a listing are listed again.
    expect(cli(env, "--state-dir", stateDir).stdout).not.toContain("planted");
    const rows: unknown = JSON.parse(cold.stdout);
    if (!Array.isArray(rows) || !isObject(rows[0])) throw new Error("listing shape");
    plantListing(`${JSON.stringify([{ ...rows[0], sessionId: "planted-id" }], null, 2)}\n`);
    const table = cli(env, "--state-dir", stateDir);
    expect(table.status).toBe(0);
    expect(table.stdout).toContain("planted-id");
    expect(table.stdout).toMatch(/^agent\s+session\s+key/u);
    expect(cli(env, "--state-dir", stateDir, "--no-cache").stdout).not.toContain("planted-id");
    // --pricing is still read (a bad file is a usage error).
    const bad = path.join(tmp, "bad-pricing.json5");
    writeFileSync(bad, "{ nope");
    expect(cli(env, ...json, "--pricing", bad).status).toBe(2);

    appendFileSync(transcript, `${readFileSync(transcript, "utf8").split("\n")[1]}\n`);
    const grown = cli(env, ...json);
    expect(grown.stdout).not.toContain("planted");
    expect(grown.stdout).toBe(cli(env, ...json, "--no-cache").stdout);
    expect(grown.stdout).not.toBe(cold.stdout);
    expect(snapshot(stateDir).filter((l) => !l.includes(".jsonl "))).toEqual(
      before.filter((l) => !l.includes(".jsonl ")),
    );
  });
});
