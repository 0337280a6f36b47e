// Issue 18: `clawscope prune --json` is linear — per call only what changed, per tool result its first call
// and transitions. The complete per-call maps rebuilt from it equal the complete replay's (`--full`) at every
// call, through compactions (a result leaves the list, a kept one stays) and for both the stateless (≤ 2026.7:
// a round applies to one request) and the sticky (2026.9) generation; and its size grows with the calls, not
// with calls × tool results (1× vs 4× the calls: ratio < 6, while the complete shape's is far above).

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { LoadedSession } from "../../server/model/session.ts";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { PruneLinearReplayDTO } from "../../shared/prune.ts";
import { statesFromLinear } from "../helpers/prune-linear.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");

/**
 * `turns` attempts: user → tool call → tool result (2–6 KB) → reply → cache-touch marker, every third after an
 * idle gap longer than the 5-minute TTL; a compaction keeping the last two turns every `compactEvery` turns.
 */
function session(turns: number, family: "2026.7" | "2026.9", compactEvery = 0): LoadedSession {
  const b = new TranscriptBuilder({ start: 1_800_000_000_000, version: family === "2026.9" ? 4 : 3 });
  const kept: string[] = [];
  for (let i = 1; i <= turns; i++) {
    b.tick(i % 3 === 0 ? 6 * 60_000 : 20_000);
    const userId = b.user(`step ${i}`, { idempotencyKey: `run${i}:user` });
    kept.push(userId);
    b.tick(5);
    b.assistant({
      content: [{ type: "toolCall", id: `toolu_${i}`, name: "exec", arguments: { n: i } }],
      stopReason: "toolUse",
      model: "claude-x",
    });
    b.tick(10);
    b.toolResult(`toolu_${i}`, "exec", `${"output line\n".repeat(170 + (i % 5) * 85)}done ${i}`);
    b.tick(5);
    b.assistant({ text: `done ${i}`, model: "claude-x" });
    b.tick(5);
    b.cacheTouch("anthropic", "claude-x");
    if (compactEvery > 0 && i % compactEvery === 0) {
      const row: JsonObject = {
        type: "compaction",
        summary: `summary of ${i} turns`,
        firstKeptEntryId: kept[kept.length - 2] ?? userId,
        tokensBefore: 40_000,
      };
      b.add(row);
    }
  }
  return b.session({ family, sessionId: "lin", sessionKey: null, storage: "jsonl", model: "claude-x" });
}

const config: JsonObject = {
  agents: { defaults: { contextPruning: { mode: "cache-ttl", ttl: "5m", minPrunableToolChars: 2000 } } },
  models: {
    providers: {
      anthropic: {
        baseUrl: "http://127.0.0.1:1",
        api: "anthropic-messages",
        models: [{ id: "claude-x", contextWindow: 12_000 }],
      },
    },
  },
};

const cliJson = (x: unknown): string => JSON.stringify(x, null, 2);

describe("prune --json: the linear shape", () => {
  for (const family of ["2026.7", "2026.9"] as const) {
    for (const compactEvery of [0, 7]) {
      it(`${family}${compactEvery ? ", compactions" : ""}: the maps rebuilt from it equal --full at every call`, () => {
        const result = runReplay({ session: session(40, family, compactEvery), config, sha256Base64Url });
        const full = result.full();
        // What the CLI prints, read back.
        const linear: PruneLinearReplayDTO = JSON.parse(cliJson(result.linear()));
        expect(linear.callsDetail).toBe("linear");
        expect(linear.calls.map((c) => c.call)).toEqual(full.calls.map((_, i) => i + 1));
        expect(statesFromLinear(linear)).toEqual(full.calls.map((c) => c.toolResults));
        // The replay did prune: some results change state, and the per-call changes say where.
        const changed = linear.toolResults.filter((r) => r.transitions.length > 0);
        expect(changed.length).toBeGreaterThan(0);
        expect(linear.rounds).toBeGreaterThan(0);
        const rebuilt = statesFromLinear(linear);
        linear.calls.forEach((c, i) => {
          const before = rebuilt[i - 1] ?? {};
          const now = rebuilt[i] ?? {};
          const changedHere = Object.fromEntries(
            Object.entries(now).filter(([id, s]) => s !== (before[id] ?? "full")),
          );
          expect(c.changes, `call ${c.call}`).toEqual(changedHere);
          const counts = { full: 0, "soft-trim": 0, "hard-clear": 0 };
          for (const s of Object.values(now)) counts[s]++;
          expect(c.toolResultStates, `call ${c.call}`).toEqual(counts);
          // Every other per-call field is the complete replay's.
          const { toolResults: _m, details: _d, ...rest } = full.calls[i] ?? { toolResults: {}, details: [] };
          const { call: _n, changes: _c, toolResultStates: _s, ...mine } = c;
          expect(mine).toEqual(rest);
        });
        if (compactEvery) {
          // A compaction leaves results out: their stay ends before the last call.
          expect(linear.toolResults.some((r) => r.lastCall < linear.calls.length)).toBe(true);
        }
        expect(linear.next).toEqual(full.next);
      });
    }
  }

  it("--call N is the complete replay's call N", () => {
    const result = runReplay({ session: session(20, "2026.9"), config, sha256Base64Url });
    const full = result.full();
    expect(full.calls.map((_, i) => result.callAt(i))).toEqual(full.calls);
    expect(result.callAt(full.calls.length)).toBeNull();
  });

  it("output size is linear in the calls (1× vs 4× the calls: ratio < 6; the complete shape's is not)", () => {
    const sizes = [30, 120].map((turns) => {
      const result = runReplay({ session: session(turns, "2026.9"), config, sha256Base64Url });
      return {
        calls: result.calls.length,
        linear: cliJson(result.linear()).length,
        full: cliJson(result.full()).length,
      };
    });
    const [one, four] = sizes;
    if (!one || !four) throw new Error("two sessions");
    expect(four.calls).toBe(4 * one.calls);
    expect(four.linear / one.linear).toBeLessThan(6);
    // The test can fail: the same sessions in the complete shape grow with calls × tool results.
    expect(four.full / one.full).toBeGreaterThan(6);
  });
});
