// Issue 18: the WebAssembly SIMD scan of JSON string bodies (server/sources/string-scan/) must cut exactly what
// the JavaScript scan cuts — same ends, same lengths, same refusals — on every kind of body, at every offset
// around its 16-byte steps. And the committed module bytes must be what the .wat compiles to.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CUT_MIN_VALUE_BYTES, findCuts } from "../../server/sources/cut-long-strings.ts";
import {
  scanner,
  scannerUnavailable,
  WASM_MAX_LINE_BYTES,
  WasmStringScanner,
} from "../../server/sources/string-scan/string-scan.ts";
import { STRING_SCAN_WASM } from "../../server/sources/string-scan/string-scan-wasm.ts";
import { compileWat, WASM_TS_PATH, wasmModuleSource } from "../helpers/compile-wat.ts";

/** A seeded generator (the runs are the same every time, and a failure names its seed). */
class Rng {
  constructor(private seed: number) {}
  next(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.seed;
  }
  below(n: number): number {
    return this.next() % n;
  }
}

/** Pieces of a cuttable body: plain text and every two-byte escape JSON has. */
const PLAIN = [
  "a",
  "plain text of a tool's output ",
  "0123456789abcdef",
  '\\"',
  "\\\\",
  "\\/",
  "\\b",
  "\\f",
  "\\n",
  "\\r",
  "\\t",
  "\u007f", // DEL: plain ASCII for JSON
];

/** What makes a body not cuttable (or, for the odd backslash run, moves its end). */
const SPOILERS = [
  "\\u00e9", // a \u escape: never cut
  "\\x", // an escape JSON rejects
  "\u0001", // a raw control byte (JSON.parse rejects the line)
  "\t", // a raw tab, also a control byte
  "é", // non-ASCII UTF-8
  "\\\\\\", // an odd run of backslashes: escapes what follows
];

/** About `bytes` bytes of plain pieces, with `spoiler` (if any) at a few random places. */
function randomBody(rng: Rng, bytes: number, spoiler: string | null = null): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const piece = spoiler !== null && rng.below(60) === 0 ? spoiler : (PLAIN[rng.below(PLAIN.length)] ?? "");
    parts.push(piece);
    size += Buffer.byteLength(piece);
  }
  return parts.join("");
}

/** A tool-result line with the given raw (already escaped) text bodies, as stored bytes. */
function lineWith(bodies: string[], tail = "}]}}"): Buffer {
  const blocks = bodies.map((b) => `{"type":"text","text":"${b}"}`).join(",");
  return Buffer.from(`{"type":"message","id":"x","message":{"role":"toolResult","content":[${blocks}${tail}`);
}

function bothWays(line: Buffer): void {
  const wasm = scanner();
  expect(wasm).not.toBeNull();
  expect(findCuts(line, wasm)).toEqual(findCuts(line, null));
}

describe("string scan (WebAssembly)", () => {
  it("is there on this Node", () => {
    expect(scannerUnavailable()).toBeNull();
    expect(scanner()).not.toBeNull();
  });

  it("the committed bytes are what string-scan.wat compiles to (`npm run wasm` regenerates them)", async () => {
    const bytes = await compileWat();
    expect(Buffer.from(bytes).toString("base64")).toBe(STRING_SCAN_WASM);
    expect(readFileSync(WASM_TS_PATH, "utf8")).toBe(wasmModuleSource(bytes));
  });

  it("cuts what the JavaScript scan cuts, on seeded bodies of every kind", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rng = new Rng(seed);
      const n = 1 + rng.below(3);
      const bodies = Array.from({ length: n }, () => {
        const spoiler = rng.below(2) === 0 ? null : (SPOILERS[rng.below(SPOILERS.length)] ?? null);
        return randomBody(rng, CUT_MIN_VALUE_BYTES - 40 + rng.below(200), spoiler);
      });
      const line = lineWith(bodies);
      const wasm = findCuts(line, scanner());
      expect({ seed, cuts: wasm }).toEqual({ seed, cuts: findCuts(line, null) });
    }
  });

  it("finds the closing quote at every offset of a 16-byte step", () => {
    const body = "y".repeat(CUT_MIN_VALUE_BYTES);
    for (let pad = 0; pad < 40; pad++) {
      for (const special of [...PLAIN.slice(3), ...SPOILERS, "\u0002", "\u001f"]) {
        const b = `${"p".repeat(pad)}${special}${body}`;
        bothWays(lineWith([b, b.slice(1)]));
        bothWays(lineWith([`${body}${"q".repeat(pad)}${special}`]));
      }
    }
    // the exact cut: a 1,030-byte body with three escapes is 1,027 chars
    const cuts = findCuts(lineWith([`${"z".repeat(1024)}\\n\\"\\\\`]), scanner());
    expect(cuts.map((c) => [c.end - c.start, c.chars])).toEqual([[1030, 1027]]);
  });

  it("an unclosed string or a backslash as the line's last byte ends the scan as in JavaScript", () => {
    const body = "w".repeat(CUT_MIN_VALUE_BYTES + 50);
    const closed = `{"type":"text","text":"${body}"}`;
    for (const tail of ["", "\\", "abc\\", "\\\\", `,${closed}`]) {
      const line = Buffer.from(
        `{"message":{"role":"toolResult","content":[${closed},{"type":"text","text":"${body}${tail}`,
      );
      bothWays(line);
      if (!tail.startsWith(",")) expect(findCuts(line, scanner())).toHaveLength(1);
    }
  });

  it("grows its memory for a long line and scans a short one after it", () => {
    const wasm = scanner();
    const big = lineWith([randomBody(new Rng(99), 300_000)]);
    const small = lineWith([randomBody(new Rng(98), 2_000)]);
    for (const line of [small, big, small]) expect(findCuts(line, wasm)).toEqual(findCuts(line, null));
    expect(wasm?.load(Buffer.alloc(WASM_MAX_LINE_BYTES + 1))).toBe(false);
  });

  it("a memory that cannot grow refuses the line, and the JavaScript scan cuts it", () => {
    const stuck = new WasmStringScanner({
      memory: new WebAssembly.Memory({ initial: 1, maximum: 1 }),
      escapes: new WebAssembly.Global({ value: "i32", mutable: true }, 0),
      bad: new WebAssembly.Global({ value: "i32", mutable: true }, 0),
      scan: () => {
        throw new Error("a refused line is never scanned");
      },
    });
    const line = lineWith([randomBody(new Rng(97), 100_000)]);
    expect(stuck.load(line)).toBe(false);
    expect(findCuts(line, stuck)).toEqual(findCuts(line, null));
    expect(findCuts(line, null)).toHaveLength(1);
  });
});
