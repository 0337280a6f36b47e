// Guarded zstd decoding for SQLite-era blobs: `transcript_events.event_zstd` (one frame per event, agent
// schema 23), `session_transcript_archives.archive_blob` (encoding "zstd") and cold archives
// (`sessions/cold/*.jsonl.zst`) — spec storage.md §4.2.
// The decompressor (zstd-decoders.ts: zstddec once prepared, else fzstd) runs only after the frames
// are walked and the declared sizes checked against a cap — fzstd trusts the frame header and allocates
// what it declares —, so a damaged blob becomes an error string, never an out-of-memory crash or a throw.
// fzstd does not verify the optional content checksum, so it is checked here (XXH64, xxh64.ts) for every
// frame that carries one; callers also compare the decoded length with
// `event_utf8_bytes` and parse the text strictly (UTF-8 + JSON).

import { zstdContentChecksum } from "./xxh64.ts";
import { fzstdDecoder, type ZstdDecoder, zstdDecoder } from "./zstd-decoders.ts";

const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames: magic 0x184D2A50–0x184D2A5F (RFC 8878 §3.1.2). */
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

export type ZstdResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** Block_Maximum_Size (RFC 8878 §3.1.1.2.3): no block regenerates more, whatever its header says. */
const MAX_BLOCK_BYTES = 128 * 1024;

interface FrameWalk {
  /** Sum of declared content sizes, or null when a frame does not declare one. */
  declaredSize: number | null;
  /**
   * Upper bound of the decoded size from the block headers alone: raw and RLE blocks state what they regenerate,
   * a compressed block regenerates at most MAX_BLOCK_BYTES. Known before anything is decoded.
   */
  boundSize: number;
  /** Largest window of a frame without a declared content size (fzstd allocates it up front), else 0. */
  maxWindow: number;
  frames: number;
  /** Per data frame: declared content size (null = not declared) and stored content checksum (null = none). */
  parts: { size: number | null; checksum: number | null }[];
}

function u32le(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

/**
 * Walk the frame and block headers (RFC 8878 §3.1.1) without decoding: validates the structure and
 * sums the declared content sizes, so the caller can refuse absurd sizes before allocating.
 */
export function walkZstdFrames(
  data: Uint8Array,
): { ok: true; walk: FrameWalk } | { ok: false; error: string } {
  let pos = 0;
  let frames = 0;
  let declared: number | null = 0;
  let bound = 0;
  let maxWindow = 0;
  const parts: FrameWalk["parts"] = [];
  if (data.length < 4) return { ok: false, error: `zstd data too short (${data.length} bytes)` };
  while (pos < data.length) {
    if (pos + 4 > data.length)
      return { ok: false, error: `trailing ${data.length - pos} bytes after frame ${frames}` };
    const magic = u32le(data, pos);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      const size = u32le(data, pos + 4);
      pos += 8 + size;
      if (pos > data.length) return { ok: false, error: "skippable frame runs past the end of the data" };
      continue;
    }
    if (magic !== ZSTD_MAGIC) {
      return { ok: false, error: `bad zstd magic 0x${magic.toString(16).padStart(8, "0")} at byte ${pos}` };
    }
    pos += 4;
    const fhd = data[pos];
    if (fhd === undefined) return { ok: false, error: "missing frame header" };
    pos += 1;
    if ((fhd & 0x08) !== 0) return { ok: false, error: "reserved bit set in zstd frame header" };
    const fcsFlag = fhd >> 6;
    const singleSegment = (fhd & 0x20) !== 0;
    const hasChecksum = (fhd & 0x04) !== 0;
    const dictIdSize = [0, 1, 2, 4][fhd & 0x03] ?? 0;
    let window = 0;
    if (!singleSegment) {
      // Window_Descriptor (§3.1.1.1.2): 2^(10 + exponent) + mantissa/8 of it
      const wd = data[pos] ?? 0;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
      pos += 1;
    }
    pos += dictIdSize;
    const fcsSize = fcsFlag === 0 ? (singleSegment ? 1 : 0) : ([0, 2, 4, 8][fcsFlag] ?? 0);
    if (pos + fcsSize > data.length) return { ok: false, error: "zstd frame header truncated" };
    let fcs: number | null = null;
    if (fcsSize === 1) fcs = data[pos] ?? 0;
    else if (fcsSize === 2) fcs = (data[pos] ?? 0) + ((data[pos + 1] ?? 0) << 8) + 256;
    else if (fcsSize === 4) fcs = u32le(data, pos);
    else if (fcsSize === 8) fcs = u32le(data, pos) + u32le(data, pos + 4) * 2 ** 32;
    pos += fcsSize;
    declared = declared === null || fcs === null ? null : declared + fcs;
    if (fcs === null) maxWindow = Math.max(maxWindow, window);
    // Blocks: 3-byte little-endian header (last flag, type, size); RLE blocks carry one byte.
    for (;;) {
      if (pos + 3 > data.length)
        return { ok: false, error: `zstd block header truncated in frame ${frames}` };
      const h = (data[pos] ?? 0) | ((data[pos + 1] ?? 0) << 8) | ((data[pos + 2] ?? 0) << 16);
      pos += 3;
      const last = (h & 1) === 1;
      const type = (h >> 1) & 3;
      const size = h >> 3;
      if (type === 3) return { ok: false, error: `reserved zstd block type in frame ${frames}` };
      bound += type === 2 ? MAX_BLOCK_BYTES : size;
      pos += type === 1 ? 1 : size;
      if (pos > data.length)
        return { ok: false, error: `zstd block runs past the end of the data (frame ${frames})` };
      if (last) break;
    }
    let checksum: number | null = null;
    if (hasChecksum) {
      if (pos + 4 > data.length) return { ok: false, error: "zstd frame checksum truncated" };
      checksum = u32le(data, pos);
      pos += 4;
    }
    parts.push({ size: fcs, checksum });
    frames += 1;
  }
  if (frames === 0) return { ok: false, error: "no zstd frame found" };
  return { ok: true, walk: { declaredSize: declared, boundSize: bound, maxWindow, frames, parts } };
}

/**
 * Decompress after validating the frames; refuses, before the decoder allocates or decodes anything (issue 20:
 * a 48 KB frame of RLE blocks without a content size decoded to 1.57 GB): declared sizes above `maxBytes`, frames
 * whose blocks alone regenerate more than `maxBytes`, and a window above `maxBytes` on a frame without content
 * size (fzstd allocates the window then). The bound is exact enough from the headers, so no streaming decoder
 * is needed to stop early. `decoder`: zstd-decoders.ts (tests run each one). Never throws.
 */
export function decodeZstd(
  data: Uint8Array,
  maxBytes: number,
  decoder: ZstdDecoder = zstdDecoder(),
): ZstdResult {
  const walked = walkZstdFrames(data);
  if (!walked.ok) return walked;
  const { declaredSize: declared, boundSize, maxWindow } = walked.walk;
  if (declared !== null && declared > maxBytes) {
    return { ok: false, error: `zstd frames declare ${declared} bytes, above the ${maxBytes}-byte limit` };
  }
  if (declared === null && boundSize > maxBytes) {
    const error = `zstd frames without a content size: their block headers allow ${boundSize} decoded bytes, above the ${maxBytes}-byte limit`;
    return { ok: false, error };
  }
  if (maxWindow > maxBytes) {
    const error = `zstd frame without a content size asks for a window of ${maxWindow} bytes, above the ${maxBytes}-byte limit`;
    return { ok: false, error };
  }
  try {
    return checked(decoder.decompress(data, declared), maxBytes, walked.walk);
  } catch (e) {
    // zstddec's failures are decoded again by fzstd, for the same located error text whichever decoder ran
    // (errors are rare, so the second pass costs nothing that matters)
    if (decoder.name !== "fzstd") return decodeZstd(data, maxBytes, fzstdDecoder());
    return { ok: false, error: `zstd decode failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The decoded bytes, or why they are not what the frames declare. */
function checked(out: Uint8Array, maxBytes: number, walk: FrameWalk): ZstdResult {
  if (out.length > maxBytes) return { ok: false, error: `decoded ${out.length} bytes, above the limit` };
  const bad = checksumError(out, walk);
  return bad ? { ok: false, error: bad } : { ok: true, bytes: out };
}

/** Verify each frame's XXH64 content checksum; needs every frame's size to split the output. */
function checksumError(out: Uint8Array, walk: FrameWalk): string | null {
  if (walk.parts.some((p) => p.size === null)) return null;
  let at = 0;
  for (const [i, part] of walk.parts.entries()) {
    const size = part.size ?? 0;
    if (at + size > out.length) return `zstd frame ${i} declares more bytes than were decoded`;
    if (part.checksum !== null && zstdContentChecksum(out.subarray(at, at + size)) !== part.checksum) {
      return `zstd content checksum mismatch in frame ${i}`;
    }
    at += size;
  }
  return at === out.length ? null : `zstd frames declare ${at} bytes, ${out.length} were decoded`;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Strict UTF-8 decode (OpenClaw only compresses valid UTF-8 JSON — storage.md §4.2). */
export function decodeUtf8(bytes: Uint8Array): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    return { ok: false, error: "decoded bytes are not valid UTF-8" };
  }
}
