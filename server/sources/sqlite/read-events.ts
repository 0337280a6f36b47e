// Decode `transcript_events` rows into TranscriptEntry objects (spec storage.md §4.2, transcript.md §1).
// Agent schema 23 stores each event EITHER as `event_json` text OR as an `event_zstd` frame of the same
// UTF-8 JSON; selecting only `event_json` silently loses every large tool result, so both are decoded.
// Pure: rows in, entries + located issues out. A bad row is skipped with a ParseIssue (source + seq).
// Large base64 image payloads are not kept (elide-image-data.ts; issue 9).

import { isObject, type JsonObject, str, tryParseJson } from "../../../shared/json.ts";
import type { ParseIssue, TranscriptEntry } from "../../model/session.ts";
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

/** The event text of a row: `event_json`, or the decompressed `event_zstd` frame. */
export function rowText(
  row: EventRow,
): { ok: true; text: string; zstd: boolean } | { ok: false; error: string } {
  if (row.eventJson !== null) return { ok: true, text: row.eventJson, zstd: false };
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
  const text = decodeUtf8(bytes.bytes);
  if (!text.ok) return { ok: false, error: `event_zstd blob: ${text.error}` };
  return { ok: true, text: text.text, zstd: true };
}

/** Decode rows (already in `seq` order). `source` names the table, e.g. `agents/main/agent/openclaw-agent.sqlite#transcript_events`. */
export function decodeEventRows(rows: EventRow[], source: string): DecodedEvents {
  const entries: TranscriptEntry[] = [];
  const issues: ParseIssue[] = [];
  const storage = { json: 0, zstd: 0 };
  for (const row of rows) {
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
    const text = rowText(row);
    if (!text.ok) {
      issues.push(
        issue(source, row.seq, text.error.startsWith("undecodable") ? "zstd-error" : "bad-row", text.error),
      );
      continue;
    }
    const parsed = tryParseJson(text.text);
    if (!parsed.ok) {
      const where = text.zstd ? "decoded event_zstd" : "event_json";
      issues.push(issue(source, row.seq, "invalid-json", `${where} is not valid JSON: ${parsed.error}`));
      continue;
    }
    // Without the text: walking an entry's few content blocks is cheaper than the shortcut's scan of the
    // whole event text for `"image"` (~100 MB per cold 100 MB load; issue 9).
    if (isObject(parsed.value)) elideImageData(parsed.value);
    const entry = toEntry(parsed.value, entries.length);
    if (typeof entry === "string") {
      issues.push(issue(source, row.seq, "not-an-object", entry));
      continue;
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
  return { entries, issues, storage };
}

/** Header object (`type:"session"`) and its `version` (4 for 2026.9.x events — transcript.md §1). */
export function headerOf(entries: TranscriptEntry[]): { header: JsonObject | null; version: number | null } {
  const first = entries[0];
  if (first?.type !== "session") return { header: null, version: null };
  const v = first.raw.version;
  return { header: first.raw, version: typeof v === "number" ? v : null };
}
