// Issue 20, medium: ReDoS in tool globs. compileGlob built `^.*a.*a…$`; `tools.allow: ["*"×1000+"a"]` or one
// what-if request `?allow=*a*a*a*a*a*a*a*a*a*b` blocked the server for seconds to forever. The matcher is now linear
// and uses no RegExp; OpenClaw's semantics (src/agents/glob-pattern.ts, identical in 2026.7.1 and 2026.9.6: the
// pattern escaped, `*` → `.*`, anchored, no flags) are the oracle below.

import { describe, expect, it } from "vitest";
import { globMatches, makeToolPredicate } from "../../server/openclaw/pruning/tool-glob.ts";
import { parsePruneQuery } from "../../shared/prune-params.ts";

/** OpenClaw 2026.9.6 dist/glob-pattern-DFVWJ-hh.mjs compileGlobPattern + matchesAnyGlobPattern, verbatim logic. */
function openclawMatches(raw: string, name: string): boolean {
  const normalize = (s: string) => s.trim().toLowerCase();
  const normalized = normalize(raw);
  if (!normalized) return false;
  const value = normalize(name);
  if (normalized === "*") return true;
  if (!normalized.includes("*")) return value === normalized;
  const escaped = normalized.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("\\*", ".*");
  return new RegExp(`^${escaped}$`).test(value);
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe("tool glob matching is OpenClaw's, without RegExp", () => {
  it("agrees with OpenClaw's RegExp on 5,000 seeded patterns and names (`*` runs, line terminators, specials)", () => {
    const rnd = seeded(20);
    const pick = (alphabet: string[]) => alphabet[Math.floor(rnd() * alphabet.length)] ?? "";
    // one character per element (spread of a string), `*` thrice as likely as any other
    const patternChars = [..."***abA.\\([$^\n\r\u2028 "];
    const nameChars = [..."abB.\\([$^\n\r\u2028\u2029 é"];
    for (let i = 0; i < 5000; i++) {
      let pattern = "";
      for (let j = Math.floor(rnd() * 8); j > 0; j--) pattern += pick(patternChars);
      let name = "";
      for (let j = Math.floor(rnd() * 10); j > 0; j--) name += pick(nameChars);
      const want = openclawMatches(pattern, name);
      expect({ pattern, name, match: globMatches(pattern, name) }).toEqual({ pattern, name, match: want });
    }
  });

  it("keeps the documented cases (runs of `*` included)", () => {
    expect(globMatches("**", "anything")).toBe(true);
    expect(globMatches("read**", "read_file")).toBe(true);
    expect(globMatches("r**d*", "read")).toBe(true);
    expect(globMatches("*a**b*", "xaxbx")).toBe(true);
    expect(globMatches("*a**b*", "xbxax")).toBe(false);
    expect(globMatches("a*", "a\nb")).toBe(false); // `.` never matches a line terminator
    expect(globMatches("a*\nb", "ax\nb")).toBe(true);
    const p = makeToolPredicate(["exec*", "*_file"], ["*secret*"]);
    expect([p("exec"), p("read_file"), p("read_secret_file"), p("ls")]).toEqual([true, true, false, false]);
  });

  it("hostile patterns finish in linear time", () => {
    const cases: [string, string, boolean][] = [
      ["*a*a*a*a*a*a*a*a*a*b", "a".repeat(60), false],
      [`${"*".repeat(1000)}a`, "b".repeat(2000), false],
      ["a*".repeat(500), `${"a".repeat(3000)}b`, true],
      [`${"*a".repeat(2000)}*c`, "a".repeat(4000), false],
    ];
    for (const [pattern, name, want] of cases) {
      const t0 = performance.now();
      expect(globMatches(pattern, name)).toBe(want);
      // generous: the old RegExp took minutes to forever on each of these
      expect(performance.now() - t0).toBeLessThan(500);
    }
  });

  it("the what-if query caps glob count and length (over-long globs are ignored, like any malformed value)", () => {
    const long = `${"*a".repeat(200)}b`;
    const { overrides } = parsePruneQuery({ allow: ["read*", long], deny: "x,y" });
    expect(overrides.allow).toEqual(["read*"]);
    expect(overrides.deny).toEqual(["x", "y"]);
    const many = Array.from({ length: 100 }, (_, i) => `tool${i}`).join(",");
    expect(parsePruneQuery({ deny: many }).overrides.deny).toHaveLength(64);
  });
});
