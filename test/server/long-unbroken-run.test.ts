// Issue 20, critical: "one text kills the server". A tool result holding an unbroken run of ≥ 8 M non-space chars (a
// minified bundle, a base64 blob) made the tokenizer's `text.matchAll(/\S{1001,}/g)` throw `RangeError: Maximum call
// stack size exceeded` inside a setImmediate with no handler: opening that session's map exited `serve`.

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installCrashGuard } from "../../server/shell/crash-guard.ts";
import { planText } from "../../server/tokens/text-plan.ts";
import { TokenCounter } from "../../server/tokens/tokenizer.ts";
import { startServer } from "../e2e/harness.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const RUN = 8_500_000;

/** The old definition (a quantified RegExp), kept as the oracle for inputs small enough for it. */
function planByRegExp(text: string, max: number): { pieces: string[]; estimatedChars: number } {
  const pieces: string[] = [];
  let estimatedChars = 0;
  let last = 0;
  for (const m of text.matchAll(new RegExp(`\\S{${max + 1},}`, "g"))) {
    const at = m.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    estimatedChars += m[0].length;
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return { pieces, estimatedChars };
}

describe("long unbroken runs (tokenizer planning)", () => {
  it(`planText of a ${RUN.toLocaleString("en-US")}-char unbroken run does not throw and estimates it`, () => {
    const text = `head ${"A".repeat(RUN)} tail`;
    const plan = planText(text);
    expect(plan.estimatedChars).toBe(RUN);
    expect(plan.estimatedTokens).toBe(Math.ceil(RUN / 4));
    expect(plan.pieces).toEqual(["head ", " tail"]);
  });

  it("planText splits exactly where the old RegExp did (every JS whitespace, runs at the edges)", () => {
    const alphabet = ["a", "b", " ", "\n", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u2028", "é", "😀"];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 300; i++) {
      const max = 1 + Math.floor(rnd() * 6);
      let text = "";
      const len = Math.floor(rnd() * 60);
      for (let j = 0; j < len; j++) {
        // long non-space stretches are likelier than spaces, so runs over `max` occur often
        text += rnd() < 0.75 ? "x" : (alphabet[Math.floor(rnd() * alphabet.length)] ?? "x");
      }
      const got = planText(text, max);
      const want = planByRegExp(text, max);
      expect({ pieces: got.pieces, estimatedChars: got.estimatedChars }).toEqual(want);
    }
  });

  it("a background text that cannot be read back fails quietly (asked again later), never thrown", async () => {
    const counter = new TokenCounter({ mode: "inline" });
    const boom = () => {
      throw new Error("disk gone");
    };
    const first = counter.requestCounts([
      { id: "bad", key: "bad-text", load: boom },
      { id: "good", text: "hello world" },
    ]);
    expect(first.pending).toBe(2);
    await counter.idle();
    const again = counter.requestCounts([
      { id: "bad", key: "bad-text", load: boom },
      { id: "good", text: "hello world" },
    ]);
    expect(again.counts.get("good")).toBeGreaterThan(0);
    // not counted, not pending forever: the job failed and is asked again (a transient read error may pass)
    expect(again.counts.has("bad")).toBe(false);
    await counter.idle();
    await counter.close();
  });
});

describe("serve survives", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("opening the map of a session with an 8.5 M-char tool result leaves the server up", async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), "clawscope-long-run-"));
    dirs.push(stateDir);
    const b = new TranscriptBuilder();
    b.user("read the bundle");
    b.assistant({
      content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "bundle.js" } }],
      stopReason: "toolUse",
    });
    b.toolResult("call_1", "read", "A".repeat(RUN));
    b.assistant({ text: "done" });
    const sessionId = "0a1b2c3d-0000-4000-8000-000000000001";
    b.writeJsonlStateDir(stateDir, { sessionId });
    const server = await startServer(["--state-dir", stateDir]);
    try {
      const map = await fetch(`${server.url}api/sessions/main/${sessionId}/map`);
      expect(map.status).toBe(200);
      // The background count runs after the response; poll the map until it is no longer pending.
      let state = "pending";
      for (let i = 0; i < 200 && state === "pending"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const body = await (await fetch(`${server.url}api/sessions/main/${sessionId}/map`)).json();
        state = body.tokenizer.state;
      }
      expect(state).toBe("ready");
      expect((await fetch(`${server.url}api/state`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  });

  it("an uncaught error in background work is logged, not fatal (crash guard of serve)", () => {
    const handlers = new Map<string, (e: unknown) => void>();
    const logged: string[] = [];
    installCrashGuard({
      on: (event, h) => {
        handlers.set(event, h);
      },
      log: (line) => logged.push(line),
    });
    handlers.get("uncaughtException")?.(new RangeError("Maximum call stack size exceeded"));
    handlers.get("unhandledRejection")?.(new Error("lost promise"));
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain("Maximum call stack size exceeded");
    expect(logged[0]).toContain("kept running");
    expect(logged[1]).toContain("lost promise");
  });
});
