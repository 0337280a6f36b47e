// Reads one decoded transcript event back from the store, for texts the reader did not keep in memory
// (cut-long-strings.ts, model/lazy-text.ts): the row is selected again by (session, seq) in a read-only
// transaction of its own (readDatabase: never writes, never leaves files behind) and decompressed; the
// requested bytes are a slice of the decoded event. Null when the row is gone or no longer decodes the same.

import type { ByteReader } from "../../model/lazy-text.ts";
import { readDatabase } from "./open-readonly.ts";
import { type EventRow, MAX_EVENT_BYTES } from "./read-events.ts";
import { decodeZstd } from "./zstd.ts";

function decodedBytes(row: EventRow): Uint8Array | null {
  if (row.eventJson !== null) return Buffer.from(row.eventJson, "utf8");
  if (row.eventZstd === null) return null;
  const limit = row.utf8Bytes !== null && row.utf8Bytes > 0 ? row.utf8Bytes : MAX_EVENT_BYTES;
  const bytes = decodeZstd(row.eventZstd, Math.min(limit, MAX_EVENT_BYTES));
  return bytes.ok ? bytes.bytes : null;
}

/** A ByteReader over the decoded event `seq` of `sessionId` in the database at `dbPath`. */
export function eventByteReader(dbPath: string, sessionId: string, seq: number): ByteReader {
  return {
    id: `${dbPath}#${sessionId}:${seq}`,
    read(offset, length) {
      const out = readDatabase(dbPath, (db) => {
        const row = db
          .prepare(
            "SELECT event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ? AND seq = ?",
          )
          .raw()
          .get(sessionId, seq);
        if (!Array.isArray(row)) return null;
        const [json, zstd, utf8]: unknown[] = row;
        return decodedBytes({
          seq,
          eventJson: typeof json === "string" ? json : null,
          eventZstd: zstd instanceof Uint8Array ? zstd : null,
          utf8Bytes: typeof utf8 === "number" ? utf8 : null,
        });
      });
      if (!out.ok || !out.value) return null;
      const bytes = out.value;
      return offset >= 0 && offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : null;
    },
  };
}
