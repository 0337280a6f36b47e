// The release family of a JSONL session that carries no version signal of its own (no stored report, no
// 2026.7/2026.9 transcript rows: cron runs, orphans, archives). It takes the install's (issue 13): the config's
// `meta.lastTouchedVersion` (written by every OpenClaw release 2026.1.29 → 2026.9.6 whenever OpenClaw itself
// writes the config; docs/openclaw-facts.md §4.1), then the family of the agent's other sessions, then of the
// state dir's other agents — the NEWEST family found, never an older family's defaults.

import path from "node:path";
import { isObject, type JsonObject, str } from "../../shared/json.ts";
import type { VersionInfo } from "../model/session.ts";
import { detectJsonlVersion, familyFromAppVersion } from "./detect-version.ts";
import type { DiscoveredAgent } from "./discover.ts";
import { fileIdentity } from "./fs-safety.ts";
import { readSessionsStore } from "./jsonl/sessions-json.ts";
import { readOpenClawConfig } from "./openclaw-config.ts";

type Family = VersionInfo["family"];
const ORDER: Family[] = ["2026.3", "2026.7", "2026.9"];

/** What the install says about its release, besides the session itself. */
export interface InstallSignals {
  /** `meta.lastTouchedVersion` of the config, when set. */
  configVersion: string | null;
  /** Per agent: the families its sessions' own signals decided (SessionEntry reports). */
  agentFamilies: Map<string, Family[]>;
}

function newest(families: readonly Family[]): Family | null {
  let best: Family | null = null;
  for (const f of families) if (best === null || ORDER.indexOf(f) > ORDER.indexOf(best)) best = f;
  return best;
}

/** `own` when the session decided; else the install's family (pure). */
export function installVersion(own: VersionInfo, agentId: string, signals: InstallSignals): VersionInfo {
  if (own.decidedBy !== "default") return own;
  const none = "no version signal of its own (no stored report, no 2026.7/2026.9 transcript rows)";
  if (signals.configVersion !== null) {
    const family = familyFromAppVersion(signals.configVersion);
    return {
      appVersion: signals.configVersion,
      family,
      reason: `${none}; the config's meta.lastTouchedVersion ${signals.configVersion} → ${family} rules`,
      decidedBy: "config",
    };
  }
  const ofAgent = newest(signals.agentFamilies.get(agentId) ?? []);
  if (ofAgent !== null) {
    const reason = `${none}; agent ${agentId}'s other sessions are ${ofAgent} → ${ofAgent} rules`;
    return { appVersion: null, family: ofAgent, reason, decidedBy: "agent-sessions" };
  }
  const others = [...signals.agentFamilies].filter(([id]) => id !== agentId).flatMap(([, f]) => f);
  const ofState = newest(others);
  if (ofState !== null) {
    const reason = `${none}; the state dir's other agents' sessions are ${ofState} → ${ofState} rules`;
    return { appVersion: null, family: ofState, reason, decidedBy: "state-dir" };
  }
  return own;
}

/**
 * The install's signals, re-read only when the config file or a sessions.json changed (identity of each):
 * sessions without their own signal are common (cron runs) and each report loads its session again.
 */
export class InstallSignalsReader {
  private last: { key: string; configPath: string | null; signals: InstallSignals } | null = null;

  constructor(private readonly stateDir: string) {}

  read(agents: readonly DiscoveredAgent[]): InstallSignals {
    const stores = agents.flatMap((a) => (a.sessionsDir ? [path.join(a.sessionsDir, "sessions.json")] : []));
    const keyOf = (configPath: string | null) =>
      [configPath, ...stores].map((f) => `${f}=${f === null ? "-" : (fileIdentity(f) ?? "-")}`).join("|");
    if (this.last && this.last.key === keyOf(this.last.configPath)) return this.last.signals;
    const config = readOpenClawConfig(this.stateDir);
    const signals = installSignals(config.config, agents);
    this.last = { key: keyOf(config.path), configPath: config.path, signals };
    return signals;
  }
}

/** The install's signals: the config's meta and every JSONL agent's SessionEntries (cached store reads). */
export function installSignals(
  config: JsonObject | null,
  agents: readonly DiscoveredAgent[],
): InstallSignals {
  const meta = config?.meta;
  const configVersion = isObject(meta) ? (str(meta, "lastTouchedVersion") ?? null) : null;
  const agentFamilies = new Map<string, Family[]>();
  for (const a of agents) {
    if (!a.sessionsDir) continue;
    const store = readSessionsStore(path.join(a.sessionsDir, "sessions.json"), "sessions.json");
    const families: Family[] = [];
    for (const [, entry] of store.entries) {
      const v = detectJsonlVersion(entry satisfies JsonObject, null);
      if (v.decidedBy === "session") families.push(v.family);
    }
    agentFamilies.set(a.agentId, families);
  }
  return { configVersion, agentFamilies };
}
