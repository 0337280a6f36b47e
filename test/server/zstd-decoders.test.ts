// The zstd decompressors (server/sources/sqlite/zstd-decoders.ts): zstddec (libzstd in WebAssembly) once
// prepared, fzstd before that and for frames it does not take. Both decode the real OpenClaw frames of the
// bundled demo store to the same bytes, and a damaged frame reads as the same located error whichever decoder
// ran (zstddec hands its failures to fzstd for the error text).

import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { rawZstdFrame } from "../../server/bench/generate-session.ts";
import { decodeZstd } from "../../server/sources/sqlite/zstd.ts";
import {
  availableZstdDecoders,
  fzstdDecoder,
  prepareZstd,
  WASM_MAX_BYTES,
  zstdDecoder,
} from "../../server/sources/sqlite/zstd-decoders.ts";

const DEMO_DB = path.resolve(__dirname, "../../server/demo/state/agents/main/agent/openclaw-agent.sqlite");
const LIMIT = 4_194_304;

function demoFrames(): { seq: number; zstd: Uint8Array; utf8Bytes: number }[] {
  const db = new Database(DEMO_DB, { readonly: true, fileMustExist: true });
  try {
    const rows: { seq: number; zstd: Uint8Array; utf8Bytes: number }[] = [];
    for (const r of db
      .prepare("SELECT seq, event_zstd, event_utf8_bytes FROM transcript_events WHERE event_zstd IS NOT NULL")
      .iterate()) {
      if (typeof r !== "object" || r === null) continue;
      const seq: unknown = Reflect.get(r, "seq");
      const zstd: unknown = Reflect.get(r, "event_zstd");
      const n: unknown = Reflect.get(r, "event_utf8_bytes");
      if (typeof seq === "number" && zstd instanceof Uint8Array && typeof n === "number")
        rows.push({ seq, zstd, utf8Bytes: n });
    }
    return rows;
  } finally {
    db.close();
  }
}

describe("zstd decoders", () => {
  beforeAll(async () => {
    expect(zstdDecoder().name).toBe("fzstd"); // nothing is instantiated before the shell asks
    await prepareZstd();
  });

  it("zstddec once prepared (without loading undici's fetch), fzstd as the fallback", async () => {
    expect(zstdDecoder().name).toBe("zstddec");
    expect(availableZstdDecoders().map((d) => d.name)).toEqual(["zstddec", "fzstd"]);
    expect(typeof globalThis.fetch).toBe("function"); // restored after init
    await prepareZstd(); // idempotent
    expect(zstdDecoder().name).toBe("zstddec");
  });

  it("every decoder decodes every real OpenClaw frame of the demo store to the same bytes", () => {
    const frames = demoFrames();
    expect(frames.length).toBeGreaterThan(5);
    for (const f of frames) {
      const reference = fzstdDecoder().decompress(f.zstd, f.utf8Bytes);
      expect(reference.length).toBe(f.utf8Bytes);
      for (const d of availableZstdDecoders()) {
        const r = decodeZstd(f.zstd, LIMIT, d);
        expect(
          r.ok ? Buffer.from(r.bytes).equals(Buffer.from(reference)) : r.error,
          `${d.name} seq ${f.seq}`,
        ).toBe(true);
      }
    }
  });

  it("a damaged frame gives the same error text whichever decoder ran", () => {
    const frame = demoFrames().find((f) => f.zstd.length > 200);
    if (!frame) throw new Error("no frame of more than 200 bytes in the demo store");
    // the last 4 bytes are the content checksum (frame header 0x64 in every OpenClaw frame): flip one
    const badChecksum = Uint8Array.from(frame.zstd);
    badChecksum[badChecksum.length - 1] = (badChecksum[badChecksum.length - 1] ?? 0) ^ 0xff;
    // a byte in the middle of the compressed block
    const badBlock = Uint8Array.from(frame.zstd);
    const mid = Math.floor(badBlock.length / 2);
    badBlock[mid] = (badBlock[mid] ?? 0) ^ 0x5a;
    for (const bad of [badChecksum, badBlock]) {
      const results = availableZstdDecoders().map((d) => decodeZstd(bad, LIMIT, d));
      const first = results[0];
      expect(first?.ok).toBe(false);
      for (const r of results) expect(r).toEqual(first);
    }
    const checksum = decodeZstd(badChecksum, LIMIT, zstdDecoder());
    expect(checksum.ok ? "decoded" : checksum.error).toBe("zstd content checksum mismatch in frame 0");
  });

  it("a frame above WASM_MAX_BYTES or without a declared size goes to fzstd (the WebAssembly heap never shrinks)", () => {
    const frame = demoFrames()[0];
    if (!frame) throw new Error("no frame in the demo store");
    const wasm = zstdDecoder();
    const viaFzstd = fzstdDecoder().decompress(frame.zstd, null);
    expect(Buffer.from(wasm.decompress(frame.zstd, null)).equals(Buffer.from(viaFzstd))).toBe(true);
    expect(Buffer.from(wasm.decompress(frame.zstd, WASM_MAX_BYTES + 1)).equals(Buffer.from(viaFzstd))).toBe(
      true,
    );
    const empty = decodeZstd(rawZstdFrame(new Uint8Array(0)), LIMIT, wasm);
    expect(empty.ok ? empty.bytes.length : empty.error).toBe(0);
    // zstddec itself reports a declared size the frame does not decode to
    expect(() => wasm.decompress(frame.zstd, frame.utf8Bytes + 1)).toThrow(/zstddec decoded/);
  });
});
