// Transcript signals that the cached prefix changed between two calls of a lineage (spec cache-and-cost.md §6):
// a compaction, a pruning round (a projection snapshot that marks more tool results pruned, or a round the
// caller's replay saw), the unpruned re-send after a stateless (≤ 2026.9.1) round, two user messages merged for the previous
// call, a thinking-level change. Each signal names the entries it comes from.

import type { PrefixChangeCause } from "../../../shared/cost.ts";
import { arr, isObject, type JsonObject, obj, str } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";
import { extendParentIndexes, parentIndexes, visitAncestors } from "../../model/tree.ts";
import { isTranscriptOnlyAssistant } from "../transcript-only.ts";

export interface PrefixSignal {
  cause: PrefixChangeCause;
  /** Labels (entry id, else `#index`) of the entries that are the signal. */
  ids: string[];
  text: string;
}

export interface PathScan {
  /** Entries on n's ancestor path appended after m (append order). */
  between: TranscriptEntry[];
  /** Whether m is an ancestor of n. */
  mOnPath: boolean;
}

export function entryLabel(e: TranscriptEntry): string {
  return e.id ?? `#${e.index}`;
}

function message(e: TranscriptEntry): JsonObject | undefined {
  return e.type === "message" ? obj(e.raw, "message") : undefined;
}

/** Key set of `prunedToolResults` of an E5 projection snapshot (transcript.md §9.1), or null when not one. */
function snapshotPrunedKeys(e: TranscriptEntry): Set<string> | null {
  if (e.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") return null;
  const pruned = arr(obj(e.raw, "data"), "prunedToolResults");
  if (!pruned) return null;
  const keys = new Set<string>();
  for (const p of pruned) {
    if (isObject(p)) keys.add(`${str(p, "key") ?? "?"}|${str(p, "mode") ?? "?"}`);
  }
  return keys;
}

/**
 * Snapshot entries whose pruned set gained a key or changed a mode vs the previous snapshot (append order), from
 * entry `from` on; `prev` is the pruned set in force before it (the state a later append continues from).
 */
function changedSnapshots(
  entries: readonly TranscriptEntry[],
  from: number,
  prev: Set<string>,
  changed: Map<number, number>,
): Set<string> {
  for (let i = from; i < entries.length; i++) {
    const e = entries[i];
    if (!e) continue;
    if (e.type === "reset") prev = new Set();
    const keys = snapshotPrunedKeys(e);
    if (!keys) continue;
    let added = 0;
    for (const k of keys) if (!prev.has(k)) added++;
    if (added > 0) changed.set(e.index, added);
    prev = keys;
  }
  return prev;
}

export class PrefixSignals {
  private entries: readonly TranscriptEntry[];
  /** Per entry, its parent's index (−1: none). */
  private parents: Int32Array;
  /** Snapshot entry index → how many more tool results it marks pruned. */
  private readonly snapshots = new Map<number, number>();
  /** The pruned set of the last snapshot scanned (a reset empties it). */
  private snapshotKeys: Set<string>;

  constructor(
    transcript: Transcript,
    /** Calls (entry ids) at which the caller's replay saw a pruning round (pruning.md §5). */
    private readonly roundIds: ReadonlySet<string>,
    /** Rounds persist (2026.9.2+); else a round applies to one call only and the next is sent unpruned (§6). */
    private readonly stickyRounds: boolean,
  ) {
    this.entries = transcript.entries;
    this.parents = parentIndexes(transcript.entries, "transcript");
    this.snapshotKeys = changedSnapshots(this.entries, 0, new Set(), this.snapshots);
  }

  /**
   * Continue over entries appended to the transcript (the caller checked that the old entries and their parent
   * links are unchanged); `byId` is the id index of the whole new transcript.
   */
  extendTo(transcript: Transcript, byId: ReadonlyMap<string, number>): void {
    const from = this.entries.length;
    const entries = transcript.entries;
    this.entries = entries;
    this.parents = extendParentIndexes(this.parents, entries, byId);
    this.snapshotKeys = changedSnapshots(entries, from, this.snapshotKeys, this.snapshots);
  }

  private parentOf(e: TranscriptEntry): TranscriptEntry | undefined {
    const i = this.parents[e.index] ?? -1;
    return i < 0 ? undefined : this.entries[i];
  }

  /** The entries on n's path since m (m = the lineage's previous call at `mIndex`). */
  scanPath(n: ModelCall, mIndex: number): PathScan {
    const between: TranscriptEntry[] = [];
    let mOnPath = false;
    visitAncestors(this.entries[n.entryIndex], this.parentOf.bind(this), (e) => {
      if (e.index === mIndex) mOnPath = true;
      if (e.index <= mIndex) return false;
      between.push(e);
      return true;
    });
    between.reverse();
    return { between, mOnPath };
  }

  /** Every signal between m and n, in the order of §6. */
  signals(n: ModelCall, m: ModelCall, between: readonly TranscriptEntry[]): PrefixSignal[] {
    const signals: PrefixSignal[] = [];
    const compactions = between.filter((e) => e.type === "compaction");
    if (compactions.length > 0) {
      signals.push({
        cause: "compaction",
        ids: compactions.map(entryLabel),
        text: "compaction since the previous call rewrote the history",
      });
    }
    const round = this.pruningRound(n, between);
    if (round) signals.push(round);
    if (!this.stickyRounds && m.entryId !== null && this.roundIds.has(m.entryId)) {
      signals.push({
        cause: "unpruned-after-round",
        ids: [m.entryId],
        text: "the previous call was pruned; ≤ 2026.9.1 sends this one unpruned again",
      });
    }
    const merged = this.mergedUsers(m, between);
    if (merged) signals.push(merged);
    const thinking = between.filter((e) => e.type === "thinking_level_change");
    if (thinking.length > 0) {
      signals.push({
        cause: "thinking-level-change",
        ids: thinking.map(entryLabel),
        text: "thinking level changed",
      });
    }
    return signals;
  }

  private pruningRound(n: ModelCall, between: readonly TranscriptEntry[]): PrefixSignal | null {
    const snaps = between.filter((e) => this.snapshots.has(e.index));
    const inputRound = n.entryId !== null && this.roundIds.has(n.entryId);
    if (snaps.length === 0 && !inputRound) return null;
    const added = snaps.reduce((s, e) => s + (this.snapshots.get(e.index) ?? 0), 0);
    return {
      cause: "pruning-round",
      ids: snaps.map(entryLabel),
      text:
        snaps.length > 0
          ? `pruning round: projection snapshot marks ${added} more tool result(s) pruned`
          : "pruning round on this call (replay)",
    };
  }

  /** Two user messages merged for m, re-sent as history after a new run started (§6). */
  private mergedUsers(m: ModelCall, between: readonly TranscriptEntry[]): PrefixSignal | null {
    const pair = this.mergedUserPair(m);
    const newRun = between.some((e) => {
      const msg = message(e);
      return msg !== undefined && str(msg, "role") === "user" && msg.excludeFromContext !== true;
    });
    if (!pair || !newRun) return null;
    return {
      cause: "merged-user-messages",
      ids: [entryLabel(pair.first), entryLabel(pair.prompt)],
      text: "two consecutive user messages were merged for the previous call and the earlier one took the newer timestamp prefix; re-sent as history they differ",
    };
  }

  /** The user message that started m's run and the context message just before it, on m's path. */
  private mergedUserPair(m: ModelCall): { first: TranscriptEntry; prompt: TranscriptEntry } | null {
    const seen = new Set<number>();
    let cur = this.entries[m.entryIndex];
    cur = cur ? this.parentOf(cur) : undefined;
    let prompt: TranscriptEntry | undefined;
    while (cur && !seen.has(cur.index)) {
      seen.add(cur.index);
      const msg = message(cur);
      if (cur.type === "compaction" || cur.type === "reset") return null;
      // Transcript-only replies (transcript.md §8) sit between merged user messages without separating them.
      if (msg && !isTranscriptOnlyAssistant(msg) && msg.excludeFromContext !== true) {
        const role = str(msg, "role");
        // Skip m's own run (assistant / toolResult rows of a tool loop) up to the prompt that started it.
        if (!prompt) {
          if (role === "user") prompt = cur;
        } else {
          return role === "user" ? { first: cur, prompt } : null;
        }
      }
      cur = this.parentOf(cur);
    }
    return null;
  }
}
