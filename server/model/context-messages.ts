// The model-context message list exactly as OpenClaw (pi's buildSessionContext) builds it from the
// active branch — the list the pruner and the provider converter see (spec transcript.md §6–§8):
//   * window: from the last `compaction` (summary message + path entries from `firstKeptEntryId` up to
//     the compaction + everything after it) or after the newest E5 `reset`, whichever is later (a reset with
//     `firstKeptEntryId` keeps only user/assistant messages and paired tool results before it,
//     model/reset-kept-entries.ts);
//   * keep `message`, `custom_message` (→ role custom), non-empty `branch_summary` (→ branchSummary) and
//     the compaction summary (→ compactionSummary); drop every other entry type;
//   * drop `excludeFromContext` messages and transcript-only assistants (gateway-injected replies,
//     delivery mirrors) — keeping them shifts the keep-last-assistants cutoff and mispredicts pruning.
// ContextBuilder appends incrementally (a replay over thousands of messages never rebuilds per call);
// buildContextMessages is the one-shot entry point. Pure.

import { isObject, type JsonObject, str } from "../../shared/json.ts";
import { isTranscriptOnlyAssistant } from "../openclaw/transcript-only.ts";
import { selectResetKeptEntries } from "./reset-kept-entries.ts";
import type { ContextMessage, Transcript, TranscriptEntry } from "./session.ts";
import { summaryWireText } from "./summary-text.ts";

function summaryMessage(
  role: "compactionSummary" | "branchSummary",
  entry: TranscriptEntry,
  summary: string,
): JsonObject {
  const message: JsonObject = {
    role,
    summary,
    content: [{ type: "text", text: summaryWireText(role, summary) }],
  };
  if (entry.timestamp !== null) message.timestamp = entry.timestamp;
  return message;
}

/** One path entry → its context message, or null when it does not enter the model context (§7 steps 3–5). */
export function toContextMessage(entry: TranscriptEntry): ContextMessage | null {
  const raw = entry.raw;
  if (entry.type === "message") {
    const message = raw.message;
    if (!isObject(message)) return null;
    const role = str(message, "role");
    if (!role) return null;
    if (message.excludeFromContext === true || raw.excludeFromContext === true) return null;
    if (isTranscriptOnlyAssistant(message)) return null;
    return { role, message, entryIndex: entry.index };
  }
  if (entry.type === "custom_message") {
    const message: JsonObject = {
      role: "custom",
      customType: raw.customType ?? null,
      content: raw.content ?? "",
    };
    if (raw.display !== undefined) message.display = raw.display;
    if (raw.details !== undefined) message.details = raw.details;
    if (entry.timestamp !== null) message.timestamp = entry.timestamp;
    return { role: "custom", message, entryIndex: entry.index };
  }
  if (entry.type === "branch_summary") {
    const summary = str(raw, "summary");
    if (!summary) return null;
    return {
      role: "branchSummary",
      message: summaryMessage("branchSummary", entry, summary),
      entryIndex: entry.index,
    };
  }
  return null;
}

/**
 * Incremental model-context builder over the active branch in append order. `messages` only grows
 * between windows; a `compaction` or `reset` rebuilds it (and bumps `generation`). The list of a call at
 * assistant entry k is `messages` as it stands just before `push(k)`.
 */
export class ContextBuilder {
  /** The current model-context list. Append-only until the next compaction/reset. */
  readonly messages: ContextMessage[] = [];
  /** Incremented whenever the list is rebuilt rather than appended to. */
  generation = 0;
  /** Index of the entry that opened the current window (compaction / reset), or null. */
  windowStart: number | null = null;
  /** Path entries since the newest reset (needed for a compaction's kept range). */
  private path: TranscriptEntry[] = [];

  /**
   * @param toMessage entry → context message; a replay passes a memoised version so repeated runs over
   *   one transcript reuse the message objects.
   */
  constructor(
    private readonly toMessage: (entry: TranscriptEntry) => ContextMessage | null = toContextMessage,
  ) {}

  push(entry: TranscriptEntry): void {
    if (entry.type === "reset") {
      this.generation++;
      this.windowStart = entry.index;
      const firstKept = str(entry.raw, "firstKeptEntryId");
      const kept = firstKept ? selectResetKeptEntries(this.keptFrom(firstKept)) : [];
      this.messages.length = 0;
      this.path = kept.slice();
      for (const e of kept) this.appendResetKept(e);
      this.path.push(entry);
      return;
    }
    if (entry.type === "compaction") {
      this.generation++;
      this.windowStart = entry.index;
      const firstKept = str(entry.raw, "firstKeptEntryId");
      const kept = firstKept ? this.keptFrom(firstKept) : [];
      this.messages.length = 0;
      const summary = str(entry.raw, "summary") ?? "";
      this.messages.push({
        role: "compactionSummary",
        message: summaryMessage("compactionSummary", entry, summary),
        entryIndex: entry.index,
      });
      for (const e of kept) this.append(e);
      this.path.push(entry);
      return;
    }
    this.path.push(entry);
    this.append(entry);
  }

  /** Path entries from `firstKeptEntryId` to the end (none when the id is not on the path, as in pi). */
  private keptFrom(firstKeptId: string): TranscriptEntry[] {
    for (let i = this.path.length - 1; i >= 0; i--) {
      if (this.path[i]?.id === firstKeptId) return this.path.slice(i);
    }
    return [];
  }

  /** A message a reset keeps: replayed as stored, `excludeFromContext` not honoured (reset-kept-entries.ts). */
  private appendResetKept(entry: TranscriptEntry): void {
    const message = entry.raw.message;
    const role = isObject(message) ? str(message, "role") : undefined;
    if (!isObject(message) || !role || isTranscriptOnlyAssistant(message)) return;
    this.messages.push({ role, message, entryIndex: entry.index });
  }

  private append(entry: TranscriptEntry): void {
    const m = this.toMessage(entry);
    if (m) this.messages.push(m);
  }
}

/**
 * The model-context list of a transcript (transcript.md §7). With `beforeIndex`, only active-branch
 * entries whose index is below it count — the list a call at assistant entry `beforeIndex` saw.
 */
export function buildContextMessages(
  transcript: Transcript,
  opts?: { beforeIndex?: number },
): ContextMessage[] {
  const before = opts?.beforeIndex ?? Number.POSITIVE_INFINITY;
  const builder = new ContextBuilder();
  for (const idx of transcript.activeBranch) {
    if (idx >= before) continue;
    const entry = transcript.entries[idx];
    if (entry) builder.push(entry);
  }
  return builder.messages.slice();
}
