// Decode `transcript_events` rows into TranscriptEntry objects (spec storage.md §4.2, transcript.md §1).
// Agent schema 23 stores each event EITHER as `event_json` text OR as an `event_zstd` frame of the same
// UTF-8 JSON; selecting only `event_json` silently loses every large tool result, so both are decoded.
// Pure: rows in, entries + located issues out. A bad row is skipped with a ParseIssue (source + seq).
// Large base64 image payloads are not kept (elide-image-data.ts); long ASCII tool-result texts of compressed
// events are cut from the bytes before decoding and read back on demand (cut-long-strings.ts; issue 9).

import { isUtf8 } from "node:buffer";
import { isObject, type JsonObject, str, tryParseJson } from "../../../shared/json.ts";
import type { ByteReader } from "../../model/lazy-text.ts";
import type { ParseIssue, TranscriptEntry } from "../../model/session.ts";
import { findCuts, restoreCuts, skeletonOf } from "../cut-long-strings.ts";
import { elideImageData } from "../elide-image-data.ts";
import { decodeUtf8, decodeZstd } from "./zstd.ts";

/** Largest decoded event OpenClaw writes compressed (CHECK `event_utf8_bytes BETWEEN 1 AND 4194304`). */
export const MAX_EVENT_BYTES = 4_194_304;

export interface EventRow {
  seq: number;
  eventJson: string | null;
  eventZstd: Uint8Array | null;
  utf8Bytes: number | null;
}

export interface DecodedEvents {
  entries: TranscriptEntry[];
  issues: ParseIssue[];
  /** Rows per storage column (fixtures.md §2 counts, e.g. s1 61 json / 15 zstd). */
  storage: { json: number; zstd: number };
}

function issue(source: string, seq: number, code: string, message: string): ParseIssue {
  return { source, seq, code, message, severity: "error" };
}

/** Turn one parsed JSON value into an entry, or explain why it cannot be one. */
export function toEntry(value: unknown, index: number): TranscriptEntry | string {
  if (!isObject(value)) return "event is not a JSON object";
  const parentId = value.parentId;
  return {
    index,
    type: str(value, "type") ?? "",
    id: str(value, "id") ?? null,
    parentId: typeof parentId === "string" ? parentId : null,
    timestamp: str(value, "timestamp") ?? null,
    raw: value,
  };
}

export type RowData =
  | { ok: true; zstd: false; text: string }
  | { ok: true; zstd: true; bytes: Uint8Array }
  | { ok: false; error: string };

/** The stored event of a row: `event_json` text, or the decompressed `event_zstd` bytes (not decoded yet). */
export function rowData(row: EventRow): RowData {
  if (row.eventJson !== null) return { ok: true, zstd: false, text: row.eventJson };
  if (row.eventZstd === null) return { ok: false, error: "row has neither event_json nor event_zstd" };
  const limit = row.utf8Bytes !== null && row.utf8Bytes > 0 ? row.utf8Bytes : MAX_EVENT_BYTES;
  const bytes = decodeZstd(row.eventZstd, Math.min(limit, MAX_EVENT_BYTES));
  if (!bytes.ok) return { ok: false, error: `undecodable event_zstd blob: ${bytes.error}` };
  if (row.utf8Bytes !== null && bytes.bytes.length !== row.utf8Bytes) {
    return {
      ok: false,
      error: `event_zstd decoded to ${bytes.bytes.length} bytes, event_utf8_bytes says ${row.utf8Bytes}`,
    };
  }
  return { ok: true, zstd: true, bytes: bytes.bytes };
}

/**
 * Parse a decompressed event with its long tool-result texts / image payloads cut out of the bytes
 * (cut-long-strings.ts): they are never decoded or held, and read back through `reader` when shown. Null
 * when nothing is cut or the cut parse does not round-trip (the caller decodes the event whole, which also
 * reports invalid UTF-8 and JSON).
 */
function parseCut(bytes: Uint8Array, reader: () => ByteReader): JsonObject | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cuts = findCuts(buf);
  if (cuts.length === 0 || !isUtf8(buf)) return null;
  const parsed = tryParseJson(skeletonOf(buf, cuts));
  if (!parsed.ok || !isObject(parsed.value)) return null;
  return restoreCuts(parsed.value, buf, cuts, reader(), 0) ? parsed.value : null;
}

/**
 * Decodes rows one at a time (in `seq` order), so a caller can decode while it iterates a statement and never
 * hold every stored blob at once (issue 9: a 100 MB session is ~30 k rows of up to 4 MiB).
 */
export class EventDecoder {
  readonly entries: TranscriptEntry[] = [];
  readonly issues: ParseIssue[] = [];
  readonly storage = { json: 0, zstd: 0 };

  constructor(
    private readonly source: string,
    private readonly readerFor?: (row: EventRow, decodedBytes: number) => ByteReader,
  ) {}

  push(row: EventRow): void {
    const { entries, issues, storage, source, readerFor } = this;
    if (row.eventJson !== null) storage.json += 1;
    else if (row.eventZstd !== null) storage.zstd += 1;
    if (row.eventJson !== null && row.eventZstd !== null) {
      issues.push({
        source,
        seq: row.seq,
        code: "both-storages",
        message: "row has both event_json and event_zstd (schema CHECK forbids it); event_json used",
        severity: "warning",
      });
    }
    const data = rowData(row);
    if (!data.ok) {
      issues.push(
        issue(source, row.seq, data.error.startsWith("undecodable") ? "zstd-error" : "bad-row", data.error),
      );
      return;
    }
    const bytes = data.zstd ? data.bytes : null;
    const cut = bytes && readerFor ? parseCut(bytes, () => readerFor(row, bytes.length)) : null;
    let parsed: ReturnType<typeof tryParseJson>;
    if (cut) parsed = { ok: true, value: cut };
    else {
      const text = data.zstd ? decodeUtf8(data.bytes) : { ok: true as const, text: data.text };
      if (!text.ok) {
        issues.push(issue(source, row.seq, "bad-row", `event_zstd blob: ${text.error}`));
        return;
      }
      parsed = tryParseJson(text.text);
    }
    if (!parsed.ok) {
      const where = data.zstd ? "decoded event_zstd" : "event_json";
      issues.push(issue(source, row.seq, "invalid-json", `${where} is not valid JSON: ${parsed.error}`));
      return;
    }
    // Without the text: walking an entry's few content blocks is cheaper than the shortcut's scan of the
    // whole event text for `"image"` (~100 MB per cold 100 MB load; issue 9).
    if (isObject(parsed.value)) elideImageData(parsed.value);
    const entry = toEntry(parsed.value, entries.length);
    if (typeof entry === "string") {
      issues.push(issue(source, row.seq, "not-an-object", entry));
      return;
    }
    entry.seq = row.seq;
    if (entry.type === "") {
      issues.push({
        source,
        seq: row.seq,
        code: "missing-type",
        message: "event has no string `type`; kept as an opaque entry",
        severity: "warning",
      });
    }
    entries.push(entry);
  }

  result(): DecodedEvents {
    return { entries: this.entries, issues: this.issues, storage: this.storage };
  }
}

/** Decode rows (already in `seq` order). `source` names the table, e.g. `agents/main/agent/openclaw-agent.sqlite#transcript_events`. */
export function decodeEventRows(
  rows: EventRow[],
  source: string,
  readerFor?: (row: EventRow, decodedBytes: number) => ByteReader,
): DecodedEvents {
  const decoder = new EventDecoder(source, readerFor);
  for (const row of rows) decoder.push(row);
  return decoder.result();
}

/** Header object (`type:"session"`) and its `version` (4 for 2026.9.x events — transcript.md §1). */
export function headerOf(entries: TranscriptEntry[]): { header: JsonObject | null; version: number | null } {
  const first = entries[0];
  if (first?.type !== "session") return { header: null, version: null };
  const v = first.raw.version;
  return { header: first.raw, version: typeof v === "number" ? v : null };
}
