// The bootstrap advisor (issue 14 §4): $ per full re-write of each injected file = ceil(chars / 4) tokens × the
// re-writing call's cache-write rate, summed over the agent's re-writes; the files of the latest session.
import { describe, expect, it } from "vitest";
import { bootstrapAdvice } from "../../server/reports/advice/bootstrap-advice.ts";
import { retentionAdvice } from "../../server/reports/advice/retention-advice.ts";
import type { BootstrapFacts, SessionAdviceFacts } from "../../server/reports/advice/session-facts.ts";

function session(lastMs: number, bootstrap: BootstrapFacts): SessionAdviceFacts {
  return {
    agentId: "main",
    retention: { value: null, source: "default", cacheTtlMs: null },
    asRunUsd: 1,
    retention1hUsd: null,
    gaps: [],
    firstMs: 0,
    lastMs,
    flags: [],
    pruning: { mode: null, ttlMs: null },
    heartbeatEveryMs: null,
    bootstrap,
    switches: { calls: 0, missUsd: 0, unpriced: 0 },
  };
}

// $3.75 / M cache write (Sonnet-class): 3.75e-6 per token per re-write.
const RATE = 3.75e-6;

describe("bootstrap advisor", () => {
  const older = session(1, {
    files: [{ name: "OLD.md", injectedChars: 999_999 }],
    rewrites: 2,
    writeUsdPerToken: 2 * RATE,
    unpricedRewrites: 0,
  });
  const latest = session(2, {
    files: [
      { name: "AGENTS.md", injectedChars: 20_000 },
      { name: "TOOLS.md", injectedChars: 4_001 },
    ],
    rewrites: 3,
    writeUsdPerToken: 2 * RATE,
    unpricedRewrites: 1,
  });

  it("prices each file of the latest session per re-write and over every priced re-write of the agent", () => {
    const a = bootstrapAdvice("main", [older, latest]);
    if (!a) throw new Error("no card");
    expect(a.kind).toBe("bootstrap-file");
    // 4 priced re-writes (2 + 3 − 1 unpriced); AGENTS.md: 5,000 tokens × 4 × RATE = $0.075
    // AGENTS.md costs 5,000 tokens × 4 × RATE = $0.075 over the period: a cost in the text, not a saving
    expect(a.savingsUsd).toBeNull();
    expect(a.recommended).toContain(
      "Trim or split AGENTS.md: ~5,000 tokens, $0.02 per full re-write, $0.07 over the period",
    );
    // TOOLS.md: ceil(4,001 / 4) = 1,001 tokens (OpenClaw's estimate)
    expect(a.evidence[1]).toBe(
      "TOOLS.md: 4,001 chars ≈ 1,001 tokens → $0.0038 per re-write, $0.02 over 4 priced re-write(s)",
    );
    expect(a.evidence.join("\n")).not.toContain("OLD.md");
    expect(a.evidence.join("\n")).toContain("1 re-write(s) without a price are left out");
    expect(a.evidence.join("\n")).toContain("ESTIMATE");
  });

  it("no card without files or without a priced re-write (never $0.00); part of the overview's advice", () => {
    const none = { files: [], rewrites: 0, writeUsdPerToken: null, unpricedRewrites: 0 };
    expect(bootstrapAdvice("main", [session(1, none)])).toBeNull();
    const unpriced = session(1, {
      files: [{ name: "AGENTS.md", injectedChars: 100 }],
      rewrites: 2,
      writeUsdPerToken: null,
      unpricedRewrites: 2,
    });
    expect(bootstrapAdvice("main", [unpriced])).toBeNull();
    expect(retentionAdvice([older, latest]).map((a) => a.kind)).toContain("bootstrap-file");
  });
});
