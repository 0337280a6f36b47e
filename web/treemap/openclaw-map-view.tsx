// SVG rendering of OpenClaw's `/context map` frame (1280 × 860, scaled to the available width).

import { useMemo } from "react";
import { drawOpenClawMap, type LabelLines, type OpenClawMapInput } from "./openclaw-map.ts";

const MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

function Label({ l }: { l: LabelLines | null }) {
  if (!l) return null;
  // 5×7 glyphs in a 6-wide cell: a monospace font of size ≈ 8.5·scale has a ~0.6 em advance = 6·scale... close.
  const size = 7 * l.scale * 1.15;
  return (
    <text x={l.x} y={l.y} fontFamily={MONO} fontSize={size} fill={l.color} pointerEvents="none">
      {l.lines.map((line, i) => (
        <tspan
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional (line i is drawn at row i)
          key={i}
          x={l.x}
          y={l.y + i * 9 * l.scale + 7 * l.scale}
          textLength={line.length * 6 * l.scale - l.scale}
          lengthAdjust="spacingAndGlyphs"
        >
          {line}
        </tspan>
      ))}
    </text>
  );
}

export function OpenClawMapView({ map, width }: { map: OpenClawMapInput; width: number }) {
  const d = useMemo(() => drawOpenClawMap(map), [map]);
  const w = Math.min(width, 1280 * 1.25);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={w}
      height={(w * 860) / 1280}
      viewBox="0 0 1280 860"
      role="img"
      aria-label="OpenClaw context map"
      data-testid="openclaw-map"
      shapeRendering="crispEdges"
    >
      <rect x={0} y={0} width={1280} height={860} fill="rgb(238,241,245)" />
      <rect x={0} y={0} width={1280} height={88} fill="rgb(20,26,34)" />
      <Label l={{ x: 22, y: 24, scale: 3, lines: [d.header.title], color: "rgb(248,250,252)" }} />
      <Label l={{ x: 22, y: 58, scale: 1, lines: [d.header.subtitle], color: "rgb(176,196,222)" }} />
      {d.groups.map((g) => (
        <g key={`${g.rect.x},${g.rect.y}`}>
          <rect
            x={g.rect.x}
            y={g.rect.y}
            width={g.rect.w}
            height={g.rect.h}
            fill={g.fill}
            stroke="rgb(14,18,22)"
            strokeWidth={3}
            data-testid="openclaw-group"
          />
          <Label l={g.label} />
        </g>
      ))}
      {d.leaves.map((l) => (
        <g key={`${l.rect.x},${l.rect.y}`}>
          <rect
            x={l.rect.x}
            y={l.rect.y}
            width={Math.max(0, l.rect.w)}
            height={Math.max(0, l.rect.h)}
            fill={l.fill}
            stroke="rgb(8,12,16)"
            strokeWidth={1}
            data-testid="openclaw-leaf"
          >
            <title>{l.title}</title>
          </rect>
          <Label l={l.label} />
        </g>
      ))}
      <rect x={984} y={110} width={274} height={674} fill="rgb(245,247,250)" stroke="rgb(213,220,228)" />
      <Label l={{ x: 1002, y: 128, scale: 2, lines: ["LEGEND"], color: "rgb(30,41,59)" }} />
      {d.legend.map((g) => (
        <g key={g.name}>
          <rect x={g.swatch.x} y={g.swatch.y} width={18} height={18} fill={g.color} stroke="rgb(15,23,42)" />
          <Label l={g.label} />
        </g>
      ))}
      <Label l={{ x: 22, y: 824, scale: 1, lines: [d.footer.replace(/~/g, " ")], color: "rgb(51,65,85)" }} />
    </svg>
  );
}
