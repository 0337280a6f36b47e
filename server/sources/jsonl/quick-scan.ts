// What the session list shows of a transcript without parsing it (kept cheap: a byte scan for the line count,
// JSON.parse of the last few lines only): line count, last envelope time, last model. Cached per file version.

import { statSync } from "node:fs";
import { isObject, type JsonObject, num, obj, str, tryParseJson } from "../../../shared/json.ts";
import type { SessionSummary, Transcript } from "../../model/session.ts";
import { isTranscriptOnlyAssistant as isTranscriptOnly } from "../../openclaw/transcript-only.ts";
import { readRegularFileSync } from "../regular-file.ts";
import { RACY_MS, ScanStore, type TranscriptQuickScan } from "./scan-store.ts";

export type { TranscriptQuickScan } from "./scan-store.ts";

const scanCache = new Map<string, TranscriptQuickScan>();
const SCAN_CACHE_MAX = 4096;
const ASSISTANT_MARK = Buffer.from('"role":"assistant"');
/** How many lines from the end are inspected for the last assistant (keeps the scan O(file) + small). */
const MAX_TAIL_PARSES = 400;

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** Count lines and find the last timestamp/model without parsing every line. */
export function quickScanBuffer(buf: Buffer): Omit<TranscriptQuickScan, "sizeBytes" | "mtimeMs"> {
  const lines: [number, number][] = [];
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    if (!isBlank(buf, start, end)) lines.push([start, end]);
    start = end + 1;
  }
  let lastTimestamp: number | null = null;
  let provider: string | null = null;
  let model: string | null = null;
  let parses = 0;
  for (let i = lines.length - 1; i >= 0 && parses < MAX_TAIL_PARSES; i--) {
    const range = lines[i];
    if (!range) continue;
    const needTimestamp = lastTimestamp === null;
    const slice = buf.subarray(range[0], range[1]);
    const maybeAssistant = model === null && slice.indexOf(ASSISTANT_MARK) !== -1;
    if (!needTimestamp && !maybeAssistant) continue;
    parses++;
    const parsed = tryParseJson(slice.toString("utf8"));
    if (!parsed.ok || !isObject(parsed.value)) continue;
    if (needTimestamp) {
      const ts = str(parsed.value, "timestamp");
      const ms = ts !== undefined ? Date.parse(ts) : Number.NaN;
      if (Number.isFinite(ms)) lastTimestamp = ms;
    }
    const message = obj(parsed.value, "message");
    if (maybeAssistant && message && str(message, "role") === "assistant" && !isTranscriptOnly(message)) {
      provider = str(message, "provider") ?? null;
      model = str(message, "model") ?? null;
    }
    if (lastTimestamp !== null && model !== null) break;
  }
  return { lineCount: lines.length, lastTimestamp, provider, model };
}

/**
 * Quick scan of a transcript file, cached by path + size + mtime + inode: in memory, and across processes in
 * `store` (scan-store.ts) when one is given. Null when unreadable.
 */
export function quickScanTranscript(
  absPath: string,
  store: ScanStore | null = null,
): TranscriptQuickScan | null {
  let size: number;
  let mtimeMs: number;
  let ino: number;
  // the racy rule's clock reads before the stat: a slow read must not narrow its margin
  const statedAt = Date.now();
  try {
    const st = statSync(absPath);
    size = st.size;
    mtimeMs = st.mtimeMs;
    ino = st.ino;
  } catch {
    return null;
  }
  const key = ScanStore.key(absPath, size, mtimeMs, ino);
  const hit = scanCache.get(key) ?? store?.get(key);
  if (hit) {
    scanCache.set(key, hit);
    return hit;
  }
  let buf: Buffer;
  try {
    buf = readRegularFileSync(absPath);
  } catch {
    return null;
  }
  const scan: TranscriptQuickScan = { sizeBytes: size, mtimeMs, ...quickScanBuffer(buf) };
  if (scanCache.size >= SCAN_CACHE_MAX) {
    const oldest = scanCache.keys().next().value;
    if (oldest !== undefined) scanCache.delete(oldest);
  }
  scanCache.set(key, scan);
  // a file that just changed may change again inside its timestamp's tick (scan-store.ts RACY_MS)
  if (statedAt - mtimeMs >= RACY_MS) store?.set(key, scan);
  return scan;
}

/** What the list derives from a transcript's content (quick scan or full parse). */
export interface TranscriptTail {
  lastTimestamp: number | null;
  provider: string | null;
  model: string | null;
}

/** Same facts as the quick scan, from a parsed transcript. Pure. */
export function transcriptTail(t: Transcript): TranscriptTail {
  let lastTimestamp: number | null = null;
  let provider: string | null = null;
  let model: string | null = null;
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i];
    if (!e) continue;
    if (lastTimestamp === null && e.timestamp !== null) {
      const ms = Date.parse(e.timestamp);
      if (Number.isFinite(ms)) lastTimestamp = ms;
    }
    const message = obj(e.raw, "message");
    if (model === null && message && str(message, "role") === "assistant" && !isTranscriptOnly(message)) {
      provider = str(message, "provider") ?? null;
      model = str(message, "model") ?? null;
    }
    if (lastTimestamp !== null && model !== null) break;
  }
  return { lastTimestamp, provider, model };
}

/**
 * Summary fields that depend on the data (pure): `updatedAt` = entry `updatedAt` → last envelope
 * timestamp in the file → archive time from the file name → file mtime; model/provider = entry
 * (`model`, `modelProvider`) → last model assistant of the transcript.
 */
export function summaryTimesAndModel(
  entry: JsonObject | null,
  archivedAt: number | null,
  fileFacts: { mtimeMs: number } | null,
  tail: TranscriptTail | null,
): Pick<SessionSummary, "updatedAt" | "model" | "provider"> {
  return {
    updatedAt: num(entry, "updatedAt") ?? tail?.lastTimestamp ?? archivedAt ?? fileFacts?.mtimeMs ?? null,
    model: str(entry, "model") ?? tail?.model ?? null,
    provider: str(entry, "modelProvider") ?? tail?.provider ?? null,
  };
}
