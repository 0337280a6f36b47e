// XXH64 (seed 0) — the zstd content checksum is its low 32 bits (RFC 8878 §3.1.1). OpenClaw 2026.9.x writes
// every compressed transcript event as a checksummed frame (storage.md §4.2; frame header 0x64 in all
// fixtures); fzstd does not verify it, so a damaged blob could otherwise decode to same-length wrong text.
//
// The hash comes from @node-rs/xxhash (the maintained native xxHash binding, prebuilt per platform and shipped
// inside the registry package). On a platform without a prebuilt binding the pure-JavaScript reference below
// is used: 64-bit arithmetic on (hi, lo) int32 pairs (kept signed so V8 keeps them unboxed; a BigInt version
// was ~10× slower). It is also what the tests check the binding against.

import { createRequire } from "node:module";

type Hash64 = (data: Uint8Array) => bigint;

/** The native binding's xxh64, or null when no binding loads here. */
function loadNative(): Hash64 | null {
  try {
    const binding: typeof import("@node-rs/xxhash") = createRequire(import.meta.url)("@node-rs/xxhash");
    const hash = binding.xxh64;
    return typeof hash === "function" ? (data) => hash(data) : null;
  } catch {
    return null;
  }
}

/** Loaded on the first hash (the first checksummed zstd row), not when the CLI starts. */
let native: Hash64 | null | undefined;
function nativeHash(): Hash64 | null {
  if (native === undefined) native = loadNative();
  return native;
}

/** Where the hash comes from (diagnostics, tests). */
export function xxh64Source(): "@node-rs/xxhash" | "javascript" {
  return nativeHash() ? "@node-rs/xxhash" : "javascript";
}

// Scratch result of the 64-bit helpers (avoids allocating a pair per operation).
let RH = 0;
let RL = 0;

const P1H = 0x9e3779b1;
const P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d;
const P2L = 0x27d4eb4f;
const P3H = 0x165667b1;
const P3L = 0x9e3779f9;
const P4H = 0x85ebca77;
const P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f;
const P5L = 0x165667c5;

/** (ah,al) × (bh,bl) mod 2^64 → RH, RL. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  RL = ((mid & 0xffff) << 16) | (p00 & 0xffff);
  const hi = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  RH = (hi + Math.imul(ah, bl) + Math.imul(al, bh)) | 0;
}

function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = (al >>> 0) + (bl >>> 0);
  RL = lo | 0;
  RH = (ah + bh + (lo > 0xffffffff ? 1 : 0)) | 0;
}

/** Rotate left by 0 < r < 32. */
function rotl(h: number, l: number, r: number): void {
  RH = (h << r) | (l >>> (32 - r));
  RL = (l << r) | (h >>> (32 - r));
}

/** round(acc, lane) = rotl(acc + lane·P2, 31)·P1 */
function round(ah: number, al: number, lh: number, ll: number): void {
  mul(lh, ll, P2H, P2L);
  add(ah, al, RH, RL);
  rotl(RH, RL, 31);
  mul(RH, RL, P1H, P1L);
}

/** The 32-byte stripes of an input ≥ 32 bytes, merged into the hash (left in RH, RL). */
function stripes(view: DataView, limit: number): void {
  add(P1H, P1L, P2H, P2L);
  let v1h = RH;
  let v1l = RL;
  let v2h = P2H;
  let v2l = P2L;
  let v3h = 0;
  let v3l = 0;
  // 0 − P1 mod 2^64
  add(~P1H, ~P1L, 0, 1);
  let v4h = RH;
  let v4l = RL;
  for (let p = 0; p <= limit; p += 32) {
    round(v1h, v1l, view.getInt32(p + 4, true), view.getInt32(p, true));
    v1h = RH;
    v1l = RL;
    round(v2h, v2l, view.getInt32(p + 12, true), view.getInt32(p + 8, true));
    v2h = RH;
    v2l = RL;
    round(v3h, v3l, view.getInt32(p + 20, true), view.getInt32(p + 16, true));
    v3h = RH;
    v3l = RL;
    round(v4h, v4l, view.getInt32(p + 28, true), view.getInt32(p + 24, true));
    v4h = RH;
    v4l = RL;
  }
  rotl(v1h, v1l, 1);
  let hh = RH;
  let hl = RL;
  for (const [vh, vl, r] of [
    [v2h, v2l, 7],
    [v3h, v3l, 12],
    [v4h, v4l, 18],
  ] as const) {
    rotl(vh, vl, r);
    add(hh, hl, RH, RL);
    hh = RH;
    hl = RL;
  }
  for (const [vh, vl] of [
    [v1h, v1l],
    [v2h, v2l],
    [v3h, v3l],
    [v4h, v4l],
  ] as const) {
    // merge: h = (h ^ round(0, v))·P1 + P4
    round(0, 0, vh, vl);
    mul(hh ^ RH, hl ^ RL, P1H, P1L);
    add(RH, RL, P4H, P4L);
    hh = RH;
    hl = RL;
  }
}

/** The bytes after the stripes (8, 4, then 1 at a time) folded into h = (hh, hl); the result in RH, RL. */
function tail(view: DataView, data: Uint8Array, from: number, hh: number, hl: number): void {
  const len = data.length;
  let p = from;
  while (p + 8 <= len) {
    round(0, 0, view.getInt32(p + 4, true), view.getInt32(p, true));
    rotl(hh ^ RH, hl ^ RL, 27);
    mul(RH, RL, P1H, P1L);
    add(RH, RL, P4H, P4L);
    hh = RH;
    hl = RL;
    p += 8;
  }
  if (p + 4 <= len) {
    mul(0, view.getInt32(p, true), P1H, P1L);
    rotl(hh ^ RH, hl ^ RL, 23);
    mul(RH, RL, P2H, P2L);
    add(RH, RL, P3H, P3L);
    hh = RH;
    hl = RL;
    p += 4;
  }
  while (p < len) {
    mul(0, data[p] ?? 0, P5H, P5L);
    rotl(hh ^ RH, hl ^ RL, 11);
    mul(RH, RL, P1H, P1L);
    hh = RH;
    hl = RL;
    p += 1;
  }
  RH = hh;
  RL = hl;
}

/** XXH64 in plain JavaScript (32-bit halves). */
export function xxh64Js(data: Uint8Array): bigint {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const len = data.length;
  const striped = len >= 32 ? len - (len % 32) : 0;
  if (len >= 32) stripes(view, len - 32);
  else {
    RH = P5H;
    RL = P5L;
  }
  add(RH, RL, Math.floor(len / 2 ** 32), len >>> 0);
  tail(view, data, striped, RH, RL);
  let hh = RH;
  let hl = RL;
  // avalanche
  hl ^= hh >>> 1; // h ^= h >> 33
  mul(hh, hl, P2H, P2L);
  hh = RH;
  hl = RL;
  hl ^= (hl >>> 29) | (hh << 3); // h ^= h >> 29
  hh ^= hh >>> 29;
  mul(hh, hl, P3H, P3L);
  hh = RH;
  hl = RL;
  hl ^= hh; // h ^= h >> 32
  return (BigInt(hh >>> 0) << 32n) | BigInt(hl >>> 0);
}

export function xxh64(data: Uint8Array): bigint {
  const hash = nativeHash();
  return hash ? hash(data) : xxh64Js(data);
}

/** The 32-bit value stored at the end of a checksummed zstd frame. */
export function zstdContentChecksum(data: Uint8Array): number {
  return Number(xxh64(data) & 0xffffffffn);
}
