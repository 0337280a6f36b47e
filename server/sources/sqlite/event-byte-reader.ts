// Reads one decoded transcript event back, for texts the reader did not keep in memory (cut-long-strings.ts,
// model/lazy-text.ts). Normally from the event's own zstd frame, kept when the event was read — it is a
// fraction of the decoded size (OpenClaw compresses JSON text) and needs no database access at all (a read
// per text through readDatabase would copy a WAL store lacking its -shm for every text). An event whose
// frame is not smaller than half its decoded size is selected again by (session, seq) in a read-only
// transaction of its own instead. The requested bytes are a slice of the decoded event; null when the row
// is gone or no longer decodes the same.

import type { ByteReader } from "../../model/lazy-text.ts";
import { readDatabase } from "./open-readonly.ts";
import { type EventRow, rowData } from "./read-events.ts";

/** The decoded event bytes of a row (read-events.ts's decoding), or null when it no longer decodes. */
function decodeEvent(row: EventRow): Uint8Array | null {
  const data = rowData(row);
  if (!data.ok) return null;
  return data.zstd ? data.bytes : Buffer.from(data.text, "utf8");
}

/** Keep an event's zstd frame for read-backs when it is at most this share of the decoded size. */
const KEEP_FRAME_MAX_RATIO = 0.5;

/**
 * A ByteReader over the decoded event `row.seq` of `sessionId` in the database at `dbPath` (`decodedBytes`:
 * its decoded size, to decide whether its frame is worth keeping).
 */
export function eventByteReader(
  dbPath: string,
  sessionId: string,
  row: EventRow,
  decodedBytes: number,
  generation: number,
): ByteReader {
  const seq = row.seq;
  // the read generation: a session read in full again (rows changed) gets new ids, so a token count cached
  // for a row that was deleted and written again under the same seq is never reused
  const id = `${dbPath}#${sessionId}:${seq}@${generation}`;
  const frame = row.eventZstd;
  if (frame && frame.length <= decodedBytes * KEEP_FRAME_MAX_RATIO) {
    // own copy: never pin a larger buffer the driver may have sliced it from
    const kept = frame.byteLength === frame.buffer.byteLength ? frame : frame.slice();
    const utf8Bytes = row.utf8Bytes;
    return {
      id,
      read(offset, length) {
        const bytes = decodeEvent({ seq, eventJson: null, eventZstd: kept, utf8Bytes });
        return bytes && offset >= 0 && offset + length <= bytes.length
          ? bytes.subarray(offset, offset + length)
          : null;
      },
    };
  }
  return {
    id,
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
        return decodeEvent({
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
