// The settings of one agent as OpenClaw reads them from `openclaw.json` — the one place the config's
// agent and model blocks are looked up (spec storage.md §1, cache-and-cost.md §2.1 and §7, pruning.md §1.1,
// §1.3). Rules that need a setting take it from here; none digs the config itself. Pure.

import { arr, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../../shared/json.ts";
import type { PriceTier, PricingOverrides } from "../../../shared/pricing.ts";
import { hasChangeFrom } from "../../../shared/release-order.ts";
import type { VersionInfo } from "../../model/session.ts";
import { durationFromJson } from "../duration.ts";

export type ConfigFamily = VersionInfo["family"];

const VALID_AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/**
 * OpenClaw's normalizeAgentId (packages/normalization-core/src/agent-id.ts, 2026.9.6; same rule in 2026.3.2
 * and 2026.7.1): trimmed and lower-cased; other characters become `-`, leading/trailing dashes go, at most 64
 * characters; an empty result is the default agent `main`.
 */
export function normalizeAgentId(id: string): string {
  const trimmed = id.trim();
  const lower = trimmed.toLowerCase();
  if (VALID_AGENT_ID.test(trimmed)) return lower;
  const cleaned = lower
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+/, "")
    .replace(/-+$/, "")
    .slice(0, 64);
  return cleaned || "main";
}

/**
 * The agent's own block. 2026.9.x: `agents.entries.<id>` whenever the config has `agents.entries` — the keyed
 * roster then owns the agents and the legacy `agents.list` is not read (src/agents/agent-roster.ts
 * readAgentRosterProperty); without it, the legacy `agents.list[]`. ≤ 2026.7.1: only `agents.list[]` (its
 * listAgentEntries). Ids match after normalizeAgentId, first match wins.
 */
export function agentBlock(
  config: JsonObject | null,
  agentId: string,
  family: ConfigFamily,
): { block: JsonObject; path: string } | null {
  const agents = obj(config, "agents");
  const id = normalizeAgentId(agentId);
  if (family === "2026.9" && agents?.entries !== undefined) {
    const entries = obj(agents, "entries");
    for (const key of Object.keys(entries ?? {})) {
      const block = obj(entries, key);
      if (block && normalizeAgentId(key) === id) return { block, path: `agents.entries.${key}` };
    }
    return null;
  }
  const list = arr(agents, "list") ?? [];
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    if (isObject(a) && normalizeAgentId(str(a, "id") ?? "") === id)
      return { block: a, path: `agents.list[${i}]` };
  }
  return null;
}

function defaultsOf(config: JsonObject | null): JsonObject | undefined {
  return obj(obj(config, "agents"), "defaults");
}

/** `agents.defaults.contextTokens`: the context-window cap every agent gets (pruning.md §1.3). */
export function defaultsContextTokens(config: JsonObject | null): number | undefined {
  return num(defaultsOf(config), "contextTokens");
}

// ---- contextPruning (pruning.md §1.1, cache-and-cost.md §7) ----

/** Manual `mode: "cache-ttl"` without a `ttl` prunes after 5 minutes (cache-and-cost.md §7). */
export const DEFAULT_PRUNING_TTL_MS = 5 * 60_000;

/** `agents.defaults.contextPruning`: every release reads only the defaults block (pruning.md §1.1). */
export function contextPruningBlock(config: JsonObject | null): JsonObject | null {
  return obj(defaultsOf(config), "contextPruning") ?? null;
}

/** The configured pruning mode and, for `cache-ttl`, its TTL (5 min when unset; null when unparseable). */
export function configuredPruning(config: JsonObject | null): { mode: string | null; ttlMs: number | null } {
  const block = contextPruningBlock(config);
  const mode = str(block, "mode") ?? null;
  if (mode !== "cache-ttl") return { mode, ttlMs: null };
  return { mode, ttlMs: block?.ttl === undefined ? DEFAULT_PRUNING_TTL_MS : durationFromJson(block.ttl) };
}

// ---- heartbeat.every (cache-and-cost.md §7) ----

export interface HeartbeatEvery {
  /** The raw configured value; undefined = not set anywhere. */
  value: JsonValue | undefined;
  /** Parsed (OpenClaw duration, bare numbers = minutes); null = unset or unparseable. */
  ms: number | null;
  /** Config path it came from. */
  source: string;
}

/** `heartbeat.every`: the agent's own block wins over `agents.defaults`. */
export function heartbeatEvery(
  config: JsonObject | null,
  agentId: string,
  family: ConfigFamily,
): HeartbeatEvery {
  const agent = agentBlock(config, agentId, family);
  const own = agent ? obj(agent.block, "heartbeat")?.every : undefined;
  if (agent && own !== undefined)
    return { value: own, ms: durationFromJson(own), source: `${agent.path}.heartbeat.every` };
  const value = obj(defaultsOf(config), "heartbeat")?.every;
  return { value, ms: durationFromJson(value), source: "agents.defaults.heartbeat.every" };
}

// ---- cacheRetention (cache-and-cost.md §2.1) ----

export type CacheRetention = "none" | "short" | "long";

function retentionOf(params: JsonObject | undefined): { value: CacheRetention; key: string } | null {
  if (!params) return null;
  const r = str(params, "cacheRetention");
  if (r === "none" || r === "short" || r === "long") return { value: r, key: "cacheRetention" };
  const legacy = str(params, "cacheControlTtl");
  if (legacy === "5m") return { value: "short", key: "cacheControlTtl" };
  if (legacy === "1h") return { value: "long", key: "cacheControlTtl" };
  return null;
}

/**
 * Whether a release reads the per-agent `models["provider/model"].params` layer: `resolveModelExtraParamSources`
 * has `agentModelParams` from 2026.9.3 (dist 9.3 – 9.6; 9.2 and 7.1's `resolveExtraParams` merge only the defaults,
 * the defaults' model entry and the agent's own `params`). A release that is not recorded counts as the newest.
 */
export function readsAgentModelParams(release: { family: ConfigFamily; appVersion: string | null }): boolean {
  return release.family === "2026.9" && hasChangeFrom(release.appVersion, [2026, 9, 3]);
}

/**
 * Effective `cacheRetention` (§2.1): merge order, later wins: `agents.defaults.params` →
 * `agents.defaults.models["provider/model"].params` → per-agent model params (2026.9.3+) → per-agent `params`.
 * Unset on direct `anthropic` / `anthropic-vertex` → `short`. Elsewhere unset → null (unknown).
 */
export function resolveCacheRetention(
  config: JsonObject | null,
  agentId: string,
  provider: string | null,
  model: string | null,
  release: { family: ConfigFamily; appVersion: string | null },
): { value: CacheRetention | null; source: string } {
  const family = release.family;
  const defaults = defaultsOf(config);
  const key = provider && model ? `${provider}/${model}` : null;
  const layers: { params: JsonObject | undefined; path: string }[] = [
    { params: obj(defaults, "params"), path: "agents.defaults.params" },
  ];
  if (key) {
    layers.push({
      params: obj(obj(obj(defaults, "models"), key), "params"),
      path: `agents.defaults.models["${key}"].params`,
    });
  }
  const agent = agentBlock(config, agentId, family);
  if (agent) {
    if (key && readsAgentModelParams(release)) {
      layers.push({
        params: obj(obj(obj(agent.block, "models"), key), "params"),
        path: `${agent.path}.models["${key}"].params`,
      });
    }
    layers.push({ params: obj(agent.block, "params"), path: `${agent.path}.params` });
  }
  let found: { value: CacheRetention; source: string } | null = null;
  for (const l of layers) {
    const r = retentionOf(l.params);
    if (r) found = { value: r.value, source: `config ${l.path}.${r.key}` };
  }
  if (found) return found;
  if (provider === "anthropic" || provider === "anthropic-vertex") {
    return { value: "short", source: `unset → short on direct ${provider} (OpenClaw default, spec §2.1)` };
  }
  return { value: null, source: "unset (provider default unknown; 5-minute lifetime assumed)" };
}

// ---- models.providers (pruning.md §1.2–§1.3) ----

/**
 * `models.providers.<provider>`: provider ids compare lower-cased, as OpenClaw's normalizeProviderId
 * (packages/model-catalog-core/src/provider-id.ts findNormalizedProviderValue, 2026.9.6): the first key that
 * matches.
 */
export function providerBlock(config: JsonObject | null, provider: string | null): JsonObject | null {
  if (!provider) return null;
  const providers = obj(obj(config, "models"), "providers");
  if (!providers) return null;
  const wanted = provider.toLowerCase();
  const key = Object.keys(providers).find((k) => k.toLowerCase() === wanted);
  const p = key === undefined ? undefined : providers[key];
  return isObject(p) ? p : null;
}

/** `models.providers[provider].models[id == modelId]`, or null. */
export function configuredModel(
  config: JsonObject | null,
  provider: string | null,
  modelId: string | null,
): JsonObject | null {
  if (!modelId) return null;
  for (const m of arr(providerBlock(config, provider), "models") ?? []) {
    if (isObject(m) && m.id === modelId) return m;
  }
  return null;
}

/**
 * OpenClaw 9.x `tieredPricing` of a cost object (docs/openclaw-facts.md §6.2 `normalizeTieredPricing`): a tier needs all
 * four finite rates and a finite `range[0]`; a missing, non-finite or not-greater `range[1]` is open-ended.
 */
function tiersOf(cost: JsonObject): PriceTier[] | undefined {
  const raw = arr(cost, "tieredPricing");
  if (!raw) return undefined;
  const tiers: PriceTier[] = [];
  for (const t of raw) {
    if (!isObject(t)) continue;
    const range = arr(t, "range");
    const start = typeof range?.[0] === "number" ? range[0] : undefined;
    const endRaw = range?.[1];
    const [input, output, cacheRead, cacheWrite] = (
      ["input", "output", "cacheRead", "cacheWrite"] as const
    ).map((k) => num(t, k));
    if (start === undefined || !Number.isFinite(start)) continue;
    if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined)
      continue;
    const end = typeof endRaw === "number" && Number.isFinite(endRaw) && endRaw > start ? endRaw : null;
    tiers.push({ start, end, input, output, cacheRead, cacheWrite });
  }
  return tiers.length > 0 ? tiers.sort((a, b) => a.start - b.start) : undefined;
}

/**
 * Explicit `models.providers.<p>.models[].cost` prices (cache-and-cost.md §4), keyed `provider/model` as the price
 * table looks them up. The agent's `models.json` has the same shape under `providers` (docs/openclaw-facts.md §6.3): pass
 * `{ models: <models.json> }` and its label.
 */
export function configuredPricing(
  config: JsonObject | null,
  label = "config models.providers",
): PricingOverrides {
  const out: PricingOverrides = {};
  const providers = obj(obj(config, "models"), "providers");
  for (const [provider, pv] of Object.entries(providers ?? {})) {
    for (const mv of (isObject(pv) ? arr(pv, "models") : undefined) ?? []) {
      if (!isObject(mv)) continue;
      const id = str(mv, "id");
      const cost = obj(mv, "cost");
      if (!id || !cost) continue;
      const entry: PricingOverrides[string] = { source: `${label}.${provider}.models[${id}].cost` };
      for (const k of ["input", "output", "cacheRead", "cacheWrite"] as const) {
        const v = num(cost, k);
        if (v !== undefined) entry[k] = v;
      }
      const tiers = tiersOf(cost);
      if (tiers) entry.tieredPricing = tiers;
      out[`${provider}/${id}`] = entry;
    }
  }
  return out;
}
