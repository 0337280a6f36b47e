// The zstd decompressors zstd.ts runs after its frame walk has bounded the output (SQLite-era events and
// archives, spec storage.md §4.2):
//   - zstddec: libzstd's own decoder compiled to WebAssembly (donmccurdy/zstddec). ~3× fzstd on real OpenClaw
//     frames, which are entropy-coded: on a 100 MB session (33 MB of frames) 250 ms instead of 850 ms. Its
//     module is instantiated asynchronously, so the shell awaits `prepareZstd()` once before a state dir with
//     SQLite stores is read; until then — and for frames without a declared content size, empty or above
//     WASM_MAX_BYTES (the WebAssembly heap grows to the largest frame and never shrinks) — fzstd runs.
//   - fzstd (pure JavaScript): always there; the same bytes (test/server/zstd-decoders.test.ts).
// node:zlib's `zstdDecompressSync` (Node ≥ 22.15) was measured too and is slower than both on OpenClaw's
// ~1–100 KB frames: each call sets up a new native stream (~35 µs; 11,600 frames of the bench session ≈ 450 ms).

import { createRequire } from "node:module";

export type ZstdDecoderName = "zstddec" | "fzstd";

export interface ZstdDecoder {
  name: ZstdDecoderName;
  /** Decompress every frame of `data` (`declaredSize`: the frames' summed content size, null = not declared); throws on a damaged frame. */
  decompress(data: Uint8Array, declaredSize: number | null): Uint8Array;
}

/** Largest declared output decoded in WebAssembly: every event (≤ 4 MiB); big archives go to fzstd. */
export const WASM_MAX_BYTES = 16 * 1024 * 1024;

let fzstd: ZstdDecoder | null = null;

/** fzstd, on every Node, loaded on the first compressed row (a JSONL-only run never loads it). */
export function fzstdDecoder(): ZstdDecoder {
  if (fzstd === null) {
    const lib: typeof import("fzstd") = createRequire(import.meta.url)("fzstd");
    // No preallocated output buffer: fzstd silently drops bytes written past a caller buffer.
    fzstd = { name: "fzstd", decompress: (data) => lib.decompress(data) };
  }
  return fzstd;
}

function wasmDecoder(lib: import("zstddec").ZSTDDecoder): ZstdDecoder {
  return {
    name: "zstddec",
    decompress(data, declaredSize) {
      // zstddec reads a size of 0 as "find it in the frame header": an empty frame goes to fzstd as well
      if (declaredSize === null || declaredSize === 0 || declaredSize > WASM_MAX_BYTES)
        return fzstdDecoder().decompress(data, declaredSize);
      const out = lib.decode(data, declaredSize);
      // ZSTD_decompress's error codes come back as a short (or empty) output
      if (out.length !== declaredSize)
        throw new Error(`zstddec decoded ${out.length} bytes, the frames declare ${declaredSize}`);
      return out;
    },
  };
}

let wasm: ZstdDecoder | null = null;
let preparing: Promise<void> | null = null;

/**
 * Instantiate zstddec once (~2 ms); never rejects — without it fzstd decodes the same bytes, slower. zstddec
 * takes the `fetch` path when `fetch` exists, and on Node that loads undici to read a `data:` URL (~30 ms):
 * `fetch` is hidden for the synchronous part of `init()` only (the branch is taken before it returns).
 */
export function prepareZstd(): Promise<void> {
  preparing ??= (async () => {
    try {
      const { ZSTDDecoder } = await import("zstddec");
      const lib = new ZSTDDecoder();
      const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, "fetch");
      if (fetchProperty) Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true });
      let ready: Promise<void>;
      try {
        ready = lib.init();
      } finally {
        if (fetchProperty) Object.defineProperty(globalThis, "fetch", fetchProperty);
      }
      await ready;
      wasm = wasmDecoder(lib);
    } catch {
      wasm = null;
    }
  })();
  return preparing;
}

/** The decoder this process uses now: zstddec once prepared, else fzstd. */
export function zstdDecoder(): ZstdDecoder {
  return wasm ?? fzstdDecoder();
}

/** Every decoder this process can run (after `prepareZstd`), the preferred one first; tests compare them. */
export function availableZstdDecoders(): ZstdDecoder[] {
  return wasm ? [wasm, fzstdDecoder()] : [fzstdDecoder()];
}
