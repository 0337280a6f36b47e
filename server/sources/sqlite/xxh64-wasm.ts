// XXH64 (seed 0) as a tiny WebAssembly module, built here from named opcodes (no binary blob, no
// dependency). Why: the zstd content checksum runs over every decompressed event (≈95 MB in a cold 100 MB
// SQLite load, issue 9). JavaScript has no 64-bit integer multiply, so xxh64.ts emulates it on 32-bit
// halves at ≈0.4 GB/s; WebAssembly's native i64.mul hashes ≈10× faster, including the copy into its memory.
// xxh64.ts stays the reference (and the fallback: WebAssembly can be disabled, e.g. `node --jitless`).
//
// The function mirrors xxh64.ts step by step (XXH64 spec: 4 lanes over 32-byte stripes, merge, length,
// 8/4/1-byte tail, avalanche). Inputs are copied to offset 0 of the module's memory, which grows to the
// largest input hashed so far; inputs above MAX_WASM_BYTES use the JavaScript version so a huge archive
// does not leave a huge memory behind.

/** Larger inputs are hashed by xxh64.ts (see above). Events are at most 4 MiB (read-events.ts). */
export const MAX_WASM_BYTES = 16 * 1024 * 1024;

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

type Code = number[];

function uleb(n: number): Code {
  const out: Code = [];
  let v = n >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

function sleb64(n: bigint): Code {
  const out: Code = [];
  let v = BigInt.asIntN(64, n);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function sleb32(n: number): Code {
  return sleb64(BigInt(n));
}

// Opcodes (WebAssembly core spec §5.4).
const I32 = 0x7f;
const I64 = 0x7e;
const EMPTY = 0x40;
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const ELSE = 0x05;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const CALL = 0x10;
const GET = 0x20;
const SET = 0x21;
const I64_LOAD = 0x29;
const I64_LOAD8_U = 0x31;
const I64_LOAD32_U = 0x35;
const I32_CONST = 0x41;
const I64_CONST = 0x42;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_LE_U = 0x4d;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I64_ADD = 0x7c;
const I64_MUL = 0x7e;
const I64_XOR = 0x85;
const I64_SHR_U = 0x88;
const I64_ROTL = 0x89;
const I32_WRAP_I64 = 0xa7;
const I64_EXTEND_I32_U = 0xad;

// Locals of the hash function: 0 = len (param), then p, limit (i32), v1–v4, h (i64).
const LEN = 0;
const P = 1;
const LIMIT = 2;
const V1 = 3;
const V2 = 4;
const V3 = 5;
const V4 = 6;
const H = 7;

const get = (i: number): Code => [GET, i];
const set = (i: number, value: Code): Code => [...value, SET, i];
const i64 = (v: bigint): Code => [I64_CONST, ...sleb64(v)];
const i32 = (v: number): Code => [I32_CONST, ...sleb32(v)];
/** Little-endian load at p + offset (alignment hint 1 byte: inputs sit at any offset). */
const load = (opcode: number, offset: number): Code => [...get(P), opcode, 0, ...uleb(offset)];
const rotl = (value: Code, r: number): Code => [...value, ...i64(BigInt(r)), I64_ROTL];
const mul = (a: Code, b: Code): Code => [...a, ...b, I64_MUL];
const add = (a: Code, b: Code): Code => [...a, ...b, I64_ADD];
const xor = (a: Code, b: Code): Code => [...a, ...b, I64_XOR];
const advance = (n: number): Code => set(P, [...get(P), ...i32(n), I32_ADD]);

/** round(acc, input) = rotl(acc + input·P2, 31)·P1 */
const round = (acc: Code, input: Code): Code => mul(rotl(add(acc, mul(input, i64(P2))), 31), i64(P1));
/** merge: h = (h ^ round(0, v))·P1 + P4 */
const merge = (v: number): Code => set(H, add(mul(xor(get(H), round(i64(0n), get(v))), i64(P1)), i64(P4)));
/** h ^= h >> s */
const shiftXor = (s: number): Code => set(H, xor(get(H), [...get(H), ...i64(BigInt(s)), I64_SHR_U]));

const stripes: Code = [
  ...set(V1, i64(P1 + P2)),
  ...set(V2, i64(P2)),
  ...set(V3, i64(0n)),
  ...set(V4, i64(-P1)),
  ...set(LIMIT, [...get(LEN), ...i32(32), I32_SUB]),
  LOOP,
  EMPTY,
  ...set(V1, round(get(V1), load(I64_LOAD, 0))),
  ...set(V2, round(get(V2), load(I64_LOAD, 8))),
  ...set(V3, round(get(V3), load(I64_LOAD, 16))),
  ...set(V4, round(get(V4), load(I64_LOAD, 24))),
  ...advance(32),
  ...get(P),
  ...get(LIMIT),
  I32_LE_U,
  BR_IF,
  0,
  END,
  ...set(H, add(add(add(rotl(get(V1), 1), rotl(get(V2), 7)), rotl(get(V3), 12)), rotl(get(V4), 18))),
  ...merge(V1),
  ...merge(V2),
  ...merge(V3),
  ...merge(V4),
];

/** `while (p + n <= len) { body; p += n }` */
const tailLoop = (n: number, body: Code): Code => [
  BLOCK,
  EMPTY,
  LOOP,
  EMPTY,
  ...get(P),
  ...i32(n),
  I32_ADD,
  ...get(LEN),
  I32_GT_U,
  BR_IF,
  1,
  ...body,
  ...advance(n),
  BR,
  0,
  END,
  END,
];

const hashBody: Code = [
  ...get(LEN),
  ...i32(32),
  I32_GE_U,
  IF,
  EMPTY,
  ...stripes,
  ELSE,
  ...set(H, i64(P5)),
  END,
  ...set(H, add(get(H), [...get(LEN), I64_EXTEND_I32_U])),
  ...tailLoop(
    8,
    set(H, add(mul(rotl(xor(get(H), round(i64(0n), load(I64_LOAD, 0))), 27), i64(P1)), i64(P4))),
  ),
  // one 4-byte step: `if (p + 4 <= len)` written as `if (!(len < p + 4))`
  ...get(LEN),
  ...get(P),
  ...i32(4),
  I32_ADD,
  I32_LT_U,
  IF,
  EMPTY,
  ELSE,
  ...set(H, add(mul(rotl(xor(get(H), mul(load(I64_LOAD32_U, 0), i64(P1))), 23), i64(P2)), i64(P3))),
  ...advance(4),
  END,
  ...tailLoop(1, set(H, mul(rotl(xor(get(H), mul(load(I64_LOAD8_U, 0), i64(P5))), 11), i64(P1)))),
  ...shiftXor(33),
  ...set(H, mul(get(H), i64(P2))),
  ...shiftXor(29),
  ...set(H, mul(get(H), i64(P3))),
  ...shiftXor(32),
  ...get(H),
  END,
];

function section(id: number, content: Code): Code {
  return [id, ...uleb(content.length), ...content];
}

function vec(items: Code[]): Code {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): Code {
  const bytes = [...Buffer.from(s, "utf8")];
  return [...uleb(bytes.length), ...bytes];
}

function funcBody(locals: [number, number][], body: Code): Code {
  const content = [...vec(locals.map(([n, t]) => [...uleb(n), t])), ...body];
  return [...uleb(content.length), ...content];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const types = vec([
    [0x60, ...vec([[I32]]), ...vec([[I64]])], // 0: (len) → hash
    [0x60, ...vec([[I32]]), ...vec([[I32]])], // 1: (len) → low 32 bits (the zstd checksum)
  ]);
  const low: Code = [...get(LEN), CALL, 0, I32_WRAP_I64, END];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])), // one memory, at least 1 page
    ...section(
      7,
      vec([
        [...name("memory"), 0x02, 0],
        [...name("h64"), 0x00, 0],
        [...name("h64lo"), 0x00, 1],
      ]),
    ),
    ...section(
      10,
      vec([
        funcBody(
          [
            [2, I32],
            [5, I64],
          ],
          hashBody,
        ),
        funcBody([], low),
      ]),
    ),
  ]);
}

interface Exports {
  memory: WebAssembly.Memory;
  h64: (len: number) => bigint;
  h64lo: (len: number) => number;
}

function isExports(v: WebAssembly.Exports): v is WebAssembly.Exports & Exports {
  return (
    v.memory instanceof WebAssembly.Memory && typeof v.h64 === "function" && typeof v.h64lo === "function"
  );
}

let instance: Exports | null | undefined;

/** The instantiated module, or null where WebAssembly is unavailable (the caller falls back to JS). */
function wasm(): Exports | null {
  if (instance !== undefined) return instance;
  try {
    const exports = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes())).exports;
    instance = isExports(exports) ? exports : null;
  } catch {
    instance = null;
  }
  return instance;
}

/** Copy `data` to offset 0 of the module memory (growing it); false when the wasm path is not available. */
function stage(w: Exports, data: Uint8Array): boolean {
  const missing = data.length - w.memory.buffer.byteLength;
  if (missing > 0) {
    try {
      w.memory.grow(Math.ceil(missing / 65536));
    } catch {
      return false;
    }
  }
  new Uint8Array(w.memory.buffer, 0, data.length).set(data);
  return true;
}

/** XXH64 of `data`, or null when it must be hashed in JavaScript (no WebAssembly, or above MAX_WASM_BYTES). */
export function xxh64Wasm(data: Uint8Array): bigint | null {
  const w = data.length <= MAX_WASM_BYTES ? wasm() : null;
  if (w === null || !stage(w, data)) return null;
  return BigInt.asUintN(64, w.h64(data.length));
}

/** Low 32 bits of XXH64 (the zstd content checksum), or null as for xxh64Wasm. */
export function checksumWasm(data: Uint8Array): number | null {
  const w = data.length <= MAX_WASM_BYTES ? wasm() : null;
  if (w === null || !stage(w, data)) return null;
  return w.h64lo(data.length) >>> 0;
}
