// The composition diff of a comparison (issue 16) as a treemap: one tile per stable path (shared by both sides),
// sized by the larger of its two sizes, coloured by growth (b larger: warm) or shrink (b smaller: cool), grey
// when equal; a tile only one side has is fully saturated. The shared squarified layout (shared/treemap-layout.ts).

import { useMemo, useRef } from "react";
import type { CompareGroupDiffDTO } from "../../../shared/compare.ts";
import type { MapNode } from "../../../shared/context-map.ts";
import { fmtInt } from "../../../shared/format.ts";
import { layoutTreemap } from "../../../shared/treemap-layout.ts";
import { useMeasuredWidth } from "../../treemap/use-size.ts";

/** The diff's paths as a tree: first segment = group, the path = leaf; sized by max(a, b) chars. */
export function diffTree(groups: readonly CompareGroupDiffDTO[]): MapNode {
  const byGroup = new Map<string, MapNode[]>();
  for (const g of groups) {
    const chars = Math.max(g.aChars, g.bChars);
    if (chars === 0) continue;
    const group = g.path.split("/")[0] ?? g.path;
    const leaf: MapNode = {
      id: g.path,
      name: g.path.slice(group.length + 1) || g.path,
      group,
      chars,
      estTokens: Math.ceil(chars / 4),
      tiktokenTokens: null,
      source: "compare: max(a, b) chars",
    };
    byGroup.set(group, [...(byGroup.get(group) ?? []), leaf]);
  }
  const children = [...byGroup].map(([group, leaves]): MapNode => {
    const chars = leaves.reduce((s, l) => s + l.chars, 0);
    return {
      id: group,
      name: group,
      group,
      chars,
      estTokens: leaves.reduce((s, l) => s + l.estTokens, 0),
      tiktokenTokens: null,
      source: "Σ children",
      children: leaves,
    };
  });
  const chars = children.reduce((s, c) => s + c.chars, 0);
  return { id: "", name: "", group: "", chars, estTokens: 0, tiktokenTokens: null, source: "", children };
}

/** −1 … 1: (b − a) / max(a, b). */
export function growth(g: Pick<CompareGroupDiffDTO, "aChars" | "bChars">): number {
  const m = Math.max(g.aChars, g.bChars);
  return m === 0 ? 0 : (g.bChars - g.aChars) / m;
}

export function growthColor(x: number): string {
  if (x === 0) return "rgb(206,210,216)";
  const t = Math.min(1, Math.abs(x));
  const mix = (from: number, to: number) => Math.round(from + (to - from) * (0.25 + 0.75 * t));
  return x > 0
    ? `rgb(${mix(240, 200)},${mix(220, 60)},${mix(210, 50)})`
    : `rgb(${mix(215, 40)},${mix(228, 110)},${mix(245, 200)})`;
}

export function DiffTreemap({ groups, title }: { groups: readonly CompareGroupDiffDTO[]; title: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const measured = useMeasuredWidth(boxRef);
  const width = Math.max(320, measured ?? 0);
  const height = Math.max(280, Math.min(560, Math.round(width * 0.45)));
  const byPath = useMemo(() => new Map(groups.map((g) => [g.path, g])), [groups]);
  const layout = useMemo(
    () => (measured === null ? null : layoutTreemap(diffTree(groups), { width, height, mode: "chars" })),
    [groups, measured, width, height],
  );
  return (
    <div className="map-canvas" ref={boxRef} data-testid="compare-treemap">
      {layout ? (
        <svg width={width} height={height} role="img" aria-label={title}>
          <title>{title}</title>
          {layout.rects.map((r) => {
            const g = byPath.get(r.id);
            if (r.isGroup || !g)
              return (
                <g key={r.id}>
                  <rect x={r.x} y={r.y} width={r.w} height={r.h} fill="none" stroke="#889" />
                  {r.header > 0 ? (
                    <text x={r.x + 4} y={r.y + r.header - 4} fontSize={11} fill="#334">
                      {r.name}
                    </text>
                  ) : null}
                </g>
              );
            const label = `${g.path}: ${fmtInt(g.aChars)} → ${fmtInt(g.bChars)} chars`;
            return (
              <g key={r.id} data-testid="diff-tile" data-path={g.path} data-growth={growth(g).toFixed(3)}>
                <rect x={r.x} y={r.y} width={r.w} height={r.h} fill={growthColor(growth(g))} stroke="#fff">
                  <title>{label}</title>
                </rect>
                {r.w > 60 && r.h > 16 ? (
                  <text x={r.x + 3} y={r.y + 12} fontSize={10} fill="#112" pointerEvents="none">
                    {r.name.length * 6 > r.w
                      ? `${r.name.slice(0, Math.max(1, Math.floor(r.w / 6) - 1))}…`
                      : r.name}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      ) : (
        <div style={{ height }} />
      )}
      <div className="muted small">
        Tile area: the larger of the two sides' chars; <span style={{ color: growthColor(1) }}>■</span> grew
        in b, <span style={{ color: growthColor(-1) }}>■</span> shrank in b, grey unchanged.
      </div>
    </div>
  );
}
