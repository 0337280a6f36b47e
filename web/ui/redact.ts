// On-screen redaction (issue 8, "Redacted mode … toggle in the UI for screenshots"). PURE: strings in, strings
// out. It masks on screen what the redacted export hides (server/export/redact.ts): message text, tool output,
// file contents, paths, names and ids. Kept: numbers, tool/skill names, bootstrap file basenames, fixed labels.
// Ids become a short stable hash so rows stay distinguishable. The hash is a synchronous FNV-1a (the browser's
// SHA-256 is async), so on-screen hashes differ from the export's — both only need to be stable and opaque.

import type { MapNode } from "../../shared/context-map.ts";

/** What a masked free-text string becomes. */
export const REDACTED = "[redacted]";
/** Shown instead of a whole text block (/context texts, file contents). */
export const HIDDEN_NOTICE = "hidden in redacted mode";

/** `#` + 8 hex digits of the 32-bit FNV-1a hash of the UTF-16 code units. */
export function shortHash(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `#${h.toString(16).padStart(8, "0")}`;
}

const TOOL_RE = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,79}$/;
const BASENAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_. -]{0,119}$/;

function lastSegment(p: string): string {
  const parts = p.split(/[/\\]/).filter((s) => s !== "");
  return parts[parts.length - 1] ?? "";
}

/** Tool and skill names are kept (a bug report needs them); odd ones become a hash. */
export function toolName(v: string): string {
  return TOOL_RE.test(v) ? v : `tool-${shortHash(v).slice(1)}`;
}

/** Bootstrap files keep their basename only (`/home/u/ws/AGENTS.md` → `AGENTS.md`). */
export function basename(v: string): string {
  const base = lastSegment(v);
  return BASENAME_RE.test(base) ? base : REDACTED;
}

/** Agent ids are user-chosen names: OpenClaw's default `main` is kept, any other becomes a hash. */
export function agentId(v: string): string {
  return v === "main" ? v : `agent-${shortHash(v).slice(1)}`;
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
      return SESSION_KEY_WORDS.has(part.toLowerCase()) ? part : shortHash(part).slice(1, 7);
    })
    .join(":");
}

/** clawscope's own fixed map labels (server/reports/map-tree.ts), kept as they are. */
const MAP_LABELS = new Set([
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

/**
 * A map tile name by where the tile sits (its id), like the export: fixed labels stay, workspace tiles keep
 * the file basename, tool/skill tiles the name, tool-call/tool-result leaves only their tool name, message
 * leaves only `#N`.
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
  return v.replace(ID_IN_TEXT_RE, (m) => shortHash(m)).replace(PATH_IN_TEXT_RE, (m) => `…/${basename(m)}`);
}

/** The map tree with every name and source masked (ids are kept: they address zoom levels in the URL). */
export function mapTree(node: MapNode): MapNode {
  const out: MapNode = { ...node, name: mapName(node.name, node.id), source: sentence(node.source) };
  if (node.children) out.children = node.children.map(mapTree);
  return out;
}

/**
 * One object per mode so views call `r.text(x)` without branching; with `on === false` every function is the
 * identity (and `block` returns the text itself).
 */
export interface Redactor {
  on: boolean;
  /** Free text (messages, tool output, previews, summaries): `[redacted]`. */
  text(v: string): string;
  /** A whole text block (file contents, /context texts): the "hidden in redacted mode" notice. */
  block(v: string): string;
  /** A path: nothing of it is kept. */
  path(v: string): string;
  /** A bootstrap file name or path: its basename. */
  file(v: string): string;
  /** Ids (session, entry, tool call): a short hash. */
  id(v: string): string;
  agent(v: string): string;
  sessionKey(v: string): string;
  tool(v: string): string;
  sentence(v: string): string;
  mapTree(n: MapNode): MapNode;
}

const identity = <T>(v: T): T => v;

export function makeRedactor(on: boolean): Redactor {
  if (!on) {
    return {
      on,
      text: identity,
      block: identity,
      path: identity,
      file: identity,
      id: identity,
      agent: identity,
      sessionKey: identity,
      tool: identity,
      sentence: identity,
      mapTree: identity,
    };
  }
  return {
    on,
    text: () => REDACTED,
    block: () => HIDDEN_NOTICE,
    path: () => REDACTED,
    file: basename,
    id: shortHash,
    agent: agentId,
    sessionKey,
    tool: toolName,
    sentence,
    mapTree,
  };
}

/** The URL parameter that switches on-screen redaction on (`redact=1`); exports are redacted unless `0`. */
export function redactFromParams(params: URLSearchParams): boolean {
  return params.get("redact") === "1";
}
