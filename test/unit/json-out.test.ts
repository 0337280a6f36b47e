// `--json` output in pieces (server/cli/json-out.ts) is byte-identical to JSON.stringify(value, null, 2):
// members left out (undefined, functions), empty containers, toJSON, long arrays across chunk boundaries
// (with holes and undefined elements), non-Latin-1 text, and a real cost report of a fixture.

import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BufferedWriter, writeJson } from "../../server/cli/json-out.ts";
import { buildCostReport } from "../../server/reports/cost/cost-report.ts";
import { sessionFromJsonl } from "../helpers/transcript.ts";

function pieces(value: unknown, limit = 1 << 20): { text: string; writes: number } {
  const out: string[] = [];
  const w = new BufferedWriter((s) => out.push(s), limit);
  writeJson(value, w.write);
  w.flush();
  return { text: out.join(""), writes: out.length };
}

const row = (i: number) => ({ i, name: `call ${i} → ≤ “x”`, nested: { a: [i, { b: null }], e: [], o: {} } });

describe("writeJson", () => {
  const cases: Record<string, unknown> = {
    "plain object": { a: 1, b: "two", c: [1, 2, 3], d: { e: { f: [] } } },
    "left-out members": { a: undefined, b: () => 1, c: 1, d: undefined },
    "only left-out members": { a: undefined },
    "empty object": {},
    "array at the top": [1, { a: 2 }, [3]],
    primitive: "a \n string",
    null: null,
    "toJSON at the top": { toJSON: () => ({ x: 1 }) },
    "toJSON and Date below": { when: new Date(Date.UTC(2026, 0, 2)), v: { toJSON: () => "v" } },
    "null prototype": Object.assign(Object.create(null), { a: 1 }),
    "long arrays": {
      calls: Array.from({ length: 1300 }, (_, i) => row(i)),
      exact: Array.from({ length: 1024 }, (_, i) => i),
      justOver: Array.from({ length: 513 }, (_, i) => (i % 7 === 0 ? undefined : i)),
      holes: Object.assign(new Array(2000), { 5: 1, 1999: "end" }),
      tail: "after",
    },
    "long array first and last": { a: Array.from({ length: 600 }, (_, i) => [i]), b: 1 },
    "key needing escapes": { 'a"b\n': Array.from({ length: 700 }, () => ({})), "\u2028": 1 },
  };
  for (const [name, value] of Object.entries(cases)) {
    it(`matches JSON.stringify: ${name}`, () => {
      expect(pieces(value).text).toBe(JSON.stringify(value, null, 2));
      expect(pieces(value, 1).text).toBe(JSON.stringify(value, null, 2));
    });
  }

  it("undefined at the top writes nothing and says so", () => {
    const out: string[] = [];
    expect(writeJson(undefined, (s) => out.push(s))).toBe(false);
    expect(out).toEqual([]);
  });

  it("never holds the whole text in one piece when the array is long", () => {
    const value = { calls: Array.from({ length: 5000 }, (_, i) => row(i)) };
    const whole = JSON.stringify(value, null, 2);
    const p = pieces(value, 64 * 1024);
    expect(p.text).toBe(whole);
    expect(p.writes).toBeGreaterThan(10);
  });

  it("a big piece is written as it is, after the small ones gathered before it", () => {
    const out: string[] = [];
    const w = new BufferedWriter((s) => out.push(s), 100);
    const big = "b".repeat(30);
    for (const s of ["a", "b", big, "c", "d"]) w.write(s);
    w.flush();
    expect(out).toEqual(["ab", big, "cd"]);
    expect(out[1]).toBe(big);
  });

  it("a cost report of a fixture is byte-identical", () => {
    const file = path.resolve(
      __dirname,
      "../fixtures/j1-jsonl-cache-ttl-default/transcripts/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84.jsonl.gz",
    );
    const session = sessionFromJsonl(gunzipSync(readFileSync(file)).toString("utf8"));
    const report = buildCostReport({ session, config: null });
    expect(report.calls.length).toBeGreaterThan(0);
    expect(pieces(report, 1).text).toBe(JSON.stringify(report, null, 2));
  });
});
