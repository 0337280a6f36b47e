// Which bootstrap files a session gets by its kind — OpenClaw's `filterBootstrapFilesForSession` (spec bootstrap.md
// §1), read from each family's reference build:
// - 2026.3.2 (dist `workspace-*.js`): sub-agent and cron sessions get MINIMAL_BOOTSTRAP_ALLOWLIST = AGENTS, TOOLS,
//   SOUL, IDENTITY, USER.
// - 2026.7.1 (dist `workspace-*.js`): sub-agents AGENTS + TOOLS; cron AGENTS, TOOLS, SOUL, IDENTITY, USER.
// - 2026.8.1 – 2026.9.6 (dist `workspace-*.mjs`): sub-agents AGENTS; cron AGENTS, SOUL, IDENTITY, USER; and the
//   workspace-root MEMORY.md is dropped for sub-agent, cron, group and channel sessions (`filterRootMemoryBootstrapFiles`).
// Session kinds from the key as `session-key.ts` / `session-chat-type-shared.ts` read it. Pure.

import type { RuleFamily } from "./files-and-limits.ts";

/** `agent:<id>:<rest>` → rest (lower-case), else null. */
function restOf(sessionKey: string): string | null {
  const m = /^agent:[^:]+:(.+)$/u.exec(sessionKey.trim().toLowerCase());
  return m?.[1] ?? null;
}

/** isSubagentSessionKey: `subagent:…`, or an agent key whose rest starts with it. */
export function isSubagentSessionKey(sessionKey: string): boolean {
  const raw = sessionKey.trim().toLowerCase();
  return raw.startsWith("subagent:") || restOf(raw)?.startsWith("subagent:") === true;
}

/** isCronSessionKey: an agent key whose rest starts with `cron:`. */
export function isCronSessionKey(sessionKey: string): boolean {
  return restOf(sessionKey)?.startsWith("cron:") === true;
}

const PEER_KINDS = new Set(["direct", "dm", "group", "channel"]);

/**
 * deriveSessionChatTypeFromKey (2026.9.6): the canonical `<channel>:<kind>:<peer>` / `<channel>:<account>:<kind>:
 * <peer>` shapes, then the built-in legacy ones; "unknown" otherwise (also when two shapes match).
 */
export function chatTypeOfKey(sessionKey: string): "direct" | "group" | "channel" | "unknown" {
  const raw = sessionKey.trim().toLowerCase();
  if (!raw) return "unknown";
  const scoped = restOf(raw) ?? raw;
  const legacy = /^group:[^:]+(?::.*)?$/u.test(scoped)
    ? "group"
    : /^channel:[^:]+(?::.*)?$/u.test(scoped) ||
        /^discord:(?:[^:]+:)?guild-[^:]+:channel-[^:]+$/u.test(scoped)
      ? "channel"
      : /^(?:whatsapp:)?[^:]+@g\.us$/u.test(scoped)
        ? "group"
        : null;
  const p = scoped.split(":");
  const [a, b, c] = [p[0] ?? "", p[1] ?? "", p[2] ?? ""];
  const shapes: { kind: string; peer: string | undefined }[] = [];
  if (a === "direct" || a === "dm") shapes.push({ kind: a, peer: p[1] });
  if (a && PEER_KINDS.has(b)) shapes.push({ kind: b, peer: p[2] });
  if (a && b && PEER_KINDS.has(c)) shapes.push({ kind: c, peer: p[3] });
  const matching = shapes.filter((s) => s.peer).length + (legacy ? 1 : 0);
  // parseCanonicalSessionPeerShape: the first shape whose kind fits, if it has a peer and no other shape fits
  const first = a !== "agent" && matching <= 1 ? shapes[0] : undefined;
  const canonical = first?.peer
    ? first.kind === "group" || first.kind === "channel"
      ? first.kind
      : "direct"
    : null;
  return canonical ?? legacy ?? "unknown";
}

/**
 * The subset of `names` (the family's bootstrap files, in order) a session of this key and chat type gets.
 * No key: every file (OpenClaw filters nothing without one).
 */
export function sessionBootstrapFiles(
  family: RuleFamily,
  names: readonly string[],
  sessionKey: string | null,
  chatType: string | null = null,
): readonly string[] {
  if (!sessionKey) return names;
  const subagent = isSubagentSessionKey(sessionKey);
  const cron = isCronSessionKey(sessionKey);
  if (family === "2026.3") {
    const minimal = ["AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"];
    return subagent || cron ? names.filter((n) => minimal.includes(n)) : names;
  }
  if (family === "2026.7") {
    if (subagent) return names.filter((n) => n === "AGENTS.md" || n === "TOOLS.md");
    if (cron)
      return names.filter((n) => ["AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"].includes(n));
    return names;
  }
  const kind = chatType ?? chatTypeOfKey(sessionKey);
  const noMemory = subagent || cron || kind === "group" || kind === "channel";
  const kept = noMemory ? names.filter((n) => n !== "MEMORY.md") : names;
  if (subagent) return kept.filter((n) => n === "AGENTS.md");
  if (cron) return kept.filter((n) => ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"].includes(n));
  return kept;
}
