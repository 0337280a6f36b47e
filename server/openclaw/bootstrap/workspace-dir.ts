// Where OpenClaw reads an agent's bootstrap files, and which caps it applies, from `openclaw.json` — spec
// storage.md §1 (workspaces) and bootstrap.md §2 (limit resolution). Used when a session has no stored run report
// to name its workspace and caps (cron runs, orphans, archives). Pure: the caller checks which directory exists.

import { type JsonObject, num, obj, str } from "../../../shared/json.ts";
import { agentBlock, normalizeAgentId } from "../config/agent-settings.ts";
import { type BootstrapLimits, DEFAULT_LIMITS, type RuleFamily } from "./files-and-limits.ts";
import { type ReleaseDefaultsLookup, releaseLimits } from "./release-defaults.ts";

export interface WorkspaceCandidate {
  dir: string;
  /** Where the path comes from, as shown to the user. */
  source: string;
}

function join(dir: string, name: string): string {
  return /[\\/]$/u.test(dir) ? `${dir}${name}` : `${dir}/${name}`;
}

/**
 * The agent's workspace as OpenClaw resolves it (storage.md §1), then the state dir's conventional workspaces as
 * fallbacks, in order and without duplicates: the agent's own `workspace`; `agents.defaults.workspace` (the
 * default agent `main`) or `<agents.defaults.workspace>/<agentId>` (any other agent); `<stateDir>/workspace`
 * (main) or `<stateDir>/workspace-<agentId>` (others); then the other of those two. A `~` path is returned as
 * written: service/truncation-input.ts expands it against the home dir the shell injects.
 */
export function workspaceCandidates(
  config: JsonObject | null,
  stateDir: string,
  agentId: string,
  family: RuleFamily,
): WorkspaceCandidate[] {
  const id = normalizeAgentId(agentId);
  const main = id === "main";
  const out: WorkspaceCandidate[] = [];
  const add = (dir: string | undefined, source: string) => {
    if (dir && !out.some((c) => c.dir === dir)) out.push({ dir, source });
  };
  const own = agentBlock(config, agentId, family);
  add(str(own?.block, "workspace"), `${own?.path ?? "agent"}.workspace`);
  const defaults = str(obj(obj(config, "agents"), "defaults"), "workspace");
  if (defaults) {
    add(
      main ? defaults : join(defaults, id),
      main ? "agents.defaults.workspace" : `agents.defaults.workspace/${id}`,
    );
  }
  const shared = { dir: join(stateDir, "workspace"), source: "<stateDir>/workspace" };
  const perAgent = { dir: join(stateDir, `workspace-${id}`), source: `<stateDir>/workspace-${id}` };
  for (const c of main ? [shared, perAgent] : [perAgent, shared]) add(c.dir, c.source);
  return out;
}

/** A limit counts only if it is a finite number > 0; it is floored (bootstrap.md §2). */
function limit(v: number | undefined): number | undefined {
  return v !== undefined && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

/**
 * The caps OpenClaw would apply to this agent (bootstrap.md §2): the agent's own value (2026.7.1 `agents.list[]`,
 * 2026.9.x `agents.entries.<id>`; 2026.3.2 reads none), then `agents.defaults.<key>`, then the default — of the
 * session's release when it is known (release-defaults.ts: 2026.5.18 is the first to read the agent's own value,
 * in `agents.list[]`), else of the family.
 */
export function configuredBootstrapLimits(
  config: JsonObject | null,
  agentId: string,
  family: RuleFamily,
  release: ReleaseDefaultsLookup | null = null,
): BootstrapLimits & { sources: { maxPerFile: string; maxTotal: string } } {
  const perAgent = release ? release.defaults.perAgentCaps : family !== "2026.3";
  // a 2026.5.18–2026.6.x release reads agents.list[] as 2026.7.1 does
  const blockFamily = family === "2026.3" ? "2026.7" : family;
  const own = perAgent ? agentBlock(config, agentId, blockFamily) : null;
  const defaults = obj(obj(config, "agents"), "defaults");
  const pick = (key: "bootstrapMaxChars" | "bootstrapTotalMaxChars", fallback: number) => {
    const mine = limit(num(own?.block, key));
    if (mine !== undefined) return { value: mine, source: `${own?.path}.${key}` };
    const shared = limit(num(defaults, key));
    if (shared !== undefined) return { value: shared, source: `agents.defaults.${key}` };
    return {
      value: fallback,
      source: release ? `OpenClaw ${release.release} default` : `OpenClaw ${family} default`,
    };
  };
  const builtIn = release
    ? releaseLimits(release.defaults, DEFAULT_LIMITS[family].maxTotal)
    : DEFAULT_LIMITS[family];
  const perFile = pick("bootstrapMaxChars", builtIn.maxPerFile);
  const total = pick("bootstrapTotalMaxChars", builtIn.maxTotal);
  return {
    maxPerFile: perFile.value,
    maxTotal: total.value,
    sources: { maxPerFile: perFile.source, maxTotal: total.source },
  };
}
