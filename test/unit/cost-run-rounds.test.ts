// The cost report's round-dependent parts continued over appended lines = a cold build, on the 2026.9 family,
// where a pruning round reaches every later call of its lineage until a compaction or cold start
// (reports/cost/pruning-rounds.ts RoundChains): the pruning-off scenario, each round's laterCalls and estSavedUsd,
// the unknown-miss share and the heartbeat sums are folds decided call by call when a call is priced. A
// generated session (compactions, TTL gaps, rounds) read as 2026.9 grows one line at a time; at every step the
// continued CostRun's report deep-equals buildCostReport of the same transcript with a fresh replay's rounds.

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import type { LoadedSession } from "../../server/model/session.ts";
import { buildCostReport, type PruningRoundInput } from "../../server/reports/cost/cost-report.ts";
import { CostRun } from "../../server/reports/cost/cost-run.ts";
import type { ReplayResult } from "../../server/reports/prune-replay/replay-result.ts";
import { ReplayRun, runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { readOpenClawConfig } from "../../server/sources/openclaw-config.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { growingTranscripts, loadedSession } from "../helpers/transcript.ts";

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-cost-rounds-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function roundsOf(replay: ReplayResult): PruningRoundInput[] {
  return replay.calls.flatMap((c) =>
    c.round !== "none" && c.entryId !== null ? [{ entryId: c.entryId, charsRemoved: c.charsRemoved }] : [],
  );
}

describe("cost rounds continued over appended lines = cold build (2026.9 lineage chains)", () => {
  it("a generated session read as 2026.9, from its middle on, one line at a time", () => {
    const s = writeJsonlStateDir(path.join(tmp, "state"), { targetBytes: 900_000, seed: 5 });
    const config = readOpenClawConfig(s.stateDir).config;
    const lines = fs.readFileSync(s.file, "utf8").trimEnd().split("\n");
    const sessionOf = (t: LoadedSession["transcript"]) =>
      loadedSession(t, { family: "2026.9", storage: "jsonl", agentId: s.agentId, sessionId: s.sessionId });
    let replayRun: ReplayRun | null = null;
    let costRun: CostRun | null = null;
    let continued = 0;
    let last: CostReportDTO | null = null;
    for (const step of growingTranscripts(lines, Math.floor(lines.length / 2))) {
      const session = sessionOf(step.transcript);
      if (!replayRun?.extend(session)) replayRun = ReplayRun.start({ session, config, sha256Base64Url });
      const input = { session, config, pruningRounds: roundsOf(replayRun.finish()) };
      if (costRun?.extend(input)) continued++;
      else costRun = CostRun.start(input);
      const got = costRun.report();
      const fresh = roundsOf(runReplay({ session, config, sha256Base64Url }));
      expect(got, `after line ${step.lines}`).toEqual(
        buildCostReport({ session, config, pruningRounds: fresh }),
      );
      last = got;
    }
    // the continued path ran, and the session exercises what the folds continue: rounds that reach later
    // calls (2026.9), the pruning-off scenario, chains closed by a compaction
    expect(continued).toBeGreaterThan(100);
    expect(last?.pruningRounds.some((r) => r.laterCalls > 1)).toBe(true);
    // …and a chain that a compaction closed: the first round reaches fewer calls than follow it
    const first = last?.pruningRounds[0];
    const at = last?.calls.findIndex((c) => c.entryId === first?.callEntryId) ?? -1;
    expect(at).toBeGreaterThanOrEqual(0);
    expect(first?.laterCalls).toBeLessThan((last?.calls.length ?? 0) - at);
    expect(last?.counterfactuals.some((c) => c.id === "pruning-off")).toBe(true);
  });
});
