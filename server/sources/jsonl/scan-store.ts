// The session list's persistent cache (issue 18, big state dirs): the quick scan of each JSONL transcript
// (line count, last time, last model — quick-scan.ts), kept across processes in ONE file outside the state dir
// (`$XDG_CACHE_HOME/clawscope/…`, chosen by server/shell/config.ts). A scan is reused only for the same
// path, size, mtime and inode; the file is versioned (another version is ignored), safe to delete or corrupt
// (read errors = empty cache), written atomically (temp file + rename) and never inside the state dir: a cache
// dir that resolves into it is refused, so clawscope still never writes to the user's OpenClaw state.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isObject } from "../../../shared/json.ts";
import { isInsideReal } from "../fs-safety.ts";

export interface TranscriptQuickScan {
  sizeBytes: number;
  mtimeMs: number;
  /** Non-empty lines (header included); a trailing line without `\n` counts too. */
  lineCount: number;
  /** Envelope timestamp of the last line that parses, epoch ms. */
  lastTimestamp: number | null;
  /** provider/model of the last model assistant (transcript-only assistants skipped). */
  provider: string | null;
  model: string | null;
}

/** Bump when TranscriptQuickScan or the scan's rules change: older files are then ignored. */
export const SCAN_STORE_VERSION = 2;
/** The cache file's name in the cache dir. */
export const SCAN_STORE_FILE = `transcript-scans-v${SCAN_STORE_VERSION}.json`;
/**
 * A file changed in the last RACY_MS is not kept across processes: file-system timestamps are coarse (HFS+ 1 s,
 * FAT 2 s, Linux a kernel tick), and a same-size rewrite inside one tick keeps the stamp (git's "racy" rule).
 */
export const RACY_MS = 2000;
/** Entries kept (the newest written win): a few state dirs of a few thousand sessions. */
const MAX_ENTRIES = 20_000;

function isScan(v: unknown): v is TranscriptQuickScan {
  return (
    isObject(v) &&
    typeof v.sizeBytes === "number" &&
    typeof v.mtimeMs === "number" &&
    typeof v.lineCount === "number" &&
    (v.lastTimestamp === null || typeof v.lastTimestamp === "number") &&
    (v.provider === null || typeof v.provider === "string") &&
    (v.model === null || typeof v.model === "string")
  );
}

export class ScanStore {
  readonly file: string;
  /** Null until first read; key → scan. */
  private scans: Map<string, TranscriptQuickScan> | null = null;
  private dirty = false;

  /** `dir`: the cache dir; refused (a store that keeps nothing) when it lies inside `stateDir`. */
  static open(dir: string, stateDir: string): ScanStore | null {
    const abs = path.resolve(dir);
    // Real paths of the existing prefixes: a link from the cache dir into the state dir is refused too.
    if (isInsideReal(abs, stateDir)) return null;
    return new ScanStore(path.join(abs, SCAN_STORE_FILE));
  }

  private constructor(file: string) {
    this.file = file;
  }

  static key(absPath: string, size: number, mtimeMs: number, ino: number): string {
    return `${absPath}\u0000${size}\u0000${mtimeMs}\u0000${ino}`;
  }

  get(key: string): TranscriptQuickScan | undefined {
    return this.read().get(key);
  }

  set(key: string, scan: TranscriptQuickScan): void {
    const scans = this.read();
    scans.delete(key);
    scans.set(key, scan);
    while (scans.size > MAX_ENTRIES) {
      const oldest = scans.keys().next().value;
      if (oldest === undefined) break;
      scans.delete(oldest);
    }
    this.dirty = true;
  }

  /** Write what changed (never throws: a cache that cannot be written is only slower next time). */
  flush(): void {
    if (!this.dirty || !this.scans) return;
    this.dirty = false;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      const body = { version: SCAN_STORE_VERSION, scans: Object.fromEntries(this.scans) };
      writeFileSync(tmp, JSON.stringify(body));
      renameSync(tmp, this.file);
    } catch {
      // read-only home, full disk: the next process scans again
    }
  }

  private read(): Map<string, TranscriptQuickScan> {
    if (this.scans) return this.scans;
    this.scans = new Map();
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, "utf8"));
    } catch {
      return this.scans;
    }
    if (!isObject(parsed) || parsed.version !== SCAN_STORE_VERSION || !isObject(parsed.scans))
      return this.scans;
    for (const [k, v] of Object.entries(parsed.scans)) if (isScan(v)) this.scans.set(k, v);
    return this.scans;
  }
}
