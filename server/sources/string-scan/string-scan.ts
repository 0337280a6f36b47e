// The byte scan of JSON string bodies that cut-long-strings.ts runs on every long stored line, in WebAssembly
// SIMD (string-scan.wat): where a string ends, how many two-byte escapes it has, and whether its bytes are
// plain ASCII with only \" \\ \/ \b \f \n \r \t escapes. In JavaScript this scan was ~100 ms of a cold read of
// the 100 MB bench session (79 MB of tool output, 557k escapes; issue 18); sixteen bytes per step it is ~5×
// faster. A line is copied into the module's memory once (memcpy) and scanned there.
// Without WebAssembly SIMD `scanner()` is null, and for a line it cannot hold (above WASM_MAX_LINE_BYTES, or
// memory that will not grow) `load` says false: then the caller's JavaScript scan runs — the reference the
// tests compare this one against.

import { STRING_SCAN_WASM } from "./string-scan-wasm.ts";

/** Lines longer than this are scanned in JavaScript: the module's memory grows to the longest line and stays. */
export const WASM_MAX_LINE_BYTES = 16 * 1024 * 1024;

const PAGE = 64 * 1024;

interface ScanExports {
  memory: WebAssembly.Memory;
  escapes: WebAssembly.Global;
  bad: WebAssembly.Global;
  scan: (from: number, len: number) => number;
}

function isScanExports(e: WebAssembly.Exports): e is WebAssembly.Exports & ScanExports {
  return (
    e.memory instanceof WebAssembly.Memory &&
    e.escapes instanceof WebAssembly.Global &&
    e.bad instanceof WebAssembly.Global &&
    typeof e.scan === "function"
  );
}

/** One string body scanned: `end` = index of its closing quote in the line, -1 when the line ends first. */
export interface ScannedString {
  end: number;
  /** Backslash pairs in the body. */
  escapes: number;
  /** Plain ASCII, no control byte, only two-byte escapes: UTF-16 length = bytes − escapes. */
  simple: boolean;
}

/** A line loaded into the module's memory, scanned string by string. */
export class WasmStringScanner {
  private bytes: Uint8Array;
  private len = 0;

  constructor(private readonly exports: ScanExports) {
    this.bytes = new Uint8Array(exports.memory.buffer);
  }

  /**
   * Copy `line` in (growing the memory when it is longer than any line before); false when it is too long or
   * the memory cannot grow (a parser never throws: the JavaScript scan takes the line).
   */
  load(line: Uint8Array): boolean {
    if (line.length > WASM_MAX_LINE_BYTES) return false;
    const have = this.exports.memory.buffer.byteLength;
    // 16 spare bytes: a vector load never needs them, but a line that exactly fills a page stays in bounds
    const need = line.length + 16;
    if (need > have) {
      try {
        this.exports.memory.grow(Math.ceil((need - have) / PAGE));
      } catch {
        return false; // RangeError: out of memory, or past the memory's maximum
      }
      this.bytes = new Uint8Array(this.exports.memory.buffer); // grow detaches the old buffer
    }
    this.bytes.set(line, 0);
    this.len = line.length;
    return true;
  }

  /** The string whose body starts at `from` in the loaded line. */
  scan(from: number): ScannedString {
    const end = this.exports.scan(from, this.len);
    const escapes: unknown = this.exports.escapes.value;
    const bad: unknown = this.exports.bad.value;
    return { end, escapes: typeof escapes === "number" ? escapes : 0, simple: bad === 0 };
  }
}

type Instantiated = { scanner: WasmStringScanner; why: null } | { scanner: null; why: string };

function instantiate(): Instantiated {
  try {
    const module = new WebAssembly.Module(Buffer.from(STRING_SCAN_WASM, "base64"));
    const exports = new WebAssembly.Instance(module, {}).exports;
    if (isScanExports(exports)) return { scanner: new WasmStringScanner(exports), why: null };
    return { scanner: null, why: "the module's exports are not the expected ones" };
  } catch (e) {
    return { scanner: null, why: e instanceof Error ? e.message : String(e) };
  }
}

let instantiated: Instantiated | null = null;

/** The scanner, instantiated on first use (a 430-byte module, compiled synchronously in well under 1 ms). */
export function scanner(): WasmStringScanner | null {
  instantiated ??= instantiate();
  return instantiated.scanner;
}

/** Why there is no scanner (null when there is one): a test asserts the Node the package supports has it. */
export function scannerUnavailable(): string | null {
  instantiated ??= instantiate();
  return instantiated.why;
}
