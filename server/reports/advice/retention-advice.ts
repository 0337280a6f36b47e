// The retention / heartbeat advisor (issue 14 §4), per agent, from the real idle gaps of its sessions: today's
// setting as run, `cacheRetention: "long"` (the cost report's 1-hour counterfactual: 1 h writes at 2 × input, gaps
// ≤ 1 h read instead of re-written), and a keep-warm heartbeat every N minutes (N just under the cache lifetime;
// its own calls priced: each reads the prefix and writes its prompt and reply). The cheapest one is recommended,
// with the config snippet; the numbers behind it are the evidence. Pure.

import { fmtDuration, fmtUsd } from "../../../shared/format.ts";
import type { AdviceDTO } from "../../../shared/overview.ts";
import { bootstrapAdvice } from "./bootstrap-advice.ts";
import { dmScopeAdvice } from "./dm-scope-advice.ts";
import {
  type GapFact,
  KEEP_WARM_OUTPUT_TOKENS,
  KEEP_WARM_SUFFIX_TOKENS,
  type SessionAdviceFacts,
} from "./session-facts.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Savings below this are noise, not a reason to change a setting. */
const WORTH_USD = 0.01;

/** The heartbeat interval that keeps a `ttlMs` cache warm: a minute under it (≥ 2 min), else 80 % of it. */
export function keepWarmEveryMs(ttlMs: number): number {
  return ttlMs >= 2 * MIN
    ? Math.floor((ttlMs - MIN) / MIN) * MIN
    : Math.max(1000, Math.floor((ttlMs * 0.8) / 1000) * 1000);
}

export interface KeepWarm {
  everyMs: number;
  heartbeats: number;
  heartbeatUsd: number;
  savedPremiumUsd: number;
  savingsUsd: number;
  /** Expired gaps whose miss premium pays for the heartbeats that would have covered them. */
  paysFor: number;
  expired: number;
}

/** Heartbeats every `everyMs` over every idle gap; each expired gap's re-write premium saved. */
export function keepWarmCost(gaps: readonly GapFact[], everyMs: number): KeepWarm {
  let heartbeats = 0;
  let heartbeatUsd = 0;
  let savedPremiumUsd = 0;
  let paysFor = 0;
  let expired = 0;
  for (const g of gaps) {
    if (g.keepWarmCallUsd === null) continue;
    const k = Math.floor(g.gapMs / everyMs);
    heartbeats += k;
    heartbeatUsd += k * g.keepWarmCallUsd;
    if (g.expired) {
      expired++;
      savedPremiumUsd += g.premiumUsd ?? 0;
      if ((g.premiumUsd ?? 0) > k * g.keepWarmCallUsd) paysFor++;
    }
  }
  return {
    everyMs,
    heartbeats,
    heartbeatUsd,
    savedPremiumUsd,
    savingsUsd: savedPremiumUsd - heartbeatUsd,
    paysFor,
    expired,
  };
}

/** Gaps against the 5 min and 1 h lifetimes: counts and how many of them found the cache expired. */
export function gapHistogram(gaps: readonly GapFact[]): { label: string; gaps: number; expired: number }[] {
  const bins = [
    { label: "< 5 min", lo: 0, hi: 5 * MIN, gaps: 0, expired: 0 },
    { label: "5 min – 1 h", lo: 5 * MIN, hi: HOUR, gaps: 0, expired: 0 },
    { label: "≥ 1 h", lo: HOUR, hi: Number.POSITIVE_INFINITY, gaps: 0, expired: 0 },
  ];
  for (const g of gaps) {
    const b = bins.find((x) => g.gapMs >= x.lo && g.gapMs < x.hi);
    if (!b) continue;
    b.gaps++;
    if (g.expired) b.expired++;
  }
  return bins.map(({ label, gaps, expired }) => ({ label, gaps, expired }));
}

/** Break-even gap of keep-warm for the median expired gap: heartbeats cost what its re-write premium does. */
function breakEvenMs(gaps: readonly GapFact[], everyMs: number): number | null {
  const ratios = gaps
    .filter((g) => g.expired && g.premiumUsd !== null && g.keepWarmCallUsd !== null && g.keepWarmCallUsd > 0)
    .map((g) => (g.premiumUsd ?? 0) / (g.keepWarmCallUsd ?? 1))
    .sort((a, b) => a - b);
  const mid = ratios[Math.floor(ratios.length / 2)];
  return mid === undefined ? null : mid * everyMs;
}

function mostCommon<T>(xs: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best: T | undefined;
  let n = 0;
  for (const [x, c] of counts) if (c > n) [best, n] = [x, c];
  return best;
}

function agentRetentionAdvice(agentId: string, sessions: readonly SessionAdviceFacts[]): AdviceDTO | null {
  const gaps = sessions.flatMap((s) => s.gaps);
  if (gaps.length === 0) return null;
  const ttlMs = mostCommon(
    sessions.flatMap((s) => (s.retention.cacheTtlMs !== null ? [s.retention.cacheTtlMs] : [])),
  );
  if (ttlMs === undefined) return null;
  const value = mostCommon(sessions.map((s) => s.retention.value)) ?? null;
  const source = sessions.find((s) => s.retention.value === value)?.retention.source ?? "";
  const current = `cacheRetention: ${value === null ? "unset" : `"${value}"`} (${source})`;
  const histogram = `${gaps.length} idle gaps in ${sessions.length} session(s): ${gapHistogram(gaps)
    .map((b) => `${b.gaps} ${b.label} (${b.expired} expired)`)
    .join(", ")}; cache lifetime used ${fmtDuration(ttlMs)}`;
  // Nothing priced: the options cannot be compared in $ (never as $0.00).
  if (!gaps.some((g) => g.keepWarmCallUsd !== null)) {
    return {
      kind: "cache-retention",
      agentId,
      current,
      recommended:
        'unpriced: price the model to compare today\'s setting, cacheRetention "long" and keep-warm',
      savingsUsd: null,
      evidence: [histogram],
    };
  }
  const asRun = sessions.reduce((a, s) => a + s.asRunUsd, 0);
  const long = sessions.reduce((a, s) => a + (s.retention1hUsd ?? s.asRunUsd), 0);
  const everyMs = keepWarmEveryMs(ttlMs);
  const kw = keepWarmCost(gaps, everyMs);
  const savingsLong = value === "long" ? 0 : asRun - long;
  const first = Math.min(...sessions.map((s) => s.firstMs ?? Number.POSITIVE_INFINITY));
  const last = Math.max(...sessions.map((s) => s.lastMs ?? Number.NEGATIVE_INFINITY));
  const period = Number.isFinite(first) && Number.isFinite(last) ? ` over ${fmtDuration(last - first)}` : "";
  const be = breakEvenMs(gaps, everyMs);
  const evidence = [
    histogram.replace(" session(s):", ` session(s)${period}:`),
    `today (${value ?? "unset"}): ${fmtUsd(asRun)} as run`,
    value === "long"
      ? `cacheRetention "long" is already on`
      : `cacheRetention "long": ${fmtUsd(long)} (1 h writes at 2 × input; expired gaps ≤ 1 h read instead of re-written)`,
    `keep-warm heartbeat every ${fmtDuration(everyMs)}: ${kw.heartbeats} heartbeat calls ${fmtUsd(kw.heartbeatUsd)} ` +
      `(ESTIMATE: each reads the prefix, writes ${KEEP_WARM_SUFFIX_TOKENS} and outputs ${KEEP_WARM_OUTPUT_TOKENS} tokens) ` +
      `against ${fmtUsd(kw.savedPremiumUsd)} of re-write premium on ${kw.expired} expired gaps → ${fmtUsd(asRun - kw.savingsUsd)}`,
    be === null
      ? "keep-warm break-even: no priced expired gap"
      : `keep-warm break-even: a gap of ≈ ${fmtDuration(be)} (median expired prefix); ${kw.paysFor} of ${kw.expired} expired gaps were shorter`,
  ];
  const options = [
    {
      savings: savingsLong,
      recommended: `cacheRetention: "long" — { agents: { defaults: { params: { cacheRetention: "long" } } } }`,
    },
    {
      savings: kw.savingsUsd,
      recommended: `keep-warm heartbeat every ${fmtDuration(everyMs)} — { agents: { defaults: { heartbeat: { every: "${configDuration(everyMs)}" } } } }`,
    },
  ].sort((a, b) => b.savings - a.savings);
  const best = options[0];
  const worth = best !== undefined && best.savings >= WORTH_USD;
  return {
    kind: "cache-retention",
    agentId,
    current,
    recommended:
      worth && best ? best.recommended : "keep today's setting: neither option would have saved money",
    savingsUsd: worth && best ? best.savings : 0,
    evidence,
  };
}

/** OpenClaw duration text for a heartbeat interval (`4m`, `45s`). */
/** A duration as OpenClaw config writes it ("5m", "90s"). */
function configDuration(ms: number): string {
  return ms % MIN === 0 ? `${ms / MIN}m` : `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** Pruning ttl outside the observed cache-lifetime bracket (the session flags say which way). */
function pruningTtlAdvice(agentId: string, sessions: readonly SessionAdviceFacts[]): AdviceDTO | null {
  const flagged = sessions.filter((s) => s.flags.some((f) => f.kind === "pruning-ttl-mismatch"));
  const first = flagged[0];
  if (!first) return null;
  const ttl = first.retention.cacheTtlMs;
  return {
    kind: "pruning-ttl",
    agentId,
    current: `contextPruning.ttl: "${first.pruning.ttlMs !== null ? configDuration(first.pruning.ttlMs) : "?"}"`,
    recommended:
      ttl !== null
        ? `match the cache lifetime — { agents: { defaults: { contextPruning: { ttl: "${configDuration(ttl)}" } } } }`
        : "match the pruning ttl to the cache lifetime",
    savingsUsd: null,
    evidence: [
      `${flagged.length} of ${sessions.length} session(s) flagged`,
      ...new Set(
        flagged.flatMap((s) =>
          s.flags.filter((f) => f.kind === "pruning-ttl-mismatch").map((f) => f.message),
        ),
      ),
    ],
  };
}

/** Every agent's advice, agents in name order. */
export function retentionAdvice(facts: readonly SessionAdviceFacts[]): AdviceDTO[] {
  const byAgent = new Map<string, SessionAdviceFacts[]>();
  for (const f of facts) byAgent.set(f.agentId, [...(byAgent.get(f.agentId) ?? []), f]);
  const out: AdviceDTO[] = [];
  for (const agentId of [...byAgent.keys()].sort()) {
    const sessions = byAgent.get(agentId) ?? [];
    const r = agentRetentionAdvice(agentId, sessions);
    if (r) out.push(r);
    const p = pruningTtlAdvice(agentId, sessions);
    if (p) out.push(p);
    const b = bootstrapAdvice(agentId, sessions);
    if (b) out.push(b);
    const d = dmScopeAdvice(agentId, sessions);
    if (d) out.push(d);
  }
  return out;
}
