// SVG rendering of OpenClaw's `/context map` frame (1280 × 860, scaled to the available width). Glyphs are a
// monospace font stretched to OpenClaw's 6·scale advance, not its 5×7 bitmap font.

import type { DrawText, OpenClawDrawing } from "./openclaw-map.ts";

const MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

function Texts({ lines }: { lines: DrawText[] }) {
  return (
    <>
      {lines.map((l) => (
        <text
          key={`${l.x},${l.y}`}
          x={l.x}
          y={l.y + 7 * l.scale}
          fontFamily={MONO}
          fontSize={8.5 * l.scale}
          fill={l.color}
          pointerEvents="none"
          textLength={l.text.length > 0 ? l.text.length * 6 * l.scale - l.scale : undefined}
          lengthAdjust="spacingAndGlyphs"
          xmlSpace="preserve"
        >
          {l.text}
        </text>
      ))}
    </>
  );
}

export function OpenClawMapView({ drawing: d, width }: { drawing: OpenClawDrawing; width: number }) {
  // Fit the 1280 × 860 frame in the viewport height at 1280 × 800 and wider.
  const w = Math.min(width, 1600, Math.max(640, ((window.innerHeight - 230) * 1280) / 860));
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={w}
      height={(w * 860) / 1280}
      viewBox="0 0 1280 860"
      role="img"
      aria-label="OpenClaw context map"
      data-testid="openclaw-map"
    >
      <rect x={0} y={0} width={1280} height={860} fill="rgb(238,241,245)" />
      <rect x={0} y={0} width={1280} height={88} fill="rgb(20,26,34)" />
      <Texts lines={[d.title, d.subtitle]} />
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
          <Texts lines={l.label} />
        </g>
      ))}
      {d.groups.map((g) => (
        <Texts key={`label-${g.rect.x},${g.rect.y}`} lines={g.label} />
      ))}
      <rect x={984} y={110} width={274} height={674} fill="rgb(245,247,250)" stroke="rgb(213,220,228)" />
      <Texts lines={[{ x: 1002, y: 128, scale: 2, text: "LEGEND", color: "rgb(30,41,59)" }]} />
      {d.legend.map((g) => (
        <g key={g.name}>
          <rect
            x={g.swatch.x}
            y={g.swatch.y}
            width={g.swatch.w}
            height={g.swatch.h}
            fill={g.color}
            stroke="rgb(15,23,42)"
          />
          <Texts lines={g.label} />
        </g>
      ))}
      <Texts lines={[d.footer]} />
    </svg>
  );
}
