// OpenClaw's `/context map` picture as data: the 1280×860 canvas of `src/auto-reply/reply/context-treemap.ts`
// (7.1, 9.6) — groups and leaves by binary split, fills and borders, labels in the bitmap font, legend, footer and
// the caption text (spec context-report.md §5.4 canvas and caption tables), so the web can draw the same picture.
// No real `/context map` image was captured: this follows the spec's reading of the code (UNVERIFIED against a
// real PNG). Pure: report + conversation buckets in, picture out.

import { type JsonObject, str } from "../../../shared/json.ts";
import { css, groupFill, leafFill, leafShade, TEXT_LIGHT, textOn } from "../../../shared/openclaw-colors.ts";
import type {
  MapFamily,
  OpenClawMapGroupTile,
  OpenClawMapLeafTile,
  OpenClawMapLegendItem,
  OpenClawMapPicture,
  Rect,
} from "../../../shared/openclaw-picture.ts";
import { readSystemPromptReport } from "../../model/system-prompt-report.ts";
import { formatInt as formatGrouped } from "../format.ts";
import { tokensFromChars } from "../token-estimate.ts";
import { binarySplitLayout } from "./binary-split.ts";
import { fitLabel, rawDrawText, sanitizeLabel } from "./bitmap-font.ts";
import type { ConversationBuckets } from "./conversation.ts";
import { type OpenClawMapGroupValue, openClawMapGroups } from "./groups.ts";

/** OpenClaw's en-US grouping of a rounded number (format.ts, as /context prints). */
function formatInt(n: number): string {
  return formatGrouped(Math.round(n));
}

export const CANVAS = { width: 1280, height: 860 } as const;
export const TREEMAP_AREA: Rect = { x: 22, y: 110, width: 940, height: 674 };

export interface OpenClawMapInput {
  family: MapFamily;
  /** The stored `systemPromptReport` (must be `source:"run"`; see openClawMapUnavailable). */
  report: JsonObject;
  /** 2026.9.x conversation buckets (ignored for 2026.7). */
  conversation: ConversationBuckets;
  /** The fresh cached total (`Session tokens` rules, spec §4), null when unavailable. */
  freshTotalTokens: number | null;
  /** Context window tokens, null when unknown. */
  windowTokens: number | null;
}

/** `/context map` never uses an estimate report: unavailable unless the stored report has `source:"run"`. */
export function openClawMapUnavailable(report: JsonObject | null): boolean {
  return !report || str(report, "source") !== "run";
}

function pair(chars: number): string {
  return `${formatInt(chars)} chars (~${formatInt(tokensFromChars(chars))} tok)`;
}

/** Caption lines (spec §5.4 caption table). */
export function openClawMapCaption(
  family: MapFamily,
  report: JsonObject,
  groups: readonly OpenClawMapGroupValue[],
  freshTotalTokens: number | null,
): string {
  const tracked = groups.reduce((s, g) => s + g.value, 0);
  const lines = ["Context treemap", `Source: ${str(report, "source") ?? ""}`, `Tracked: ${pair(tracked)}`];
  if (family === "2026.9") {
    const conv = groups.find((g) => g.key === "conversation")?.value ?? 0;
    lines.push(`Conversation: ${pair(conv)}`);
  }
  lines.push(
    freshTotalTokens !== null
      ? `Actual cached context: ${formatInt(freshTotalTokens)} tok`
      : "Actual cached context: unavailable",
  );
  return lines.join("\n");
}

function sizeLine(chars: number): string {
  return `${formatInt(chars)} CH / ~${formatInt(tokensFromChars(chars))} TOK`;
}

/** Inset by d on every side; width/height never below 0 (as OpenClaw's inset). */
function inset(r: Rect, d: number): Rect {
  return {
    x: r.x + d,
    y: r.y + d,
    width: Math.max(0, r.width - 2 * d),
    height: Math.max(0, r.height - 2 * d),
  };
}

/** One leaf: its layout rect inset by 1.5 px, OpenClaw's shade by leaf and group index, a label if it fits. */
function leafTile(
  g: OpenClawMapGroupValue,
  gi: number,
  l: { name: string; value: number },
  lr: Rect,
  li: number,
): OpenClawMapLeafTile {
  const fillRgb = leafFill(g.color, li, gi);
  const fillRect = inset(lr, 1.5);
  const inner = Math.max(0, fillRect.width) * Math.max(0, fillRect.height);
  return {
    name: l.name,
    value: l.value,
    tokens: tokensFromChars(l.value),
    rect: lr,
    fillRect,
    fill: css(fillRgb),
    border: "rgb(8,12,16)",
    shade: leafShade(li, gi),
    labelLines: inner > 5200 ? fitLabel(fillRect, [l.name, sizeLine(l.value)], 1, textOn(fillRgb)) : [],
  };
}

/** One group: fill, border, label box (scale 2 when large) and its leaves split inside its children area. */
function groupTile(g: OpenClawMapGroupValue, rect: Rect, gi: number): OpenClawMapGroupTile {
  const scale = rect.width > 260 && rect.height > 120 ? 2 : 1;
  const labelBox: Rect = { x: rect.x + 4, y: rect.y + 4, width: rect.width - 8, height: 38 };
  const tall = rect.height > 92;
  const childrenArea: Rect = {
    x: rect.x + 4,
    y: rect.y + (tall ? 44 : 4),
    width: rect.width - 8,
    height: rect.height - (tall ? 48 : 8),
  };
  return {
    key: g.key,
    name: g.name,
    color: css(g.color),
    fill: css(groupFill(g.color)),
    border: "rgb(14,18,22)",
    value: g.value,
    rect,
    labelBox,
    labelLines: fitLabel(labelBox, [g.name, sizeLine(g.value)], scale, TEXT_LIGHT),
    childrenArea,
    leaves: binarySplitLayout(g.leaves, childrenArea).map(({ item, rect: lr, index: li }) =>
      leafTile(g, gi, item, lr, li),
    ),
  };
}

/** Legend rows in OpenClaw's group order: swatch of the base colour, name and rounded percent of tracked. */
function legendItems(groups: readonly OpenClawMapGroupValue[], tracked: number): OpenClawMapLegendItem[] {
  return groups.map((g, i) => {
    const y = 168 + i * 54;
    const pct = tracked > 0 ? Math.round((100 * g.value) / tracked) : 0;
    const labelBox: Rect = { x: 1030, y: y - 1, width: 212, height: 38 };
    return {
      name: g.name,
      color: css(g.color),
      value: g.value,
      pct,
      swatch: { x: 1002, y, width: 18, height: 18 },
      swatchBorder: "rgb(15,23,42)",
      labelBox,
      labelLines: fitLabel(labelBox, [g.name, `${pct} PCT`], 1, "rgb(30,41,59)"),
    };
  });
}

/** `<tracked> CH / ~<tok> TOK / ACTUAL CTX … / WINDOW …` (unsanitised: drawn with rawDrawText). */
function footerText(tracked: number, input: OpenClawMapInput): string {
  const actual =
    input.freshTotalTokens !== null
      ? `ACTUAL CTX ${formatInt(input.freshTotalTokens)} TOK`
      : "ACTUAL CTX UNKNOWN";
  const windowPart =
    input.windowTokens !== null && input.windowTokens > 0
      ? `WINDOW ${formatInt(input.windowTokens)} TOK`
      : "WINDOW UNKNOWN";
  return `${formatInt(tracked)} CH / ~${formatInt(tokensFromChars(tracked))} TOK / ${actual} / ${windowPart}`;
}

/** Lays out the whole 1280×860 picture (spec §5.4 canvas table). */
export function layoutOpenClawMap(input: OpenClawMapInput): OpenClawMapPicture {
  const groups = openClawMapGroups(input.family, readSystemPromptReport(input.report), input.conversation);
  const tracked = groups.reduce((s, g) => s + g.value, 0);
  const provider = str(input.report, "provider") ?? "provider";
  const model = str(input.report, "model") ?? "model";
  const source = (str(input.report, "source") ?? "").toUpperCase();
  return {
    family: input.family,
    width: CANVAS.width,
    height: CANVAS.height,
    background: "rgb(238,241,245)",
    header: {
      rect: { x: 0, y: 0, width: 1280, height: 88 },
      fill: "rgb(20,26,34)",
      title: { x: 22, y: 24, scale: 3, text: "CONTEXT TREEMAP", color: "rgb(248,250,252)" },
      subtitle: {
        x: 22,
        y: 58,
        scale: 1,
        text: sanitizeLabel(`${source} / ${provider} / ${model}`),
        color: "rgb(176,196,222)",
      },
    },
    area: TREEMAP_AREA,
    groups: binarySplitLayout(groups, TREEMAP_AREA).map(({ item, rect, index }) =>
      groupTile(item, rect, index),
    ),
    legend: {
      panel: { x: 984, y: 110, width: 274, height: 674 },
      fill: "rgb(245,247,250)",
      border: "rgb(213,220,228)",
      title: { x: 1002, y: 128, scale: 2, text: "LEGEND", color: "rgb(30,41,59)" },
      items: legendItems(groups, tracked),
    },
    footer: {
      x: 22,
      y: 824,
      scale: 1,
      text: rawDrawText(footerText(tracked, input)),
      color: "rgb(51,65,85)",
    },
    trackedChars: tracked,
    caption: openClawMapCaption(input.family, input.report, groups, input.freshTotalTokens),
  };
}
