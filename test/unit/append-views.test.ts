// Every view of a session after appends equals a cold build (issue 18 "Live"): the run report, the context map
// and the pruning replay of the bundled demo's real j1 transcript grown one line at a time through the service
// (append, invalidate, ask again) — what the per-message caches shared between the Transcripts of an append
// (decoded calls, map estimates, version signals, the continued replay) must never change.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { conversationBuckets } from "../../server/openclaw/context-map/conversation.ts";
import { openClawMapMessages } from "../../server/openclaw/context-map/inputs.ts";
import { branchBuckets } from "../../server/reports/context-map/openclaw-picture.ts";
import { createSessionService, type SessionService } from "../../server/service/session-service.ts";
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
