// Every view of a session after appends equals a cold build (issue 18 "Live"): the run report, the context map
// and the pruning replay of the bundled demo's real j1 transcript grown one line at a time through the service
// (append, invalidate, ask again) — what the per-message caches shared between the Transcripts of an append
// (decoded calls, map estimates, version signals, the continued replay) must never change.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { conversationBuckets } from "../../server/openclaw/context-map/conversation.ts";
import { openClawMapMessages } from "../../server/openclaw/context-map/inputs.ts";
import { branchBuckets } from "../../server/reports/context-map/openclaw-picture.ts";
import { createSessionService, type SessionService } from "../../server/service/session-service.ts";
import { isObject } from "../../shared/json.ts";
import { writableCopy } from "../helpers/state-dirs.ts";
import { growingTranscripts, transcriptFromJsonl } from "../helpers/transcript.ts";

const DEMO = path.resolve(__dirname, "../../server/demo/state");
const J1_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function views(service: SessionService) {
  const get = <T>(r: { value: T } | { error: unknown }): T => {
    if ("error" in r) throw new Error(JSON.stringify(r.error));
    return r.value;
  };
  return {
    run: get(service.runReport("legacy", J1_ID)),
    map: get(service.contextMap("legacy", J1_ID)),
    prune: get(service.prune("legacy", J1_ID, {})),
  };
}

describe("views after appended lines = cold build", () => {
  it("j1 from its 15th line on, one line at a time", () => {
    const stateDir = writableCopy(DEMO, fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-views-")));
    tmpDirs.push(stateDir);
    const file = path.join(stateDir, "agents/legacy/sessions", `${J1_ID}.jsonl`);
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    fs.writeFileSync(
      file,
      lines
        .slice(0, 15)
        .map((l) => `${l}\n`)
        .join(""),
    );
    const service = createSessionService({ stateDir, demo: false, reason: "test" });
    views(service);
    for (const line of lines.slice(15)) {
      fs.appendFileSync(file, `${line}\n`);
      service.invalidate();
      const got = views(service);
      const cold = createSessionService({ stateDir, demo: false, reason: "test" });
      expect(got).toEqual(views(cold));
      cold.close();
    }
    service.close();
  });
});

/** A prompt two hours after `lastLine` and a reply that re-writes the prefix: an expired cache gap. */
function idleThenMiss(lastLine: string): string[] {
  const last: unknown = JSON.parse(lastLine);
  const rec = isObject(last) ? last : {};
  const parentId = typeof rec.id === "string" ? rec.id : null;
  const t = Date.parse(typeof rec.timestamp === "string" ? rec.timestamp : "") + 7_200_000;
  const at = (ms: number) => new Date(ms).toISOString();
  return [
    JSON.stringify({
      type: "message",
      id: "idle-u",
      parentId,
      timestamp: at(t),
      message: { role: "user", content: [{ type: "text", text: "back" }], timestamp: t },
    }),
    JSON.stringify({
      type: "message",
      id: "idle-a",
      parentId: "idle-u",
      timestamp: at(t + 2000),
      message: {
        role: "assistant",
        content: [{ type: "text", text: "re-written" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-mock-1",
        usage: { input: 3, output: 20, cacheRead: 0, cacheWrite: 90_000, totalTokens: 0 },
        stopReason: "stop",
        timestamp: t + 2000,
      },
    }),
  ];
}

describe("the pruning view's marks and the cost report's rounds after appended lines = cold build", () => {
  it("a generated session (compactions, TTL gaps, rounds) from 40 lines before its last compaction", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-views-gen-"));
    tmpDirs.push(dir);
    const s = writeJsonlStateDir(path.join(dir, "state"), { targetBytes: 1_200_000, seed: 5 });
    const lines = fs.readFileSync(s.file, "utf8").trimEnd().split("\n");
    const cut = lines.findLastIndex((l) => l.includes('"type":"compaction"')) - 40;
    fs.writeFileSync(
      s.file,
      lines
        .slice(0, cut)
        .map((l) => `${l}\n`)
        .join(""),
    );
    const at = (service: SessionService) => {
      const prune = service.prune(s.agentId, s.sessionId, { calls: ["summary"] });
      const cost = service.cost(s.agentId, s.sessionId);
      if ("error" in prune || "error" in cost) throw new Error("no view");
      return { marks: prune.value.marks, rounds: cost.value.pruningRounds, calls: prune.value.calls.length };
    };
    const service = createSessionService({ stateDir: s.stateDir, demo: false, reason: "test" });
    const first = at(service);
    let last = first;
    for (const line of [...lines.slice(cut), ...idleThenMiss(lines.at(-1) ?? "")]) {
      fs.appendFileSync(s.file, `${line}\n`);
      service.invalidate();
      last = at(service);
      const cold = createSessionService({ stateDir: s.stateDir, demo: false, reason: "test" });
      expect(last).toEqual(at(cold));
      cold.close();
    }
    service.close();
    // the grown part adds what the marks and rounds continue over: a compaction, expired gaps, rounds
    expect(last.marks?.events.length).toBeGreaterThan(first.marks?.events.length ?? 0);
    expect(last.marks?.gaps.length).toBeGreaterThan(0);
    expect(last.rounds.length).toBeGreaterThan(first.rounds.length);
  });
});

describe("the 2026.9 map's conversation buckets continued over appended lines", () => {
  it("equal the sums over every branch message of a fresh parse at every step", () => {
    const file = path.join(DEMO, "agents/legacy/sessions", `${J1_ID}.jsonl`);
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    for (const step of growingTranscripts(lines, 2)) {
      const fresh = transcriptFromJsonl(lines.slice(0, step.lines).join("\n"));
      expect(branchBuckets(step.transcript)).toEqual(
        conversationBuckets(openClawMapMessages(fresh.entries, fresh.activeBranch)),
      );
    }
  });
});
