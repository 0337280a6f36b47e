// A context map as a composition that two sessions share (issue 16 compare): tiles keyed by a stable path —
// the map's report tiles keep their ids (workspace/AGENTS.md, tools/read, system/…), conversation tiles are
// summed per kind (conversation/user, conversation/tool-results/<tool>, …: their last id segment names an entry
// or a tool call of one session only). Pure.

import type { CompareGroupDiffDTO } from "../../../shared/compare.ts";
import type { MapNode } from "../../../shared/context-map.ts";

/** The stable path of a leaf id. */
export function stablePath(id: string): string {
  if (!id.startsWith("conversation/")) return id;
  const parts = id.split("/");
  // conversation/<kind>/<entry>, conversation/assistant/<part>/<entry>, conversation/tool-results/<tool>/<id>
  const keep = parts[1] === "assistant" || parts[1] === "tool-results" ? 3 : 2;
  return parts.length > keep ? parts.slice(0, keep).join("/") : id;
}

/** Σ chars per stable path of a map tree's leaves, in first-seen order. */
export function composition(root: MapNode): { path: string; chars: number }[] {
  const sums = new Map<string, number>();
  const walk = (n: MapNode): void => {
    if (n.children?.length) {
      for (const c of n.children) walk(c);
      return;
    }
    if (!n.id) return;
    const p = stablePath(n.id);
    sums.set(p, (sums.get(p) ?? 0) + n.chars);
  };
  walk(root);
  return [...sums].map(([path, chars]) => ({ path, chars }));
}

/** The union of two compositions, a's order first. */
export function compositionDiff(
  a: readonly { path: string; chars: number }[],
  b: readonly { path: string; chars: number }[],
): CompareGroupDiffDTO[] {
  const out = new Map<string, CompareGroupDiffDTO>();
  for (const g of a) out.set(g.path, { path: g.path, aChars: g.chars, bChars: 0 });
  for (const g of b) {
    const row = out.get(g.path);
    if (row) row.bChars = g.chars;
    else out.set(g.path, { path: g.path, aChars: 0, bChars: g.chars });
  }
  return [...out.values()];
}
