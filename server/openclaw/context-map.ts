// OpenClaw's `/context map` reproduced as data: group/leaf values per version, group colours, the caption text and
// the recursive binary-split layout of the 1280×860 PNG, with the exact fill colours, so the web can draw the same
// picture as SVG (and a PNG renderer can rasterise it). Pure: report + transcript messages in, picture out.
// Source: `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6) — spec context-report.md §5.4.
// No real `/context map` image was captured: everything below follows the spec's reading of the code (UNVERIFIED
// against a real PNG), and the places where the spec is silent are marked "ASSUMED".

import { arr, isObject, type JsonObject, type JsonValue, num, obj, str } from "../../shared/json.ts";
import {
  css,
  groupFill,
  leafFill,
  leafShade,
  OPENCLAW_GROUP_COLORS,
  type Rgb,
  TEXT_LIGHT,
  textOn,
} from "../../shared/openclaw-colors.ts";
import type {
  DrawText,
  MapFamily,
  OpenClawMapGroupKey,
  OpenClawMapGroupTile,
  OpenClawMapLegendItem,
  OpenClawMapPicture,
  Rect,
} from "../../shared/openclaw-map.ts";
import { blocksOf, type MessageBlock } from "../model/message-blocks.ts";
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
} from "../model/summary-text.ts";
import { classWeight2026_9, hasNonAscii, isAsciiTextBlock } from "./estimate.ts";
import { formatInt as formatGrouped, tokensFromChars } from "./format.ts";

export type {
  DrawText,
  MapFamily,
  OpenClawMapGroupTile,
  OpenClawMapLeafTile,
  OpenClawMapLegendItem,
  OpenClawMapPicture,
  Rect,
} from "../../shared/openclaw-map.ts";

// ---------------------------------------------------------------------------------------------------------------
// Number formatting and estimates (spec §3)

// Same rules as /context (format.ts): en-US grouping (rounded here), tokens = ceil(max(0, chars) / 4).
export function formatInt(n: number): string {
  return formatGrouped(Math.round(n));
}

export const estimateTokens = tokensFromChars;

// ---------------------------------------------------------------------------------------------------------------
// 2026.9.x weighted chars with a minimum raw weight (spec §5.4 conversation table, pruning.md §2.3 class table).
// The floor multiplies every UTF-16 code unit outside the weighted classes (ASCII text = 2 × length, an emoji
// surrogate pair = 4); a weighted class keeps its total weight (4 / 12 / 8 / 12 / 16), so CJK is not doubled twice.
// The class table itself is estimate.ts's (one table for the pruner and the map).

// Any UTF-16 code unit above U+007F (surrogates included).
const NON_ASCII = /[\u0080-\uffff]/;

/** 2026.9.x weighted chars with a minimum raw weight per UTF-16 code unit (1 = plain weighting, 2 = tool results). */
export function weightedChars(text: string, minRawWeight = 1): number {
  const m = Math.max(1, minRawWeight);
  if (!NON_ASCII.test(text)) return text.length * m;
  let total = 0;
  for (const ch of text) {
    const w = classWeight2026_9(ch.codePointAt(0) ?? 0);
    total += w ?? ch.length * m;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------------------------
// Conversation leaves (2026.9.x): per-message estimate of spec §5.4 (OpenClaw's tool-result char estimator).

export interface ConversationBuckets {
  user: number;
  assistant: number;
  toolResults: number;
  summaries: number;
  other: number;
}

/** Size of a block of unknown shape: a string's length, else its JSON length (256 if that throws). */
function unknownChars(b: MessageBlock): number {
  if (b.kind === "other" && typeof b.raw === "string") return b.raw.length;
  return b.jsonLength ?? 256;
}

/**
 * User-like content (a string is one text part): text length (tool results: weighted, floor 2), image 8,000
 * (×2), other blocks as JSON (×2).
 */
function contentChars(content: JsonValue | undefined, toolResult: boolean): number {
  const weight = toolResult ? 2 : 1;
  let total = 0;
  for (const b of blocksOf(content)) {
    if (b.kind === "text" && b.text !== undefined) {
      const text = b.text;
      const ascii = b.block ? isAsciiTextBlock(b.block, text) : !hasNonAscii(text);
      total += !toolResult ? text.length : ascii ? text.length * 2 : weightedChars(text, 2);
    } else if (b.kind === "image") total += 8000 * weight;
    else total += unknownChars(b) * weight;
  }
  return total;
}

/** Assistant blocks (a string content counts 0; non-object blocks are skipped, as OpenClaw does). */
function assistantChars(message: JsonObject): number {
  if (!Array.isArray(message.content)) return 0;
  let total = 0;
  for (const b of blocksOf(message.content)) {
    if (b.kind === "other" && !isObject(b.raw)) continue;
    if (b.kind === "text" && b.text !== undefined) total += b.text.length;
    else if (b.kind === "thinking" && b.text !== undefined)
      total += b.text.length; // no signature
    else if (b.kind === "toolCall") total += b.argsJson?.length ?? 128;
    else total += unknownChars(b);
  }
  return total;
}

/** Wire prefix/suffix of summaries (transcript.md §6), from their one home. */
export {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
} from "../model/summary-text.ts";

/** Summary text of a compactionSummary / branchSummary message (`summary` field, else its text content). */
export function summaryText(message: JsonObject): string {
  const s = str(message, "summary");
  if (s !== undefined) return s;
  const content = message.content;
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const b of Array.isArray(content) ? content : []) if (isObject(b)) parts.push(str(b, "text") ?? "");
  return parts.join("");
}

/**
 * The user text a `bashExecution` message becomes on the wire (pi's bash-execution rendering, shared by OpenClaw):
 * "Ran `<command>`\n" + fenced output or "(no output)", then a cancel / non-zero exit note and a truncation note.
 */
export function bashExecutionText(message: JsonObject): string {
  const output = str(message, "output") ?? "";
  let text = `Ran \`${str(message, "command") ?? ""}\`\n`;
  text += output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)";
  const exitCode = num(message, "exitCode");
  if (message.cancelled === true) text += "\n\n(command cancelled)";
  else if (exitCode !== undefined && exitCode !== 0) text += `\n\nCommand exited with code ${exitCode}`;
  const fullOutputPath = str(message, "fullOutputPath");
  if (message.truncated === true && fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${fullOutputPath}]`;
  return text;
}

/** Map bucket of a message: by role exactly (a `tool`-role result is estimated as a result but lands in Other). */
function bucketOf(role: JsonValue | undefined): keyof ConversationBuckets {
  if (role === "user") return "user";
  if (role === "assistant") return "assistant";
  if (role === "toolResult") return "toolResults";
  if (role === "branchSummary" || role === "compactionSummary") return "summaries";
  return "other";
}

/** Chars of one message for the 2026.9.x map (OpenClaw's `estimateMessageChars`), and its bucket. */
export function openClawMessageEstimate(message: JsonObject): {
  bucket: keyof ConversationBuckets;
  chars: number;
} {
  const role = message.role;
  const bucket = bucketOf(role);
  if (message.excludeFromContext === true) return { bucket, chars: 0 };
  if (role === "user") return { bucket, chars: contentChars(message.content, false) };
  if (role === "assistant") return { bucket, chars: assistantChars(message) };
  if (role === "toolResult" || role === "tool" || message.type === "toolResult")
    return { bucket, chars: contentChars(message.content, true) };
  if (role === "bashExecution") return { bucket, chars: bashExecutionText(message).length };
  if (role === "branchSummary") {
    const summary = str(message, "summary") ?? "";
    return { bucket, chars: (BRANCH_SUMMARY_PREFIX + summary + BRANCH_SUMMARY_SUFFIX).length };
  }
  if (role === "compactionSummary") {
    const summary = str(message, "summary") ?? "";
    return { bucket, chars: (COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX).length };
  }
  if (role === "custom") return { bucket, chars: contentChars(message.content, false) };
  return { bucket, chars: 256 };
}

/** Σ per-message estimates by bucket over the messages OpenClaw reads for the map (spec §5.4). */
export function conversationBuckets(messages: readonly JsonObject[]): ConversationBuckets {
  const out: ConversationBuckets = { user: 0, assistant: 0, toolResults: 0, summaries: 0, other: 0 };
  for (const m of messages) {
    const { bucket, chars } = openClawMessageEstimate(m);
    out[bucket] += chars;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Group values per version

export interface OpenClawMapLeafValue {
  name: string;
  value: number;
}

export interface OpenClawMapGroupValue {
  key: OpenClawMapGroupKey;
  name: string;
  color: Rgb;
  /** Σ leaves (after dropping leaves ≤ 0). */
  value: number;
  leaves: OpenClawMapLeafValue[];
}

function positive(leaves: OpenClawMapLeafValue[]): OpenClawMapLeafValue[] {
  return leaves.filter((l) => l.value > 0);
}

function group(
  key: OpenClawMapGroupValue["key"],
  name: string,
  color: Rgb,
  leaves: OpenClawMapLeafValue[],
): OpenClawMapGroupValue {
  const kept = positive(leaves);
  return { key, name, color, value: kept.reduce((s, l) => s + l.value, 0), leaves: kept };
}

function objects(values: JsonValue[] | undefined): JsonObject[] {
  return (values ?? []).filter(isObject);
}

/** Workspace-file leaves: `injectedChars` per file (native_unverified skipped) + `Project context frame`. */
export function workspaceLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  const files = objects(arr(report, "injectedWorkspaceFiles")).filter(
    (f) => str(f, "injectionStatus") !== "native_unverified",
  );
  const leaves = files.map((f) => ({
    name: str(f, "name") ?? str(f, "path") ?? "(unknown)",
    value: num(f, "injectedChars") ?? 0,
  }));
  const injected = leaves.reduce((s, l) => s + l.value, 0);
  const projectContextChars = num(obj(report, "systemPrompt"), "projectContextChars") ?? 0;
  leaves.push({ name: "Project context frame", value: Math.max(0, projectContextChars - injected) });
  return leaves;
}

/** `Base instructions` = max(0, nonProjectContextChars − Σ skill blockChars). */
export function baseInstructionsChars(report: JsonObject): number {
  const nonProject = num(obj(report, "systemPrompt"), "nonProjectContextChars") ?? 0;
  return Math.max(0, nonProject - skillLeaves(report).reduce((s, l) => s + l.value, 0));
}

export function toolLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  return objects(arr(obj(report, "tools"), "entries")).map((t) => ({
    name: str(t, "name") ?? "(unknown)",
    value: num(t, "schemaChars") ?? 0,
  }));
}

export function skillLeaves(report: JsonObject): OpenClawMapLeafValue[] {
  return objects(arr(obj(report, "skills"), "entries")).map((s) => ({
    name: str(s, "name") ?? "(unknown)",
    value: num(s, "blockChars") ?? 0,
  }));
}

/**
 * OpenClaw's map groups in OpenClaw's order, zero groups dropped (spec §5.4).
 * 2026.9.x: `Conversation` first, built from `conversation` (the per-message estimate buckets) and currentTurn.
 * 2026.7.1: `Current turn` (or `Room event`) first, from currentTurn only.
 */
export function openClawMapGroups(
  family: MapFamily,
  report: JsonObject,
  conversation: ConversationBuckets,
): OpenClawMapGroupValue[] {
  const turn = obj(report, "currentTurn");
  const groups: OpenClawMapGroupValue[] = [];
  if (family === "2026.9") {
    groups.push(
      group("conversation", "Conversation", OPENCLAW_GROUP_COLORS.conversation, [
        { name: "User", value: conversation.user },
        { name: "Assistant", value: conversation.assistant },
        { name: "Tool results", value: conversation.toolResults },
        { name: "Summaries", value: conversation.summaries },
        { name: "Other", value: conversation.other },
        { name: "Runtime context", value: num(turn, "runtimeContextChars") ?? 0 },
        { name: "Model-only prompt", value: num(turn, "modelOnlyPromptChars") ?? 0 },
      ]),
    );
  } else {
    groups.push(
      group(
        "currentTurn",
        str(turn, "kind") === "room_event" ? "Room event" : "Current turn",
        OPENCLAW_GROUP_COLORS.currentTurn,
        [
          { name: "Model prompt", value: num(turn, "promptChars") ?? 0 },
          { name: "Runtime context", value: num(turn, "runtimeContextChars") ?? 0 },
        ],
      ),
    );
  }
  groups.push(
    group("workspace", "Workspace files", OPENCLAW_GROUP_COLORS.workspace, workspaceLeaves(report)),
  );
  groups.push(
    group("system", "System prompt", OPENCLAW_GROUP_COLORS.system, [
      { name: "Base instructions", value: baseInstructionsChars(report) },
    ]),
  );
  groups.push(group("tools", "Tool schemas", OPENCLAW_GROUP_COLORS.tools, toolLeaves(report)));
  groups.push(group("skills", "Skills", OPENCLAW_GROUP_COLORS.skills, skillLeaves(report)));
  return groups.filter((g) => g.value > 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Binary-split layout (spec §5.4 "Layout — recursive binary split")

export interface LaidOut<T> {
  item: T;
  rect: Rect;
  /** Index among the positioned items, in layout order (value-descending, stable). */
  index: number;
}

/**
 * Lays out items by OpenClaw's recursive binary split. Drops items ≤ 0, sorts by value descending (stable),
 * then splits each range where the first part's sum is closest to half (greedy, never taking the last item),
 * along the longer side (width ≥ height → left/right). Fractional coordinates. Iterative, so 10,000+ items are safe.
 */
export function binarySplitLayout<T extends { value: number }>(
  items: readonly T[],
  area: Rect,
): LaidOut<T>[] {
  const sorted = items.filter((i) => i.value > 0).sort((a, b) => b.value - a.value);
  const prefix = new Float64Array(sorted.length + 1);
  for (let i = 0; i < sorted.length; i++) prefix[i + 1] = (prefix[i] ?? 0) + (sorted[i]?.value ?? 0);
  const sum = (a: number, b: number) => (prefix[b] ?? 0) - (prefix[a] ?? 0);
  const rects: (Rect | null)[] = sorted.map(() => null);
  const stack: { start: number; end: number; r: Rect }[] = [{ start: 0, end: sorted.length, r: area }];
  while (stack.length > 0) {
    const job = stack.pop();
    if (!job) break;
    const { start, end, r } = job;
    if (end <= start || r.width <= 0 || r.height <= 0) continue;
    if (end - start === 1) {
      rects[start] = r;
      continue;
    }
    const total = sum(start, end);
    const half = total / 2;
    let split = start + 1;
    let first = sum(start, split);
    while (split < end - 1) {
      const next = first + (sorted[split]?.value ?? 0);
      if (Math.abs(next - half) > Math.abs(first - half)) break;
      first = next;
      split++;
    }
    const ratio = total > 0 ? first / total : 0;
    let a: Rect;
    let b: Rect;
    if (r.width >= r.height) {
      const w = r.width * ratio;
      a = { x: r.x, y: r.y, width: w, height: r.height };
      b = { x: r.x + w, y: r.y, width: r.width - w, height: r.height };
    } else {
      const h = r.height * ratio;
      a = { x: r.x, y: r.y, width: r.width, height: h };
      b = { x: r.x, y: r.y + h, width: r.width, height: r.height - h };
    }
    // Push the second part first so the first part is processed first (order does not change the result).
    stack.push({ start: split, end, r: b });
    stack.push({ start, end: split, r: a });
  }
  // Output in layout (= sorted) order; items whose rect had no area are skipped, and `index` counts only the
  // positioned items, as OpenClaw's forEach index over its positioned list does.
  const out: LaidOut<T>[] = [];
  sorted.forEach((item, i) => {
    const rect = rects[i];
    if (rect) out.push({ item, rect, index: out.length });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Text: 5×7 bitmap font rules (spec §5.4 drawing details)

export const FONT_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -./:_";

/** Label sanitising: runs outside `[A-Za-z0-9/_.:-]` → one space, whitespace collapsed, trimmed, upper-cased. */
export function sanitizeLabel(text: string): string {
  return text
    .replace(/[^A-Za-z0-9/_.:-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
}

/** Fits label lines into a box: max chars floor((w−12)/(6s)), max lines floor((h−12)/(9s)); origin (x+7, y+7+line·9s). */
export function fitLabel(box: Rect, lines: readonly string[], scale: number, color: string): DrawText[] {
  const maxChars = Math.floor((box.width - 12) / (6 * scale));
  const maxLines = Math.floor((box.height - 12) / (9 * scale));
  if (maxChars < 4 || maxLines < 1) return [];
  return lines.slice(0, maxLines).map((line, i) => {
    const s = sanitizeLabel(line);
    return {
      x: box.x + 7,
      y: box.y + 7 + i * 9 * scale,
      scale,
      text: s.length > maxChars ? s.slice(0, maxChars - 1) : s,
      color,
    };
  });
}

/** Unsanitised text (header title, footer): upper-cased; characters outside the font become blanks. */
export function rawDrawText(text: string): string {
  let out = "";
  for (const ch of text) {
    const u = ch.toUpperCase(); // per code point, as OpenClaw looks each glyph up ("ß" → "SS" → blank)
    out += u.length === 1 && FONT_CHARS.includes(u) ? u : " ";
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The picture

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

/** The exact three-line reply when no stored `run` report exists (spec §5.4). */
export const MAP_UNAVAILABLE_TEXT =
  "Context treemap unavailable.\nNo actual run context is cached for this session yet.\nSend a normal message, then run /context map again.";

/** `/context map` never uses an estimate report: unavailable unless the stored report has `source:"run"`. */
export function openClawMapUnavailable(report: JsonObject | null): boolean {
  return !report || str(report, "source") !== "run";
}

function pair(chars: number): string {
  return `${formatInt(chars)} chars (~${formatInt(estimateTokens(chars))} tok)`;
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
  return `${formatInt(chars)} CH / ~${formatInt(estimateTokens(chars))} TOK`;
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

/** Lays out the whole 1280×860 picture (spec §5.4 canvas table). */
export function layoutOpenClawMap(input: OpenClawMapInput): OpenClawMapPicture {
  const groups = openClawMapGroups(input.family, input.report, input.conversation);
  const tracked = groups.reduce((s, g) => s + g.value, 0);
  const tiles: OpenClawMapGroupTile[] = binarySplitLayout(groups, TREEMAP_AREA).map(
    ({ item: g, rect, index: gi }) => {
      const scale = rect.width > 260 && rect.height > 120 ? 2 : 1;
      const labelBox: Rect = { x: rect.x + 4, y: rect.y + 4, width: rect.width - 8, height: 38 };
      const top = rect.height > 92 ? 44 : 4;
      const childrenArea: Rect = {
        x: rect.x + 4,
        y: rect.y + top,
        width: rect.width - 8,
        height: rect.height - (rect.height > 92 ? 48 : 8),
      };
      const leaves = binarySplitLayout(g.leaves, childrenArea).map(({ item: l, rect: lr, index: li }) => {
        const shade = leafShade(li, gi);
        const fillRgb = leafFill(g.color, li, gi);
        const fillRect = inset(lr, 1.5);
        const inner = Math.max(0, fillRect.width) * Math.max(0, fillRect.height);
        const textColor = textOn(fillRgb);
        return {
          name: l.name,
          value: l.value,
          tokens: estimateTokens(l.value),
          rect: lr,
          fillRect,
          fill: css(fillRgb),
          border: "rgb(8,12,16)",
          shade,
          labelLines: inner > 5200 ? fitLabel(fillRect, [l.name, sizeLine(l.value)], 1, textColor) : [],
        };
      });
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
        leaves,
      };
    },
  );

  const legendItems: OpenClawMapLegendItem[] = groups.map((g, i) => {
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

  const provider = str(input.report, "provider") ?? "provider";
  const model = str(input.report, "model") ?? "model";
  const source = (str(input.report, "source") ?? "").toUpperCase();
  const actual =
    input.freshTotalTokens !== null
      ? `ACTUAL CTX ${formatInt(input.freshTotalTokens)} TOK`
      : "ACTUAL CTX UNKNOWN";
  const windowPart =
    input.windowTokens !== null && input.windowTokens > 0
      ? `WINDOW ${formatInt(input.windowTokens)} TOK`
      : "WINDOW UNKNOWN";
  const footerText = `${formatInt(tracked)} CH / ~${formatInt(estimateTokens(tracked))} TOK / ${actual} / ${windowPart}`;

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
    groups: tiles,
    legend: {
      panel: { x: 984, y: 110, width: 274, height: 674 },
      fill: "rgb(245,247,250)",
      border: "rgb(213,220,228)",
      title: { x: 1002, y: 128, scale: 2, text: "LEGEND", color: "rgb(30,41,59)" },
      items: legendItems,
    },
    footer: { x: 22, y: 824, scale: 1, text: rawDrawText(footerText), color: "rgb(51,65,85)" },
    trackedChars: tracked,
    caption: openClawMapCaption(input.family, input.report, groups, input.freshTotalTokens),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs taken from the session

/** The `Session tokens` freshness rule (spec §4) that decides the caption's/footer's actual context. */
export function mapFreshTotalTokens(entry: JsonObject | null, family: MapFamily): number | null {
  const total = num(entry, "totalTokens");
  if (total === undefined || total < 0) return null;
  if (family === "2026.9") {
    return entry?.totalTokensFresh === true && entry?.totalTokensVersion === 1 ? total : null;
  }
  return entry?.totalTokensFresh === false ? null : total;
}

/**
 * The transcript messages the 2026.9.x map sums: every `message` entry on the active branch (pre-compaction ones
 * and transcript-only assistants included — OpenClaw reads the whole session; UNVERIFIED, spec §5.4), plus the
 * compaction summaries, non-empty branch summaries and `custom_message` rows on the branch.
 */
export function openClawMapMessages(
  entries: readonly { type: string; raw: JsonObject }[],
  branch: readonly number[],
): JsonObject[] {
  const out: JsonObject[] = [];
  for (const i of branch) {
    const e = entries[i];
    if (!e) continue;
    if (e.type === "message") {
      const m = obj(e.raw, "message");
      if (m) out.push(m);
    } else if (e.type === "compaction") {
      out.push({ role: "compactionSummary", summary: str(e.raw, "summary") ?? "" });
    } else if (e.type === "branch_summary") {
      const s = str(e.raw, "summary") ?? "";
      if (s !== "") out.push({ role: "branchSummary", summary: s });
    } else if (e.type === "custom_message") {
      out.push({ role: "custom", content: e.raw.content ?? "" });
    }
  }
  return out;
}
