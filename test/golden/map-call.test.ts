// `map --session REF --call all|N --json` against the recorded requests (issue 16), end to end through the same
// service the CLI and the HTTP API use (the fixture's state dir read in place — its openclaw.json, its sessions
// store, the host zone injected as the capture's UTC): every agent call's `sent.messages` equals calls.json
// `messages`, `sent.messageChars` equals `messageChars` except the named residual (within max(300, 2 %)), and
// `--call N` agrees with `--call all`. The full captures live in ../shared/fixtures (skipped, visibly, without).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import { isObject } from "../../shared/json.ts";

const SHARED_FIXTURES = path.resolve(__dirname, "../../../shared/fixtures");
const present = existsSync(SHARED_FIXTURES)
  ? readdirSync(SHARED_FIXTURES).filter((d) => existsSync(path.join(SHARED_FIXTURES, d, "calls.json")))
  : [];
if (present.length === 0) {
  describe("map --call golden", () => {
    it.skip(`${SHARED_FIXTURES} is absent`, () => {});
  });
}

/** Residuals of wire-format.md §8 (R1: j1's live-capped read), by fixture: request seqs. */
const RESIDUALS: Record<string, number[]> = { "j1-jsonl-cache-ttl-default": [2] };

interface AgentCall {
  seq: number;
  messages: number;
  messageChars: number;
}

function agentCalls(dir: string): AgentCall[] {
  const rows: unknown = JSON.parse(readFileSync(path.join(dir, "calls.json"), "utf8"));
  if (!Array.isArray(rows)) throw new Error("calls.json is not a list");
  return rows.flatMap((r) =>
    isObject(r) &&
    r.kind === "agent" &&
    typeof r.seq === "number" &&
    typeof r.messages === "number" &&
    typeof r.messageChars === "number"
      ? [{ seq: r.seq, messages: r.messages, messageChars: r.messageChars }]
      : [],
  );
}

describe.each(present)("map --call against %s/calls.json", (name) => {
  const dir = path.join(SHARED_FIXTURES, name);
  const service = createSessionService({
    stateDir: path.join(dir, "state"),
    demo: false,
    reason: "test",
    hostTimeZone: "UTC",
  });
  // the capture's one live session (s5's `openclaw agent --local` runs under agent:main:explicit:s5-local)
  const live = service.listSessions().sessions.filter((s) => s.archived === null);
  const ref = live.length === 1 && live[0] ? live[0] : null;

  it("every agent call: messages equal, messageChars equal but for the named residual", () => {
    if (!ref) throw new Error("not one live session");
    const all = service.sentCalls(ref.agentId, ref.sessionId);
    if (!all.ok) throw new Error(all.error.message);
    const recorded = agentCalls(dir);
    const bySeq = new Map(recorded.map((c) => [c.seq, c]));
    const residual = new Set(RESIDUALS[name] ?? []);
    let exact = 0;
    let paired = 0;
    for (const c of all.value.calls) {
      const seq = Number(/^msg_mock_(\d+)$/.exec(c.responseId ?? "")?.[1]);
      const r = bySeq.get(seq);
      if (!r) continue;
      paired++;
      expect(c.sent.messages, `call ${c.call} (seq ${seq})`).toBe(r.messages);
      if (residual.has(seq)) {
        expect(Math.abs(c.sent.messageChars - r.messageChars)).toBeLessThanOrEqual(
          Math.max(300, 0.02 * r.messageChars),
        );
        expect(c.estimated.length, `seq ${seq} is flagged estimated`).toBeGreaterThan(0);
      } else {
        expect(c.sent.messageChars, `call ${c.call} (seq ${seq}) messageChars`).toBe(r.messageChars);
        exact++;
      }
    }
    // every recorded agent request with a response is a numbered call of the session
    expect(paired).toBe(recorded.length);
    expect(exact).toBe(recorded.length - residual.size);
  });

  it("--call N is the same call as row N of --call all", () => {
    if (!ref) throw new Error("not one live session");
    const all = service.sentCalls(ref.agentId, ref.sessionId);
    if (!all.ok) throw new Error(all.error.message);
    for (const n of [1, Math.ceil(all.value.calls.length / 2), all.value.calls.length]) {
      const one = service.sentAtCall(ref.agentId, ref.sessionId, n);
      if (!one.ok) throw new Error(one.error.message);
      const row = all.value.calls[n - 1];
      expect({ call: one.value.call, sent: one.value.sent, usage: one.value.usage }).toEqual({
        call: row?.call,
        sent: row?.sent,
        usage: row?.usage,
      });
      expect(one.value.tiles.length).toBeGreaterThan(0);
    }
  });
});
