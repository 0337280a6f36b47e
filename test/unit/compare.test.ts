// The pure parts of compare (issue 16): the stable paths two sessions' maps share, their union, spend per cause
// (Σ = the cost report's total), the what-if's parse (one parser for the route, the web and the CLI) and words.

import { describe, expect, it } from "vitest";
import { causeDiff, spendByCause } from "../../server/reports/compare/causes.ts";
import { whatIfLabel } from "../../server/reports/compare/compare.ts";
import { composition, compositionDiff, stablePath } from "../../server/reports/compare/composition.ts";
import { parseCompareWhatIf, whatIfQueryOf } from "../../shared/compare-params.ts";
import type { MapNode } from "../../shared/context-map.ts";
import type { CostBreakdownRowDTO, SpendCause } from "../../shared/cost.ts";

const leaf = (id: string, chars: number): MapNode => ({
  id,
  name: id,
  group: id.split("/")[0] ?? id,
  chars,
  estTokens: Math.ceil(chars / 4),
  tiktokenTokens: null,
  source: "test",
});

describe("composition", () => {
  it("keeps report tiles' ids and sums conversation tiles per kind (their last segment is one session's)", () => {
    expect(stablePath("workspace/AGENTS.md")).toBe("workspace/AGENTS.md");
    expect(stablePath("conversation/user/e12")).toBe("conversation/user");
    expect(stablePath("conversation/assistant/text/e9")).toBe("conversation/assistant/text");
    expect(stablePath("conversation/tool-results/exec/call_1")).toBe("conversation/tool-results/exec");
    const root: MapNode = {
      ...leaf("", 0),
      children: [
        { ...leaf("workspace", 0), children: [leaf("workspace/AGENTS.md", 100)] },
        {
          ...leaf("conversation", 0),
          children: [
            leaf("conversation/tool-results/exec/a", 30),
            leaf("conversation/tool-results/exec/b", 12),
            leaf("conversation/user/e1", 5),
          ],
        },
      ],
    };
    expect(composition(root)).toEqual([
      { path: "workspace/AGENTS.md", chars: 100 },
      { path: "conversation/tool-results/exec", chars: 42 },
      { path: "conversation/user", chars: 5 },
    ]);
  });

  it("the diff is the union: a path one side lacks is 0 there", () => {
    expect(
      compositionDiff(
        [
          { path: "x", chars: 1 },
          { path: "y", chars: 2 },
        ],
        [
          { path: "y", chars: 5 },
          { path: "z", chars: 3 },
        ],
      ),
    ).toEqual([
      { path: "x", aChars: 1, bChars: 0 },
      { path: "y", aChars: 2, bChars: 5 },
      { path: "z", aChars: 0, bChars: 3 },
    ]);
  });
});

describe("spend per cause", () => {
  const row = (cause: SpendCause, costUsd: number, unpricedCalls = 0): CostBreakdownRowDTO => ({
    cause,
    calls: 2,
    tokens: 270,
    costUsd,
    unpricedCalls,
    missCostUsd: 0,
    shareOfSpend: null,
  });
  const breakdown = [row("ttl-expired", 0.5), row("hit", 0.3, 1)];

  it("is the cost report's breakdown, in its order, without the cost tab's extras", () => {
    expect(spendByCause(breakdown)).toEqual([
      { cause: "ttl-expired", calls: 2, tokens: 270, costUsd: 0.5, unpricedCalls: 0 },
      { cause: "hit", calls: 2, tokens: 270, costUsd: 0.3, unpricedCalls: 1 },
    ]);
  });

  it("a what-if side has none: null, not zero", () => {
    expect(causeDiff(spendByCause(breakdown), null)).toEqual([
      { cause: "ttl-expired", aUsd: 0.5, bUsd: null },
      { cause: "hit", aUsd: 0.3, bUsd: null },
    ]);
  });
});

describe("the what-if of b", () => {
  it("parses the route's query, the web's ?whatif= and the CLI's flags the same way; none = null", () => {
    expect(parseCompareWhatIf({})).toBeNull();
    expect(parseCompareWhatIf({ retention: "forever", maxPerFile: "-3" })).toBeNull();
    const w = parseCompareWhatIf(
      whatIfQueryOf("mode=off&ttl=10m&allow=exec&allow=read&retention=long&foo=1"),
    );
    expect(w).toEqual({
      prune: { mode: ["off"], ttl: ["10m"], allow: ["exec", "read"] },
      maxPerFile: null,
      maxTotal: null,
      retention: "long",
    });
    expect(whatIfLabel(w)).toBe("what-if: allow=exec,read, mode=off, ttl=10m, cacheRetention=long");
    expect(whatIfLabel(null)).toBe("as run");
  });
});
