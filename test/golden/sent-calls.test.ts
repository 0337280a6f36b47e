// THE acceptance test of the wire reconstruction (issue 16; /work/coord/research/wire-format.md): for every agent
// request recorded by a real OpenClaw — the six fixtures (2026.9.6 s1–s5, 2026.7.1 j1) and the four research
// captures (w1 images/attachment/escapes/failed compact/reset/retries, w2 compact/second agent/side session/
// thinking, w3 2026.7.1 non-default pruning knobs with a round, w4 sonnet-4-6 with replayed signed thinking) —
// the reconstruction from the stored transcript must have the recorded `messages` count and `messageChars`
// (spec fixtures.md calls.json), and its whole `messages` JSON must hash like the recorded body (image bytes
// excluded: clawscope never holds them). The one residual is named: j1's first send of a live-capped `read`
// (wire-format.md §8 R1), which must be flagged estimated and stay within max(300, 2 %).
// Copies under test/fixtures/ (wire-calls.json, w*-…/) are described in test/fixtures/README.md.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { MediaFact } from "../../server/openclaw/wire/agent-message.ts";
import type { WireMessage } from "../../server/openclaw/wire/wire-message.ts";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { type SentEnv, sentCalls, sentWireCalls } from "../../server/reports/sent/sent-calls.ts";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { PRUNE_SCENARIOS } from "../helpers/prune-fixtures.ts";
import { sessionFromJsonl } from "../helpers/transcript.ts";

const FIXTURES = path.resolve(__dirname, "../fixtures");
const sha256 = (s: string): string => createHash("sha256").update(s).digest("base64url");

interface RecordedCall {
  seq: number;
  messages: number;
  messageChars: number;
  bodySha256: string;
}

interface Scenario {
  name: string;
  sessions: { session: ReturnType<typeof sessionFromJsonl>; env: SentEnv }[];
  config: JsonObject;
  recorded: RecordedCall[];
}

function gunzipText(file: string): string {
  return gunzipSync(readFileSync(file)).toString("utf8");
}

function bodyHash(messages: WireMessage[]): string {
  return sha256(
    JSON.stringify(messages, (k, x) => (k === "data" && typeof x === "string" ? `<${x.length}>` : x)),
  );
}

function mediaAccess(dir: string, workspaceDir: string | null) {
  const staged: Record<string, string> = existsSync(path.join(dir, "staged-media.json"))
    ? JSON.parse(readFileSync(path.join(dir, "staged-media.json"), "utf8"))
    : {};
  const nameOf = (f: MediaFact) => f.url?.replace(/^media:\/\/inbound\//, "") ?? "";
  return {
    loadImage: (f: MediaFact) => {
      const file = path.join(dir, "media", "inbound", nameOf(f));
      if (!nameOf(f) || !existsSync(file)) return null;
      return { data: readFileSync(file).toString("base64"), mimeType: f.contentType ?? "image/png" };
    },
    stagedPath: (f: MediaFact) => {
      const d = staged[nameOf(f)];
      return d && workspaceDir ? `${workspaceDir}/media/inbound/${d}/input-${nameOf(f)}` : null;
    },
  };
}

const FIXTURE_SCENARIOS = PRUNE_SCENARIOS;

function loadFixture(name: string): Scenario {
  const dir = path.join(FIXTURES, name);
  const nodes = JSON.parse(readFileSync(path.join(dir, "session_nodes.json"), "utf8"));
  const node = nodes[0];
  const text = gunzipText(path.join(dir, "transcripts", `${node.current_session_id}.jsonl.gz`));
  const v4 = text.slice(0, 200).includes('"version":4');
  const session = sessionFromJsonl(text, {
    family: v4 ? "2026.9" : "2026.7",
    sessionId: node.current_session_id,
    sessionKey: node.session_key,
    entry: node.entry,
    provider: "anthropic",
    model: "claude-mock-1",
    location: `${name}/transcripts`,
  });
  return {
    name,
    config: JSON.parse(readFileSync(path.join(dir, "prune-openclaw.json"), "utf8")),
    sessions: [{ session, env: { hostTimeZone: "UTC", otherSessions: [] } }],
    recorded: JSON.parse(readFileSync(path.join(dir, "wire-calls.json"), "utf8")),
  };
}

const CAPTURES = [
  "w1-images-reset-retries",
  "w2-compact-second-agent",
  "w3-jsonl-pruning-knobs",
  "w4-sonnet-thinking",
];

function loadCapture(name: string): Scenario {
  const dir = path.join(FIXTURES, name);
  const rows: {
    agentId: string;
    era: string;
    sessionKey: string | null;
    sessionId: string;
    entry: JsonObject | null;
  }[] = JSON.parse(readFileSync(path.join(dir, "sessions.json"), "utf8"));
  const sessions = rows.map((r) => {
    const text = gunzipText(path.join(dir, "transcripts", r.agentId, `${r.sessionId}.jsonl.gz`));
    const report = isObject(r.entry?.systemPromptReport) ? r.entry.systemPromptReport : null;
    const workspaceDir = typeof report?.workspaceDir === "string" ? report.workspaceDir : null;
    const others = rows
      .filter((o) => o.agentId === r.agentId && o.sessionId !== r.sessionId && o.sessionKey && o.entry)
      .map((o) => ({ sessionKey: o.sessionKey ?? "", entry: o.entry ?? {} }));
    return {
      session: sessionFromJsonl(text, {
        family: r.era === "sqlite" ? "2026.9" : "2026.7",
        agentId: r.agentId,
        sessionId: r.sessionId,
        sessionKey: r.sessionKey,
        entry: r.entry,
        location: `${name}/${r.agentId}/${r.sessionId}`,
      }),
      env: { hostTimeZone: "UTC", otherSessions: others, media: mediaAccess(dir, workspaceDir) },
    };
  });
  return {
    name,
    config: JSON.parse(readFileSync(path.join(dir, "openclaw.json"), "utf8")),
    sessions,
    recorded: JSON.parse(readFileSync(path.join(dir, "wire-calls.json"), "utf8")),
  };
}

interface Sent {
  seq: number;
  messages: number;
  messageChars: number;
  bodySha256: string;
  estimated: string[];
}

/** Every reconstructed request of a scenario, paired with its recorded request seq (responseId, retries). */
function reconstruct(s: Scenario): Sent[] {
  const out: Sent[] = [];
  const agentSeqs = s.recorded.map((r) => r.seq);
  const taken = new Set<number>();
  for (const { session, env } of s.sessions) {
    const replay = runReplay({ session, config: s.config, sha256Base64Url: sha256 });
    const input = { session, config: s.config, replay, env };
    const { calls } = sentWireCalls(input, () => true, true);
    const dto = sentCalls(input);
    for (const c of calls) {
      const responseId = dto.calls[c.callIndex]?.responseId ?? "";
      const estimated = dto.calls[c.callIndex]?.estimated ?? [];
      const m = /^msg_mock_(\d+)$/.exec(responseId);
      const requests = [
        { count: c.count, messages: c.messages ?? [] },
        ...(c.retries ?? []).map((count, k) => ({ count, messages: c.retryMessages?.[k] ?? [] })),
      ];
      let seqs: number[];
      if (m) seqs = [Number(m[1])];
      else {
        // a failed call has no responseId: its attempts are the next unpaired agent requests
        const after = Math.max(0, ...[...taken].filter((q) => q < Number.POSITIVE_INFINITY));
        seqs = agentSeqs.filter((q) => q > after && !taken.has(q)).slice(0, requests.length);
      }
      seqs.forEach((seq, k) => {
        const r = requests[k];
        if (!r) return;
        taken.add(seq);
        out.push({ seq, ...r.count, bodySha256: bodyHash(r.messages), estimated });
      });
    }
  }
  return out;
}

/** The recorded requests the wire rules cannot reproduce from the stored data (wire-format.md §8). */
const RESIDUALS: Record<string, number[]> = { "j1-jsonl-cache-ttl-default": [2] };

describe.each([
  ...FIXTURE_SCENARIOS.map((n) => ({ n, load: loadFixture })),
  ...CAPTURES.map((n) => ({ n, load: loadCapture })),
])("sent messages of $n", ({ n, load }) => {
  const scenario = load(n);
  const sent = reconstruct(scenario);
  const bySeq = new Map(sent.map((x) => [x.seq, x]));

  it("reconstructs every recorded agent request", () => {
    expect(sent.length).toBe(scenario.recorded.length);
    expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(scenario.recorded.map((r) => r.seq));
  });

  it("has the recorded messages count for 100 % of the requests", () => {
    for (const r of scenario.recorded) expect(bySeq.get(r.seq)?.messages, `seq ${r.seq}`).toBe(r.messages);
  });

  it("has the recorded messageChars and body byte for byte, except the named residuals", () => {
    const residual = new Set(RESIDUALS[n] ?? []);
    for (const r of scenario.recorded) {
      const got = bySeq.get(r.seq);
      if (!got) continue;
      if (residual.has(r.seq)) {
        expect(Math.abs(got.messageChars - r.messageChars)).toBeLessThanOrEqual(
          Math.max(300, 0.02 * r.messageChars),
        );
        expect(got.estimated.length, `seq ${r.seq} is flagged`).toBeGreaterThan(0);
        expect(got.bodySha256).not.toBe(r.bodySha256);
        continue;
      }
      expect({ seq: r.seq, chars: got.messageChars }).toEqual({ seq: r.seq, chars: r.messageChars });
      expect(got.bodySha256, `seq ${r.seq} body`).toBe(r.bodySha256);
    }
  });
});
