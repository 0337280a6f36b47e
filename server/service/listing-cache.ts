// The persistent cache of `sessions --json` (issue 18: warm ≤ 100 ms on 500 sessions / 1 GB). Beside the scan
// cache (scan-store.ts) in `$XDG_CACHE_HOME/clawscope`: one file per state dir holding the printed bytes, the
// warnings and the key of the listing's inputs (listing-inputs.ts). A warm run stats the dir and its files,
// compares the key and prints the stored bytes — no sessions.json parse, no realpath per transcript, no service.
// Same rules as the scan cache: versioned, safe to delete or corrupt (anything unexpected is a miss), written
// atomically (temp file + rename), refused for a cache dir inside the state dir (clawscope never writes there),
// bypassed by `--no-cache` (the CLI then never opens it). The key also holds the code that made the bytes (a
// build's id; from the sources, the newest mtime of server/ and shared/) and the scan cache file's stamp, since
// the listing shows what that file says.
//
// File: line 1 a JSON header (version, byte count of the body, warnings, recorded paths outside the sessions
// dirs), line 2 the key, then the body: exactly what `sessions --json` printed.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isObject } from "../../shared/json.ts";
import type { ParseIssue } from "../../shared/session.ts";
import { PACKAGE_ROOT, PACKAGE_VERSION } from "../package-root.ts";
import { isInsideReal } from "../sources/fs-safety.ts";
import { RACY_MS, SCAN_STORE_FILE } from "../sources/jsonl/scan-store.ts";
import {
  type ListingInputs,
  listingInputs,
  type OutsidePaths,
  recordedOutside,
  statStamp,
} from "./listing-inputs.ts";

/** Bump when the file layout or the key's meaning changes: older files are then ignored. */
export const LISTING_CACHE_VERSION = 1;
const PREFIX = `sessions-list-v${LISTING_CACHE_VERSION}-`;
/** Listings kept (one per state dir; the least recently written go). */
const MAX_FILES = 16;

/** Set by vite.server.config.ts for each build; absent when running from the sources. */
declare const __CLAWSCOPE_BUILD__: string | undefined;

/** The newest mtime of the sources (server/ but its demo state, shared/): a running-from-sources identity. */
function sourcesIdentity(): string {
  let newest = 0;
  for (const top of ["server", "shared"]) {
    const dir = path.join(PACKAGE_ROOT, top);
    for (const d of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!d.isFile() || !/\.(ts|mjs)$/.test(d.name) || d.parentPath.includes(`${path.sep}demo`)) continue;
      newest = Math.max(newest, statSync(path.join(d.parentPath, d.name)).mtimeMs);
    }
  }
  return `sources ${newest}`;
}

function codeIdentity(): string {
  const build = typeof __CLAWSCOPE_BUILD__ === "string" ? `build ${__CLAWSCOPE_BUILD__}` : null;
  const fromSources = fileURLToPath(import.meta.url).endsWith(".ts");
  return `${PACKAGE_VERSION} ${build ?? (fromSources ? sourcesIdentity() : "unknown build")}`;
}

/** FNV-1a (32 bit) of the state dir as hex: the file name only (the key inside names the dir in full). */
function nameHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

function isIssue(v: unknown): v is ParseIssue {
  return (
    isObject(v) &&
    typeof v.source === "string" &&
    typeof v.code === "string" &&
    typeof v.message === "string" &&
    (v.severity === "error" || v.severity === "warning") &&
    (v.line === undefined || typeof v.line === "number") &&
    (v.seq === undefined || typeof v.seq === "number")
  );
}

function isOutside(v: unknown): v is OutsidePaths {
  return (
    isObject(v) && Object.values(v).every((a) => Array.isArray(a) && a.every((p) => typeof p === "string"))
  );
}

interface Header {
  version: number;
  bytes: number;
  issues: ParseIssue[];
  outside: OutsidePaths;
}

function parseHeader(text: string): Header | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(v) || v.version !== LISTING_CACHE_VERSION || typeof v.bytes !== "number") return null;
  const { outside } = v;
  if (!Array.isArray(v.issues) || !isOutside(outside)) return null;
  const issues: ParseIssue[] = [];
  for (const issue of v.issues) {
    if (!isIssue(issue)) return null;
    issues.push(issue);
  }
  return { version: v.version, bytes: v.bytes, issues, outside };
}

export interface CachedListing {
  /** Exactly the bytes `sessions --json` printed. */
  json: Buffer;
  issues: ParseIssue[];
}

export class ListingCache {
  readonly file: string;
  private readonly scanFile: string;
  private readonly code = codeIdentity();

  /**
   * `dir`: the cache dir; null (no cache) when it lies inside `stateDir`. `racyMs`: 0 turns the rule off, for tests
   * that list right after changes a stamp always shows (a size, an inode, a name, an mtime moved by seconds).
   */
  static open(dir: string, stateDir: string, o: { racyMs?: number } = {}): ListingCache | null {
    const abs = path.resolve(dir);
    if (isInsideReal(abs, stateDir)) return null;
    return new ListingCache(abs, path.resolve(stateDir), o.racyMs ?? RACY_MS);
  }

  private constructor(
    private readonly dir: string,
    private readonly stateDir: string,
    private readonly racyMs: number,
  ) {
    this.file = path.join(dir, `${PREFIX}${nameHash(stateDir)}.json`);
    this.scanFile = path.join(dir, SCAN_STORE_FILE);
  }

  private inputs(
    outsideOf: (agentId: string, sessionsDir: string) => readonly string[],
  ): ListingInputs | null {
    return listingInputs(this.stateDir, outsideOf, [this.code]);
  }

  /**
   * The stored key: the inputs and the scan cache file's stamp. The listing writes that file itself, so its stamp
   * is taken after the listing and left out of the before/after comparison.
   */
  private keyOf(inputs: ListingInputs): string {
    return `${statStamp(this.scanFile)} ${inputs.key}`;
  }

  /** The stored listing when every input is as it was; null otherwise (or when there is none). */
  read(): CachedListing | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.file);
    } catch {
      return null;
    }
    const end1 = bytes.indexOf(10);
    const end2 = end1 < 0 ? -1 : bytes.indexOf(10, end1 + 1);
    const header = end2 < 0 ? null : parseHeader(bytes.toString("utf8", 0, end1));
    if (!header || bytes.length - (end2 + 1) !== header.bytes) return null;
    const now = this.inputs((agentId) => header.outside[agentId] ?? []);
    if (now === null || !bytes.subarray(end1 + 1, end2).equals(Buffer.from(this.keyOf(now)))) return null;
    return { json: bytes.subarray(end2 + 1), issues: header.issues };
  }

  /** The inputs before a listing is made (null: not cacheable); pass them to `write` with what it printed. */
  before(): (ListingInputs & { startedAt: number }) | null {
    const startedAt = Date.now();
    const inputs = this.inputs((_agentId, sessionsDir) => recordedOutside(this.stateDir, sessionsDir));
    return inputs && { ...inputs, startedAt };
  }

  /**
   * Keep `json` (what `sessions --json` printed) when the inputs are still those of `before` — a file that
   * changed while the listing was made, or in the RACY_MS before it, is not cached. Never throws: a cache that cannot be written is only
   * slower next time.
   */
  write(before: ListingInputs & { startedAt: number }, issues: readonly ParseIssue[], json: string): void {
    if (this.racyMs > 0 && before.latestChange >= before.startedAt - this.racyMs) return;
    const after = this.inputs((agentId) => before.outside[agentId] ?? []);
    if (after === null || after.key !== before.key) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const body = Buffer.from(json);
      const header = { version: LISTING_CACHE_VERSION, bytes: body.length, issues, outside: before.outside };
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(
        tmp,
        Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n${this.keyOf(after)}\n`), body]),
      );
      renameSync(tmp, this.file);
      this.prune();
    } catch {
      // read-only home, full disk: the next process lists again
    }
  }

  /** Keep the MAX_FILES most recently written listings. */
  private prune(): void {
    const files = readdirSync(this.dir)
      .filter((n) => n.startsWith(PREFIX) && n.endsWith(".json"))
      .map((n) => ({ p: path.join(this.dir, n), t: statSync(path.join(this.dir, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const f of files.slice(MAX_FILES)) rmSync(f.p, { force: true });
  }
}
