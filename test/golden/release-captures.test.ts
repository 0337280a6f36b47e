// Real state dirs written by OpenClaw 2026.8.2 and 2026.9.1 (agent schema 19, every event as event_json), each
// run offline against a scripted Anthropic mock (test/fixtures/oc-<release>-stateless-round/README.md): what
// OpenClaw printed for `/context list|detail|json`, and per model request the wire state of every tool result.
// Both releases run the stateless fixed-threshold pruner (server/openclaw/pruning/generation.ts, "2026.8"): the
// call after a TTL gap soft-trims four results, the next call sends them in full again. Everything goes through
// the CLI as a user runs it, on a copy of the state dir.

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { sentWireCalls } from "../../server/reports/sent/sent-calls.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { isObject } from "../../shared/json.ts";
import type { PruneLinearReplayDTO } from "../../shared/prune.ts";
import { runCli } from "../helpers/cli.ts";
import { statesFromLinear } from "../helpers/prune-linear.ts";

const FIXTURES = path.resolve(__dirname, "../fixtures");
const RELEASES = ["2026.8.2", "2026.9.1"] as const;
const made: string[] = [];
const sha256 = (x: string): string => createHash("sha256").update(x).digest("base64url");
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

interface WireCall {
  seq: number;
  responseId: string;
  messages: number;
  bodySha256: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  toolResults: { tool_use_id: string; state: string; chars: number; firstSentChars: number }[];
}

/** A copy of the capture's state dir, in a tmp dir of its own. */
function stateDirOf(fixture: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-capture-"));
  made.push(dir);
  fs.cpSync(path.join(fixture, "state"), dir, { recursive: true });
  return dir;
}

function cli(args: string[]): string {
  const r = runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe.each(RELEASES)("OpenClaw %s capture", (release) => {
  const fixture = path.join(FIXTURES, `oc-${release}-stateless-round`);
  const stateDir = stateDirOf(fixture);
  const wire: WireCall[] = JSON.parse(fs.readFileSync(path.join(fixture, "wire-calls.json"), "utf8"));
  const listed: unknown = JSON.parse(cli(["sessions", "--json", "--state-dir", stateDir]));
  const first = Array.isArray(listed) && isObject(listed[0]) ? listed[0] : {};
  const ref = `main/${String(first.sessionId)}`;
  const base = ["--state-dir", stateDir, "--session", ref];

  it("lists the one session of the store, no parse error", () => {
    expect(Array.isArray(listed) ? listed.length : 0).toBe(1);
    expect(first).toMatchObject({ storage: "sqlite", parseErrorCount: 0, sessionKey: "agent:main:main" });
  });

  for (const [n, mode] of [
    ["07", "list"],
    ["08", "detail"],
    ["09", "json"],
  ] as const) {
    it(`/context ${mode}: byte for byte what OpenClaw ${release} printed`, () => {
      const printed = fs.readFileSync(path.join(fixture, "commands", `${n}-context-${mode}.txt`), "utf8");
      expect(cli(["context", "--mode", mode, ...base])).toBe(printed);
    });
  }

  it("prune --json: the stateless fixed-threshold pruner, every tool result of every call as on the wire", () => {
    const dto: PruneLinearReplayDTO = JSON.parse(cli(["prune", "--json", ...base]));
    expect(dto.algorithm).toBe("2026.8");
    expect(dto.settings.sources.softTrimRatio).toBe("fixed");
    expect(dto.calls.length).toBe(wire.length);
    const states = statesFromLinear(dto);
    for (const [i, call] of wire.entries()) {
      const want = Object.fromEntries(call.toolResults.map((t) => [t.tool_use_id, t.state]));
      expect({ seq: call.seq, states: states[i] }).toEqual({ seq: call.seq, states: want });
    }
    // the round of the call after the gap, and no projection carried to the next call
    const rounds = dto.calls.map((c) => c.round);
    expect(rounds.filter((r) => r !== "none")).toEqual(["soft-trim"]);
    expect(wire[rounds.indexOf("soft-trim") + 1]?.toolResults.every((t) => t.state === "full")).toBe(true);
  });

  it("cost --json: OpenClaw's recorded usage call by call; the unpruned re-send after the round is the pruning's miss", () => {
    const dto: unknown = JSON.parse(cli(["cost", "--json", ...base]));
    const calls = isObject(dto) && Array.isArray(dto.calls) ? dto.calls.filter(isObject) : [];
    expect(calls.map((c) => [c.responseId, c.input, c.output, c.cacheRead, c.cacheWrite])).toEqual(
      wire.map((w) => [w.responseId, w.usage.input, w.usage.output, w.usage.cacheRead, w.usage.cacheWrite]),
    );
    const round = wire.findIndex((w) => w.toolResults.some((t) => t.state === "soft-trim"));
    // 27 s after the previous call a 5-minute Anthropic cache is still warm: the miss is the round's
    const own = calls[round];
    expect(own?.verdict).toBe("prefix-changed");
    expect(isObject(own?.evidence) ? own.evidence.cause : null).toBe("pruning-round");
    // a round is one request's in these releases: the next call re-sends the trimmed results in full
    const after = calls[round + 1];
    expect(after?.verdict).toBe("prefix-changed");
    expect(isObject(after?.evidence) ? after.evidence.cause : null).toBe("unpruned-after-round");
    expect(isObject(after?.cause) ? after.cause.cause : null).toBe("pruning");
  });
  it("the context as sent: every request's messages byte for byte (no runtime-context carrier before 2026.9.3)", () => {
    const session = openStateReader(stateDir).loadSession({
      agentId: "main",
      sessionId: String(first.sessionId),
    });
    if ("error" in session) throw new Error(session.error.message);
    const config = JSON.parse(fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8"));
    const replay = runReplay({ session, config, sha256Base64Url: sha256 });
    const input = { session, config, replay, env: { hostTimeZone: "UTC", otherSessions: [] } };
    const { calls, basis } = sentWireCalls(input, () => true, true);
    expect(calls.map((c) => [c.count.messages, sha256(JSON.stringify(c.messages))])).toEqual(
      wire.map((w) => [w.messages, w.bodySha256]),
    );
    expect(basis.notes.some((n) => n.includes("runtime-context carrier"))).toBe(false);
  });
});
