// clawscope's context map: the complete, interactive version of OpenClaw's `/context map` (spec context-report.md
// §5.4). Same report-derived groups and leaf values as OpenClaw's map (workspace files, system prompt, tool
// schemas, skills) plus the current turn's unpersisted parts, the conversation actually sent (one leaf per
// message part / tool result) and an "Untracked / provider overhead" tile. Pure: data in, DTO out.
// This file composes: leaves (leaves.ts, report-leaves.ts) → cache split at the last call (cache-split.ts) →
// nodes (nodes.ts) → untracked (untracked.ts) → tokenizer state (token-texts.ts).

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import type { JsonObject } from "../../../shared/json.ts";
import { promptTokensOf } from "../../../shared/pricing.ts";
import type { ContextMessage, LoadedSession } from "../../model/session.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import { splitCache } from "./cache-split.ts";
import { IdAllocator, type LastCallUsage, type LeafSpec, lastCallReplyPos } from "./leaf-spec.ts";
import { conversationLeaves } from "./leaves.ts";
import { conversationGroup, GROUP_SOURCES, groupNode, MAP_GROUPS, type PlacedLeaf } from "./nodes.ts";
import { type ReportGroup, reportLeaves } from "./report-leaves.ts";
import { leafNode, tokenizerState } from "./token-texts.ts";
import { untrackedNode, untrackedOf } from "./untracked.ts";

export type { LastCallUsage } from "./leaf-spec.ts";

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

const REPORT_GROUPS: readonly string[] = ["workspace", "system", "tools", "skills", "current-turn"];

function isReportGroup(key: string): key is ReportGroup {
  return REPORT_GROUPS.includes(key);
}

/** Builds clawscope's complete context map (see file header). */
export function buildContextMap(input: BuildContextMapInput): ContextMapDTO {
  const { report, contextMessages, lastCallUsage: usage, tiktoken } = input;
  const ids = new IdAllocator();
  const byGroup = reportLeaves(report, ids);
  const conv = conversationLeaves(input.session, contextMessages, ids, input.sentToolResultText);

  // Which conversation leaves were in the last call's prompt.
  const replyPos = lastCallReplyPos(contextMessages);
  const inLastCall = (l: LeafSpec) =>
    l.messagePos === undefined || (replyPos !== null && l.messagePos < replyPos);
  // Prompt order on the wire (Anthropic: tools, system, messages; runtime context at the tail): used to place the
  // last call's cache boundaries. Within the system prompt, the project context runs to the end (spec §2).
  const order: LeafSpec[] = [
    ...byGroup.tools,
    ...byGroup.system,
    ...byGroup.skills,
    ...byGroup.workspace,
    ...conv.filter(inLastCall),
    ...byGroup["current-turn"],
  ];
  const billed = usage ? promptTokensOf(usage) : null;
  const cache = splitCache(order, usage, replyPos);

  const nodesById = new Map<string, MapNode>();
  const place = (l: LeafSpec): PlacedLeaf => {
    const node = leafNode(l, tiktoken);
    nodesById.set(l.id, node);
    const c = cache.byLeaf.get(l.id);
    if (c) {
      node.cache = c.state;
      node.cacheTokens = c.split;
    } else if (l.messagePos !== undefined || usage !== null) node.cache = "unknown";
    if (l.messagePos !== undefined && !inLastCall(l)) node.source += "; not yet sent (after the last call)";
    return { spec: l, node };
  };

  const children: MapNode[] = [];
  for (const g of MAP_GROUPS) {
    if (g.key === "conversation") {
      if (conv.length) children.push(conversationGroup(conv.map(place)));
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
  const trackedChars = children.reduce((s, c) => s + c.chars, 0);
  const untracked = untrackedOf(billed, order);
  const untrackedTile = untrackedNode(untracked, billed, order, nodesById, tiktoken);
  if (untrackedTile) children.push(untrackedTile);

  const root = groupNode("", "Context", "", children, "Σ groups");
  root.chars = trackedChars;
  const allLeaves = [...Object.values(byGroup).flat(), ...conv];
  return {
    root,
    groups: MAP_GROUPS.filter((g) => children.some((c) => c.group === g.key)),
    trackedChars,
    trackedTokens: tokensFromChars(trackedChars),
    actualTokens: billed,
    windowTokens: input.windowTokens,
    untracked,
    tokenizer: tokenizerState(root, allLeaves, tiktoken, input.tiktokenEncoding),
    cacheBasis: cache.basis,
  };
}
