// The pruning fixtures' slim copies (test/fixtures/<scenario>/prune-*, from ../shared/fixtures: see
// test/fixtures/README.md) loaded as a session, its config, the recorded calls (calls.json, agent entries) and
// the wire texts that differ from the first send; `seqOf` pairs an assistant's responseId with its request seq.

import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { LoadedSession } from "../../server/model/session.ts";
import { type JsonObject, str } from "../../shared/json.ts";
import { loadedSession, transcriptFromJsonl } from "./transcript.ts";

export const FIXTURES = path.resolve(__dirname, "../fixtures");

export const PRUNE_SCENARIOS = [
  "s1-cache-ttl-default",
  "s2-pruning-off",
  "s3-aggressive-hardclear",
  "s4-long-36turns",
  "s5-local-cli",
  "j1-jsonl-cache-ttl-default",
] as const;

export interface SlimCall {
  seq: number;
  messageChars: number;
  toolResults: { tool_use_id: string; tool: string; state: string; chars: number; firstSentChars: number }[];
}
export interface WireText {
  tool_use_id: string;
  firstSeq: number;
  text: string;
}

export function loadScenario(name: string): {
  session: LoadedSession;
  config: JsonObject;
  calls: SlimCall[];
  wire: WireText[];
} {
  const dir = path.join(FIXTURES, name);
  const transcript = transcriptFromJsonl(
    gunzipSync(readFileSync(path.join(dir, "prune-transcript.jsonl.gz"))).toString("utf8"),
    `${name}/prune-transcript.jsonl.gz`,
  );
  const config = JSON.parse(readFileSync(path.join(dir, "prune-openclaw.json"), "utf8"));
  const sqlite = transcript.version === 4;
  const session = loadedSession(transcript, {
    family: sqlite ? "2026.9" : "2026.7",
    appVersion: sqlite ? "2026.9.6" : "2026.7.1",
    sessionId: str(transcript.header, "id") ?? name,
    sessionKey: null,
    storage: sqlite ? "sqlite" : "jsonl",
    model: "claude-mock-1",
    provider: "anthropic",
    location: name,
  });
  return {
    session,
    config,
    calls: JSON.parse(readFileSync(path.join(dir, "prune-calls.json"), "utf8")),
    wire: JSON.parse(readFileSync(path.join(dir, "prune-wire-texts.json"), "utf8")),
  };
}

export const seqOf = (responseId: string | null): number | null => {
  const m = /^msg_mock_(\d{4})$/.exec(responseId ?? "");
  return m ? Number(m[1]) : null;
};
