// Per-call and per-session cost + prompt-cache report (spec cache-and-cost.md §4–§7, transcript.md §4, §8).
// Pure: a LoadedSession (+ config, pricing overrides, optional pruning rounds from the replay) in, DTO out.
//
// Totals sum over ALL assistant messages of the transcript (every branch — each one was billed), excluding
// transcript-only assistants (gateway-injected replies, delivery mirrors); `activeBranchTotals` is what the
// context displays describe (cache-and-cost.md §4 "Rules for clawscope").

import type {
  CostAllDTO,
  CostCallDTO,
  CostReportDTO,
  CostSource,
  CostTotalsDTO,
  CostTotalsRowDTO,
  CounterfactualDTO,
  GapCostDTO,
  HeartbeatInfo,
  PruningRoundCostDTO,
  WriteTierInfo,
} from "../../shared/cost.ts";
import { arr, isObject, type JsonObject, num, obj, str } from "../../shared/json.ts";
import {
  costOf,
  minCacheableTokens,
  type PriceRates,
  type PricingOverrides,
  priceFor,
  type ResolvedPrice,
  type UsageBuckets,
} from "../../shared/pricing.ts";
import { type ModelCall, modelCallsOf } from "../model/model-calls.ts";
import type { LoadedSession, Transcript, TranscriptEntry } from "../model/session.ts";
import { indexById } from "../model/tree.ts";
import {
  type CacheTtl,
  type CallVerdict,
  cacheTtlForRetention,
  classifyCacheCalls,
  formatMs,
  observeCacheTtl,
} from "../openclaw/cache/verdict.ts";
import {
  type CacheRetention,
  configuredPruning,
  heartbeatEvery,
  resolveCacheRetention,
} from "../openclaw/config/agent-settings.ts";
import {
  HEARTBEAT_EVERY_UNSET,
  HEARTBEAT_SIGNALS,
  HeartbeatDetector,
  heartbeatCadenceFlags,
  isCronSessionKey,
} from "../openclaw/heartbeat.ts";

export interface PruningRoundInput {
  /** Entry id of the assistant message (model call) whose request the round changed. */
  entryId: string;
  charsRemoved: number;
}

export interface CostReportInput {
  session: LoadedSession;
  config: JsonObject | null;
  pricing?: PricingOverrides;
  /** Rounds from the pruning replay (pruning.md §5): as run when pruning is on, predicted when it is off. */
  pruningRounds?: PruningRoundInput[];
  /** Cache lifetime override (ms). The fixtures' mock uses the scenario's pruning ttl (fixtures.md §1). */
  cacheTtlMs?: number;
  /** Counterfactual: bootstrap files trimmed by this many chars. */
  bootstrapTrimChars?: number;
}

/** ESTIMATE used to turn removed chars into tokens (labelled wherever it is used). */
const CHARS_PER_TOKEN = 4;

/** Explicit `models.providers.<p>.models[].cost` prices from config (spec §4 precedence, below agent models.json). */
export function configPricing(config: JsonObject | null): PricingOverrides {
  const out: PricingOverrides = {};
  const providers = obj(obj(config, "models"), "providers");
  if (!providers) return out;
  for (const [provider, pv] of Object.entries(providers)) {
    if (!isObject(pv)) continue;
    const models = arr(pv, "models") ?? [];
    for (const mv of models) {
      if (!isObject(mv)) continue;
      const id = str(mv, "id");
      const cost = obj(mv, "cost");
      if (!id || !cost) continue;
      const entry: PricingOverrides[string] = {
        source: `config models.providers.${provider}.models[${id}].cost`,
      };
      for (const k of ["input", "output", "cacheRead", "cacheWrite"] as const) {
        const v = num(cost, k);
        if (v !== undefined) entry[k] = v;
      }
      out[`${provider}/${id}`] = entry;
    }
  }
  return out;
}

function emptyTotals(): CostTotalsDTO {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    costUsd: 0,
    hitRate: null,
    calls: 0,
    unpricedCalls: 0,
    cacheWrite1h: 0,
    writeAwareHitRate: null,
    transcriptOnlyExcluded: 0,
  };
}

/** cacheRead / (input + cacheRead + cacheWrite) — the issue's hit rate. */
export function readHitRate(b: Pick<UsageBuckets, "input" | "cacheRead" | "cacheWrite">): number | null {
  const p = b.input + b.cacheRead + b.cacheWrite;
  return p > 0 ? b.cacheRead / p : null;
}

/**
 * Spec write-aware hit rate `(1 − r)/0.9`, `r = (input + 0.1·read + 1.25·write5m + 2·write1h) / P`
 * (cache-and-cost.md §5, Anthropic multipliers).
 */
export function writeAwareHitRate(
  b: Pick<UsageBuckets, "input" | "cacheRead" | "cacheWrite" | "cacheWrite1h">,
): number | null {
  const p = b.input + b.cacheRead + b.cacheWrite;
  if (p <= 0) return null;
  const w1h = Math.min(b.cacheWrite1h, b.cacheWrite);
  const r = (b.input + 0.1 * b.cacheRead + 1.25 * (b.cacheWrite - w1h) + 2 * w1h) / p;
  return (1 - r) / 0.9;
}

/** Sum buckets first, then apply the rates (never average per-call percentages, §5). */
export function sumTotals(calls: CostCallDTO[], transcriptOnlyExcluded: number): CostTotalsDTO {
  const t = emptyTotals();
  for (const c of calls) {
    t.input += c.input;
    t.output += c.output;
    t.cacheRead += c.cacheRead;
    t.cacheWrite += c.cacheWrite;
    t.cacheWrite1h += c.writeTier.cacheWrite1h;
    t.calls++;
    if (c.costUsd === null) t.unpricedCalls++;
    else t.costUsd += c.costUsd;
  }
  t.hitRate = readHitRate(t);
  t.writeAwareHitRate = writeAwareHitRate(t);
  t.transcriptOnlyExcluded = transcriptOnlyExcluded;
  return t;
}

function writeTierOf(call: ModelCall, retention: CacheRetention | null): WriteTierInfo {
  if (call.usage.cacheWrite === 0)
    return { tier: "none", cacheWrite1h: 0, source: call.usage.cacheWrite1h !== null ? "usage" : "default" };
  if (call.usage.cacheWrite1h !== null) {
    const w = Math.min(call.usage.cacheWrite1h, call.usage.cacheWrite);
    return {
      tier: w === 0 ? "5m" : w === call.usage.cacheWrite ? "1h" : "mixed",
      cacheWrite1h: w,
      source: "usage",
    };
  }
  if (retention === "long") return { tier: "1h", cacheWrite1h: call.usage.cacheWrite, source: "config" };
  if (retention === "short") return { tier: "5m", cacheWrite1h: 0, source: "config" };
  return { tier: "5m", cacheWrite1h: 0, source: "default" };
}

function buckets(c: ModelCall, w1h: number): UsageBuckets {
  return {
    input: c.usage.input,
    output: c.usage.output,
    cacheRead: c.usage.cacheRead,
    cacheWrite: c.usage.cacheWrite,
    cacheWrite1h: w1h,
  };
}

/** Write price for a call's tier (1 h = 2 × input, spec §1/§4). */
function writeRate(rates: PriceRates, tier: WriteTierInfo): number {
  return tier.tier === "1h" ? 2 * rates.input : rates.cacheWrite;
}

/**
 * byId per entry list (transcripts are replaced, not mutated, when a file grows; the length check guards
 * against an in-place append anyway): what-if and re-renders of one session index it once.
 */
const byIdCache = new WeakMap<readonly TranscriptEntry[], { length: number; byId: Map<string, number> }>();

function entriesById(transcript: Transcript, location: string): Map<string, number> {
  const hit = byIdCache.get(transcript.entries);
  if (hit && hit.length === transcript.entries.length) return hit.byId;
  const byId = indexById(transcript.entries, location).byId;
  byIdCache.set(transcript.entries, { length: transcript.entries.length, byId });
  return byId;
}

function mostUsedModel(calls: readonly ModelCall[]): { provider: string | null; model: string | null } {
  const counts = new Map<string, { provider: string | null; model: string | null; n: number }>();
  for (const c of calls) {
    const k = `${c.provider}/${c.model}`;
    const v = counts.get(k) ?? { provider: c.provider, model: c.model, n: 0 };
    v.n++;
    counts.set(k, v);
  }
  let best: { provider: string | null; model: string | null; n: number } | null = null;
  for (const v of counts.values()) if (!best || v.n > best.n) best = v;
  return best ?? { provider: null, model: null };
}

/** Heartbeat totals and the cadence flags (spec cache-and-cost.md §7; rules in openclaw/heartbeat.ts). */
function heartbeatInfo(
  config: JsonObject | null,
  session: LoadedSession,
  cacheTtlMs: number | null,
  heartbeatCalls: CostCallDTO[],
  gapCosts: GapCostDTO[],
  mainProvider: string | null,
): HeartbeatInfo {
  const rewrites = gapCosts.filter((g) => heartbeatCalls.some((c) => c.entryId === g.callEntryId));
  const every = heartbeatEvery(config, session.summary.agentId, session.version.family);
  const pruning = configuredPruning(config);
  return {
    cronSession: isCronSessionKey(session.summary.sessionKey),
    heartbeatCalls: heartbeatCalls.length,
    heartbeatCostUsd: heartbeatCalls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    heartbeatRewrites: rewrites.length,
    heartbeatRewritePremiumUsd: rewrites.reduce((sum, g) => sum + (g.premiumUsd ?? 0), 0),
    signals: [...HEARTBEAT_SIGNALS],
    heartbeatEveryMs: every.ms,
    heartbeatEverySource: every.value === undefined ? HEARTBEAT_EVERY_UNSET : every.source,
    cacheTtlMs,
    pruningMode: pruning.mode,
    pruningTtlMs: pruning.ttlMs,
    flags: heartbeatCadenceFlags({ every, cacheTtlMs, pruning, mainProvider }),
  };
}

interface PricedCall {
  row: ModelCall;
  dto: CostCallDTO;
  price: ResolvedPrice | null;
  verdict: CallVerdict;
}

/** Scenario cost: as-run cost + (cost of the changed buckets − cost of the actual buckets) at table rates. */
function scenarioCost(priced: PricedCall[], change: (p: PricedCall) => UsageBuckets | null): number {
  let total = 0;
  for (const p of priced) {
    const asRun = p.dto.costUsd ?? 0;
    const changed = p.price ? change(p) : null;
    if (!p.price || !changed) {
      total += asRun;
      continue;
    }
    total += asRun + costOf(changed, p.price) - costOf(buckets(p.row, p.dto.writeTier.cacheWrite1h), p.price);
  }
  return total;
}

function removeFromFront(b: UsageBuckets, tokens: number): UsageBuckets {
  // The bootstrap sits in the stable system block at the start of the prompt (§2.2): it leaves the read
  // part first, then the written part, then the uncached input.
  let t = tokens;
  const read = Math.min(b.cacheRead, t);
  t -= read;
  const write = Math.min(b.cacheWrite, t);
  t -= write;
  const input = Math.min(b.input, t);
  const w1h = Math.min(b.cacheWrite1h, b.cacheWrite - write);
  return {
    ...b,
    cacheRead: b.cacheRead - read,
    cacheWrite: b.cacheWrite - write,
    input: b.input - input,
    cacheWrite1h: w1h,
  };
}

/** The cost + cache report of one session. */
export function buildCostReport(input: CostReportInput): CostReportDTO {
  const { session, config } = input;
  const transcript = session.transcript;
  const agentId = session.summary.agentId;
  const decoded = modelCallsOf(transcript);
  const rows = decoded.billed;
  const transcriptOnly = decoded.excludedCount;
  const overrides: PricingOverrides = { ...configPricing(config), ...(input.pricing ?? {}) };
  const notes: string[] = [];

  const retentionCache = new Map<string, { value: CacheRetention | null; source: string }>();
  const retentionFor = (c: ModelCall): { value: CacheRetention | null; source: string } => {
    const k = `${c.provider}/${c.model}`;
    let r = retentionCache.get(k);
    if (!r) {
      r = resolveCacheRetention(config, agentId, c.provider, c.model, session.version.family);
      retentionCache.set(k, r);
    }
    return r;
  };
  const configuredTtl = (c: ModelCall, previous: ModelCall): CacheTtl => {
    // The prefix `previous` cached lives as long as the tier it was written/refreshed with.
    if (previous.usage.cacheWrite1h !== null && previous.usage.cacheWrite1h > 0) {
      return { ms: 3_600_000, source: "usage cacheWrite1h" };
    }
    const r = retentionFor(c);
    return cacheTtlForRetention(r.value, r.source);
  };
  const observed =
    input.cacheTtlMs === undefined ? observeCacheTtl(transcript, rows, (c) => configuredTtl(c, c).ms) : null;
  const observedSource = observed
    ? `observed in this session: ${observed.maxHitGapMs !== null ? `prefix still read after gaps ≤ ${formatMs(observed.maxHitGapMs)}, ` : "no hit at all, "}nothing read after gaps ≥ ${formatMs(observed.minFullMissGapMs)} (${observed.fullMisses} full misses) — shorter than the configured lifetime`
    : "";
  if (observed) notes.push(`cache TTL ${observedSource}`);
  const ttlFor = (c: ModelCall, previous: ModelCall): CacheTtl => {
    if (input.cacheTtlMs !== undefined) return { ms: input.cacheTtlMs, source: "override" };
    if (observed) return { ms: observed.ttlMs, source: observedSource };
    return configuredTtl(c, previous);
  };
  const roundIds = new Set((input.pruningRounds ?? []).map((r) => r.entryId));
  const verdicts = classifyCacheCalls({
    transcript,
    calls: rows,
    ttlFor,
    minCacheableFor: (c) => minCacheableTokens(c.api, c.model)?.tokens ?? null,
    pruningRoundCallIds: roundIds,
    family: session.version.family,
  });

  const heartbeats = new HeartbeatDetector(transcript, entriesById(transcript, session.summary.location));
  const priced: PricedCall[] = [];
  let prevStart: number | null = null;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const v = verdicts[i];
    if (!row || !v) continue;
    const retention = retentionFor(row).value;
    const tier = writeTierOf(row, retention);
    const price = priceFor(row.provider, row.model, overrides);
    const b = buckets(row, tier.cacheWrite1h);
    const computed = price ? costOf(b, price) : null;
    const tokens = row.usage.input + row.usage.output + row.usage.cacheRead + row.usage.cacheWrite;
    let costUsd: number | null;
    let costSource: CostSource;
    let priceSource: string | null;
    if (row.recordedCost !== null && row.recordedCost > 0) {
      costUsd = row.recordedCost;
      costSource = row.providerBilled ? "provider-billed" : "recorded";
      priceSource = row.providerBilled ? "usage.cost.total (provider-billed)" : "usage.cost.total";
    } else if (tokens === 0) {
      costUsd = row.recordedCost ?? 0;
      costSource = "recorded";
      priceSource = "no tokens";
    } else if (price && computed !== null) {
      costUsd = computed;
      costSource = "pricing-table";
      priceSource = price.source;
    } else {
      costUsd = null;
      costSource = "unpriced";
      priceSource =
        row.recordedCost === 0
          ? `recorded cost 0 and no price known for ${row.provider ?? "?"}/${row.model ?? "?"}`
          : `no recorded cost and no price known for ${row.provider ?? "?"}/${row.model ?? "?"}`;
    }
    // ≤ 2026.3 priced every write at the 5-minute rate; with `long` retention show the 1 h correction (§4).
    const oneHourWriteCorrectionUsd =
      session.version.family === "2026.3" &&
      retention === "long" &&
      price &&
      row.recordedCost !== null &&
      row.recordedCost > 0
        ? (row.usage.cacheWrite * (2 * price.rates.input - price.rates.cacheWrite)) / 1e6
        : null;
    // Miss deficit priced as what was paid instead of a read (§5): re-written tokens at the write rate, or —
    // for providers without a write counter — uncached input. Capped by what the call actually paid for.
    const deficit = v.evidence.missDeficit ?? 0;
    let missCostUsd: number | null = v.verdict === "hit" ? 0 : null;
    if (v.verdict !== "hit" && price && deficit > 0) {
      missCostUsd = v.evidence.writeCounterMissing
        ? (Math.min(deficit, row.usage.input) * (price.rates.input - price.rates.cacheRead)) / 1e6
        : (Math.min(deficit, row.usage.cacheWrite) * (writeRate(price.rates, tier) - price.rates.cacheRead)) /
          1e6;
    }
    const heartbeatSignals = heartbeats.signalsOf(row.entryIndex);
    const dto: CostCallDTO = {
      entryId: row.entryId,
      responseId: row.responseId,
      timestamp: row.atMs !== null ? new Date(row.atMs).toISOString() : null,
      provider: row.provider,
      model: row.model,
      input: row.usage.input,
      output: row.usage.output,
      cacheRead: row.usage.cacheRead,
      cacheWrite: row.usage.cacheWrite,
      costUsd,
      costSource,
      hitRate: readHitRate(row.usage),
      verdict: v.verdict,
      gapMs: prevStart !== null && row.atMs !== null ? row.atMs - prevStart : null,
      entryIndex: row.entryIndex,
      onActiveBranch: row.onActiveBranch,
      api: row.api,
      stopReason: row.stopReason,
      promptTokens: row.promptTokens,
      writeAwareHitRate: writeAwareHitRate(b),
      writeTier: tier,
      priceSource,
      recordedCostUsd: row.recordedCost,
      computedCostUsd: computed,
      oneHourWriteCorrectionUsd,
      evidence: v.evidence,
      missCostUsd,
      heartbeat: heartbeatSignals.length > 0,
      heartbeatSignals,
    };
    if (row.atMs !== null) prevStart = row.atMs;
    priced.push({ row, dto, price, verdict: v });
  }
  const callDtos = priced.map((p) => p.dto);
  const totals = sumTotals(callDtos, transcriptOnly);
  const activeBranchTotals = sumTotals(
    callDtos.filter((c) => c.onActiveBranch),
    transcriptOnly,
  );
  if (totals.unpricedCalls > 0) {
    notes.push(
      `${totals.unpricedCalls} call(s) have no recorded cost and no known price: costUsd excludes them`,
    );
  }

  // ---- expired gaps ----
  const gapCosts: GapCostDTO[] = [];
  for (const p of priced) {
    if (p.verdict.verdict !== "ttl-expired") continue;
    const ev = p.verdict.evidence;
    const tokens = Math.min(ev.missDeficit ?? 0, p.row.usage.cacheWrite);
    gapCosts.push({
      callEntryId: p.row.entryId,
      gapMs: ev.lineageGapMs ?? 0,
      cacheTtlMs: ev.cacheTtlMs ?? 0,
      rewrittenTokens: tokens,
      premiumUsd: p.price
        ? (tokens * (writeRate(p.price.rates, p.dto.writeTier) - p.price.rates.cacheRead)) / 1e6
        : null,
    });
  }

  // ---- pruning rounds: rewrite paid vs chars saved ----
  const charsById = new Map((input.pruningRounds ?? []).map((r) => [r.entryId, r.charsRemoved]));
  const roundCalls = priced.filter(
    (p) =>
      (p.row.entryId !== null && charsById.has(p.row.entryId)) || p.verdict.signals.includes("pruning-round"),
  );
  const pruningRounds: PruningRoundCostDTO[] = [];
  const positionOf = new Map(priced.map((p, i) => [p, i]));
  const affected = (k: PricedCall): PricedCall[] => {
    // Later calls of the same lineage until the history is rewritten anyway (compaction / reset) or,
    // ≤ 2026.7, only the round's own call (rounds there apply to one request, pruning.md §1.8).
    const startIdx = positionOf.get(k) ?? -1;
    const out: PricedCall[] = [k];
    if (session.version.family !== "2026.9") return out;
    for (let j = startIdx + 1; j < priced.length; j++) {
      const p = priced[j];
      if (!p) continue;
      if (p.row.provider !== k.row.provider || p.row.model !== k.row.model) continue;
      if (p.verdict.signals.includes("compaction") || p.verdict.verdict === "cold-start") break;
      out.push(p);
    }
    return out;
  };
  for (const k of roundCalls) {
    const id = k.row.entryId ?? `#${k.row.entryIndex}`;
    const chars = k.row.entryId !== null ? (charsById.get(k.row.entryId) ?? null) : null;
    const expired = k.verdict.verdict === "ttl-expired";
    const rewriteTokens = expired ? 0 : Math.min(k.verdict.evidence.missDeficit ?? 0, k.row.usage.cacheWrite);
    const rates = k.price?.rates ?? null;
    const later = affected(k);
    const perCall = chars !== null ? Math.round(chars / CHARS_PER_TOKEN) : null;
    let saved: number | null = null;
    if (rates && perCall !== null) {
      saved = 0;
      for (const p of later) {
        const rate =
          p === k || p.verdict.verdict !== "hit" ? writeRate(rates, p.dto.writeTier) : rates.cacheRead;
        saved += (perCall * rate) / 1e6;
      }
    }
    pruningRounds.push({
      callEntryId: id,
      charsRemoved: chars,
      origin: chars !== null ? "input" : "snapshot",
      rewriteTokens,
      rewriteCostUsd: rates
        ? (rewriteTokens * (writeRate(rates, k.dto.writeTier) - rates.cacheRead)) / 1e6
        : null,
      estTokensSavedPerCall: perCall,
      laterCalls: later.length,
      estSavedUsd: saved,
      note: expired
        ? "the cache had expired anyway (TTL): the round adds no rewrite of its own"
        : "the round changed an early tool result: everything after it was re-written",
    });
  }

  // ---- counterfactuals ----
  const counterfactuals: CounterfactualDTO[] = [];
  const asRun = totals.costUsd;
  const cf = (
    id: CounterfactualDTO["id"],
    label: string,
    cost: number | null,
    assumptions: string[],
  ): void => {
    counterfactuals.push({
      id,
      label,
      costUsd: cost,
      deltaUsd: cost === null ? null : cost - asRun,
      assumptions,
    });
  };
  const pricedNote = `calls without a known price keep their as-run cost (${priced.filter((p) => !p.price).length} such call(s))`;
  cf("as-run", "As run", asRun, [
    "recorded usage.cost where meaningful, else the pricing table",
    ...(totals.unpricedCalls ? [`${totals.unpricedCalls} unpriced call(s) count as 0`] : []),
  ]);
  cf(
    "no-caching",
    "No prompt caching",
    scenarioCost(priced, (p) => ({
      input: p.row.promptTokens,
      output: p.row.usage.output,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
    })),
    ["every prompt token billed at the uncached input rate", "same calls, same prompts", pricedNote],
  );
  cf(
    "retention-1h",
    "1-hour cache retention",
    scenarioCost(priced, (p) => {
      const b = buckets(p.row, p.row.usage.cacheWrite);
      const ev = p.verdict.evidence;
      if (p.verdict.verdict === "ttl-expired" && ev.lineageGapMs !== null && ev.lineageGapMs <= 3_600_000) {
        const moved = Math.min(ev.missDeficit ?? 0, b.cacheWrite);
        return {
          ...b,
          cacheRead: b.cacheRead + moved,
          cacheWrite: b.cacheWrite - moved,
          cacheWrite1h: b.cacheWrite - moved,
        };
      }
      return b;
    }),
    [
      "every cache write priced at the 1-hour rate (2 × input)",
      "TTL-expired calls with a gap ≤ 1 h read the previous prefix instead of re-writing it",
      "pruning, heartbeats and prompts unchanged",
      pricedNote,
    ],
  );
  const pruningMode = configuredPruning(config).mode;
  const roundsWithChars = roundCalls.filter((k) => k.row.entryId !== null && charsById.has(k.row.entryId));
  if (roundCalls.length > 0 && pruningMode !== "off") {
    // Pruning was on: what if it had been off?
    const deltas = new Map<PricedCall, UsageBuckets>();
    const get = (p: PricedCall): UsageBuckets =>
      deltas.get(p) ?? buckets(p.row, p.dto.writeTier.cacheWrite1h);
    const is1h = (p: PricedCall): boolean => p.dto.writeTier.tier === "1h";
    for (const k of roundCalls) {
      const chars = k.row.entryId !== null ? charsById.get(k.row.entryId) : undefined;
      const t = chars === undefined ? 0 : Math.round(chars / CHARS_PER_TOKEN);
      const kb = get(k);
      if (k.verdict.verdict !== "ttl-expired") {
        // Unpruned, the round's call reads the previous prefix and writes only its new suffix.
        const cached = kb.cacheRead + kb.cacheWrite + t;
        const read = Math.min(k.verdict.evidence.expectedRead ?? kb.cacheRead, cached);
        const write = cached - read;
        deltas.set(k, { ...kb, cacheRead: read, cacheWrite: write, cacheWrite1h: is1h(k) ? write : 0 });
      } else {
        // The cache had expired anyway: the removed tokens would have been written too.
        deltas.set(k, {
          ...kb,
          cacheWrite: kb.cacheWrite + t,
          cacheWrite1h: is1h(k) ? kb.cacheWrite1h + t : kb.cacheWrite1h,
        });
      }
      if (t === 0) continue;
      for (const p of affected(k)) {
        if (p === k) continue;
        const b = get(p);
        deltas.set(
          p,
          p.verdict.verdict === "hit"
            ? { ...b, cacheRead: b.cacheRead + t }
            : {
                ...b,
                cacheWrite: b.cacheWrite + t,
                cacheWrite1h: is1h(p) ? b.cacheWrite1h + t : b.cacheWrite1h,
              },
        );
      }
    }
    cf(
      "pruning-off",
      "Pruning off",
      scenarioCost(priced, (p) => deltas.get(p) ?? null),
      [
        `${roundCalls.length} pruning round(s) undone; ${roundsWithChars.length} with a known size from the replay`,
        "a round that busted a warm cache would have read the previous prefix and written only its new suffix",
        `removed chars come back as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) on the round's call and every later call of the lineage until a compaction or reset: read on hits, written on misses`,
        "no compaction that the larger context might have triggered",
        pricedNote,
      ],
    );
  } else if (roundCalls.length > 0) {
    const deltas = new Map<PricedCall, UsageBuckets>();
    const get = (p: PricedCall): UsageBuckets =>
      deltas.get(p) ?? buckets(p.row, p.dto.writeTier.cacheWrite1h);
    for (const k of roundsWithChars) {
      const chars = k.row.entryId !== null ? (charsById.get(k.row.entryId) ?? 0) : 0;
      const t = Math.round(chars / CHARS_PER_TOKEN);
      const kb = get(k);
      if (k.verdict.verdict === "hit") {
        // Upper bound: the first pruned result's position is unknown, so what was read is re-written.
        deltas.set(k, { ...kb, cacheRead: 0, cacheWrite: kb.cacheWrite + kb.cacheRead });
      }
      for (const p of affected(k)) {
        const b = get(p);
        const fromRead = p !== k && p.verdict.verdict === "hit";
        deltas.set(
          p,
          fromRead
            ? { ...b, cacheRead: Math.max(0, b.cacheRead - t) }
            : {
                ...b,
                cacheWrite: Math.max(0, b.cacheWrite - t),
                cacheWrite1h: Math.min(b.cacheWrite1h, Math.max(0, b.cacheWrite - t)),
              },
        );
      }
    }
    cf(
      "pruning-on",
      "Pruning on (current settings)",
      scenarioCost(priced, (p) => deltas.get(p) ?? null),
      [
        `${roundsWithChars.length} round(s) predicted by the replay with the current settings`,
        "each round's call re-writes what it read (upper bound: the first pruned result's position is unknown)",
        `removed chars leave as chars / ${CHARS_PER_TOKEN} tokens (ESTIMATE) from that call and every later call of the lineage`,
        pricedNote,
      ],
    );
  }
  if (input.bootstrapTrimChars !== undefined && input.bootstrapTrimChars > 0) {
    const t = Math.round(input.bootstrapTrimChars / CHARS_PER_TOKEN);
    cf(
      "bootstrap-trimmed",
      `Bootstrap trimmed by ${input.bootstrapTrimChars} chars`,
      scenarioCost(priced, (p) => removeFromFront(buckets(p.row, p.dto.writeTier.cacheWrite1h), t)),
      [
        `${input.bootstrapTrimChars} chars ≈ ${t} tokens (chars / ${CHARS_PER_TOKEN}, ESTIMATE) less on every call`,
        "bootstrap files sit in the cached stable system block: the saving comes off the read part first, then the written part, then uncached input",
        "the trim itself would bust the cache once (not counted)",
        pricedNote,
      ],
    );
  }

  // ---- heartbeat ----
  const main = mostUsedModel(rows);
  const mainRetention = resolveCacheRetention(
    config,
    agentId,
    main.provider,
    main.model,
    session.version.family,
  );
  const ttl: CacheTtl =
    input.cacheTtlMs !== undefined
      ? { ms: input.cacheTtlMs, source: "override" }
      : observed
        ? { ms: observed.ttlMs, source: observedSource }
        : cacheTtlForRetention(mainRetention.value, mainRetention.source);
  const hbCalls = callDtos.filter((c) => c.heartbeat);
  const heartbeat = heartbeatInfo(config, session, ttl.ms, hbCalls, gapCosts, main.provider);

  return {
    calls: callDtos,
    totals,
    agentId,
    sessionId: session.summary.sessionId,
    sessionKey: session.summary.sessionKey,
    activeBranchTotals,
    retention: {
      value: mainRetention.value,
      source: mainRetention.source,
      cacheTtlMs: ttl.ms,
      ttlSource: ttl.source,
      observedTtl: observed,
    },
    gapCosts,
    pruningRounds,
    counterfactuals,
    heartbeat,
    notes,
  };
}

/** `cost --all --json`: one totals row per session (archived included) plus the grand total. */
export function buildCostTotals(
  sessions: LoadedSession[],
  options?: { config?: JsonObject | null; pricing?: PricingOverrides },
): CostAllDTO {
  const rows: CostTotalsRowDTO[] = [];
  const all: CostCallDTO[] = [];
  let transcriptOnly = 0;
  for (const session of sessions) {
    const report = buildCostReport({ session, config: options?.config ?? null, pricing: options?.pricing });
    all.push(...report.calls);
    transcriptOnly += report.totals.transcriptOnlyExcluded;
    rows.push({
      ...report.totals,
      agentId: session.summary.agentId,
      sessionId: session.summary.sessionId,
      sessionKey: session.summary.sessionKey,
      archived: session.summary.archived,
      cronSession: report.heartbeat.cronSession,
      heartbeatCalls: report.heartbeat.heartbeatCalls,
    });
  }
  return { sessions: rows, totals: sumTotals(all, transcriptOnly) };
}
