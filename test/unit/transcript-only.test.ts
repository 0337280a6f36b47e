// The transcript-only assistant rule (spec transcript.md §8) has one home, server/openclaw/transcript-only.ts.
// Cases from OpenClaw 2026.9.6 `src/shared/transcript-only-openclaw-assistant.ts` (provider "openclaw" +
// model delivery-mirror / gateway-injected; else an `openclawDeliveryMirror` marker of a known kind), plus the
// pre-rename clawdbot mirror of real data. The session list (JSONL quick scan), the context list and the
// model calls all use it: checked on hand-built rows and on every transcript of ../shared/corpus.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildContextMessages } from "../../server/model/context-messages.ts";
import { modelCallsOf } from "../../server/model/model-calls.ts";
import {
  isTranscriptOnlyAssistant,
  isUsageExcludedAssistant,
} from "../../server/openclaw/transcript-only.ts";
import { quickScanBuffer } from "../../server/sources/jsonl/sessions-store.ts";
import type { JsonObject } from "../../shared/json.ts";
import { TranscriptBuilder, transcriptFromJsonl } from "../helpers/transcript.ts";

const assistant = (extra: JsonObject): JsonObject => ({ role: "assistant", content: [], ...extra });

describe("isTranscriptOnlyAssistant (OpenClaw 2026.9.6 rule)", () => {
  it.each([
    [{ provider: "openclaw", model: "delivery-mirror" }, true],
    [{ provider: "openclaw", model: "gateway-injected" }, true],
    [{ provider: "clawdbot", model: "delivery-mirror" }, true],
    [{ provider: "x", openclawDeliveryMirror: { kind: "channel-final" } }, true],
    [{ provider: "x", openclawDeliveryMirror: { kind: "channel-final-suppressed" } }, true],
    [{ provider: "x", openclawDeliveryMirror: { kind: "message-tool-source-reply" } }, true],
    [{ provider: "x", openclawDeliveryMirror: { kind: "cron-direct-delivery-context" } }, true],
    // Not transcript-only: an unknown mirror kind, a marker without a kind, other providers' model names.
    [{ provider: "x", openclawDeliveryMirror: { kind: "something-new" } }, false],
    [{ provider: "x", openclawDeliveryMirror: {} }, false],
    [{ provider: "x", openclawDeliveryMirror: "channel-final" }, false],
    [{ provider: "clawdbot", model: "gateway-injected" }, false],
    [{ provider: "openclaw", model: "gpt" }, false],
    [{ provider: "anthropic", model: "gateway-injected" }, false],
  ])("%j → %s", (fields, expected) => {
    expect(isTranscriptOnlyAssistant(assistant(fields))).toBe(expected);
  });

  it("only assistant messages qualify", () => {
    expect(isTranscriptOnlyAssistant({ role: "user", provider: "openclaw", model: "delivery-mirror" })).toBe(
      false,
    );
  });

  it("usage exclusion adds message-tool mirrors", () => {
    expect(isUsageExcludedAssistant(assistant({ provider: "custom", openclawMessageToolMirror: {} }))).toBe(
      true,
    );
    expect(isTranscriptOnlyAssistant(assistant({ provider: "custom", openclawMessageToolMirror: {} }))).toBe(
      false,
    );
    expect(isUsageExcludedAssistant(assistant({ provider: "anthropic" }))).toBe(false);
  });
});

describe("the session list, the context list and the model calls agree", () => {
  /** A real call, then a row the two old copies of the rule disagreed on. */
  const withTrailer = (trailer: JsonObject): TranscriptBuilder => {
    const b = new TranscriptBuilder();
    b.user("hi");
    b.assistant({ provider: "anthropic", model: "claude-sonnet-4-5" });
    b.message(assistant({ content: [{ type: "text", text: "mirror" }], ...trailer }));
    return b;
  };

  it.each([
    [{ provider: "clawdbot", model: "gateway-injected" }, "clawdbot/gateway-injected"],
    [{ provider: "custom", model: "m", openclawDeliveryMirror: { kind: "something-new" } }, "custom/m"],
    [{ provider: "openclaw", model: "delivery-mirror" }, "anthropic/claude-sonnet-4-5"],
    [
      { provider: "custom", model: "m", openclawDeliveryMirror: { kind: "channel-final" } },
      "anthropic/claude-sonnet-4-5",
    ],
  ])("last row %j → the session's model is %s", (trailer, expected) => {
    const b = withTrailer(trailer);
    const scan = quickScanBuffer(Buffer.from(b.jsonl()));
    expect(`${scan.provider}/${scan.model}`).toBe(expected);
    const transcript = b.transcript();
    const last = modelCallsOf(transcript)
      .all.filter((c) => !c.transcriptOnly)
      .at(-1);
    expect(`${last?.provider}/${last?.model}`).toBe(expected);
    const inContext = buildContextMessages(transcript).some(
      (m) => m.role === "assistant" && JSON.stringify(m.message.content).includes("mirror"),
    );
    expect(inContext).toBe(expected !== "anthropic/claude-sonnet-4-5");
  });
});

const CORPUS = path.resolve(__dirname, "../../../shared/corpus");
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`[skip] corpus not found at ${CORPUS}: transcript-only corpus check skipped`);

function corpusTranscripts(): string[] {
  const out: string[] = [];
  for (const folder of readdirSync(CORPUS)) {
    const agents = path.join(CORPUS, folder, "agents");
    if (!existsSync(agents)) continue;
    for (const agent of readdirSync(agents)) {
      const dir = path.join(agents, agent, "sessions");
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir))
        if (/\.jsonl(\.(reset|deleted)\..*)?$/.test(f)) out.push(path.join(dir, f));
    }
  }
  return out;
}

describe.skipIf(!haveCorpus)("real transcripts (../shared/corpus)", () => {
  it("the session list's model is the last assistant the model calls do not flag as transcript-only", () => {
    let mirrors = 0;
    let compared = 0;
    for (const file of corpusTranscripts()) {
      const bytes = readFileSync(file);
      if (!bytes.includes("delivery-mirror") && !bytes.includes("gateway-injected")) continue;
      const scan = quickScanBuffer(bytes);
      const calls = modelCallsOf(transcriptFromJsonl(bytes.toString("utf8"), file)).all;
      mirrors += calls.filter((c) => c.transcriptOnly).length;
      const last = calls.filter((c) => !c.transcriptOnly && c.model !== null).at(-1);
      if (scan.model === null) continue; // the quick scan only looks at the tail
      compared++;
      expect(`${scan.provider}/${scan.model}`, file).toBe(`${last?.provider}/${last?.model}`);
    }
    // The corpus holds openclaw and clawdbot delivery mirrors and gateway-injected replies.
    expect(mirrors).toBeGreaterThan(300);
    expect(compared).toBeGreaterThan(5);
  });
});
