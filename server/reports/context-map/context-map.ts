// clawscope's context map: the complete, interactive version of OpenClaw's `/context map` (spec context-report.md
// §5.4). Same report-derived groups and leaf values as OpenClaw's map (workspace files, system prompt, tool
// schemas, skills) plus the current turn's unpersisted parts, the conversation actually sent (one leaf per
// message part / tool result) and an "Untracked / provider overhead" tile. When a billed call exists the map is
// that call's prompt: messages written after it (its reply, a newer turn) are counted in `numbers.afterLastCall`,
// not drawn, so the tiles and the untracked tile add up to the bill (context-numbers.ts). Pure: data in, DTO out.
// This file composes: leaves (leaves.ts, report-leaves.ts) → cache split at the last call (cache-split.ts) →
// nodes (nodes.ts) → untracked and the numbers (context-numbers.ts, untracked.ts) → tokenizer state (token-texts.ts).

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import type { JsonObject } from "../../../shared/json.ts";
import { promptTokensOf } from "../../../shared/pricing.ts";
import type { ContextMessage, LoadedSession } from "../../model/session.ts";
import { readSystemPromptReport } from "../../model/system-prompt-report.ts";
import { freshTotalTokens } from "../../openclaw/context-text/session-tokens.ts";
import { FALLBACK_CONTEXT_WINDOW } from "../../openclaw/pruning/context-window.ts";
import { contextNumbers, contextWindowOf, openclawNumbersOf, untrackedOf } from "../context-numbers.ts";
import { splitCache } from "./cache-split.ts";
import { IdAllocator, type LastCallUsage, type LeafSpec, lastCallReplyPos } from "./leaf-spec.ts";
import { conversationLeaves } from "./leaves.ts";
import { conversationGroup, GROUP_SOURCES, groupNode, MAP_GROUPS, type PlacedLeaf } from "./nodes.ts";
import { type ReportGroup, reportLeaves } from "./report-leaves.ts";
import { leafNode, tokenizerState } from "./token-texts.ts";
import { untrackedNode } from "./untracked.ts";

export type { LastCallUsage } from "./leaf-spec.ts";

export interface BuildContextMapInput {
  session: LoadedSession;
  /** The stored `systemPromptReport` (null when the session has none). */
  report: JsonObject | null;
  /** The model-context list (transcript.md §7), projections applied: what was actually sent. */
  contextMessages: ContextMessage[];
  /** Usage of the last model call, null when unknown. */
  lastCallUsage: LastCallUsage | null;
  /** The SessionEntry's window, when `contextWindow` is not given. */
  windowTokens: number | null;
  /** The window OpenClaw's pruner resolves for the session (openclaw/pruning/context-window.ts). */
  contextWindow?: { tokens: number; source: string };
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

const REPORT_GROUPS: readonly string[] = ["workspace", "system", "tools", "skills", "current-turn"];

function isReportGroup(key: string): key is ReportGroup {
  return REPORT_GROUPS.includes(key);
}

/** Which conversation leaves are the last call's prompt, and why the tiles may not be that prompt. */
function lastCallPrompt(input: BuildContextMapInput, conv: readonly LeafSpec[]) {
  const usage = input.lastCallUsage;
  const replyPos = lastCallReplyPos(input.contextMessages, usage?.entryIndex);
  // Without a billed call (or when its reply is not in the list) every leaf is shown: there is no prompt to match.
  const cut = usage !== null && replyPos !== null;
  const shown = cut ? conv.filter((l) => l.messagePos === undefined || l.messagePos < replyPos) : [...conv];
  const dropped = cut ? conv.filter((l) => l.messagePos !== undefined && l.messagePos >= replyPos) : [];
  return {
    replyPos,
    shown,
    afterLastCall: {
      messages: cut ? input.contextMessages.length - replyPos : 0,
      chars: dropped.reduce((s, l) => s + l.chars, 0),
    },
    notComparable:
      usage !== null && replyPos === null
        ? "the last call's reply is not in the current model-context list (a compaction or reset came after it)"
        : null,
  };
}

function windowOf(input: BuildContextMapInput) {
  if (input.contextWindow) return contextWindowOf(input.contextWindow);
  return input.windowTokens !== null && input.windowTokens > 0
    ? contextWindowOf({ tokens: input.windowTokens, source: "SessionEntry.contextTokens" })
    : contextWindowOf({ tokens: FALLBACK_CONTEXT_WINDOW, source: `default ${FALLBACK_CONTEXT_WINDOW}` });
}

/** The map's groups in MAP_GROUPS order: the report's groups, and the conversation's leaves up to the last call. */
function groupNodes(
  byGroup: ReturnType<typeof reportLeaves>,
  shown: readonly LeafSpec[],
  place: (l: LeafSpec) => PlacedLeaf,
): MapNode[] {
  const children: MapNode[] = [];
  for (const g of MAP_GROUPS) {
    if (g.key === "conversation") {
      if (shown.length) children.push(conversationGroup(shown.map(place)));
    } else if (isReportGroup(g.key)) {
      const leaves = byGroup[g.key];
      if (leaves.length)
        children.push(
          groupNode(
            g.key,
            g.name,
            g.key,
            leaves.map((l) => place(l).node),
            GROUP_SOURCES[g.key] ?? g.name,
          ),
        );
    }
  }
  return children;
}

/** Builds clawscope's complete context map (see file header). */
export function buildContextMap(input: BuildContextMapInput): ContextMapDTO {
  const { report, contextMessages, lastCallUsage: usage, tiktoken, session } = input;
  const view = report ? readSystemPromptReport(report) : null;
  const ids = new IdAllocator();
  const byGroup = reportLeaves(view, ids);
  const conv = conversationLeaves(session, contextMessages, ids, input.sentToolResultText);
  const prompt = lastCallPrompt(input, conv);

  // Prompt order on the wire (Anthropic: tools, system, messages; runtime context at the tail): used to place the
  // last call's cache boundaries. Within the system prompt, the project context runs to the end (spec §2).
  const order: LeafSpec[] = [
    ...byGroup.tools,
    ...byGroup.system,
    ...byGroup.skills,
    ...byGroup.workspace,
    ...prompt.shown,
    ...byGroup["current-turn"],
  ];
  const billed = usage ? promptTokensOf(usage) : null;
  const cache = splitCache(order, usage, prompt.replyPos);

  const nodesById = new Map<string, MapNode>();
  const children = groupNodes(byGroup, prompt.shown, (l) => {
    const node = leafNode(l, tiktoken);
    nodesById.set(l.id, node);
    const c = cache.byLeaf.get(l.id);
    if (c) {
      node.cache = c.state;
      node.cacheTokens = c.split;
    } else if (l.messagePos !== undefined || usage !== null) node.cache = "unknown";
    return { spec: l, node };
  });
  const trackedTokens = children.reduce((s, c) => s + c.estTokens, 0);
  const untracked = untrackedOf(billed, { tokens: trackedTokens, tiles: order.length }, prompt.notComparable);
  const tile = untracked.tokens !== null && untracked.tokens >= 0 ? untracked.tokens : null;
  const numbers = contextNumbers({
    billed,
    groups: children.map((c) => ({ key: c.group, name: c.name, chars: c.chars, tokens: c.estTokens })),
    tiles: order.length,
    untracked,
    images: order.reduce((s, l) => s + (l.images ?? 0), 0),
    report: view,
    window: windowOf(input),
    afterLastCall: prompt.afterLastCall,
    openclaw: openclawNumbersOf(
      view,
      session.entry ? (freshTotalTokens(session.entry, session.version.family) ?? null) : null,
    ),
  });
  const untrackedTile = untrackedNode(
    { tokens: tile, reason: untracked.reason },
    billed,
    order,
    nodesById,
    tiktoken,
  );
  if (untrackedTile) children.push(untrackedTile);

  const root = groupNode("", "Context", "", children, "Σ groups");
  root.chars = numbers.trackedChars;
  return {
    root,
    groups: MAP_GROUPS.filter((g) => children.some((c) => c.group === g.key)),
    trackedChars: numbers.trackedChars,
    trackedTokens: numbers.trackedTokens,
    actualTokens: billed,
    windowTokens: numbers.contextWindow.assumed ? null : numbers.contextWindow.tokens,
    untracked: { tokens: tile, reason: untracked.reason },
    tokenizer: tokenizerState(
      root,
      [...Object.values(byGroup).flat(), ...prompt.shown],
      tiktoken,
      input.tiktokenEncoding,
    ),
    cacheBasis: cache.basis,
    numbers,
  };
}
