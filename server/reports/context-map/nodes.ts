// The MapNode tree of clawscope's map: group nodes summing their children, the display order and colours of
// the top-level groups, and the Conversation group's subgroups (user, assistant parts, tool results by tool,
// summaries, other).

import type { MapGroupInfo, MapNode } from "../../../shared/context-map.ts";
import { css, OPENCLAW_GROUP_COLORS } from "../../../shared/openclaw-colors.ts";
import type { LeafSpec } from "./leaf-spec.ts";

/** Group keys and display order; colours are OpenClaw's where OpenClaw has the group (spec §5.4). */
export const MAP_GROUPS: MapGroupInfo[] = [
  { key: "workspace", name: "Workspace files", color: css(OPENCLAW_GROUP_COLORS.workspace) },
  { key: "system", name: "System prompt", color: css(OPENCLAW_GROUP_COLORS.system) },
  { key: "tools", name: "Tool schemas", color: css(OPENCLAW_GROUP_COLORS.tools) },
  { key: "skills", name: "Skills", color: css(OPENCLAW_GROUP_COLORS.skills) },
  // clawscope's own teal: OpenClaw 2026.7.1's `Current turn` blue (72,135,197) is next to indistinguishable from its
  // Tool schemas blue (59,118,184) side by side (issue 15), and OpenClaw 9.x folds these leaves into Conversation.
  // Labels on its group fill read at 5.7:1.
  { key: "current-turn", name: "Current turn", color: "rgb(0,128,138)" },
  { key: "conversation", name: "Conversation", color: css(OPENCLAW_GROUP_COLORS.conversation) },
  // clawscope's own tile (OpenClaw has none): neutral slate.
  { key: "untracked", name: "Untracked / provider overhead", color: "rgb(120,128,140)" },
];

/** Where each report group's numbers come from. */
export const GROUP_SOURCES: Readonly<Record<string, string>> = {
  workspace:
    "systemPromptReport.injectedWorkspaceFiles + project context frame (= systemPrompt.projectContextChars)",
  system: "systemPromptReport.systemPrompt.nonProjectContextChars − Σ skills",
  tools: "systemPromptReport.tools.schemaChars",
  skills: "systemPromptReport.skills.entries[].blockChars",
  "current-turn": "systemPromptReport.currentTurn (parts sent with the last run but never persisted)",
};

/** A group node: Σ children's chars, estimates and cache splits (tiktokenTokens is filled once the tree exists). */
export function groupNode(
  id: string,
  name: string,
  group: string,
  children: MapNode[],
  source: string,
): MapNode {
  let chars = 0;
  let est = 0;
  for (const c of children) {
    chars += c.chars;
    est += c.estTokens;
  }
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

export interface PlacedLeaf {
  spec: LeafSpec;
  node: MapNode;
}

/** Groups leaves by a key into subgroup nodes, in first-seen order. */
function subgroups(
  leaves: readonly PlacedLeaf[],
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

const SENT = "as sent at the last call where the wire text is known";

/** Assistant → Text / Thinking / Tool calls, each only when it has leaves. */
function assistantGroup(under: (prefix: string) => PlacedLeaf[]): MapNode | null {
  const parts: [string, string, string][] = [
    ["text", "Text", "Σ assistant text blocks"],
    ["thinking", "Thinking", "Σ assistant thinking text"],
    ["tool-calls", "Tool calls", "Σ tool-call arguments JSON"],
  ];
  const children = parts.flatMap(([k, name, src]) => {
    const ls = under(`conversation/assistant/${k}/`);
    return ls.length
      ? [
          groupNode(
            `conversation/assistant/${k}`,
            name,
            "conversation",
            ls.map((l) => l.node),
            src,
          ),
        ]
      : [];
  });
  return children.length
    ? groupNode("conversation/assistant", "Assistant", "conversation", children, "Σ assistant messages sent")
    : null;
}

/** Tool results → one subgroup per tool (the id's third segment), in first-seen order. */
function toolResultsGroup(results: readonly PlacedLeaf[]): MapNode {
  const byTool = subgroups(
    results,
    (s) => s.id.split("/")[2] ?? "",
    (seg, nodes) =>
      groupNode(
        `conversation/tool-results/${seg}`,
        decodeURIComponent(seg),
        "conversation",
        nodes,
        `Σ ${decodeURIComponent(seg)} results (${SENT})`,
      ),
  );
  return groupNode(
    "conversation/tool-results",
    "Tool results",
    "conversation",
    byTool,
    `Σ tool results by tool (${SENT})`,
  );
}

/** The Conversation group of the conversation leaves (leaf ids carry their subgroup). */
export function conversationGroup(leaves: readonly PlacedLeaf[]): MapNode {
  const under = (prefix: string) => leaves.filter((l) => l.spec.id.startsWith(prefix));
  const flat = (id: string, name: string, prefix: string, source: string): MapNode[] => {
    const ls = under(prefix);
    return ls.length
      ? [
          groupNode(
            id,
            name,
            "conversation",
            ls.map((l) => l.node),
            source,
          ),
        ]
      : [];
  };
  const assistant = assistantGroup(under);
  const results = under("conversation/tool-results/");
  const children: MapNode[] = [
    ...flat("conversation/user", "User", "conversation/user/", "Σ user messages sent"),
    ...(assistant ? [assistant] : []),
    ...(results.length ? [toolResultsGroup(results)] : []),
    ...under("conversation/compaction-summary").map((l) => l.node),
    ...flat(
      "conversation/branch-summaries",
      "Branch summaries",
      "conversation/branch-summaries/",
      "Σ branch summaries sent",
    ),
    ...flat(
      "conversation/other",
      "Other",
      "conversation/other/",
      "Σ custom / bashExecution / other messages sent",
    ),
  ];
  return groupNode(
    "conversation",
    "Conversation",
    "conversation",
    children,
    "the model-context message list (transcript.md §7): string lengths of the messages sent (tool results as sent after pruning where known); images count 8,000 chars (OpenClaw's estimate)",
  );
}
