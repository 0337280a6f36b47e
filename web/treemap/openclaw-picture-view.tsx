// SVG rendering of OpenClaw's `/context map` frame exactly as the server laid it out
// (server/openclaw/context-map/picture.ts → ContextMapDTO.openclaw.picture, spec context-report.md §5.4): every rect,
// fill, border and text run comes from the DTO; this file only turns them into SVG elements, scaled to the
// available width. Borders are bands INSIDE their rect (as OpenClaw paints them), so they are drawn as a stroke
// inset by half its width. Glyphs are a monospace font stretched to OpenClaw's 6·scale advance, not its 5×7
// bitmap font.

import type { DrawText, OpenClawMapPicture, Rect } from "../../shared/openclaw-picture.ts";

const MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

function Texts({ lines }: { lines: readonly DrawText[] }) {
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

/** A filled rect of the picture (with an optional test id and tooltip). */
function Fill({ r, fill, testId, title }: { r: Rect; fill: string; testId?: string; title?: string }) {
  return (
    <rect x={r.x} y={r.y} width={r.width} height={r.height} fill={fill} data-testid={testId}>
      {title !== undefined ? <title>{title}</title> : null}
    </rect>
  );
}

/** A border band of `width` px drawn inside `r`. */
function InsetBorder({ r, color, width }: { r: Rect; color: string; width: number }) {
  const h = width / 2;
  if (r.width <= width || r.height <= width) return null;
  return (
    <rect
      x={r.x + h}
      y={r.y + h}
      width={r.width - width}
      height={r.height - width}
      fill="none"
      stroke={color}
      strokeWidth={width}
      pointerEvents="none"
    />
  );
}

export function OpenClawPictureView({ picture: p, width }: { picture: OpenClawMapPicture; width: number }) {
  // Fit the frame in the viewport height at 1280 × 800 and wider.
  const w = Math.min(width, 1600, Math.max(640, ((window.innerHeight - 230) * p.width) / p.height));
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={w}
      height={(w * p.height) / p.width}
      viewBox={`0 0 ${p.width} ${p.height}`}
      role="img"
      aria-label="OpenClaw context map"
      data-testid="openclaw-map"
    >
      <Fill r={{ x: 0, y: 0, width: p.width, height: p.height }} fill={p.background} />
      <Fill r={p.header.rect} fill={p.header.fill} />
      <Texts lines={[p.header.title, p.header.subtitle]} />
      {p.groups.map((g) => (
        <g key={g.key}>
          <Fill r={g.rect} fill={g.fill} testId="openclaw-group" />
          <InsetBorder r={g.rect} color={g.border} width={3} />
          {g.leaves.map((l) => (
            <g key={`${l.rect.x},${l.rect.y}`}>
              <Fill
                r={l.fillRect}
                fill={l.fill}
                testId="openclaw-leaf"
                title={`${g.name} › ${l.name}: ${l.value} chars (~${l.tokens} tok)`}
              />
              <InsetBorder r={l.fillRect} color={l.border} width={1} />
              <Texts lines={l.labelLines} />
            </g>
          ))}
        </g>
      ))}
      {p.groups.map((g) => (
        <Texts key={`label-${g.key}`} lines={g.labelLines} />
      ))}
      <Fill r={p.legend.panel} fill={p.legend.fill} />
      <InsetBorder r={p.legend.panel} color={p.legend.border} width={1} />
      <Texts lines={[p.legend.title]} />
      {p.legend.items.map((it) => (
        <g key={it.name}>
          <Fill r={it.swatch} fill={it.color} />
          <InsetBorder r={it.swatch} color={it.swatchBorder} width={1} />
          <Texts lines={it.labelLines} />
        </g>
      ))}
      <Texts lines={[p.footer]} />
    </svg>
  );
}
