// OpenClaw's own `/context map` picture, reproduced geometrically: five groups, recursive binary split,
// 1280 × 860 canvas (spec context-report.md §5.4). The group / leaf VALUES come from the server (they need
// the transcript and OpenClaw's per-role estimates); this file only lays them out and styles them, exactly
// as the spec describes. Text is drawn with a monospace SVG font, not OpenClaw's 5×7 bitmap font, so glyphs
// differ; positions, label truncation and colours follow the spec.

import { isArray, isObject, num, str } from "../../shared/json.ts";
import type { ContextMapDTO } from "../../shared/map.ts";
import { css, groupFill, mix, parseRgb, type Rgb } from "./colors.ts";

export interface OpenClawMapInput {
  groups: { name: string; color: Rgb; leaves: { name: string; value: number }[] }[];
  /** `<SOURCE> / <provider> / <model>` header line parts. */
  source: string;
  provider: string | null;
  model: string | null;
  actualTokens: number | null;
  windowTokens: number | null;
}

function readBox(v: unknown): Box | null {
  if (!isObject(v)) return null;
  const x = num(v, "x");
  const y = num(v, "y");
  const w = num(v, "width") ?? num(v, "w");
  const h = num(v, "height") ?? num(v, "h");
  return x === undefined || y === undefined || w === undefined || h === undefined ? null : { x, y, w, h };
}

function readText(v: unknown): DrawText | null {
  if (!isObject(v)) return null;
  const x = num(v, "x");
  const y = num(v, "y");
  const text = str(v, "text");
  if (x === undefined || y === undefined || text === undefined) return null;
  return { x, y, text, scale: num(v, "scale") ?? 1, color: str(v, "color") ?? "rgb(16,23,31)" };
}

function readTexts(v: unknown): DrawText[] {
  if (!isArray(v)) return [];
  const out: DrawText[] = [];
  for (const t of v) {
    const d = readText(t);
    if (d) out.push(d);
  }
  return out;
}

/**
 * The server's exact picture (server/openclaw/context-map.ts OpenClawMapPicture: groups with rects, fills,
 * label lines, leaves, legend, footer), when the map DTO carries it as `openclaw.picture` or `openclaw`.
 */
export function readOpenClawPicture(dto: ContextMapDTO): OpenClawDrawing | null {
  const rawField: unknown = Reflect.get(dto, "openclaw") ?? Reflect.get(dto, "openclawMap");
  const raw: unknown = isObject(rawField) && isObject(rawField.picture) ? rawField.picture : rawField;
  if (!isObject(raw) || !isArray(raw.groups) || !isObject(raw.header)) return null;
  const title = readText(raw.header.title);
  const subtitle = readText(raw.header.subtitle);
  const footer = readText(raw.footer);
  if (!title || !subtitle || !footer) return null;
  const d: OpenClawDrawing = {
    groups: [],
    leaves: [],
    legend: [],
    title,
    subtitle,
    footer,
    tracked: num(raw, "trackedChars") ?? 0,
  };
  for (const g of raw.groups) {
    if (!isObject(g)) continue;
    const rect = readBox(g.rect);
    if (!rect) continue;
    d.groups.push({ rect, fill: str(g, "fill") ?? "rgb(90,90,90)", label: readTexts(g.labelLines) });
    if (isArray(g.leaves))
      for (const l of g.leaves) {
        if (!isObject(l)) continue;
        const fr = readBox(l.fillRect) ?? readBox(l.rect);
        if (!fr) continue;
        const value = num(l, "value") ?? 0;
        d.leaves.push({
          rect: fr,
          fill: str(l, "fill") ?? "rgb(200,200,200)",
          label: readTexts(l.labelLines),
          title: `${str(g, "name") ?? ""} › ${str(l, "name") ?? ""}: ${value} chars (~${Math.ceil(value / 4)} tok)`,
        });
      }
  }
  const legend = isObject(raw.legend) && isArray(raw.legend.items) ? raw.legend.items : [];
  for (const it of legend) {
    if (!isObject(it)) continue;
    const swatch = readBox(it.swatch);
    if (!swatch) continue;
    d.legend.push({
      swatch,
      color: str(it, "color") ?? "rgb(0,0,0)",
      label: readTexts(it.labelLines),
      name: str(it, "name") ?? "",
      pct: num(it, "pct") ?? 0,
    });
  }
  return d;
}

/** The OpenClaw drawing: the server's exact picture when present, else laid out here from its values. */
export function readOpenClawDrawing(dto: ContextMapDTO): OpenClawDrawing | null {
  const pic = readOpenClawPicture(dto);
  if (pic) return pic;
  const values = readOpenClawMap(dto);
  return values ? drawOpenClawMap(values) : null;
}

/**
 * Reads the OpenClaw map values from the DTO, if the server sent them (field `openclaw` or `openclawMap`:
 * `{groups: [{name, color, leaves: [{name, value}]}], source?, provider?, model?}`). Null when absent.
 */
export function readOpenClawMap(dto: ContextMapDTO): OpenClawMapInput | null {
  const raw: unknown = Reflect.get(dto, "openclaw") ?? Reflect.get(dto, "openclawMap");
  if (!isObject(raw)) return null;
  const groupsRaw = raw.groups;
  if (!isArray(groupsRaw)) return null;
  const groups: OpenClawMapInput["groups"] = [];
  for (const g of groupsRaw) {
    if (!isObject(g)) continue;
    const leavesRaw = g.leaves;
    const leaves: { name: string; value: number }[] = [];
    if (isArray(leavesRaw))
      for (const l of leavesRaw) {
        if (!isObject(l)) continue;
        const value = num(l, "value") ?? num(l, "chars");
        if (value !== undefined) leaves.push({ name: str(l, "name") ?? str(l, "label") ?? "", value });
      }
    groups.push({
      name: str(g, "name") ?? str(g, "label") ?? "",
      color: parseRgb(str(g, "color")) ?? [120, 130, 140],
      leaves,
    });
  }
  if (groups.length === 0) return null;
  const actual = num(raw, "actualTokens");
  const window = num(raw, "windowTokens");
  return {
    groups,
    source: str(raw, "source") ?? "run",
    provider: str(raw, "provider") ?? null,
    model: str(raw, "model") ?? null,
    actualTokens: actual ?? dto.actualTokens,
    windowTokens: window ?? dto.windowTokens,
  };
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * OpenClaw's recursive binary split: drop values ≤ 0, sort descending; the first part grows while adding
 * the next item does not move its sum further from total/2 (the last item is never added); split along the
 * longer side (width ≥ height → left/right), fractional coordinates.
 */
export function binarySplit<T extends { value: number }>(items: T[], rect: Box): { item: T; rect: Box }[] {
  const sorted = items.filter((i) => i.value > 0).sort((a, b) => b.value - a.value);
  const out: { item: T; rect: Box }[] = [];
  const rec = (start: number, end: number, r: Box) => {
    if (start >= end || r.w <= 0 || r.h <= 0) return;
    const first = sorted[start];
    if (!first) return;
    if (end - start === 1) {
      out.push({ item: first, rect: r });
      return;
    }
    let total = 0;
    for (let i = start; i < end; i++) total += sorted[i]?.value ?? 0;
    const half = total / 2;
    let firstSum = first.value;
    let split = start + 1;
    while (split < end - 1) {
      const next = firstSum + (sorted[split]?.value ?? 0);
      if (Math.abs(next - half) > Math.abs(firstSum - half)) break;
      firstSum = next;
      split++;
    }
    const ratio = firstSum / total;
    if (r.w >= r.h) {
      const w1 = r.w * ratio;
      rec(start, split, { x: r.x, y: r.y, w: w1, h: r.h });
      rec(split, end, { x: r.x + w1, y: r.y, w: r.w - w1, h: r.h });
    } else {
      const h1 = r.h * ratio;
      rec(start, split, { x: r.x, y: r.y, w: r.w, h: h1 });
      rec(split, end, { x: r.x, y: r.y + h1, w: r.w, h: r.h - h1 });
    }
  };
  rec(0, sorted.length, rect);
  return out;
}

/** Label text rule: runs outside [A-Za-z0-9/_.:-] → one space, collapsed, trimmed, upper-cased. */
export function sanitizeLabel(s: string): string {
  return s
    .replace(/[^A-Za-z0-9/_.:-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
}

/** One line of bitmap-font text: origin = top-left of the first 5×7 glyph cell; advance 6·scale. */
export interface DrawText {
  x: number;
  y: number;
  scale: number;
  text: string;
  color: string;
}

/**
 * Fit lines into a label box: max chars floor((w−12)/(6·scale)), max lines floor((h−12)/(9·scale)),
 * a too-long line keeps its first max−1 chars; origin (x+7, y+7 + line·9·scale).
 */
export function fitLabel(lines: string[], box: Box, scale: number, color: string): DrawText[] {
  const maxChars = Math.floor((box.w - 12) / (6 * scale));
  const maxLines = Math.floor((box.h - 12) / (9 * scale));
  if (maxChars < 4 || maxLines < 1) return [];
  return lines.slice(0, maxLines).map((line, i) => {
    const t = sanitizeLabel(line);
    return {
      x: box.x + 7,
      y: box.y + 7 + i * 9 * scale,
      scale,
      text: t.length > maxChars ? t.slice(0, maxChars - 1) : t,
      color,
    };
  });
}

/** Unsanitised text (title, footer): upper-cased, characters outside the 5×7 font drawn blank. */
export function rawDrawText(text: string): string {
  let out = "";
  for (const ch of text.toUpperCase()) out += FONT_CHARS.includes(ch) ? ch : " ";
  return out;
}

const FONT_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -./:_";

export interface OpenClawDrawing {
  groups: { rect: Box; fill: string; label: DrawText[] }[];
  leaves: { rect: Box; fill: string; label: DrawText[]; title: string }[];
  legend: { swatch: Box; color: string; label: DrawText[]; name: string; pct: number }[];
  title: DrawText;
  subtitle: DrawText;
  footer: DrawText;
  tracked: number;
}

const AREA: Box = { x: 22, y: 110, w: 940, h: 674 };

function luminanceText(c: Rgb): string {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 150 ? "rgb(16,23,31)" : "rgb(248,250,252)";
}

export function drawOpenClawMap(input: OpenClawMapInput): OpenClawDrawing {
  const groupItems = input.groups
    .map((g) => ({ g, value: g.leaves.reduce((s, l) => s + Math.max(l.value, 0), 0) }))
    .filter((g) => g.value > 0);
  const tracked = groupItems.reduce((s, g) => s + g.value, 0);
  const drawing: OpenClawDrawing = {
    groups: [],
    leaves: [],
    legend: [],
    title: { x: 22, y: 24, scale: 3, text: "CONTEXT TREEMAP", color: "rgb(248,250,252)" },
    subtitle: {
      x: 22,
      y: 58,
      scale: 1,
      text: sanitizeLabel(`${input.source} / ${input.provider ?? "provider"} / ${input.model ?? "model"}`),
      color: "rgb(176,196,222)",
    },
    footer: {
      x: 22,
      y: 824,
      scale: 1,
      text: rawDrawText(
        `${Math.trunc(tracked)} CH / ~${Math.ceil(tracked / 4)} TOK / ${
          input.actualTokens === null
            ? "ACTUAL CTX UNKNOWN"
            : `ACTUAL CTX ${Math.trunc(input.actualTokens)} TOK`
        } / ${input.windowTokens === null || input.windowTokens <= 0 ? "WINDOW UNKNOWN" : `WINDOW ${Math.trunc(input.windowTokens)} TOK`}`,
      ),
      color: "rgb(51,65,85)",
    },
    tracked,
  };
  const placed = binarySplit(groupItems, AREA);
  placed.forEach(({ item, rect }, groupIndex) => {
    const fill = groupFill(item.g.color);
    const scale = rect.w > 260 && rect.h > 120 ? 2 : 1;
    drawing.groups.push({
      rect,
      fill: css(fill),
      label: fitLabel(
        [item.g.name, `${Math.trunc(item.value)} CH / ~${Math.ceil(item.value / 4)} TOK`],
        { x: rect.x + 4, y: rect.y + 4, w: rect.w - 8, h: 38 },
        scale,
        "rgb(248,250,252)",
      ),
    });
    const inner: Box =
      rect.h > 92
        ? { x: rect.x + 4, y: rect.y + 44, w: rect.w - 8, h: rect.h - 48 }
        : { x: rect.x + 4, y: rect.y + 4, w: rect.w - 8, h: rect.h - 8 };
    binarySplit(item.g.leaves, inner).forEach(({ item: leaf, rect: lr }, leafIndex) => {
      const shade = (leafIndex % 7) / 10 + (groupIndex % 2) * 0.08;
      const c = mix(item.g.color, [255, 255, 255], shade);
      const r: Box = { x: lr.x + 1.5, y: lr.y + 1.5, w: lr.w - 3, h: lr.h - 3 };
      drawing.leaves.push({
        rect: r,
        fill: css(c),
        title: `${item.g.name} › ${leaf.name}: ${Math.trunc(leaf.value)} chars (~${Math.ceil(leaf.value / 4)} tok)`,
        label:
          r.w * r.h > 5200
            ? fitLabel([leaf.name, `${Math.trunc(leaf.value)} CH`], r, 1, luminanceText(c))
            : [],
      });
    });
  });
  // Legend in group order (input order), values as a rounded percent of tracked.
  let y = 168;
  for (const g of groupItems) {
    const pct = tracked > 0 ? Math.round((100 * g.value) / tracked) : 0;
    drawing.legend.push({
      swatch: { x: 1002, y, w: 18, h: 18 },
      color: css(g.g.color),
      name: g.g.name,
      pct,
      label: fitLabel([g.g.name, `${pct} PCT`], { x: 1030, y: y - 1, w: 212, h: 38 }, 1, "rgb(30,41,59)"),
    });
    y += 54;
  }
  return drawing;
}
