// The treemap's cue for a pruned tool result (issue 15), not by colour alone: a soft-trimmed tile is hatched one
// way, a hard-cleared one cross-hatched, in the tile's own label colour (dark on light fills, light on dark) at low
// opacity, under the label. SVG patterns as presentation attributes, so the PNG export draws them too.

import { TEXT_DARK, TEXT_LIGHT } from "../../shared/openclaw-colors.ts";
import type { TilePruning } from "../../shared/tile-pruning.ts";
import type { TileRect } from "../../shared/treemap-layout.ts";

const INK = { dark: TEXT_DARK, light: TEXT_LIGHT } as const;
type Ink = keyof typeof INK;

function patternId(state: "soft-trim" | "hard-clear", ink: Ink): string {
  return `prune-hatch-${state}-${ink}`;
}

/** The four patterns (two states × two inks); drawn once per treemap inside its <svg>. */
export function PruneHatchDefs() {
  const out = [];
  for (const ink of ["dark", "light"] as const)
    for (const state of ["soft-trim", "hard-clear"] as const)
      out.push(
        <pattern
          key={patternId(state, ink)}
          id={patternId(state, ink)}
          width={7}
          height={7}
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <line x1={0} y1={0} x2={0} y2={7} stroke={INK[ink]} strokeWidth={1.6} opacity={0.45} />
          {state === "hard-clear" ? (
            <line x1={0} y1={3.5} x2={7} y2={3.5} stroke={INK[ink]} strokeWidth={1.6} opacity={0.45} />
          ) : null}
        </pattern>,
      );
  return <defs>{out}</defs>;
}

/** The hatch over a trimmed / cleared tile (null for a tile sent in full); `labelColor` is textOn(fill). */
export function PruneHatch({ r, p, labelColor }: { r: TileRect; p: TilePruning; labelColor: string }) {
  if (p.state === "full") return null;
  const ink: Ink = labelColor === INK.light ? "light" : "dark";
  return (
    <rect
      {...{ x: r.x, y: r.y, width: r.w, height: r.h }}
      fill={`url(#${patternId(p.state, ink)})`}
      pointerEvents="none"
      data-tile={r.id}
      data-prune={p.state}
      data-testid="treemap-prune-hatch"
    />
  );
}

/** Words for a state in the details panel. */
export const PRUNE_STATE_LABEL: Record<TilePruning["state"], string> = {
  full: "sent in full",
  "soft-trim": "soft-trimmed (head … tail)",
  "hard-clear": "hard-cleared (placeholder)",
};
