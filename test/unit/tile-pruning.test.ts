// shared/tile-pruning.ts: tool-result tiles joined to one call's states and sizes, their names, and the Pruning
// tab's address of a tile's preview (the map's call N is the Pruning tab's row N, `call=N-1`).
import { describe, expect, it } from "vitest";
import type { MapNode } from "../../shared/context-map.ts";
import { PRUNE_PARAM_KEYS } from "../../shared/prune-params.ts";
import {
  namedWithStates,
  pruningPreviewParams,
  tilePruningAt,
  toolCallIdOf,
} from "../../shared/tile-pruning.ts";

function leaf(id: string, name: string, chars: number): MapNode {
  return {
    id,
    name,
    group: "conversation",
    chars,
    estTokens: Math.ceil(chars / 4),
    tiktokenTokens: null,
    source: "",
  };
}

const trimmedId = "conversation/tool-results/exec/call%2F1";
const root: MapNode = {
  ...leaf("", "root", 0),
  children: [
    {
      ...leaf("conversation", "Conversation", 0),
      children: [
        leaf("conversation/user/e1", "#1 hi", 10),
        { ...leaf("conversation/tool-results/exec", "exec", 0), children: [leaf(trimmedId, "exec ls", 300)] },
        leaf("conversation/tool-results/read/c2", "read a", 50),
        leaf("conversation/tool-results/read/c3", "read b", 70),
      ],
    },
  ],
};

describe("toolCallIdOf", () => {
  it("decodes the last segment of a tool-result leaf id, null elsewhere", () => {
    expect(toolCallIdOf(trimmedId)).toBe("call/1");
    expect(toolCallIdOf("conversation/tool-results/exec")).toBeNull();
    expect(toolCallIdOf("conversation/user/e1")).toBeNull();
    expect(toolCallIdOf("conversation/tool-results/x/%E0%A4%A")).toBeNull();
  });
});

describe("tilePruningAt", () => {
  const view = {
    call: { call: 7 },
    toolResults: { "call/1": "soft-trim", c2: "full" } as const,
    toolResultChars: { "call/1": { stored: 4000, sent: 300 }, c2: { stored: 50, sent: 50 } },
  };
  const p = tilePruningAt(root, view);

  it("joins each tool-result leaf with a state and sizes at the call; leaves the rest out", () => {
    expect([...p.keys()].sort()).toEqual([trimmedId, "conversation/tool-results/read/c2"].sort());
    expect(p.get(trimmedId)).toEqual({
      toolCallId: "call/1",
      state: "soft-trim",
      storedChars: 4000,
      sentChars: 300,
      call: 7,
    });
  });

  it("names trimmed tiles with their state, untouched tiles as they were", () => {
    const named = namedWithStates(root, p);
    const conv = named.children?.[0]?.children ?? [];
    expect(conv[1]?.children?.[0]?.name).toBe("exec ls · soft-trim");
    expect(conv[2]?.name).toBe("read a");
    expect(namedWithStates(root, new Map())).toBe(root);
  });

  it("addresses the preview on the Pruning tab at row N (call=N-1), the what-if cleared", () => {
    const t = p.get(trimmedId);
    if (!t) throw new Error("missing");
    const params = pruningPreviewParams(t);
    expect(params).toMatchObject({ tab: "pruning", call: "6", tr: "call/1", zoom: null });
    for (const k of PRUNE_PARAM_KEYS) expect(params[k]).toBeNull();
  });
});
