// The export's context map: the app's treemap (shared/treemap-layout.ts, shared/treemap-style.ts) as static
// inline SVG — the same squarified layout, OpenClaw's group / leaf shading, borders and labels as on screen, in
// the app's "Est. tokens" size mode (OpenClaw's chars/4 estimate; the untracked tile has only tokens). Every
// data string goes through the `html` template (server/export/html.ts).

import type { ContextMapDTO } from "../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../shared/format.ts";
import { css, textOn } from "../../shared/openclaw-colors.ts";
import { layoutTreemap, subtreeSize, type TileRect } from "../../shared/treemap-layout.ts";
import {
  groupColors,
  TILE_FONT,
  type TileLabel,
  tileFill,
  tileLabel,
  tileStroke,
} from "../../shared/treemap-style.ts";
import { type Html, html, text } from "./html.ts";

/** OpenClaw's `/context map` frame size: the export's map reads at the same scale. */
const MAP_W = 1280;
const MAP_H = 860;
const MODE = "estTokens";

function label(r: TileRect, l: TileLabel, color: string): Html | "" {
  if (!l) return "";
  const x = r.x + 4;
  const y = r.y + TILE_FONT.baseline;
  if (l.kind === "group")
    return html`<text x="${x}" y="${y}" font-size="${TILE_FONT.name}" font-weight="600" fill="${color}">${l.text}</text>`;
  const size =
    l.size === null
      ? ""
      : html`<text x="${x}" y="${y + TILE_FONT.lineGap}" font-size="${TILE_FONT.size}" fill="${color}" opacity="0.85">${l.size}</text>`;
  return html`<text x="${x}" y="${y}" font-size="${TILE_FONT.name}" fill="${color}">${l.name}</text>${size}`;
}

function tile(
  r: TileRect,
  colors: ReadonlyMap<string, readonly [number, number, number]>,
  total: number,
): Html {
  const fill = tileFill(r, colors);
  const stroke = tileStroke(r);
  const size = `~${fmtInt(r.value)} tok`;
  const tip = `${r.name} — ~${fmtInt(r.value)} tokens (${fmtPct(r.value / total)}), ${fmtInt(r.node.chars)} chars`;
  return html`<g><title>${tip}</title><rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="${css(fill)}" stroke="${stroke.color}" stroke-width="${stroke.width}"></rect>${label(r, tileLabel(r, size), textOn(fill))}</g>`;
}

export function renderTreemapSvg(map: ContextMapDTO): Html {
  const layout = layoutTreemap(map.root, { width: MAP_W, height: MAP_H, mode: MODE });
  const total = layout.total;
  if (total <= 0) return html`<p class="muted">The map is empty (no stored report and no conversation).</p>`;
  const colors = groupColors(map.groups);
  const tiles = layout.rects.map((r) => tile(r, colors, total));
  // The legend as in the app: the DTO's groups in display order, each with its share of the whole map.
  const legend = map.groups.map((g) => {
    let value = 0;
    for (const c of map.root.children ?? []) if (c.group === g.key) value += subtreeSize(c, MODE);
    const swatch = css(colors.get(g.key) ?? [120, 128, 140]);
    return html`<li><span class="sw" style="background:${swatch}"></span>${text(g.name)} <b>${fmtPct(value / total)}</b> <span class="muted">~${fmtInt(value)} tok</span></li>`;
  });
  const culled =
    layout.culled > 0 ? `; ${fmtInt(layout.culled)} tiles too small to draw at this size are left out` : "";
  const windowText = map.windowTokens === null ? "" : `; context window ${fmtInt(map.windowTokens)} tokens`;
  const billed =
    map.actualTokens === null ? "no billed usage recorded" : `last call billed ${fmtInt(map.actualTokens)}`;
  return html`<figure class="map">
<figcaption>Context map — ~${fmtInt(total)} tokens (OpenClaw's chars/4 estimates), ${billed}${windowText}${culled}</figcaption>
<svg viewBox="0 0 ${MAP_W} ${MAP_H}" width="100%" role="img" aria-label="context map treemap">${tiles}</svg>
<ul class="legend">${legend}</ul>
</figure>`;
}
