// Decode SQLite-era transcript archives (spec storage.md §2, §4.2):
// - `session_transcript_archives.archive_blob` (deleted / reset history), encoding `identity` (plain JSONL) or
//   `zstd` (zstd of the JSONL; the blob format beyond the docs is UNVERIFIED);
// - cold archives: `agents/<id>/sessions/cold/<name>.jsonl.zst` (storage `file`) or
//   `session_transcript_cold_archives.archive_blob` (storage `sqlite`).
// Pure: bytes in, entries + located issues out. A line that does not parse is skipped with its line number.

import { createHash } from "node:crypto";
import { tryParseJson } from "../../../shared/json.ts";
import type { ParseIssue, TranscriptEntry } from "../../model/session.ts";
import { toEntry } from "./read-events.ts";
import { decodeUtf8, decodeZstd } from "./zstd.ts";

/** Refuse to inflate archives beyond this (a damaged header must not exhaust memory). */
export const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;

export function parseJsonlText(
  text: string,
  source: string,
): { entries: TranscriptEntry[]; issues: ParseIssue[] } {
  const entries: TranscriptEntry[] = [];
  const issues: ParseIssue[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const lineText = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (lineText.trim() === "") return;
    const line = i + 1;
    const parsed = tryParseJson(lineText);
    if (!parsed.ok) {
      issues.push({
        source,
        line,
        code: "invalid-json",
        message: `line is not valid JSON: ${parsed.error}`,
        severity: "error",
      });
      return;
    }
    const entry = toEntry(parsed.value, entries.length);
    if (typeof entry === "string") {
      issues.push({ source, line, code: "not-an-object", message: entry, severity: "error" });
      return;
    }
    entry.line = line;
    entries.push(entry);
  });
  return { entries, issues };
}

/** `identity` → bytes as they are; `zstd` → decompressed. */
export function decodeArchiveBytes(
  blob: Uint8Array,
  encoding: string,
): { ok: true; text: string } | { ok: false; error: string } {
  let bytes: Uint8Array;
  if (encoding === "identity") bytes = blob;
  else if (encoding === "zstd") {
    const d = decodeZstd(blob, MAX_ARCHIVE_BYTES);
    if (!d.ok) return { ok: false, error: `undecodable zstd archive: ${d.error}` };
    bytes = d.bytes;
  } else return { ok: false, error: `unknown archive encoding "${encoding}"` };
  return decodeUtf8(bytes);
}

/** SHA-256 hex of bytes (archive_sha256 check; whether it covers the stored or the raw bytes is UNVERIFIED). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A `checksum-mismatch` warning when `expected` is set and matches neither the stored nor the decoded bytes. */
export function checksumIssue(
  expected: string | null,
  stored: Uint8Array,
  text: string,
  location: string,
): ParseIssue | null {
  if (expected === null || expected === sha256Hex(stored)) return null;
  if (expected === sha256Hex(Buffer.from(text, "utf8"))) return null;
  return {
    source: location,
    code: "checksum-mismatch",
    message: `archive_sha256 ${expected} matches neither the stored nor the decoded bytes`,
    severity: "warning",
  };
}
