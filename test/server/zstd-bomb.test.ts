// Issue 20, medium: zstd bomb. An `event_zstd` frame without a declared content size was fully decompressed before
// any size check (48 KB → 1.57 GB, RSS 3.2 GB). The frame walk now bounds the output from the block headers (raw
// and RLE blocks state their size; a compressed block regenerates at most 128 KiB, RFC 8878 §3.1.1.2.3) and
// refuses a frame whose bound or window exceeds the limit BEFORE fzstd allocates or decodes anything.

import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { rawZstdFrame } from "../../server/bench/generate-session.ts";
import { loadSqliteSession } from "../../server/sources/sqlite/sqlite-source.ts";
import { decodeZstd } from "../../server/sources/sqlite/zstd.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  haveScenario,
} from "../fixtures/sqlite/helpers.ts";

afterAll(cleanupTmp);

const KIB128 = 128 * 1024;

/** A frame without content size (window 128 KiB) of `blocks` RLE blocks of 128 KiB each: ~4 bytes in, 128 KiB out. */
function rleBomb(blocks: number): Uint8Array {
  const out = new Uint8Array(4 + 1 + 1 + blocks * 4);
  new DataView(out.buffer).setUint32(0, 0xfd2fb528, true);
  out[4] = 0x00; // FCS flag 0, not single segment: no content size, a window descriptor follows
  out[5] = 7 << 3; // window 2^(10+7) = 128 KiB
  let pos = 6;
  for (let b = 0; b < blocks; b++) {
    const h = (b === blocks - 1 ? 1 : 0) | (1 << 1) | (KIB128 << 3);
    out[pos++] = h & 0xff;
    out[pos++] = (h >>> 8) & 0xff;
    out[pos++] = (h >>> 16) & 0xff;
    out[pos++] = 0x41;
  }
  return out;
}

/** A frame without content size whose window descriptor claims ~1.9 GiB, holding one 1-byte raw block. */
function windowBomb(): Uint8Array {
  const out = new Uint8Array(4 + 1 + 1 + 3 + 1);
  new DataView(out.buffer).setUint32(0, 0xfd2fb528, true);
  out[4] = 0x00;
  out[5] = (20 << 3) | 7; // 2^30 + 7 × 2^27 ≈ 1.9 GiB
  const h = 1 | (0 << 1) | (1 << 3);
  out[6] = h & 0xff;
  out[7] = (h >>> 8) & 0xff;
  out[8] = (h >>> 16) & 0xff;
  out[9] = 0x41;
  return out;
}

function rssMb(): number {
  return process.memoryUsage().rss / 2 ** 20;
}

describe("zstd bombs are refused before decompressing", () => {
  it("12,000 RLE blocks (48 KB that would decode to 1.5 GiB): refused, in milliseconds, without the memory", () => {
    const bomb = rleBomb(12_000);
    expect(bomb.length).toBeLessThan(50_000);
    const before = rssMb();
    const t0 = performance.now();
    const r = decodeZstd(bomb, 4_194_304);
    const ms = performance.now() - t0;
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatch(/block headers allow 1572864000 decoded bytes, above the 4194304-byte limit/);
    expect(ms).toBeLessThan(1000);
    expect(rssMb() - before).toBeLessThan(100);
  });

  it("a window larger than the limit on a frame without content size: refused (fzstd would allocate it)", () => {
    const before = rssMb();
    const r = decodeZstd(windowBomb(), 4_194_304);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/window of \d+ bytes, above the 4194304-byte limit/);
    expect(rssMb() - before).toBeLessThan(100);
  });

  it("legitimate frames still decode, up to exactly the limit", () => {
    const data = new TextEncoder().encode("x".repeat(300_000));
    const frame = rawZstdFrame(data);
    const r = decodeZstd(frame, data.length);
    expect(r.ok && r.bytes.length).toBe(data.length);
    expect(decodeZstd(frame, data.length - 1).ok).toBe(false);
    const small = rleBomb(3); // 3 × 128 KiB, no content size
    const s = decodeZstd(small, 3 * KIB128);
    expect(s.ok && s.bytes.length).toBe(3 * KIB128);
  });

  const S1 = "s1-cache-ttl-default";
  it.skipIf(!haveScenario(S1))(
    "a bomb in a transcript_events row: that seq is a located issue, the rest loads",
    () => {
      const { stateDir, dbPath } = copyState(S1);
      const id = exportedSessionId(S1);
      const w = new Database(dbPath);
      const row = w
        .prepare("SELECT seq FROM transcript_events WHERE event_zstd IS NOT NULL ORDER BY seq LIMIT 1")
        .get();
      const seq = typeof row === "object" && row !== null && "seq" in row ? Number(row.seq) : -1;
      w.prepare("UPDATE transcript_events SET event_zstd = ? WHERE session_id = ? AND seq = ?").run(
        Buffer.from(rleBomb(12_000)),
        id,
        seq,
      );
      w.close();
      const before = rssMb();
      const r = loadSqliteSession(stateDir, "main", DB_REL, id);
      expect(rssMb() - before).toBeLessThan(300);
      if ("error" in r) throw new Error(r.error.message);
      expect(r.transcript.entries).toHaveLength(75);
      expect(r.transcript.issues.find((i) => i.seq === seq)).toMatchObject({
        source: `${DB_REL}#transcript_events`,
        code: "zstd-error",
      });
    },
  );
});
