// Redaction's one rule table (issue 8 "Share", issue 15 "Redaction from one rule table"): what a masked string
// becomes, which names are kept (tool / skill names, bootstrap file basenames, clawscope's fixed map labels, the
// structural words of session keys and map ids) and the ONE hash that stands in for ids. Used by the redacted
// export (server/export/redact.ts: an allow-list walk over the DTOs) and the on-screen Redact mode
// (web/ui/redact.ts), so a redacted screenshot and a redacted export show the same masks and the same hashes.
//
// The hash is SHA-256 (the first 8 hex digits) from @noble/hashes: synchronous and pure JavaScript, so the
// browser computes byte for byte what the server computes (the browser's own SHA-256 is async only). Pure.

import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** What a masked free-text string becomes. */
export const REDACTED = "[redacted]";

export function isRedacted(s: string | null | undefined): boolean {
  return s === REDACTED;
}

/** Short stable stand-in for an id: `#` + 8 hex digits of the SHA-256 of its UTF-8 bytes. */
export function hashId(value: string): string {
  return `#${bytesToHex(sha256(utf8ToBytes(value))).slice(0, 8)}`;
}

export const TOOL_RE = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,79}$/;
export const BASENAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_. -]{0,119}$/;

/** The last segment of a `/` or `\` path. */
export function lastSegment(p: string): string {
  const parts = p.split(/[/\\]/).filter((s) => s !== "");
  return parts[parts.length - 1] ?? "";
}

/** Tool and skill names are kept (a bug report needs them); odd ones become a hash. */
export function toolName(v: string): string {
  return TOOL_RE.test(v) ? v : `tool-${hashId(v).slice(1)}`;
}

/** Bootstrap files keep their basename only (`/home/u/ws/AGENTS.md` → `AGENTS.md`). */
export function basename(v: string): string {
  const base = lastSegment(v);
  return BASENAME_RE.test(base) ? base : REDACTED;
}

/** Agent ids are user-chosen names: OpenClaw's default `main` is kept, any other becomes a hash. */
export function agentId(v: string): string {
  return v === "main" ? v : `agent-${hashId(v).slice(1)}`;
}

/** Structural words of OpenClaw session keys (`agent:<id>:main`, `…:cron:<job>`, `…:subagent:<uuid>`). */
const SESSION_KEY_WORDS = new Set([
  "agent",
  "main",
  "cron",
  "subagent",
  "dm",
  "direct",
  "group",
  "channel",
  "thread",
  "topic",
  "heartbeat",
  "hook",
  "acp",
  "global",
  "run",
  "session",
]);

/** Keeps the structure of a session key; its free parts (agent names, chat ids, job names) become hashes. */
export function sessionKey(v: string): string {
  return v
    .split(":")
    .map((part, i, all) => {
      if (i === 1 && all[0] === "agent") return agentId(part);
      return SESSION_KEY_WORDS.has(part.toLowerCase()) ? part : hashId(part).slice(1, 7);
    })
    .join(":");
}

/** clawscope's own fixed map labels (server/reports/context-map/), kept as they are. */
export const MAP_LABELS: ReadonlySet<string> = new Set([
  "Context",
  "Workspace files",
  "System prompt",
  "Tool schemas",
  "Skills",
  "Current turn",
  "Conversation",
  "Untracked / provider overhead",
  "Project context frame",
  "Base instructions",
  "Skills list frame",
  "Runtime context",
  "Model-only prompt",
  "Model prompt",
  "User",
  "Assistant",
  "Text",
  "Thinking",
  "Tool calls",
  "Tool results",
  "Summaries",
  "Compaction summary",
  "Branch summaries",
  "Other",
]);

/** Structural segments of map node ids; other segments (entry ids, tool-call ids, names) are hashed. */
const MAP_ID_WORDS = new Set([
  "workspace",
  "system",
  "tools",
  "skills",
  "current-turn",
  "conversation",
  "untracked",
  "user",
  "assistant",
  "text",
  "thinking",
  "tool-calls",
  "tool-results",
  "compaction-summary",
  "branch-summaries",
  "other",
  "base-instructions",
  "skills-list-frame",
  "project-context-frame",
  "runtime-context",
  "model-only-prompt",
]);

/** A map node id with every data segment hashed (`conversation/tool-results/exec/<hash>`). */
export function mapId(v: string): string {
  return v
    .split("/")
    .map((s) => (s === "" || MAP_ID_WORDS.has(s) ? s : hashId(s).slice(1)))
    .join("/");
}

/**
 * A map tile name by where the tile sits (its id): fixed labels stay, workspace tiles keep the file basename,
 * tool/skill tiles the name, tool-call/tool-result leaves only their tool name, message leaves only `#N`.
 */
export function mapName(name: string, id: string): string {
  const seg = id.split("/");
  if (MAP_LABELS.has(name)) return name;
  if (seg[0] === "workspace" && seg.length === 2) return basename(name);
  if ((seg[0] === "tools" || seg[0] === "skills") && seg.length === 2) return toolName(name);
  if (seg[0] === "conversation" && seg[1] === "tool-results" && seg.length === 3) return toolName(name);
  if (seg[0] === "conversation") {
    const toolLeaf = (seg[1] === "tool-results" && seg.length > 3) || seg[2] === "tool-calls";
    if (toolLeaf) return `${toolName(name.split(" ")[0] ?? "")} ${REDACTED}`;
    const n = /^#\d+/.exec(name);
    return n ? `${n[0]} ${REDACTED}` : REDACTED;
  }
  return REDACTED;
}

/** Entry ids, tool-call ids and uuids inside a free "where the number comes from" sentence. */
const ID_IN_TEXT_RE =
  /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:toolu|call|tool)_[A-Za-z0-9_]+|[0-9a-f]{16,})\b/gi;
/** Absolute / home paths inside a sentence. */
const PATH_IN_TEXT_RE = /(?:~|[A-Za-z]:)?[/\\][^\s"'`,;)]+/g;

/** A clawscope-made sentence (sources, reasons): ids become hashes, paths keep only their basename. */
export function sentence(v: string): string {
  return v.replace(ID_IN_TEXT_RE, (m) => hashId(m)).replace(PATH_IN_TEXT_RE, (m) => `…/${basename(m)}`);
}
