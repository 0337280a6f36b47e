// The one definition of each headline number of a session's context (issue 15, "Same numbers everywhere"):
// tracked, untracked, image chars, skills size and the context window. The context map builds its tiles with
// these rules and carries the result (ContextNumbersDTO); the /context tab, "Copy as issue", the HTML export and
// `clawscope map --json` print that DTO and compute nothing of their own. OpenClaw's own /context figures are
// reproduced beside them (openclaw/context-text.ts keeps OpenClaw's text), never mixed in. Pure.
//
// - Tracked: the tiles of the last call's prompt — report groups (system prompt split as OpenClaw's map splits it,
//   tool schemas, the current turn's unpersisted parts) and the conversation as sent at that call. Its tokens are
//   the Σ of the tiles' own estimates, `ceil(chars / 4)` per tile (OpenClaw's estimate, context-report.md §3), so
//   that the tiles and the untracked tile add up to the bill with no rounding left over.
// - Untracked: billed prompt − tracked tokens (negative when the estimate exceeds the bill).
// - Image chars: OpenClaw's 8,000 chars per image block (pruning.md §1.4; its map, context-report.md §5.4).
// - Skills size: OpenClaw's `skills.promptChars`; the map's Skills group holds the entries (`Σ blockChars`, as
//   OpenClaw's map) and the list's frame (the rest) is drawn under System prompt.
// - Context window: the window OpenClaw's pruner resolves (openclaw/pruning/context-window.ts); its 200,000 default
//   is an assumption and is said to be one.

import type {
  ContextNumbersDTO,
  ContextWindowNumbers,
  OpenClawNumbers,
  PromptGroupNumbers,
} from "../../shared/context-numbers.ts";
import { fmtInt } from "../../shared/format.ts";
import type { SystemPromptReport } from "../model/system-prompt-report.ts";
import { trackedPromptChars } from "../openclaw/context-text/session-tokens.ts";
import { FALLBACK_CONTEXT_WINDOW } from "../openclaw/pruning/context-window.ts";
import { IMAGE_CHAR_ESTIMATE, tokensFromChars } from "../openclaw/token-estimate.ts";

/** A tile's token estimate: OpenClaw's `ceil(chars / 4)`. */
export function tileTokens(chars: number): number {
  return tokensFromChars(chars);
}

/** Chars an image block counts for: OpenClaw's estimate. */
export const IMAGE_CHARS = IMAGE_CHAR_ESTIMATE;

export function imageChars(count: number): number {
  return count * IMAGE_CHARS;
}

/** Σ chars and Σ per-tile token estimates of the tiles of one prompt. */
export function trackedOf(tiles: readonly { chars: number }[]): { chars: number; tokens: number } {
  let chars = 0;
  let tokens = 0;
  for (const t of tiles) {
    chars += t.chars;
    tokens += tileTokens(t.chars);
  }
  return { chars, tokens };
}

export interface Untracked {
  /** billed − tracked; null when not comparable. May be negative. */
  tokens: number | null;
  reason: string;
}

/**
 * The untracked rest of the last call's prompt. `notComparable`: why the tiles are not that prompt (then unknown).
 */
export function untrackedOf(
  billed: number | null,
  tracked: { tokens: number; tiles: number },
  notComparable: string | null = null,
): Untracked {
  if (billed === null) return { tokens: null, reason: "not observed: no usage recorded for the last call" };
  if (notComparable !== null) return { tokens: null, reason: `not observed: ${notComparable}` };
  const tokens = billed - tracked.tokens;
  const of = `${fmtInt(tracked.tokens)} tok, the Σ of the chars/4 estimates of the ${fmtInt(tracked.tiles)} tiles in that prompt`;
  return {
    tokens,
    reason:
      tokens >= 0
        ? `billed prompt tokens of the last call ${fmtInt(billed)} (input + cacheRead + cacheWrite) − ${of}`
        : `not observed: the tracked estimate exceeds the billed prompt of the last call (${fmtInt(billed)} tok) by ${fmtInt(-tokens)} tok (${of})`,
  };
}

/** The skills prompt's size and how the map splits it (null without a report). */
export function skillsSize(report: SystemPromptReport | null): ContextNumbersDTO["skills"] {
  if (!report) return null;
  const entriesChars = report.skills.reduce((s, e) => s + e.blockChars, 0);
  return {
    promptChars: report.skillsPromptChars,
    entriesChars,
    frameChars: Math.max(0, report.skillsPromptChars - entriesChars),
  };
}

/** The session's context window from the pruner's resolution (tokens + source in words). */
export function contextWindowOf(w: { tokens: number; source: string }): ContextWindowNumbers {
  const assumed = w.source === `default ${FALLBACK_CONTEXT_WINDOW}`;
  return {
    tokens: w.tokens,
    source: assumed ? "OpenClaw's default (nothing configured or recorded for this session)" : w.source,
    assumed,
  };
}

/** What the /context tab prints as the window: "100,000 tok", or the assumption said as one. */
export function windowText(w: ContextWindowNumbers): string {
  return w.assumed ? `${fmtInt(w.tokens)} tok (assumed: OpenClaw's default)` : `${fmtInt(w.tokens)} tok`;
}

/** OpenClaw's `/context detail` figures: its tracked prompt estimate and untracked line (7.1+ rules). */
export function openclawNumbersOf(
  report: SystemPromptReport | null,
  freshTotal: number | null,
): OpenClawNumbers | null {
  if (!report) return null;
  const trackedChars = trackedPromptChars(report);
  const trackedTokens = tokensFromChars(trackedChars);
  return {
    trackedChars,
    trackedTokens,
    untrackedTokens: freshTotal === null ? null : freshTotal - trackedTokens,
  };
}

export const WHY_THEY_DIFFER =
  "OpenClaw's /context tracks the system prompt, the tool schemas and the current turn and calls the rest untracked; clawscope also tracks the conversation as sent at the last call (messages, tool results after pruning, images at 8,000 chars), so its untracked rest is only what no tile accounts for (tool names and descriptions, message framing, tokenizer differences).";

export interface NumbersInput {
  billed: number | null;
  /** The top-level tiles of the last call's prompt (the map's groups, without the untracked tile). */
  groups: readonly { key: string; name: string; chars: number; tokens: number }[];
  tiles: number;
  untracked: Untracked;
  images: number;
  report: SystemPromptReport | null;
  window: ContextWindowNumbers;
  afterLastCall: { messages: number; chars: number };
  openclaw: OpenClawNumbers | null;
}

/** The DTO every view prints. Σ groups[].tokens = billed whenever untracked is known. */
export function contextNumbers(input: NumbersInput): ContextNumbersDTO {
  const trackedChars = input.groups.reduce((s, g) => s + g.chars, 0);
  const trackedTokens = input.groups.reduce((s, g) => s + g.tokens, 0);
  const groups: PromptGroupNumbers[] = input.groups.map((g) => ({ ...g }));
  if (input.untracked.tokens !== null)
    groups.push({
      key: "untracked",
      name: "Untracked / provider overhead",
      chars: 0,
      tokens: input.untracked.tokens,
    });
  const { billed, window } = input;
  return {
    billedPromptTokens: billed,
    trackedChars,
    trackedTokens,
    untrackedTokens: input.untracked.tokens,
    untrackedReason: input.untracked.reason,
    groups,
    images: { count: input.images, chars: imageChars(input.images) },
    skills: skillsSize(input.report),
    contextWindow: window,
    windowUsed: billed !== null && !window.assumed && window.tokens > 0 ? billed / window.tokens : null,
    afterLastCall: input.afterLastCall,
    openclaw: input.openclaw,
    whyTheyDiffer: WHY_THEY_DIFFER,
  };
}
