// Background tokenizer (server/tokens): counts equal js-tiktoken's own, are cached by content hash, never run
// js-tiktoken on long unbroken runs (base64), and report progress — in the worker and in the inline fallback.

import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { afterAll, describe, expect, it } from "vitest";
import { LruCache, textKey } from "../../server/tokens/token-cache.ts";
import {
  type BatchEvent,
  countPlanned,
  createTokenCounter,
  planText,
} from "../../server/tokens/tokenizer.ts";

const reference = new Tiktoken(cl100k);
const direct = (text: string) => reference.encode(text, [], []).length;

const TEXTS = [
  "Hello, world! This is a short sentence.",
  "function add(a, b) {\n  return a + b;\n}\n",
  "Ünïcödé — 字字字 and emoji 😀 mixed in.",
  "<|endoftext|> special-token text is counted as plain text",
  "line\n".repeat(500),
];

describe("planText / countPlanned", () => {
  it("leaves normal text whole", () => {
    expect(planText("a b c")).toEqual({ pieces: ["a b c"], estimatedChars: 0, estimatedTokens: 0 });
  });

  it("cuts runs longer than maxRunChars out and estimates them as ceil(chars/4)", () => {
    const run = "A".repeat(1001);
    const plan = planText(`head ${run} tail`, 1000);
    expect(plan.pieces).toEqual(["head ", " tail"]);
    expect(plan.estimatedChars).toBe(1001);
    expect(plan.estimatedTokens).toBe(251);
    expect(planText("B".repeat(1000), 1000).estimatedChars).toBe(0); // exactly the limit is tokenised
    expect(countPlanned(reference, plan).tokens).toBe(direct("head ") + direct(" tail") + 251);
  });
});

describe("LruCache", () => {
  it("evicts the least recently used entry", () => {
    const c = new LruCache<string, number>(2);
    c.set("a", 1);
    c.set("b", 2);
    expect(c.get("a")).toBe(1); // a is now the most recent
    c.set("c", 3);
    expect(c.has("b")).toBe(false);
    expect(c.has("a")).toBe(true);
    expect(c.size).toBe(2);
  });

  it("keys texts by SHA-1", () => {
    expect(textKey("abc")).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
  });
});

for (const mode of ["worker", "inline"] as const) {
  describe(`TokenCounter (${mode})`, () => {
    const counter = createTokenCounter({ mode });
    afterAll(() => counter.close());

    it("counts off the caller's stack, equal to js-tiktoken, then serves them from the cache", async () => {
      const items = TEXTS.map((text, i) => ({ id: `t${i}`, text }));
      const events: BatchEvent[] = [];
      const off = counter.onBatch((e) => events.push(e));
      const first = counter.requestCounts(items);
      expect(first.counts.size).toBe(0);
      expect(first.pending).toBe(items.length);
      expect(counter.progress().state).toBe("working");
      await counter.idle();
      off();
      expect(events.length).toBeGreaterThan(0);
      expect(events.at(-1)?.done).toBe(items.length);
      expect(counter.progress()).toMatchObject({ state: "idle", done: items.length, total: items.length });
      const second = counter.requestCounts(items);
      expect(second.pending).toBe(0);
      for (const [i, t] of TEXTS.entries()) expect(second.counts.get(`t${i}`)).toBe(direct(t));
    });

    it("reads a lazy text (not kept in memory) back only in the background, cached under its key", async () => {
      let loads = 0;
      const text = TEXTS[1] ?? "";
      const item = {
        id: "lazy",
        key: "file#1:2@100+40",
        load: () => {
          loads++;
          return text;
        },
      };
      const first = counter.requestCounts([item]);
      expect(first.pending).toBe(1);
      expect(loads).toBe(0);
      await counter.idle();
      expect(loads).toBe(1);
      const again = counter.requestCounts([{ ...item, id: "lazy2" }]);
      expect(again.counts.get("lazy2")).toBe(direct(text));
      expect(loads).toBe(1);
    });

    it("a lazy text that cannot be read back is not cached: it is asked for again", async () => {
      const item = { id: "gone", key: "file#9:9@0+10", load: () => null };
      expect(counter.requestCounts([item]).pending).toBe(1);
      await counter.idle();
      const again = counter.requestCounts([item]);
      expect(again.counts.has("gone")).toBe(false);
      expect(again.pending).toBe(1);
      await counter.idle();
    });

    it("deduplicates equal texts under different ids", async () => {
      const text = "the same text under two ids";
      const r = counter.requestCounts([
        { id: "x", text },
        { id: "y", text },
      ]);
      expect(r.pending).toBe(2);
      expect(counter.progress().total).toBe(1);
      await counter.idle();
      const again = counter.requestCounts([
        { id: "x", text },
        { id: "y", text },
      ]);
      expect(again.counts.get("x")).toBe(direct(text));
      expect(again.counts.get("y")).toBe(direct(text));
    });

    it("a long run of letters (js-tiktoken's quadratic case) is estimated, a re-request while in flight is not re-queued", async () => {
      const text = `start ${"abcdefghij".repeat(3000)} stop`;
      counter.requestCounts([{ id: "run", text }]);
      const again = counter.requestCounts([{ id: "run2", text }]);
      expect(again.pending).toBe(1);
      expect(counter.progress().total).toBe(1);
      await counter.idle();
      const r = counter.requestCounts([{ id: "run", text }]);
      expect(r.counts.get("run")).toBe(direct("start ") + direct(" stop") + Math.ceil(30_000 / 4));
      expect(r.estimatedChars.get("run")).toBe(30_000);
    });

    it("never tokenises a long base64 run: chars/4, labelled, and fast", async () => {
      const b64 = Buffer.from(Array.from({ length: 60_000 }, (_, i) => (i * 131) % 256)).toString("base64");
      const text = `image: ${b64} end`;
      const t0 = performance.now();
      counter.requestCounts([{ id: "img", text }]);
      await counter.idle();
      // Tokenising an 80,000-char run would take minutes (quadratic BPE); the estimate takes milliseconds.
      expect(performance.now() - t0).toBeLessThan(10_000);
      const r = counter.requestCounts([{ id: "img", text }]);
      expect(r.estimatedChars.get("img")).toBe(b64.length);
      expect(r.counts.get("img")).toBe(direct("image: ") + direct(" end") + Math.ceil(b64.length / 4));
    });
  });
}
