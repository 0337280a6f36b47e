// OpenClaw's own map for the "OpenClaw map" toggle: exactly what `/context map` would show for the session's
// stored state — the picture + caption by the session's rule family (openclaw/context-map/), or OpenClaw's own
// reply when there is no map (2026.3.2 has no `map` mode; no stored `run` report).

import { num, obj } from "../../../shared/json.ts";
import type { OpenClawMapPicture } from "../../../shared/openclaw-picture.ts";
import type { LoadedSession, Transcript } from "../../model/session.ts";
import { continuesTranscript, type GrowthMark, growthMark } from "../../model/transcript-growth.ts";
import { type ConversationBuckets, conversationBuckets } from "../../openclaw/context-map/conversation.ts";
import { mapFreshTotalTokens, openClawMapMessages } from "../../openclaw/context-map/inputs.ts";
import { layoutOpenClawMap, openClawMapUnavailable } from "../../openclaw/context-map/picture.ts";
import { mapUnavailableText } from "../../openclaw/texts.ts";

export type OpenClawMapResult =
  | { available: true; picture: OpenClawMapPicture }
  | { available: false; text: string };

function computeOpenClawMap(session: LoadedSession): OpenClawMapResult {
  const family = session.version.family;
  const report = session.entry ? (obj(session.entry, "systemPromptReport") ?? null) : null;
  // 2026.3.2 has no `map` mode: its reply is the unknown-mode text (spec context-report.md §5).
  if (family === "2026.3" || !report || openClawMapUnavailable(report))
    return { available: false, text: mapUnavailableText(family) };
  const picture = layoutOpenClawMap({
    family,
    report,
    conversation: branchBuckets(session.transcript),
    freshTotalTokens: mapFreshTotalTokens(session.entry, family),
    windowTokens: num(session.entry, "contextTokens") ?? null,
  });
  return { available: true, picture };
}

/**
 * The conversation buckets of a transcript's active branch: sums of per-message estimates, so the Transcript of
 * an append (model/transcript-growth.ts: same entries and branch in front) adds only its new branch messages to
 * a recent transcript's sums (issue 18 "Live"). Integer sums: the order of additions does not matter.
 */
const recentSums: { mark: GrowthMark; buckets: ConversationBuckets }[] = [];

export function branchBuckets(t: Transcript): ConversationBuckets {
  let base: (typeof recentSums)[number] | undefined;
  for (const r of recentSums) {
    const longer = !base || r.mark.branchLength > base.mark.branchLength;
    if (longer && continuesTranscript(r.mark, t)) base = r;
  }
  const from = base ? base.mark.branchLength : 0;
  const added = conversationBuckets(openClawMapMessages(t.entries, t.activeBranch.slice(from)));
  const buckets = base ? sumBuckets(base.buckets, added) : added;
  recentSums.unshift({ mark: growthMark(t), buckets });
  if (recentSums.length > 8) recentSums.length = 8;
  return buckets;
}

function sumBuckets(a: ConversationBuckets, b: ConversationBuckets): ConversationBuckets {
  return {
    user: a.user + b.user,
    assistant: a.assistant + b.assistant,
    toolResults: a.toolResults + b.toolResults,
    summaries: a.summaries + b.summaries,
    other: a.other + b.other,
  };
}

/**
 * Memo per transcript object (transcripts are replaced, never mutated, when the data changes) and stored
 * entry text: the OpenClaw picture weighs every conversation char (non-ASCII regex) and is asked for on
 * every map request, while it only changes when the session does.
 */
const openClawMapMemo = new WeakMap<
  LoadedSession["transcript"],
  { key: string; entries: number; result: OpenClawMapResult }
>();

/**
 * The picture or the reply. The window is the entry's `contextTokens` (OpenClaw resolves it when the command
 * runs; they differ only if the model or caps changed).
 */
export function buildOpenClawMap(session: LoadedSession): OpenClawMapResult {
  const key = `${session.version.family}\n${JSON.stringify(session.entry)}`;
  const hit = openClawMapMemo.get(session.transcript);
  if (hit && hit.key === key && hit.entries === session.transcript.entries.length) return hit.result;
  const result = computeOpenClawMap(session);
  openClawMapMemo.set(session.transcript, { key, entries: session.transcript.entries.length, result });
  return result;
}
