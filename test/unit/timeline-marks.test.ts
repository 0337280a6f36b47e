// The pruning timeline's marks (issue 15): compactions and resets on the active branch placed before the call
// that follows them (server reports/prune-replay/timeline-marks.ts), expired-gap costs joined to the calls by
// entry id, and where the app and the export draw them (shared/timeline-scales.ts eventX, labelledGaps).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runReplay } from "../../server/reports/prune-replay/replay-run.ts";
import { RunMarks } from "../../server/reports/prune-replay/run-marks.ts";
import { timelineMarks } from "../../server/reports/prune-replay/timeline-marks.ts";
import { isObject } from "../../shared/json.ts";
import type { PruneCallDTO } from "../../shared/prune.ts";
import { eventX, labelledGaps } from "../../shared/timeline-scales.ts";
import { loadedSession, sessionFromJsonl, TranscriptBuilder } from "../helpers/transcript.ts";

function session() {
  const b = new TranscriptBuilder();
  const u1 = b.user("one");
  b.tick(1000).assistant({ text: "a1" });
  b.tick(1000).add({ type: "compaction", summary: "s", firstKeptEntryId: u1, tokensBefore: 100 });
  b.tick(1000).user("two");
  b.tick(1000).assistant({ text: "a2" });
  b.tick(1000).add({ type: "reset", reason: "new" });
  b.tick(1000).user("three");
  b.tick(1000).assistant({ text: "a3" });
  b.tick(1000).add({ type: "compaction", summary: "s2", tokensBefore: 10 });
  const t = b.transcript();
  const calls = t.activeBranch
    .filter((i) => {
      const m = t.entries[i]?.raw.message;
      return isObject(m) && m.role === "assistant";
    })
    .map((i) => ({ entryIndex: i, entryId: t.entries[i]?.id ?? null }));
  return { t, calls };
}

describe("timelineMarks", () => {
  const { t, calls } = session();
  const gap = { gapMs: 400_000, cacheTtlMs: 300_000, rewrittenTokens: 1234, premiumUsd: 0.0042 };
  const marks = timelineMarks(t, calls, [
    { callEntryId: calls[1]?.entryId ?? null, ...gap },
    { callEntryId: "not-a-call-of-this-replay", ...gap },
  ]);

  it("places each compaction / reset before the call after it (calls.length after the last)", () => {
    expect(calls).toHaveLength(3);
    expect(marks.events.map((e) => [e.kind, e.beforeCall])).toEqual([
      ["compaction", 1],
      ["reset", 2],
      ["compaction", 3],
    ]);
    expect(marks.events[0]?.at).toBe(Date.UTC(2026, 10, 30, 0, 0, 2));
  });

  it("joins the cost report's gap costs to the calls by entry id; others are left out", () => {
    expect(marks.gaps).toEqual([{ call: 1, ...gap }]);
  });
});

describe("the marks a replay run keeps as it goes (run-marks.ts) = timelineMarks of its calls", () => {
  const gap = { gapMs: 400_000, cacheTtlMs: 300_000, rewrittenTokens: 1, premiumUsd: null };

  it("on the builder session: events and gaps", () => {
    const { t, calls } = session();
    const replay = runReplay({
      session: loadedSession(t, { family: "2026.7" }),
      config: null,
      sha256Base64Url: (x) => x,
    });
    const gaps = calls.map((c) => ({ callEntryId: c.entryId, ...gap }));
    expect(replay.timelineMarks(gaps)).toEqual(timelineMarks(t, replay.calls, gaps));
    expect(replay.timelineMarks(gaps).events).toHaveLength(3);
  });

  it("an entry id on two calls: a snapshot taken before the second keeps its own index", () => {
    const marks = new RunMarks();
    const fed: Pick<PruneCallDTO, "entryId" | "round" | "charsRemoved">[] = [];
    const feed = (entryId: string, round: PruneCallDTO["round"] = "none") => {
      const c = { entryId, round, charsRemoved: 7 };
      marks.call(c);
      fed.push(c);
    };
    feed("a");
    feed("b", "soft-trim");
    const before = marks.snapshot(fed.slice());
    feed("a");
    const after = marks.snapshot(fed.slice());
    const gaps = [{ callEntryId: "a", ...gap }];
    // the later snapshot asked first indexes every call; the earlier one still finds its own call
    expect(after.timeline(gaps).gaps.map((g) => g.call)).toEqual([2]);
    expect(before.timeline(gaps).gaps.map((g) => g.call)).toEqual([0]);
    expect(before.rounds).toEqual([{ entryId: "b", charsRemoved: 7 }]);
  });
});

describe("eventX / labelledGaps", () => {
  const xOf = (i: number) => 100 + i * 20;

  it("draws an event half-way between its calls, or just outside the first / last", () => {
    expect(eventX(xOf, 1, 3)).toBe(110);
    expect(eventX(xOf, 0, 3)).toBe(94);
    expect(eventX(xOf, 3, 3)).toBe(146);
  });

  it("labels gaps in call order, each at least `spacing` px after the previous label", () => {
    expect([...labelledGaps([{ call: 4 }, { call: 0 }, { call: 1 }, { call: 3 }], xOf, 44)]).toEqual([0, 3]);
    expect([...labelledGaps([{ call: 0 }, { call: 1 }], xOf, 20)]).toEqual([0, 1]);
  });
});

describe("timelineMarks on a real 2026.9.6 capture (test/fixtures/w1-images-reset-retries)", () => {
  it("finds its in-place /new reset between the calls around it", () => {
    const dir = path.resolve(__dirname, "../fixtures/w1-images-reset-retries");
    const id = "3b51b887-219c-4b9d-9254-2888d529b806";
    const text = gunzipSync(readFileSync(path.join(dir, "transcripts", "main", `${id}.jsonl.gz`))).toString(
      "utf8",
    );
    const session = sessionFromJsonl(text, {
      family: "2026.9",
      sessionId: id,
      sessionKey: "agent:main:main",
    });
    const config = JSON.parse(readFileSync(path.join(dir, "openclaw.json"), "utf8"));
    const sha = (s: string) => createHash("sha256").update(s).digest("base64url");
    const calls = runReplay({ session, config, sha256Base64Url: sha }).summary().calls;
    const marks = timelineMarks(session.transcript, calls, []);
    expect(marks.events.map((e) => e.kind)).toEqual(["reset"]);
    const e = marks.events[0];
    if (!e || e.at === null) throw new Error("no reset time");
    expect(e.beforeCall).toBeGreaterThan(0);
    expect(e.beforeCall).toBeLessThan(calls.length);
    expect(calls[e.beforeCall - 1]?.timestamp ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(e.at);
    expect(calls[e.beforeCall]?.timestamp ?? 0).toBeGreaterThanOrEqual(e.at);
  });
});
