// `Compactable transcript: R real conversation message(s) / M transcript message(s)` of `/context detail`
// (2026.6.6+; 2026.3.2 prints no such line). OpenClaw's `resolveTranscriptCompactabilityReport`
// (src/auto-reply/reply/commands-context-report.ts) counts the session's chat-history display list — not the model
// context — and classifies each entry with isRealConversationMessage (real-conversation.ts). Read in the 2026.7.1
// and 2026.9.6 dist bundles (docs/openclaw-facts.md §1.2–§1.5) and checked on every fixture reply.
//
// 2026.9.6 — `readSessionMessagesAsync(…, {mode: "full"})` → readSessionTranscriptHistoryEventsFromProjection
// (src/gateway/session-transcript-read-kernel.ts) over the active branch, mapped by projectTranscriptEntryMessage:
//   * the history window starts at the latest `reset` row (scope "history": a compaction never windows it), the
//     reset row included; an implicit rollover's reset names a `firstKeptEntryId`, and the user/assistant messages
//     from that entry up to the reset are kept in front (an explicit `/new`, `/reset` or sessions.reset writes none);
//   * every event with a `message` counts, all roles (gateway-injected replies, `excludeFromContext` pairs);
//   * a `reset` or `compaction` row counts as a `system` message ("Reset" / "Compaction"): in M, never in R, so a
//     compaction summary is counted once and its text is not looked at;
//   * a `custom_message` with `display === true`, other than `openclaw.runtime-context`, counts as role `custom`.
// 2026.7.1 — readSessionMessages (src/gateway/session-utils.fs.ts) over the transcript file: every `message` line
//   plus one `Compaction` row per `compaction` line, no window (there is no `reset` before 2026.7.2), no
//   custom_message rows (j1: 37/39 and 51/53 with two compactions).
// The command's own user message is not in the list yet when the reply is built: a stored reply counts the
// messages before it (`beforeIndex`).

import { arr, isObject, type JsonObject, str } from "../../shared/json.ts";
import { hasChangeFrom } from "../../shared/release-order.ts";
import type { Transcript, TranscriptEntry } from "../model/session.ts";
import type { ContextFamily, TranscriptCounts } from "./context-text/types.ts";
import { isRealConversationMessage, TOOL_RESULT_LOOKBACK } from "./real-conversation.ts";

/** One entry of the display list and the transcript entry it stands for. */
interface ListEntry {
  message: JsonObject;
  entryIndex: number;
}

/** The stored message of an event that has one (`Object.hasOwn(event, "message")`, an object). */
function messageOf(e: TranscriptEntry): JsonObject | null {
  const m = Object.hasOwn(e.raw, "message") ? e.raw.message : undefined;
  return isObject(m) ? m : null;
}

/**
 * What the 2026.9 family's display list holds by release (docs/openclaw-facts.md §8.3): `custom_message` rows from
 * 2026.9.4 (`isVisibleTranscriptRecord`), the snake_case tool-call types in the classifier from 2026.9.5. A release
 * that is not recorded counts as the newest.
 */
export function displayListRules(appVersion: string | null): {
  customRows: boolean;
  snakeCaseToolCalls: boolean;
} {
  return {
    customRows: hasChangeFrom(appVersion, [2026, 9, 4]),
    snakeCaseToolCalls: hasChangeFrom(appVersion, [2026, 9, 5]),
  };
}

/** projectTranscriptEntryMessage: the display entry of one event, or null when the event is not shown. */
function projectEvent(e: TranscriptEntry, customRows: boolean): JsonObject | null {
  const message = messageOf(e);
  if (message) return message;
  if (e.type === "reset" || e.type === "compaction") {
    return { role: "system", content: [{ type: "text", text: e.type === "reset" ? "Reset" : "Compaction" }] };
  }
  if (
    customRows &&
    e.type === "custom_message" &&
    e.raw.display === true &&
    e.raw.customType !== "openclaw.runtime-context"
  ) {
    const out: JsonObject = { role: "custom", display: true };
    for (const key of ["customType", "content"] as const) if (e.raw[key] !== undefined) out[key] = e.raw[key];
    return out;
  }
  return null;
}

function isUserOrAssistant(m: JsonObject): boolean {
  return m.role === "user" || m.role === "assistant";
}

/** 2026.9.6: the latest reset window of the active branch, with a rollover's kept tail in front. */
function historyList2026_9(transcript: Transcript, customRows: boolean): ListEntry[] {
  const active = transcript.activeBranch.flatMap((i) => {
    const e = transcript.entries[i];
    return e && e.type !== "session" ? [e] : [];
  });
  let reset = -1;
  for (let i = 0; i < active.length; i += 1) if (active[i]?.type === "reset") reset = i;
  const list: ListEntry[] = [];
  const kept = reset >= 0 ? str(active[reset]?.raw, "firstKeptEntryId") : undefined;
  const from = kept === undefined ? -1 : active.findIndex((e, i) => i < reset && e.id === kept);
  if (from >= 0) {
    // History scope keeps the tail's user and assistant messages only (its tool results are dropped).
    for (const e of active.slice(from, reset)) {
      const m = messageOf(e);
      if (m && e.type === "message" && isUserOrAssistant(m)) list.push({ message: m, entryIndex: e.index });
    }
  }
  for (const e of reset >= 0 ? active.slice(reset) : active) {
    const m = projectEvent(e, customRows);
    if (m) list.push({ message: m, entryIndex: e.index });
  }
  return list;
}

const COMPACTION_ROW: JsonObject = { role: "system", content: [{ type: "text", text: "Compaction" }] };

/**
 * M / R for `/context detail`. `beforeIndex` = index (Transcript.entries) of the command's own user message;
 * omit it to count everything (what a `/context detail` sent now would count).
 * Returns `{unavailable: "no transcript messages found"}` when M = 0 (OpenClaw's wording).
 */
export function countTranscriptMessages(
  transcript: Transcript,
  family: ContextFamily,
  beforeIndex?: number,
  /** The session's release (VersionInfo.appVersion): which 2026.9-family display list rules apply. */
  appVersion: string | null = null,
): TranscriptCounts {
  if (family !== "2026.9") return Counts2026_7.of(transcript, family).counts(beforeIndex);
  const rules = displayListRules(appVersion);
  const all = historyList2026_9(transcript, rules.customRows);
  const messages = (beforeIndex === undefined ? all : all.filter((x) => x.entryIndex < beforeIndex)).map(
    (x) => x.message,
  );
  if (messages.length === 0) return { unavailable: "no transcript messages found" };
  let real = 0;
  for (let i = 0; i < messages.length; i += 1)
    if (isRealConversationMessage(messages, i, family, rules.snakeCaseToolCalls)) real += 1;
  return { messages: messages.length, real };
}

/**
 * The 2026.7 list (every message and compaction line, append order) with each entry's "real" verdict, kept so
 * that the Transcript of an append (same entry objects in front, sources/jsonl/tail.ts) classifies only its new
 * lines (issue 18 "Live"): a verdict looks back only (≤ 20 entries), so the earlier ones never change. A few
 * recent lists are kept; one is continued when the new transcript starts with exactly its entries.
 */
class Counts2026_7 {
  private static readonly recent: Counts2026_7[] = [];
  /** Entries of the transcript scanned, and the last of them (the identity check of the prefix). */
  private scanned = 0;
  private last: TranscriptEntry | undefined;
  /** Entry index of each list entry (append order). */
  private entryIndexes: number[] = [];
  /** realBefore[k] = real entries among the first k. */
  private realBefore: number[] = [0];
  /** The last list messages, as far back as a verdict looks (only these are kept, not every message). */
  private tail: JsonObject[] = [];

  private constructor(private readonly family: ContextFamily) {}

  static of(transcript: Transcript, family: ContextFamily): Counts2026_7 {
    const entries = transcript.entries;
    let base: Counts2026_7 | undefined;
    for (const c of Counts2026_7.recent) {
      if (c.family !== family || c.scanned > entries.length) continue;
      if (c.scanned === entries.length && c.last === entries[c.scanned - 1]) return c;
      if (c.scanned > 0 && c.last === entries[c.scanned - 1] && (!base || c.scanned > base.scanned)) base = c;
    }
    const next = base ? base.copy() : new Counts2026_7(family);
    next.scan(entries);
    Counts2026_7.recent.unshift(next);
    if (Counts2026_7.recent.length > 8) Counts2026_7.recent.length = 8;
    return next;
  }

  private copy(): Counts2026_7 {
    const c = new Counts2026_7(this.family);
    c.scanned = this.scanned;
    c.last = this.last;
    // slice, not push(...a): a spread of a long session's entries overflows the call stack's argument limit
    c.entryIndexes = this.entryIndexes.slice();
    c.realBefore = this.realBefore.slice();
    c.tail = this.tail.slice();
    return c;
  }

  private scan(entries: readonly TranscriptEntry[]): void {
    for (let i = this.scanned; i < entries.length; i++) {
      const e = entries[i];
      if (!e) continue;
      const m = e.type === "message" ? messageOf(e) : e.type === "compaction" ? COMPACTION_ROW : null;
      if (!m) continue;
      this.entryIndexes.push(e.index);
      this.tail.push(m);
      if (this.tail.length > 2 * TOOL_RESULT_LOOKBACK) this.tail = this.tail.slice(-TOOL_RESULT_LOOKBACK - 1);
      const k = this.entryIndexes.length - 1;
      const real = isRealConversationMessage(this.tail, this.tail.length - 1, this.family) ? 1 : 0;
      this.realBefore.push((this.realBefore[k] ?? 0) + real);
    }
    this.scanned = entries.length;
    this.last = entries[entries.length - 1];
  }

  /** M / R over the list, or over its entries before `beforeIndex` (a prefix: the list is in entry order). */
  counts(beforeIndex?: number): TranscriptCounts {
    let n = this.entryIndexes.length;
    if (beforeIndex !== undefined) {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((this.entryIndexes[mid] ?? 0) < beforeIndex) lo = mid + 1;
        else hi = mid;
      }
      n = lo;
    }
    if (n === 0) return { unavailable: "no transcript messages found" };
    return { messages: n, real: this.realBefore[n] ?? 0 };
  }
}

/** The text of a user `message` entry (string content, or its text blocks joined), else null. */
export function userMessageText(e: TranscriptEntry): string | null {
  if (e.type !== "message") return null;
  const message = e.raw.message;
  if (!isObject(message) || message.role !== "user") return null;
  const content = message.content;
  return typeof content === "string"
    ? content
    : (arr(message, "content") ?? [])
        .filter(isObject)
        .map((b) => str(b, "text") ?? "")
        .join("");
}

/** Index of the last user message whose text is exactly `command` (e.g. `/context detail`), or undefined. */
export function findCommandMessageIndex(transcript: Transcript, command: string): number | undefined {
  let found: number | undefined;
  for (const e of transcript.entries) {
    if (userMessageText(e)?.trim() === command) found = e.index;
  }
  return found;
}
