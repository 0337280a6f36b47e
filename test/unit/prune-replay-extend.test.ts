// Issue 9 (append → report): a pruning replay continued over appended entries (ReplayRun.extend) must give
// exactly the DTO a fresh replay of the longer transcript gives — every call, every tool-result state, every
// detail row, the next-call prediction — and a DTO handed out earlier must not change.

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import type { LoadedSession } from "../../server/model/session.ts";
import { type ReplayInput, ReplayRun, runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { readOpenClawConfig } from "../../server/sources/openclaw-config.ts";
import { openStateReader, type StateReader } from "../../server/sources/state-reader.ts";
import { createTokenCounter } from "../../server/tokens/tokenizer.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");
const replayPruning = (input: ReplayInput): PruneReplayDTO => runReplay(input).full();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-extend-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function load(reader: StateReader, agentId: string, sessionId: string): LoadedSession {
  const r = reader.loadSession({ agentId, sessionId });
  if ("error" in r) throw new Error(r.error.message);
  return r;
}

/**
 * Write the first `cuts[0]` lines, replay, then append up to each next cut and continue the same run: each
 * result equals a fresh replay, and every earlier result is unchanged.
 */
function checkExtension(stateDir: string, file: string, agentId: string, sessionId: string, cuts: number[]) {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const config = readOpenClawConfig(stateDir).config;
  fs.writeFileSync(file, `${lines.slice(0, cuts[0]).join("\n")}\n`);
  const reader = openStateReader(stateDir);
  const first = load(reader, agentId, sessionId);
  const run = ReplayRun.start({ session: first, config, sha256Base64Url });
  const earlier: { dto: PruneReplayDTO; json: string }[] = [];
  // Results whose per-call states are first read after the run went on: they must read the same.
  const deferred: { result: ReturnType<ReplayRun["finish"]>; json: string }[] = [];
  const firstDto = run.finish().full();
  earlier.push({ dto: firstDto, json: JSON.stringify(firstDto) });
  deferred.push({ result: run.finish(), json: JSON.stringify(firstDto) });
  expect(earlier[0]?.json).toBe(JSON.stringify(replayPruning({ session: first, config, sha256Base64Url })));
  let extended = 0;
  for (let c = 1; c < cuts.length; c++) {
    fs.appendFileSync(file, `${lines.slice(cuts[c - 1], cuts[c]).join("\n")}\n`);
    const next = load(reader, agentId, sessionId);
    const fresh = JSON.stringify(replayPruning({ session: next, config, sha256Base64Url }));
    if (run.extend(next)) {
      extended++;
      const dto = run.finish().full();
      expect(JSON.stringify(dto), `after line ${cuts[c]}`).toBe(fresh);
      earlier.push({ dto, json: JSON.stringify(dto) });
      deferred.push({ result: run.finish(), json: fresh });
    } else {
      earlier.push({ dto: JSON.parse(fresh), json: fresh });
    }
  }
  for (const e of earlier) expect(JSON.stringify(e.dto)).toBe(e.json);
  for (const d of deferred) expect(JSON.stringify(d.result.full())).toBe(d.json);
  return { extended, calls: earlier[earlier.length - 1]?.dto.calls.length ?? 0 };
}

describe("a continued replay equals a fresh one", () => {
  it("generated 2026.7 session with pruning rounds, extended in steps of 1 to 400 lines", () => {
    const w = writeJsonlStateDir(path.join(tmp, "gen"), { targetBytes: 1_500_000, seed: 5 });
    const total = fs
      .readFileSync(w.file, "utf8")
      .split("\n")
      .filter((l) => l !== "").length;
    const cuts = [Math.floor(total / 3)];
    for (const step of [1, 2, 5, 40, 400, 1, 3, 100])
      cuts.push(Math.min(total, (cuts[cuts.length - 1] ?? 0) + step));
    cuts.push(total);
    const r = checkExtension(w.stateDir, w.file, w.agentId, w.sessionId, cuts);
    expect(r.extended).toBeGreaterThan(5);
    expect(r.calls).toBeGreaterThan(50);
    const rounds = replayPruning({
      session: load(openStateReader(w.stateDir), w.agentId, w.sessionId),
      config: readOpenClawConfig(w.stateDir).config,
      sha256Base64Url,
    }).rounds;
    expect(rounds).toBeGreaterThan(0);
  });

  it("the bundled 2026.7.1 capture (legacy agent), extended line by line", () => {
    const dir = path.join(tmp, "demo");
    fs.cpSync(path.resolve(__dirname, "../../server/demo/state"), dir, { recursive: true });
    const sessions = path.join(dir, "agents/legacy/sessions");
    const name = fs.readdirSync(sessions).find((f) => f.endsWith(".jsonl")) ?? "";
    const file = path.join(sessions, name);
    const total = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "").length;
    const cuts = Array.from({ length: total - 9 }, (_, i) => 10 + i);
    const r = checkExtension(dir, file, "legacy", name.replace(/\.jsonl$/, ""), cuts);
    expect(r.extended).toBeGreaterThan(total / 2);
  });
});

describe("the service continues its replay across appends", () => {
  it("prune (and the reports built on it) after appends equal a fresh service's", () => {
    const w = writeJsonlStateDir(path.join(tmp, "svc"), { targetBytes: 800_000, seed: 8 });
    const lines = fs
      .readFileSync(w.file, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    const half = Math.floor(lines.length / 2);
    fs.writeFileSync(w.file, `${lines.slice(0, half).join("\n")}\n`);
    const tokenCounter = createTokenCounter({ mode: "inline" });
    const opts = { stateDir: w.stateDir, demo: false, reason: "test", tokenCounter };
    const service = createSessionService(opts);
    const json = (v: unknown) => JSON.stringify(v);
    service.prune(w.agentId, w.sessionId, {});
    for (const step of [1, 7, 60, lines.length]) {
      const done = fs
        .readFileSync(w.file, "utf8")
        .split("\n")
        .filter((l) => l !== "").length;
      const more = lines.slice(done, Math.min(lines.length, done + step));
      if (more.length > 0) fs.appendFileSync(w.file, `${more.join("\n")}\n`);
      service.invalidate();
      const fresh = createSessionService(opts);
      const queries: Record<string, string[]>[] = [{}, { calls: ["summary"] }];
      for (const q of queries) {
        expect(json(service.prune(w.agentId, w.sessionId, q))).toBe(
          json(fresh.prune(w.agentId, w.sessionId, q)),
        );
      }
      expect(json(service.cost(w.agentId, w.sessionId))).toBe(json(fresh.cost(w.agentId, w.sessionId)));
      expect(json(service.runReport(w.agentId, w.sessionId))).toBe(
        json(fresh.runReport(w.agentId, w.sessionId)),
      );
      fresh.close();
    }
    service.close();
  });
});
