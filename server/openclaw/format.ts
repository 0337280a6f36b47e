// Number and list formatting exactly as OpenClaw's `/context` prints it (all versions 2026.3.2 … 2026.9.x).
// Spec: context-report.md §3. Pure functions.
// This is an OpenClaw rule, used only for reproduced OpenClaw text (byte-exact replies, OpenClaw's map labels).
// clawscope's own presentation (views, CLI tables, exports, DTO prose) formats through shared/format.ts.

import { tokensFromChars } from "./token-estimate.ts";

/** Built on first use: the first Intl object starts ICU (~15 ms), which a command that prints no OpenClaw text never needs. */
let enUs: Intl.NumberFormat | null = null;

/** `Intl.NumberFormat("en-US")` grouping: `12,345` (OpenClaw's `formatInt`). */
export function formatInt(n: number): string {
  enUs ??= new Intl.NumberFormat("en-US");
  return enUs.format(n);
}

/** `<int(chars)> chars (~<int(tok)> tok)`, e.g. `16,640 chars (~4,160 tok)`. */
export function formatCharsAndTokens(chars: number): string {
  return `${formatInt(chars)} chars (~${formatInt(tokensFromChars(chars))} tok)`;
}

/**
 * Name list with a cap: the first `cap` names joined by `, `, then `, … (+N more)` (U+2026).
 * Skills use cap 20 (unique names), tools cap 30 — context-report.md §3.
 */
export function formatNameList(names: readonly string[], cap: number): string {
  if (names.length <= cap) return names.join(", ");
  return `${names.slice(0, cap).join(", ")}, … (+${names.length - cap} more)`;
}

export interface TopListItem {
  name: string;
  value: number;
}

/**
 * Top list as `/context detail` prints it: sorted by value descending with a STABLE sort (ties keep
 * report order — OpenClaw uses `Array.prototype.toSorted`, which is stable), first `cap` (30) rows.
 * `omitted` = rows cut off; the caller prints `… (+N more skills|tools)` when > 0.
 */
export function formatListTop(
  items: readonly TopListItem[],
  cap = 30,
  formatValue: (value: number) => string = formatCharsAndTokens,
): { lines: string[]; omitted: number } {
  const sorted = [...items].sort((a, b) => b.value - a.value);
  const top = sorted.slice(0, cap);
  return {
    lines: top.map((item) => `- ${item.name}: ${formatValue(item.value)}`),
    omitted: Math.max(0, sorted.length - top.length),
  };
}
