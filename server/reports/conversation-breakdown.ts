// The conversation as sent at the last call, by role, by tool and by summary — the /context tab's table. Its
// sizes are the context map's conversation tiles (reports/context-map/leaves.ts: text, thinking, tool-call
// arguments, summaries as their wire text, images at OpenClaw's 8,000-char estimate), so the table's chars and the
// map's Conversation group are one number (issue 15). Messages written after the last call (its reply, a newer
// turn) were not in that prompt: they are in ContextNumbersDTO.afterLastCall, not here. Pure.

import { str } from "../../shared/json.ts";
import type { ConversationBreakdown, ConversationBucket, LastCallUsageDTO } from "../../shared/run-report.ts";
import { buildContextMessages } from "../model/context-messages.ts";
import type { ContextMessage, LoadedSession, Transcript } from "../model/session.ts";
import { tokensFromChars } from "../openclaw/token-estimate.ts";
import { IdAllocator, lastCallReplyPos } from "./context-map/leaf-spec.ts";
import { conversationLeaves } from "./context-map/leaves.ts";

export const CONVERSATION_BASIS =
  "The context map's conversation tiles of the last call's prompt: JS string length (UTF-16 code units) of text, thinking and tool-call argument JSON, summaries as their wire text, image blocks at OpenClaw's 8,000-char estimate (also counted in `images`); tool results as stored in the transcript (before pruning projections and live caps); estTokens is OpenClaw's chars/4 estimate of each bucket.";

export const CONVERSATION_BASIS_SENT =
  "The context map's conversation tiles of the last call's prompt: JS string length (UTF-16 code units) of text, thinking and tool-call argument JSON, summaries as their wire text, image blocks at OpenClaw's 8,000-char estimate (also counted in `images`); tool results as sent at that call (cache-TTL pruning projections replayed: soft-trimmed text or placeholder); estTokens is OpenClaw's chars/4 estimate of each bucket.";

function emptyBucket(): ConversationBucket {
  return { count: 0, images: 0, chars: 0, estTokens: 0 };
}

function addTo(bucket: ConversationBucket, size: { chars: number; images: number }): void {
  bucket.count += 1;
  bucket.images += size.images;
  bucket.chars += size.chars;
  bucket.estTokens = tokensFromChars(bucket.chars);
}

function countSentCandidates(transcript: Transcript): number {
  let n = 0;
  for (const i of transcript.activeBranch) {
    const e = transcript.entries[i];
    if (e && (e.type === "message" || e.type === "custom_message" || e.type === "branch_summary")) n += 1;
  }
  return n;
}

/** Chars and images of each message of the list, as the map's tiles count them. */
function messageSizes(
  session: LoadedSession,
  messages: readonly ContextMessage[],
): { chars: number; images: number }[] {
  const sizes = messages.map(() => ({ chars: 0, images: 0 }));
  for (const leaf of conversationLeaves(session, messages, new IdAllocator())) {
    const size = leaf.messagePos === undefined ? undefined : sizes[leaf.messagePos];
    if (!size) continue;
    size.chars += leaf.chars;
    size.images += leaf.images ?? 0;
  }
  return sizes;
}

/**
 * The messages of the last call's prompt (the whole list when no billed call is recorded, or when its reply is not
 * in the list), bucketed. `sentMessages`: the list with tool results as sent (else as stored).
 */
export function conversationBreakdown(
  session: LoadedSession,
  sentMessages: readonly ContextMessage[] | undefined,
  lastCall: LastCallUsageDTO | null,
): ConversationBreakdown {
  const messages = sentMessages ?? buildContextMessages(session.transcript);
  const replyPos = lastCall ? lastCallReplyPos(messages, lastCall.entryIndex) : null;
  const end = replyPos ?? messages.length;
  const sizes = messageSizes(session, messages);
  const byRole: Record<string, ConversationBucket> = {};
  const byTool = new Map<string, ConversationBucket>();
  let compactionSummary: ConversationBucket | null = null;
  const branchSummaries = emptyBucket();
  const total = emptyBucket();
  let fromWindowEntries = 0;
  messages.forEach((m, pos) => {
    // The compaction summary is synthesized from the compaction row, not a message/custom/branch row.
    if (m.role !== "compactionSummary") fromWindowEntries += 1;
    const size = sizes[pos];
    if (pos >= end || !size) return;
    const bucket = byRole[m.role] ?? emptyBucket();
    byRole[m.role] = bucket;
    addTo(bucket, size);
    addTo(total, size);
    if (m.role === "toolResult") {
      const name = str(m.message, "toolName") ?? "(unknown)";
      const tb = byTool.get(name) ?? emptyBucket();
      byTool.set(name, tb);
      addTo(tb, size);
    } else if (m.role === "compactionSummary") {
      compactionSummary ??= emptyBucket();
      addTo(compactionSummary, size);
    } else if (m.role === "branchSummary") {
      addTo(branchSummaries, size);
    }
  });
  const toolResultsByTool = [...byTool.entries()]
    .map(([toolName, b]) => ({ toolName, ...b }))
    .sort((a, b) => b.chars - a.chars || a.toolName.localeCompare(b.toolName));
  return {
    basis: sentMessages ? CONVERSATION_BASIS_SENT : CONVERSATION_BASIS,
    byRole,
    toolResultsByTool,
    compactionSummary,
    branchSummaries,
    total,
    notSent: { count: Math.max(0, countSentCandidates(session.transcript) - fromWindowEntries) },
  };
}
