// clawscope's context map: the complete, interactive version of OpenClaw's `/context map` (spec context-report.md
// §5.4). Same report-derived groups and leaf values as OpenClaw's map (workspace files, system prompt, tool
// schemas, skills) plus the current turn's unpersisted parts, the conversation actually sent (one leaf per
// message part / tool result) and an "Untracked / provider overhead" tile. Pure: data in, DTO out.

import { arr, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../shared/json.ts";
import type { CacheState, ContextMapDTO, MapGroupInfo, MapNode } from "../../shared/map.ts";
import { css, OPENCLAW_GROUP_COLORS } from "../../shared/openclaw-colors.ts";
import { blockTextHead, HEAD_CHARS, type LazyText, lazyTextKey, readBlockText } from "../model/lazy-text.ts";
import { blocksOf } from "../model/message-blocks.ts";
import type { ContextMessage, LoadedSession } from "../model/session.ts";
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  bashExecutionText,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  conversationBuckets,
  estimateTokens,
  formatInt,
  layoutOpenClawMap,
  MAP_UNAVAILABLE_TEXT,
  mapFreshTotalTokens,
  type OpenClawMapPicture,
  openClawMapMessages,
  openClawMapUnavailable,
  summaryText,
} from "../openclaw/context-map.ts";
import type { TokenTextItem } from "../tokens/tokenizer.ts";

export interface LastCallUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface BuildContextMapInput {
  session: LoadedSession;
  /** The stored `systemPromptReport` (null when the session has none). */
  report: JsonObject | null;
  /** The model-context list (transcript.md §7), projections applied: what was actually sent. */
  contextMessages: ContextMessage[];
  /** Usage of the last model call, null when unknown. */
  lastCallUsage: LastCallUsage | null;
  windowTokens: number | null;
  /**
   * Tool-result text as sent at the last call, by toolCallId (e.g. prune-replay's wire text: soft-trimmed or
   * hard-cleared results). Without it, tool results count as they stand in `contextMessages`.
   */
  sentToolResultText?: ReadonlyMap<string, string>;
  /** Tokenizer counts by node id (of the texts from `contextMapTokenTexts`, plus any the caller added). */
  tiktoken?: Map<string, number>;
  /** Encoding name of those counts (default `cl100k_base`). */
  tiktokenEncoding?: string;
}

/** OpenClaw's image estimate (pruning.md §2.3), used as the chars of an image block: images are not text. */
export const IMAGE_CHARS = 8000;

/** Group keys and display order; colours are OpenClaw's where OpenClaw has the group (spec §5.4). */
export const MAP_GROUPS: MapGroupInfo[] = [
  { key: "workspace", name: "Workspace files", color: css(OPENCLAW_GROUP_COLORS.workspace) },
  { key: "system", name: "System prompt", color: css(OPENCLAW_GROUP_COLORS.system) },
  { key: "tools", name: "Tool schemas", color: css(OPENCLAW_GROUP_COLORS.tools) },
  { key: "skills", name: "Skills", color: css(OPENCLAW_GROUP_COLORS.skills) },
  // 2026.7.1's `Current turn` colour; OpenClaw 9.x folds these leaves into its Conversation group.
  { key: "current-turn", name: "Current turn", color: css(OPENCLAW_GROUP_COLORS.currentTurn) },
  { key: "conversation", name: "Conversation", color: css(OPENCLAW_GROUP_COLORS.conversation) },
  // clawscope's own tile (OpenClaw has none): neutral slate.
  { key: "untracked", name: "Untracked / provider overhead", color: "rgb(120,128,140)" },
];

/** Path segment for ids: URL-safe, `/`-free. */
export function idSegment(s: string): string {
  return encodeURIComponent(s === "" ? "(empty)" : s);
}

// ---------------------------------------------------------------------------------------------------------------
// Leaves

interface LeafSpec {
  id: string;
  name: string;
  group: string;
  chars: number;
  source: string;
  /**
   * Text to tokenise for the tiktoken mode (absent: the caller must supply a count by id, or none). For a
   * tool result whose text was not kept in memory (model/lazy-text.ts) this is a same-length placeholder and
   * `lazy` reads the real text back (only the tokenizer needs it, in the background).
   */
  text?: string;
  lazy?: { key: string; load: () => string | null };
  /** Chars of parts that are not text (images, opaque blocks): counted as chars/4 in the tiktoken mode. */
  nonTextChars: number;
  /** Conversation leaves: position of the message in the context list (for the last-call boundary). */
  messagePos?: number;
}

class IdAllocator {
  private readonly used = new Set<string>();
  take(base: string): string {
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}~${n}`;
    this.used.add(id);
    return id;
  }
}

function preview(text: string, max = 60): string {
  // Only the head matters: never scan a megabyte tool result for a 60-char name.
  const one = text
    .slice(0, max * 8)
    .replace(/\s+/g, " ")
    .trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

interface ContentParts {
  text: string;
  nonText: number;
  images: number;
  /** The first chars of the real text (names); differs from `text` when a block's text was not kept. */
  head: string;
  /** Reads the real text back when some block's text was not kept in memory (model/lazy-text.ts). */
  lazy?: { key: string; load: () => string | null };
}

/** The joined real texts of text blocks (cut ones read back), or null when one cannot be read back. */
function readBlockTexts(blocks: readonly JsonObject[]): string | null {
  let out = "";
  for (const b of blocks) {
    const text = readBlockText(b);
    if (text === null) return null;
    out += text;
  }
  return out;
}

/** Text + non-text chars of user / custom / toolResult content (string, or text / image / other blocks). */
function contentParts(content: JsonValue | undefined): ContentParts {
  if (typeof content === "string")
    return { text: content, nonText: 0, images: 0, head: content.slice(0, HEAD_CHARS) };
  const blocks: JsonObject[] = [];
  const texts: string[] = [];
  const lazies: LazyText[] = [];
  let nonText = 0;
  let images = 0;
  for (const b of blocksOf(content)) {
    if (b.kind === "text" && b.block !== null && b.text !== undefined) {
      blocks.push(b.block);
      texts.push(b.text);
      if (b.lazy) lazies.push(b.lazy);
    } else if (b.kind === "image") {
      nonText += IMAGE_CHARS;
      images++;
    } else nonText += b.jsonLength ?? 0;
  }
  const text = texts.join("");
  if (lazies.length === 0) return { text, nonText, images, head: text.slice(0, HEAD_CHARS) };
  let head = "";
  for (const b of blocks) {
    if (head.length >= HEAD_CHARS) break;
    head += blockTextHead(b, HEAD_CHARS - head.length);
  }
  return {
    text,
    nonText,
    images,
    head,
    lazy: { key: lazies.map(lazyTextKey).join("|"), load: () => readBlockTexts(blocks) },
  };
}

function partsSource(base: string, parts: { nonText: number; images: number }): string {
  if (parts.nonText === 0) return base;
  const img =
    parts.images > 0
      ? `${parts.images} image(s) × ${formatInt(IMAGE_CHARS)} chars (OpenClaw's image estimate)`
      : "";
  const other = parts.nonText - parts.images * IMAGE_CHARS;
  const oth = other > 0 ? `${formatInt(other)} chars of other blocks as JSON` : "";
  return `${base} + ${[img, oth].filter((s) => s !== "").join(" + ")}`;
}

/** Conversation leaves, in message order (one per user message, assistant part, tool call, tool result, summary). */
function conversationLeaves(
  session: LoadedSession,
  messages: readonly ContextMessage[],
  ids: IdAllocator,
  sentToolResultText?: ReadonlyMap<string, string>,
): LeafSpec[] {
  const out: LeafSpec[] = [];
  const push = (leaf: LeafSpec) => {
    if (leaf.chars > 0) out.push(leaf);
  };
  messages.forEach((cm, pos) => {
    const m = cm.message;
    const entryId = session.transcript.entries[cm.entryIndex]?.id ?? `e${cm.entryIndex}`;
    const n = pos + 1;
    const where = `context message #${n} (transcript entry ${entryId})`;
    switch (cm.role) {
      case "user": {
        const parts = contentParts(m.content);
        push({
          id: ids.take(`conversation/user/${idSegment(entryId)}`),
          name: `#${n} ${preview(parts.text) || "(no text)"}`,
          group: "conversation",
          chars: parts.text.length + parts.nonText,
          source: partsSource(`text length of ${where}`, parts),
          text: parts.text,
          nonTextChars: parts.nonText,
          messagePos: pos,
        });
        break;
      }
      case "assistant": {
        const texts: string[] = [];
        const thinking: string[] = [];
        let other = 0;
        const calls: { id: string; name: string; args: string }[] = [];
        for (const b of blocksOf(m.content)) {
          if (b.kind === "text") texts.push(b.text ?? "");
          else if (b.kind === "thinking") thinking.push(b.text ?? "");
          else if (b.kind === "redactedThinking") thinking.push(b.data ?? "");
          else if (b.kind === "toolCall")
            calls.push({ id: b.id ?? "", name: b.name ?? "(unknown)", args: b.argsJson ?? "" });
          else other += b.jsonLength ?? 0;
        }
        const text = texts.join("");
        push({
          id: ids.take(`conversation/assistant/text/${idSegment(entryId)}`),
          name: `#${n} ${preview(text)}`,
          group: "conversation",
          chars: text.length + other,
          source:
            other > 0
              ? `text blocks of ${where} + ${formatInt(other)} chars of other blocks as JSON`
              : `text blocks of ${where}`,
          text,
          nonTextChars: other,
          messagePos: pos,
        });
        const think = thinking.join("");
        push({
          id: ids.take(`conversation/assistant/thinking/${idSegment(entryId)}`),
          name: `#${n} thinking`,
          group: "conversation",
          chars: think.length,
          source: `thinking text of ${where} (signatures not counted, as OpenClaw's estimate)`,
          text: think,
          nonTextChars: 0,
          messagePos: pos,
        });
        for (const c of calls) {
          push({
            id: ids.take(`conversation/assistant/tool-calls/${idSegment(c.id || `${entryId}-${c.name}`)}`),
            name: `${c.name} ${preview(c.args, 40)}`,
            group: "conversation",
            chars: c.args.length,
            source: `JSON.stringify(arguments) of tool call ${c.id || "(no id)"} in ${where} (name and id not counted)`,
            text: c.args,
            nonTextChars: 0,
            messagePos: pos,
          });
        }
        break;
      }
      case "toolResult": {
        const tool = str(m, "toolName") ?? "(unknown tool)";
        const callId = str(m, "toolCallId") ?? entryId;
        // The wire form at the last call when the caller knows it (pruning projection: soft-trim / hard-clear).
        const sent = sentToolResultText?.get(callId);
        const parts: ContentParts =
          sent !== undefined
            ? { text: sent, nonText: 0, images: 0, head: sent.slice(0, HEAD_CHARS) }
            : contentParts(m.content);
        const how =
          sent !== undefined
            ? `text length of the ${tool} result ${callId} as sent at the last call (after pruning), ${where}`
            : `text length of the ${tool} result ${callId} in the context list, ${where}`;
        push({
          id: ids.take(`conversation/tool-results/${idSegment(tool)}/${idSegment(callId)}`),
          name: `${tool} ${preview(parts.head, 40)}`,
          group: "conversation",
          chars: parts.text.length + parts.nonText,
          source: partsSource(how, parts),
          text: parts.text,
          ...(parts.lazy ? { lazy: parts.lazy } : {}),
          nonTextChars: parts.nonText,
          messagePos: pos,
        });
        break;
      }
      case "compactionSummary": {
        const text = COMPACTION_SUMMARY_PREFIX + summaryText(m) + COMPACTION_SUMMARY_SUFFIX;
        push({
          id: ids.take("conversation/compaction-summary"),
          name: "Compaction summary",
          group: "conversation",
          chars: text.length,
          source: `wire text of the compaction summary (prefix + summary + suffix, transcript.md §6), ${where}`,
          text,
          nonTextChars: 0,
          messagePos: pos,
        });
        break;
      }
      case "branchSummary": {
        const text = BRANCH_SUMMARY_PREFIX + summaryText(m) + BRANCH_SUMMARY_SUFFIX;
        push({
          id: ids.take(`conversation/branch-summaries/${idSegment(entryId)}`),
          name: `#${n} ${preview(summaryText(m))}`,
          group: "conversation",
          chars: text.length,
          source: `wire text of the branch summary (prefix + summary + suffix, transcript.md §6), ${where}`,
          text,
          nonTextChars: 0,
          messagePos: pos,
        });
        break;
      }
      default: {
        const parts =
          cm.role === "bashExecution"
            ? { text: bashExecutionText(m), nonText: 0, images: 0 }
            : contentParts(m.content);
        push({
          id: ids.take(`conversation/other/${idSegment(entryId)}`),
          name: `#${n} ${cm.role}: ${preview(parts.text, 40)}`,
          group: "conversation",
          chars: parts.text.length + parts.nonText,
          source: partsSource(`content length of the ${cm.role} message ${where}`, parts),
          text: parts.text,
          nonTextChars: parts.nonText,
          messagePos: pos,
        });
      }
    }
  });
  return out;
}

function reportObjects(report: JsonObject | null, path: [string, string] | [string]): JsonObject[] {
  const holder = path.length === 2 ? obj(report, path[0]) : report;
  const list = arr(holder, path.length === 2 ? path[1] : path[0]) ?? [];
  return list.filter(isObject);
}

/** Report-derived leaves, with the same values as OpenClaw's map (spec §5.4). */
function reportLeaves(report: JsonObject | null, ids: IdAllocator): Record<string, LeafSpec[]> {
  const groups: Record<string, LeafSpec[]> = {
    workspace: [],
    system: [],
    tools: [],
    skills: [],
    "current-turn": [],
  };
  if (!report) return groups;
  const R = "systemPromptReport";
  const leaf = (group: string, id: string, name: string, chars: number, source: string): void => {
    // No text in the report: the tokenizer mode counts these as chars/4 unless the caller supplies a count by id.
    if (chars > 0) groups[group]?.push({ id: ids.take(id), name, group, chars, source, nonTextChars: 0 });
  };

  let injected = 0;
  reportObjects(report, ["injectedWorkspaceFiles"]).forEach((f, i) => {
    if (str(f, "injectionStatus") === "native_unverified") return; // excluded from totals and map (9.6)
    const name = str(f, "name") ?? str(f, "path") ?? "(unknown)";
    const chars = num(f, "injectedChars") ?? 0;
    injected += chars;
    const flags = [f.truncated === true ? "truncated" : "", f.missing === true ? "missing" : ""].filter(
      (s) => s,
    );
    leaf(
      "workspace",
      `workspace/${idSegment(name)}`,
      name,
      chars,
      `${R}.injectedWorkspaceFiles[${i}].injectedChars${flags.length ? ` (${flags.join(", ")}; raw ${formatInt(num(f, "rawChars") ?? 0)} chars)` : ""}`,
    );
  });
  const sp = obj(report, "systemPrompt");
  const projectContextChars = num(sp, "projectContextChars") ?? 0;
  leaf(
    "workspace",
    "workspace/project-context-frame",
    "Project context frame",
    Math.max(0, projectContextChars - injected),
    `max(0, ${R}.systemPrompt.projectContextChars ${formatInt(projectContextChars)} − Σ injectedChars ${formatInt(injected)}): the Project Context headings around the files`,
  );

  const skills = reportObjects(report, ["skills", "entries"]);
  const skillSum = skills.reduce((s, e) => s + (num(e, "blockChars") ?? 0), 0);
  const nonProject = num(sp, "nonProjectContextChars") ?? 0;
  leaf(
    "system",
    "system/base-instructions",
    "Base instructions",
    Math.max(0, nonProject - skillSum),
    `max(0, ${R}.systemPrompt.nonProjectContextChars ${formatInt(nonProject)} − Σ skills.entries[].blockChars ${formatInt(skillSum)})`,
  );

  reportObjects(report, ["tools", "entries"]).forEach((t, i) => {
    const name = str(t, "name") ?? "(unknown)";
    leaf(
      "tools",
      `tools/${idSegment(name)}`,
      name,
      num(t, "schemaChars") ?? 0,
      `${R}.tools.entries[${i}].schemaChars = JSON.stringify(parameters).length (name and description sent with it are not counted: they fall in Untracked)`,
    );
  });

  skills.forEach((s, i) => {
    const name = str(s, "name") ?? "(unknown)";
    leaf(
      "skills",
      `skills/${idSegment(name)}`,
      name,
      num(s, "blockChars") ?? 0,
      `${R}.skills.entries[${i}].blockChars`,
    );
  });

  const turn = obj(report, "currentTurn");
  leaf(
    "current-turn",
    "current-turn/runtime-context",
    "Runtime context",
    num(turn, "runtimeContextChars") ?? 0,
    `${R}.currentTurn.runtimeContextChars: the runtime-context carrier appended at the request tail, never persisted`,
  );
  leaf(
    "current-turn",
    "current-turn/model-only-prompt",
    "Model-only prompt",
    num(turn, "modelOnlyPromptChars") ?? 0,
    `${R}.currentTurn.modelOnlyPromptChars: hook additions that reach only the model`,
  );
  return groups;
}

/**
 * The texts to count for the tiktoken size mode, keyed by the node ids `buildContextMap` gives the conversation
 * leaves. Report leaves have no text in the report: callers may add their own items under the same ids
 * (`workspace/<idSegment(file name)>`, `skills/<idSegment(name)>`, `tools/<idSegment(name)>`, `system/base-instructions`).
 */
export function contextMapTokenTexts(
  session: LoadedSession,
  contextMessages: readonly ContextMessage[],
  sentToolResultText?: ReadonlyMap<string, string>,
): TokenTextItem[] {
  // Conversation ids live under `conversation/`, so they never collide with report ids: a fresh allocator gives
  // the same ids (and the same `~n` suffixes for repeated tool-call ids) as buildContextMap.
  return conversationLeaves(session, contextMessages, new IdAllocator(), sentToolResultText)
    .filter((l) => l.text !== undefined && l.text !== "")
    .map((l) =>
      l.lazy ? { id: l.id, key: l.lazy.key, load: l.lazy.load } : { id: l.id, text: l.text ?? "" },
    );
}

/** Usage of the last call: the newest assistant in the context list with a `usage` object (provider field names). */
export function lastCallUsageOf(contextMessages: readonly ContextMessage[]): LastCallUsage | null {
  for (let i = contextMessages.length - 1; i >= 0; i--) {
    const m = contextMessages[i];
    const usage = m && m.role === "assistant" ? obj(m.message, "usage") : undefined;
    if (usage) {
      return {
        input: num(usage, "input") ?? 0,
        cacheRead: num(usage, "cacheRead") ?? 0,
        cacheWrite: num(usage, "cacheWrite") ?? 0,
      };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Cache state at the last call

interface CacheSplit {
  read: number;
  write: number;
  uncached: number;
}

/**
 * Which messages the last call's prompt held: every context message before the last assistant message that carries
 * a `usage` object (its reply). Returns that position, or null when no such assistant exists.
 */
function lastCallReplyPos(messages: readonly ContextMessage[]): number | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.role === "assistant" && obj(m.message, "usage")) return i;
  }
  return null;
}

function overlap(a: number, b: number, lo: number, hi: number): number {
  return Math.max(0, Math.min(b, hi) - Math.max(a, lo));
}

// ---------------------------------------------------------------------------------------------------------------
// Nodes

/**
 * Leaf tokenizer count: the caller's count for its id (+ chars/4 of non-text parts); chars/4 alone for a leaf with
 * no text at all (images only); null while pending or when there is no text to count (report leaves).
 */
function leafNode(l: LeafSpec, tiktoken: Map<string, number> | undefined): MapNode {
  const counted = tiktoken?.get(l.id);
  let tik: number | null = null;
  if (tiktoken !== undefined) {
    if (counted !== undefined) tik = counted + estimateTokens(l.nonTextChars);
    else if (l.text === "") tik = estimateTokens(l.nonTextChars);
  }
  return {
    id: l.id,
    name: l.name,
    group: l.group,
    chars: l.chars,
    estTokens: estimateTokens(l.chars),
    tiktokenTokens: tik,
    source: l.source,
  };
}

/** Whether a leaf still waits for a tokenizer count (it has text, and no count was supplied yet). */
function isPending(l: LeafSpec, tiktoken: Map<string, number> | undefined): boolean {
  return tiktoken !== undefined && l.text !== undefined && l.text !== "" && !tiktoken.has(l.id);
}

/**
 * Group tokenizer totals, bottom-up: null while any leaf below is pending; otherwise Σ children, where a leaf
 * without text to count (report leaves the caller gave no text for) contributes its chars/4 estimate.
 */
function fillGroupTiktoken(node: MapNode, pending: ReadonlySet<string>): boolean {
  if (!node.children?.length) return pending.has(node.id);
  let anyPending = false;
  let sum = 0;
  for (const c of node.children) {
    if (fillGroupTiktoken(c, pending)) anyPending = true;
    sum += c.tiktokenTokens ?? c.estTokens;
  }
  node.tiktokenTokens = anyPending ? null : sum;
  return anyPending;
}

function groupNode(id: string, name: string, group: string, children: MapNode[], source: string): MapNode {
  let chars = 0;
  let est = 0;
  for (const c of children) {
    chars += c.chars;
    est += c.estTokens;
  }
  // tiktokenTokens is filled once the whole tree exists (fillGroupTiktoken).
  const node: MapNode = { id, name, group, chars, estTokens: est, tiktokenTokens: null, source, children };
  const splits = children.map((c) => c.cacheTokens).filter((s) => s !== undefined);
  if (splits.length > 0) {
    node.cacheTokens = splits.reduce(
      (s, c) => ({ read: s.read + c.read, write: s.write + c.write, uncached: s.uncached + c.uncached }),
      { read: 0, write: 0, uncached: 0 },
    );
  }
  return node;
}

/** Groups leaves by a key into subgroup nodes, in first-seen order. */
function subgroups(
  leaves: { spec: LeafSpec; node: MapNode }[],
  keyOf: (l: LeafSpec) => string,
  make: (key: string, nodes: MapNode[]) => MapNode,
): MapNode[] {
  const byKey = new Map<string, MapNode[]>();
  for (const l of leaves) {
    const k = keyOf(l.spec);
    const list = byKey.get(k);
    if (list) list.push(l.node);
    else byKey.set(k, [l.node]);
  }
  return [...byKey.entries()].map(([k, nodes]) => make(k, nodes));
}

function conversationGroup(leaves: { spec: LeafSpec; node: MapNode }[]): MapNode {
  const under = (prefix: string) => leaves.filter((l) => l.spec.id.startsWith(prefix));
  const children: MapNode[] = [];
  const user = under("conversation/user/");
  if (user.length)
    children.push(
      groupNode(
        "conversation/user",
        "User",
        "conversation",
        user.map((l) => l.node),
        "Σ user messages sent",
      ),
    );
  const parts: [string, string, string][] = [
    ["text", "Text", "Σ assistant text blocks"],
    ["thinking", "Thinking", "Σ assistant thinking text"],
    ["tool-calls", "Tool calls", "Σ tool-call arguments JSON"],
  ];
  const assistant = parts
    .map(([k, name, src]) => {
      const ls = under(`conversation/assistant/${k}/`);
      return ls.length
        ? groupNode(
            `conversation/assistant/${k}`,
            name,
            "conversation",
            ls.map((l) => l.node),
            src,
          )
        : null;
    })
    .filter((n): n is MapNode => n !== null);
  if (assistant.length)
    children.push(
      groupNode(
        "conversation/assistant",
        "Assistant",
        "conversation",
        assistant,
        "Σ assistant messages sent",
      ),
    );
  const results = under("conversation/tool-results/");
  if (results.length) {
    const byTool = subgroups(
      results,
      (s) => s.id.split("/")[2] ?? "",
      (seg, nodes) =>
        groupNode(
          `conversation/tool-results/${seg}`,
          decodeURIComponent(seg),
          "conversation",
          nodes,
          `Σ ${decodeURIComponent(seg)} results (as sent at the last call where the wire text is known)`,
        ),
    );
    children.push(
      groupNode(
        "conversation/tool-results",
        "Tool results",
        "conversation",
        byTool,
        "Σ tool results by tool (as sent at the last call where the wire text is known)",
      ),
    );
  }
  const compaction = under("conversation/compaction-summary");
  for (const l of compaction) children.push(l.node);
  const branches = under("conversation/branch-summaries/");
  if (branches.length)
    children.push(
      groupNode(
        "conversation/branch-summaries",
        "Branch summaries",
        "conversation",
        branches.map((l) => l.node),
        "Σ branch summaries sent",
      ),
    );
  const other = under("conversation/other/");
  if (other.length)
    children.push(
      groupNode(
        "conversation/other",
        "Other",
        "conversation",
        other.map((l) => l.node),
        "Σ custom / bashExecution / other messages sent",
      ),
    );
  return groupNode(
    "conversation",
    "Conversation",
    "conversation",
    children,
    "the model-context message list (transcript.md §7): string lengths of the messages sent (tool results as sent after pruning where known); images count 8,000 chars (OpenClaw's estimate)",
  );
}

/** Builds clawscope's complete context map (see file header). */
export function buildContextMap(input: BuildContextMapInput): ContextMapDTO {
  const { session, report, contextMessages, lastCallUsage, windowTokens, tiktoken } = input;
  const ids = new IdAllocator();
  const byGroup = reportLeaves(report, ids);
  const conv = conversationLeaves(session, contextMessages, ids, input.sentToolResultText);

  // Which conversation leaves were in the last call's prompt.
  const replyPos = lastCallReplyPos(contextMessages);
  const inLastCall = (l: LeafSpec) =>
    l.messagePos === undefined || (replyPos !== null && l.messagePos < replyPos);

  // Prompt order on the wire (Anthropic: tools, system, messages; runtime context at the tail): used to place the
  // last call's cache boundaries. Within the system prompt, the project context runs to the end (spec §2).
  const order: LeafSpec[] = [
    ...(byGroup.tools ?? []),
    ...(byGroup.system ?? []),
    ...(byGroup.skills ?? []),
    ...(byGroup.workspace ?? []),
    ...conv.filter(inLastCall),
    ...(byGroup["current-turn"] ?? []),
  ];
  const actualTokens = lastCallUsage
    ? lastCallUsage.input + lastCallUsage.cacheRead + lastCallUsage.cacheWrite
    : null;
  const cacheOf = new Map<string, { state: CacheState; split: CacheSplit }>();
  let cacheBasis: string;
  if (lastCallUsage && actualTokens !== null && actualTokens > 0 && replyPos !== null) {
    const totalEst = order.reduce((s, l) => s + estimateTokens(l.chars), 0);
    const scale = totalEst > 0 ? actualTokens / totalEst : 0;
    const readEnd = lastCallUsage.cacheRead;
    const writeEnd = lastCallUsage.cacheRead + lastCallUsage.cacheWrite;
    let pos = 0;
    for (const l of order) {
      const est = estimateTokens(l.chars);
      const a = pos * scale;
      const b = (pos + est) * scale;
      pos += est;
      const span = b - a;
      const fr = span > 0 ? overlap(a, b, 0, readEnd) / span : 0;
      const fw = span > 0 ? overlap(a, b, readEnd, writeEnd) / span : 0;
      const read = Math.round(est * fr);
      const write = Math.min(est - read, Math.round(est * fw));
      const split = { read, write, uncached: est - read - write };
      const state: CacheState =
        split.read >= split.write && split.read >= split.uncached
          ? "read"
          : split.write >= split.uncached
            ? "write"
            : "uncached";
      cacheOf.set(l.id, { state, split });
    }
    cacheBasis = `estimate: the last call billed ${formatInt(lastCallUsage.cacheRead)} cache-read + ${formatInt(lastCallUsage.cacheWrite)} cache-write + ${formatInt(lastCallUsage.input)} uncached input tokens, in prompt order (tools, system prompt, messages, runtime context); each tile is placed by its chars/4 position scaled to the billed total`;
  } else {
    cacheBasis =
      lastCallUsage === null
        ? "unknown: no usage recorded for the last call"
        : "unknown: the last call's reply is not in the model-context list";
  }

  const nodesById = new Map<string, MapNode>();
  const toNode = (l: LeafSpec): { spec: LeafSpec; node: MapNode } => {
    const node = leafNode(l, tiktoken);
    nodesById.set(l.id, node);
    const c = cacheOf.get(l.id);
    if (c) {
      node.cache = c.state;
      node.cacheTokens = c.split;
    } else if (l.messagePos !== undefined || lastCallUsage !== null) {
      node.cache = "unknown";
    }
    if (l.messagePos !== undefined && !inLastCall(l)) {
      node.source += "; not yet sent (after the last call)";
    }
    return { spec: l, node };
  };

  const groupSources: Record<string, string> = {
    workspace:
      "systemPromptReport.injectedWorkspaceFiles + project context frame (= systemPrompt.projectContextChars)",
    system: "systemPromptReport.systemPrompt.nonProjectContextChars − Σ skills",
    tools: "systemPromptReport.tools.schemaChars",
    skills: "systemPromptReport.skills.entries[].blockChars",
    "current-turn": "systemPromptReport.currentTurn (parts sent with the last run but never persisted)",
  };
  const children: MapNode[] = [];
  for (const g of MAP_GROUPS) {
    if (g.key === "conversation") {
      if (conv.length) children.push(conversationGroup(conv.map(toNode)));
      continue;
    }
    if (g.key === "untracked") continue;
    const leaves = byGroup[g.key] ?? [];
    if (leaves.length)
      children.push(
        groupNode(
          g.key,
          g.name,
          g.key,
          leaves.map((l) => toNode(l).node),
          groupSources[g.key] ?? g.name,
        ),
      );
  }

  const trackedChars = children.reduce((s, c) => s + c.chars, 0);
  const lastCallChars = order.reduce((s, l) => s + l.chars, 0);
  let untracked: ContextMapDTO["untracked"];
  if (actualTokens === null) {
    untracked = { tokens: null, reason: "not observed: no usage recorded for the last call" };
  } else {
    const diff = actualTokens - estimateTokens(lastCallChars);
    untracked =
      diff >= 0
        ? {
            tokens: diff,
            reason: `billed prompt tokens of the last call ${formatInt(actualTokens)} (input + cacheRead + cacheWrite) − ceil(${formatInt(lastCallChars)} tracked chars in that prompt / 4)`,
          }
        : {
            tokens: null,
            reason: `not observed: the tracked estimate (~${formatInt(estimateTokens(lastCallChars))} tok) exceeds the last call's billed ${formatInt(actualTokens)} tok`,
          };
  }
  if (untracked.tokens !== null && untracked.tokens > 0) {
    // Tokenizer view of the same difference, once no tile of that prompt waits for a count.
    let tik: number | null = null;
    if (tiktoken !== undefined && !order.some((l) => isPending(l, tiktoken)) && actualTokens !== null) {
      const tikSum = order.reduce((s, l) => {
        const n = nodesById.get(l.id);
        return s + (n ? (n.tiktokenTokens ?? n.estTokens) : 0);
      }, 0);
      if (actualTokens - tikSum >= 0) tik = actualTokens - tikSum;
    }
    children.push({
      id: "untracked",
      name: "Untracked / provider overhead",
      group: "untracked",
      chars: 0, // a token quantity only: not drawn in the chars mode
      estTokens: untracked.tokens,
      tiktokenTokens: tik,
      source: `${untracked.reason}: tool names/descriptions, message framing, provider-side text and tokenizer differences`,
      cache: "unknown",
    });
  }

  const allSpecs = [...Object.values(byGroup).flat(), ...conv];
  const tokenizable = allSpecs.filter(
    (l) => tiktoken !== undefined && ((l.text ?? "") !== "" || tiktoken.has(l.id)),
  );
  const pending = new Set(allSpecs.filter((l) => isPending(l, tiktoken)).map((l) => l.id));
  const root = groupNode("", "Context", "", children, "Σ groups");
  root.chars = trackedChars;
  if (tiktoken !== undefined) fillGroupTiktoken(root, pending);
  const counted = tokenizable.length - pending.size;

  return {
    root,
    groups: MAP_GROUPS.filter((g) => children.some((c) => c.group === g.key)),
    trackedChars,
    actualTokens,
    windowTokens,
    untracked,
    tokenizer: {
      state: tiktoken === undefined ? "unavailable" : counted === tokenizable.length ? "ready" : "pending",
      encoding: tiktoken === undefined ? null : (input.tiktokenEncoding ?? "cl100k_base"),
      progress: tokenizable.length > 0 ? counted / tokenizable.length : 1,
    },
    cacheBasis,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// OpenClaw's own map ("OpenClaw map" toggle)

/** 2026.3.2 has no `map` mode: its reply to `/context map` (spec context-report.md §5). */
export const MAP_UNKNOWN_MODE_2026_3 =
  "Unknown /context mode.\nUse: /context, /context list, /context detail, or /context json";

export type OpenClawMapResult =
  | { available: true; picture: OpenClawMapPicture }
  | { available: false; text: string };

/**
 * Exactly what `/context map` would show for this session's stored state: the picture + caption (2026.7.1 /
 * 2026.9.x rules by the session's version family), or OpenClaw's unavailable reply. The window is the entry's
 * `contextTokens` (OpenClaw resolves it when the command runs; they differ only if the model or caps changed).
 */
/**
 * Memo per transcript object (transcripts are replaced, never mutated, when the data changes) and stored
 * entry text: the OpenClaw picture weighs every conversation char (non-ASCII regex) and is asked for on
 * every map request, while it only changes when the session does.
 */
const openClawMapMemo = new WeakMap<
  LoadedSession["transcript"],
  { key: string; entries: number; result: OpenClawMapResult }
>();

export function buildOpenClawMap(session: LoadedSession): OpenClawMapResult {
  const key = `${session.version.family}\n${JSON.stringify(session.entry)}`;
  const hit = openClawMapMemo.get(session.transcript);
  if (hit && hit.key === key && hit.entries === session.transcript.entries.length) return hit.result;
  const result = computeOpenClawMap(session);
  openClawMapMemo.set(session.transcript, { key, entries: session.transcript.entries.length, result });
  return result;
}

function computeOpenClawMap(session: LoadedSession): OpenClawMapResult {
  const family = session.version.family;
  if (family === "2026.3") return { available: false, text: MAP_UNKNOWN_MODE_2026_3 };
  const report = session.entry ? (obj(session.entry, "systemPromptReport") ?? null) : null;
  if (!report || openClawMapUnavailable(report)) return { available: false, text: MAP_UNAVAILABLE_TEXT };
  const messages = openClawMapMessages(session.transcript.entries, session.transcript.activeBranch);
  const picture = layoutOpenClawMap({
    family,
    report,
    conversation: conversationBuckets(messages),
    freshTotalTokens: mapFreshTotalTokens(session.entry, family),
    windowTokens: num(session.entry, "contextTokens") ?? null,
  });
  return { available: true, picture };
}
