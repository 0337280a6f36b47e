// Prices (issue 14 §3): the price library's rates, the precedence of price sources, the price-list parsers, the
// cache facts, and that the library loads only when a price is needed. Rates asserted here are the library's own
// rows (genai-prices 0.1.8) and the spec's formula (cache-and-cost.md §4; docs/openclaw-facts.md §6).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIBRARY_VERSION, libraryPrice } from "../../server/pricing/library.ts";
import { PriceTable } from "../../server/pricing/price-table.ts";
import { buildCostReport } from "../../server/reports/cost/cost-report.ts";
import { formatEditorPrices, parseEditorPrices } from "../../shared/price-editor.ts";
import {
  costOf,
  minCacheableTokens,
  normalizeModelId,
  parsePricingOverrides,
  type ResolvedPrice,
} from "../../shared/pricing.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const ROOT = path.resolve(__dirname, "../..");
const MARCH = Date.UTC(2026, 2, 5, 12, 0, 0);

function price(p: string, m: string, at = MARCH): ResolvedPrice {
  const r = libraryPrice(p, m, at).price;
  if (!r) throw new Error(`no library price for ${p}/${m}`);
  return r;
}

describe("price library (genai-prices)", () => {
  it("is the pinned version", () => {
    const pkg: unknown = JSON.parse(
      readFileSync(path.join(ROOT, "node_modules/@pydantic/genai-prices/package.json"), "utf8"),
    );
    expect(typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : null).toBe(
      LIBRARY_VERSION,
    );
    const ours: unknown = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const deps =
      typeof ours === "object" && ours !== null && "dependencies" in ours ? ours.dependencies : null;
    expect(deps).toMatchObject({ "@pydantic/genai-prices": LIBRARY_VERSION });
  });

  it("Anthropic rates with the 1-hour rate and the long-context tier (above 200,000 prompt tokens)", () => {
    const p = price("anthropic", "claude-sonnet-4-5-20250929");
    expect(p.rates).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(p.origin).toBe("library");
    expect(p.source).toContain("genai-prices 0.1.8: anthropic/claude-sonnet-4-5");
    expect(p.oneHourWrite).toMatchObject({ multiplier: 2, estimate: false });
    // The library's rule: a tier applies when the prompt is ABOVE its start.
    const at200k = { input: 150_000, output: 1_000, cacheRead: 40_000, cacheWrite: 10_000, cacheWrite1h: 0 };
    expect(costOf(at200k, p)).toBeCloseTo(
      (150_000 * 3 + 1_000 * 15 + 40_000 * 0.3 + 10_000 * 3.75) / 1e6,
      12,
    );
    const above = { ...at200k, input: 150_001 };
    expect(costOf(above, p)).toBeCloseTo(
      (150_001 * 6 + 1_000 * 22.5 + 40_000 * 0.6 + 10_000 * 7.5) / 1e6,
      12,
    );
    // 1-hour writes at 2 × input of the tier: docs/openclaw-facts.md §6.6's first case, total 0.063.
    const w1h = { input: 1_000, output: 500, cacheRead: 20_000, cacheWrite: 10_000, cacheWrite1h: 4_000 };
    expect(costOf(w1h, p)).toBeCloseTo(0.063, 12);
  });

  it("Bedrock: the library's provider match (aws), no 1-hour rate → the estimated multiplier, labelled", () => {
    const p = price("amazon-bedrock", "us.anthropic.claude-opus-4-6-v1");
    expect(p.rates).toEqual({ input: 5.5, output: 27.5, cacheRead: 0.55, cacheWrite: 6.875 });
    expect(p.source).toContain("aws/");
    expect(p.oneHourWrite.estimate).toBe(true);
    expect(p.oneHourWrite.source).toMatch(/^ESTIMATE/);
  });

  it("never prices an unknown provider by model id alone: a suggestion only", () => {
    const proxy = libraryPrice("cli-proxy", "claude-opus-4-6-thinking", MARCH);
    expect(proxy.price).toBeNull();
    expect(proxy.suggestion).toMatch(/^anthropic\//);
    const custom = libraryPrice("custom-customb2", "glm-5-turbo", MARCH);
    expect(custom.price).toBeNull();
    expect(custom.suggestion).toMatch(/glm-5-turbo/i);
    expect(libraryPrice("anthropic", "claude-mock-1", MARCH)).toEqual({ price: null, suggestion: null });
    expect(libraryPrice("ollama", "qwen3:8b", MARCH).price).toBeNull();
  });

  it("OpenClaw provider aliases, and dated prices looked up at the call's time", () => {
    expect(price("minimax-portal", "MiniMax-M2.5").source).toContain("minimax/");
    // DeepSeek's time-of-day prices (research deps.md §1): peak 00:30–16:30 UTC, half price off-peak.
    const peak = price("deepseek", "deepseek-chat", Date.UTC(2026, 2, 5, 12, 0));
    const off = price("deepseek", "deepseek-chat", Date.UTC(2026, 2, 5, 20, 0));
    expect(peak.rates.input).toBeGreaterThan(off.rates.input);
    // No write surcharge in the row: writes (never reported by DeepSeek) would bill as input.
    expect(peak.rates.cacheWrite).toBe(peak.rates.input);
  });
});

describe("price precedence (issue 14 §3)", () => {
  const config = {
    models: {
      providers: {
        anthropic: {
          models: [
            { id: "claude-sonnet-4-5", cost: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 } },
          ],
        },
        ollama: { models: [{ id: "qwen3:8b", cost: { output: 1 } }] },
      },
    },
  };
  const modelsJson = {
    providers: {
      anthropic: {
        models: [
          { id: "claude-haiku-4-5", cost: { input: 0.5, output: 4, cacheRead: 0.05, cacheWrite: 0.6 } },
        ],
      },
      openai: { models: [{ id: "gpt-5.1-codex", cost: { output: 9 } }] },
    },
  };
  const table = (file?: Record<string, { input?: number }>, editor = "") =>
    new PriceTable({
      config,
      ...(file ? { file } : {}),
      modelsJson: (agent) => (agent === "ops" ? modelsJson : null),
      editor: parseEditorPrices(editor).prices,
    });

  it("file > config > models.json > library > editor; partial prices inherit the library's rates", () => {
    const t = table();
    expect(t.priceFor("main", "anthropic", "claude-sonnet-4-5", MARCH).price?.origin).toBe("config");
    expect(t.priceFor("main", "anthropic", "claude-sonnet-4-5", MARCH).price?.source).toBe(
      "config models.providers.anthropic.models[claude-sonnet-4-5].cost",
    );
    expect(t.priceFor("main", "anthropic", "claude-haiku-4-5", MARCH).price?.origin).toBe("library");
    expect(t.priceFor("ops", "anthropic", "claude-haiku-4-5", MARCH).price).toMatchObject({
      origin: "models-json",
      rates: { input: 0.5, output: 4, cacheRead: 0.05, cacheWrite: 0.6 },
    });
    // models.json sets only `output`: the library fills the rest, and says so.
    const codex = t.priceFor("ops", "openai", "gpt-5.1-codex", MARCH).price;
    expect(codex?.rates).toMatchObject({ input: 1.25, output: 9, cacheRead: 0.125 });
    expect(codex?.source).toContain("missing rates from genai-prices");
    // A partial price with nothing to inherit from is no price.
    expect(t.priceFor("main", "ollama", "qwen3:8b", MARCH).price).toBeNull();
    const f = table({ "anthropic/claude-sonnet-4-5": { input: 9 } });
    expect(f.priceFor("main", "anthropic", "claude-sonnet-4-5", MARCH).price).toMatchObject({
      origin: "pricing-file",
      rates: { input: 9, output: 15 },
    });
  });

  it("the editor prices only what nothing else prices", () => {
    const t = table(undefined, "anthropic/claude-sonnet-4-5=1,1,1,1;ollama/qwen3:8b=0.1,0.2,0,0");
    expect(t.priceFor("main", "anthropic", "claude-sonnet-4-5", MARCH).price?.origin).toBe("config");
    expect(t.priceFor("main", "ollama", "qwen3:8b", MARCH).price).toMatchObject({
      origin: "editor",
      rates: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
    });
  });

  it("recorded cost first; all-zero recorded cost on non-zero usage is OpenClaw's 'no price'; unpriced ≠ $0", () => {
    const b = new TranscriptBuilder();
    b.user("a");
    b.assistant({ usage: { input: 10, cacheWrite: 2_000, cost: 0.0123 } });
    b.tick(1000).user("b");
    b.assistant({ usage: { input: 10, cacheRead: 2_000, cacheWrite: 10, cost: 0 } });
    b.tick(1000).user("c");
    b.assistant({ usage: { input: 10, cacheRead: 2_010, cost: 0, totalOrigin: "provider-billed" } });
    b.tick(1000).user("d");
    b.assistant({ usage: { input: 10 }, provider: "cli-proxy", model: "claude-opus-4-6-thinking" });
    const r = buildCostReport({ session: b.session(), config: null });
    expect(r.calls.map((c) => [c.costSource, c.priceOrigin])).toEqual([
      ["recorded", "recorded"],
      ["pricing-table", "library"],
      ["provider-billed", "recorded"],
      ["unpriced", null],
    ]);
    expect(r.calls[2]?.costUsd).toBe(0);
    expect(r.calls[3]?.costUsd).toBeNull();
    expect(r.calls[3]?.priceSource).toMatch(/suggested: anthropic\/.* \(not applied: unknown provider\)/);
    expect(r.totals.unpricedCalls).toBe(1);
  });
});

describe("price lists", () => {
  it("--pricing file entries: rates, tiers, located errors", () => {
    const { prices, errors } = parsePricingOverrides(
      {
        "anthropic/claude-mock-1": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
        "x/tiered": {
          input: 1,
          tieredPricing: [
            { start: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 },
            { start: 0, end: 200_000, input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
          ],
        },
        "bad/negative": { input: -1 },
        "bad/field": { inptu: 1 },
        "bad/shape": 3,
      },
      "prices.json5",
    );
    expect(Object.keys(prices)).toEqual(["anthropic/claude-mock-1", "x/tiered"]);
    expect(prices["x/tiered"]?.tieredPricing?.map((t) => [t.start, t.end])).toEqual([
      [0, 200_000],
      [200_000, null],
    ]);
    expect(errors).toEqual([
      'prices.json5: "bad/negative": input: not a number ≥ 0',
      'prices.json5: "bad/field": unknown field inptu',
      'prices.json5: "bad/shape": expected an object of rates',
    ]);
    expect(parsePricingOverrides([], "f").errors).toHaveLength(1);
  });

  it("the editor's URL form round-trips and skips bad parts", () => {
    const text = "anthropic/claude-mock-1=3,15,0.3,3.75;ollama/qwen3:8b=0.1,0.2,0,0";
    const { prices, errors } = parseEditorPrices(text);
    expect(errors).toEqual([]);
    expect(formatEditorPrices(prices)).toBe(text);
    expect(parseEditorPrices("a/b=1,2,3;c/d=x,1,1,1;e/f=1,1,1,1").errors).toHaveLength(2);
    expect(Object.keys(parseEditorPrices("a/b=1,2,3;c/d=x,1,1,1;e/f=1,1,1,1").prices)).toEqual(["e/f"]);
    expect(parseEditorPrices("x".repeat(5000)).errors[0]).toMatch(/longer than/);
  });
});

describe("cache facts (shared/cache-facts.ts)", () => {
  it("model ids normalise; minimum cacheable prompt per model, Sonnet 4.6 as a documented bracket", () => {
    expect(normalizeModelId("us.anthropic.claude-haiku-4-5-20251001-v1:0")).toBe("claude-haiku-4-5");
    expect(normalizeModelId("us.anthropic.claude-opus-4-6-v1")).toBe("claude-opus-4-6");
    expect(minCacheableTokens("anthropic-messages", "claude-opus-4-6")?.tokens).toBe(4096);
    expect(minCacheableTokens("bedrock-converse-stream", "us.anthropic.claude-sonnet-4-6")).toMatchObject({
      tokens: 1024,
      upperTokens: 2048,
      assumed: false,
    });
    expect(minCacheableTokens("anthropic-messages", "claude-opus-5")?.assumed).toBe(true);
    expect(minCacheableTokens("openai-responses", "gpt-5.2")?.tokens).toBe(1024);
    expect(minCacheableTokens("openai-completions", null)?.tokens).toBe(1024);
    expect(minCacheableTokens("ollama", "qwen3:8b")).toBeNull();
  });
});

describe("lazy load", () => {
  it("the price library is loaded by the first price lookup, not by the service or a /context command", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawscope-lazy-"));
    const b = new TranscriptBuilder();
    b.user("hi");
    b.assistant({ usage: { input: 10, cacheWrite: 2_000 } });
    b.writeJsonlStateDir(dir);
    const script = `
      const { createRequire } = await import("node:module");
      const { createSessionService } = await import("./server/service/session-service.ts");
      const svc = createSessionService({ stateDir: ${JSON.stringify(dir)}, demo: false, reason: "test" });
      const ref = svc.resolveRef("agent:main:main");
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("genai-prices"));
      svc.contextText(ref.agentId, ref.sessionId, "list");
      const before = loaded();
      svc.cost(ref.agentId, ref.sessionId);
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({ before: false, after: true });
  });
});
