// The pruning state of the map's tool-result tiles at one call (issue 15): which tiles were soft-trimmed or
// hard-cleared, their size stored vs as sent, and the Pruning tab's address of that tool result's preview. The
// states and sizes are the server's (GET …/sent/call: the faithful pruning replay and the projected texts); this
// only joins them to the tiles. Pure (the sent map, the latest map and tests share it).

import { carryCallParam } from "./call-numbering.ts";
import type { MapNode } from "./context-map.ts";
import { PRUNE_PARAM_KEYS } from "./prune-params.ts";
import type { SentViewDTO } from "./sent.ts";

/** Map ids of tool-result leaves: `conversation/tool-results/<tool>/<toolCallId>` (encoded segments). */
export const TOOL_RESULTS_PREFIX = "conversation/tool-results/";

export interface TilePruning {
  toolCallId: string;
  state: "full" | "soft-trim" | "hard-clear";
  /** Chars in the transcript and as sent at the call (the map's measure; sent = the tile's chars there). */
  storedChars: number;
  sentChars: number;
  /** 1-based call number (the turn scrubber's `?call=N`; the Pruning tab's row N, `call=N-1`). */
  call: number;
}

/** The toolCallId of a tool-result leaf's id, or null for any other tile. */
export function toolCallIdOf(id: string): string | null {
  if (!id.startsWith(TOOL_RESULTS_PREFIX)) return null;
  const last = id.slice(id.lastIndexOf("/") + 1);
  if (last === "" || id.indexOf("/", TOOL_RESULTS_PREFIX.length) < 0) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return null;
  }
}

type CallView = Pick<SentViewDTO, "toolResults" | "toolResultChars"> & { call: { call: number } };

/** Tool-result leaves of `root` with their state and sizes at the view's call, by tile id. */
export function tilePruningAt(root: MapNode, view: CallView): Map<string, TilePruning> {
  const out = new Map<string, TilePruning>();
  const walk = (n: MapNode): void => {
    if (n.children?.length) {
      for (const c of n.children) walk(c);
      return;
    }
    const toolCallId = toolCallIdOf(n.id);
    if (toolCallId === null) return;
    const state = view.toolResults[toolCallId];
    const chars = view.toolResultChars[toolCallId];
    if (!state || !chars) return;
    out.set(n.id, {
      toolCallId,
      state,
      storedChars: chars.stored,
      sentChars: chars.sent,
      call: view.call.call,
    });
  };
  walk(root);
  return out;
}

/** `root` with each trimmed / cleared tool-result tile's name ending in its state (the label's text cue). */
export function namedWithStates(root: MapNode, pruning: ReadonlyMap<string, TilePruning>): MapNode {
  if (pruning.size === 0) return root;
  const walk = (n: MapNode): MapNode => {
    if (n.children?.length) return { ...n, children: n.children.map(walk) };
    const p = pruning.get(n.id);
    return p && p.state !== "full" ? { ...n, name: `${n.name} · ${p.state}` } : n;
  };
  return walk(root);
}

/**
 * The URL parameters that open the Pruning tab on this tool result's before/after preview at the call (its row
 * N−1: shared/call-numbering.ts). The what-if parameters are cleared: the map's states are the session as run,
 * and so must the preview's be.
 */
export function pruningPreviewParams(p: TilePruning): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of PRUNE_PARAM_KEYS) out[k] = null;
  const call = carryCallParam("map", "pruning", String(p.call));
  return { ...out, tab: "pruning", call, tr: p.toolCallId, zoom: null };
}
