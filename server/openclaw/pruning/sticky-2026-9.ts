// The sticky cache-TTL pruner of 2026.9.x (spec pruning.md §2.4–§2.6; OpenClaw
// src/agents/embedded-agent-runner/{cache-ttl,session-prompt-state}.ts). Once a tool result is soft-
// trimmed or hard-cleared, that projection is replayed on every later request (and restored from
// `openclaw.cache-ttl` snapshots after a restart); a result never goes back to full, never hard → soft.
// The gate (TTL clock, eligibility) is the caller's job. Also: projection keys, the snapshot sourceHash
// and snapshot parsing/restore. Pure — hashing is injected so the module runs in the browser too.

import { arr, isObject, type JsonObject, type JsonValue, num, str } from "../../../shared/json.ts";
import { blockText } from "../../model/lazy-text.ts";
import { hardClearOldestFirst } from "./hard-clear.ts";
import {
  assistantCutoff,
  type PrunerChange,
  type PrunerInput,
  type PrunerResult,
  type PrunerSettings,
} from "./pruner-input.ts";

/** A sticky projection of one tool result. */
export interface Projection {
  mode: "soft" | "hard";
  /** Estimated chars as projected. */
  chars: number;
  /** Hard: the recorded placeholder text. */
  placeholder?: string;
}

/**
 * One call's round (§2.4 steps 3–6) over a list whose existing projections are already applied
 * (`view.totalChars` is the projected total; `projections` maps entryIndex → projection).
 * Returns the new projections made in this round; the caller records them (sticky).
 */
export function pruneSticky(
  view: PrunerInput,
  projections: ReadonlyMap<number, Projection>,
  settings: PrunerSettings,
): PrunerResult {
  const changes = new Map<number, PrunerChange>();
  const base = { totalBefore: view.totalChars, totalAfter: view.totalChars, changes };
  if (!(view.charWindow > 0)) return { reason: "no-window", cutoff: null, start: null, ...base };
  // 3. cutoff = 3rd-last assistant (fewer → no round); start = first user (none → no round).
  const cutoff = assistantCutoff(view, settings.keepLastAssistants);
  if (cutoff === null) return { reason: "too-few-assistants", cutoff, start: null, ...base };
  const start = view.firstUserPosition;
  if (start === null) return { reason: "no-user-message", cutoff, start, ...base };
  // 4. Ratio of the projected list.
  let total = view.totalChars;
  if (total / view.charWindow < settings.softTrimRatio)
    return { reason: "below-soft-trim-ratio", cutoff, start, ...base };

  // 5. Eligible results in [start, cutoff): hard ones are skipped, soft ones stay soft.
  // (Parallel number arrays: a replay runs this on thousands of calls.)
  const eligibleEntry: number[] = [];
  const eligibleChars: number[] = [];
  for (const tr of view.toolResults) {
    if (tr.position < start) continue;
    if (tr.position >= cutoff) break;
    if (!settings.isToolPrunable(tr.toolName)) continue;
    const existing = projections.get(tr.entryIndex);
    if (existing?.mode === "hard") continue;
    eligibleEntry.push(tr.entryIndex);
    if (existing?.mode === "soft") {
      eligibleChars.push(existing.chars);
      continue;
    }
    const trimmed = settings.softTrimChars(tr);
    if (trimmed === null) {
      eligibleChars.push(tr.chars);
      continue;
    }
    total += trimmed - tr.chars;
    changes.set(tr.entryIndex, { state: "soft-trim", chars: trimmed });
    eligibleChars.push(trimmed);
  }

  // 6. Hard clear, oldest first, while the ratio stays ≥ hardClearRatio (./hard-clear.ts).
  total = hardClearOldestFirst(view, settings, total, eligibleEntry, eligibleChars, changes);
  return {
    reason: changes.size > 0 ? "pruned" : "no-change",
    totalBefore: view.totalChars,
    totalAfter: total,
    cutoff,
    start,
    changes,
  };
}

// ---------------------------------------------------------------------------------------------------
// Projection keys, source hashes and snapshots (transcript.md §9.1)

/** Base key `tool:<toolCallId>:<timestamp>` (`:<ts>` omitted without a numeric timestamp; `timestamp:<ms>` without an id). */
export function projectionBaseKey(toolResult: JsonObject): string | null {
  const id = str(toolResult, "toolCallId");
  const ts = num(toolResult, "timestamp");
  if (id) return ts === undefined ? `tool:${id}` : `tool:${id}:${ts}`;
  return ts === undefined ? null : `timestamp:${ts}`;
}

/** The text-block strings hashed into `sourceHash` (a non-string `text` counts as ""). */
export function sourceTexts(content: JsonValue | undefined): string[] {
  if (typeof content === "string") return [content];
  const texts: string[] = [];
  if (Array.isArray(content)) {
    for (const b of content) {
      // a text not kept in memory is read back: the hash is of the real text (model/lazy-text.ts)
      if (isObject(b) && b.type === "text") texts.push(blockText(b));
    }
  }
  return texts;
}

/** `sourceHash` = SHA-256, base64url without padding, of JSON.stringify(text blocks). Hash injected. */
export function sourceHash(content: JsonValue | undefined, sha256Base64Url: (s: string) => string): string {
  return sha256Base64Url(JSON.stringify(sourceTexts(content)));
}

export interface SnapshotMark {
  key: string;
  mode: "soft" | "hard";
  placeholder?: string;
}

export interface ProjectionSnapshot {
  pruned: SnapshotMark[];
  ambiguousBaseKeys: string[];
  frozen: { key: string; sourceHash: string | null; hasTexts: boolean }[];
}

/** Parse an `openclaw.cache-ttl` custom entry's data as a projection snapshot (null if it is not one). */
export function parseProjectionSnapshot(data: JsonValue | undefined): ProjectionSnapshot | null {
  if (!isObject(data)) return null;
  const pruned = arr(data, "prunedToolResults");
  if (!pruned) return null;
  const marks: SnapshotMark[] = [];
  for (const p of pruned) {
    if (!isObject(p)) continue;
    const key = str(p, "key");
    const mode = str(p, "mode");
    if (!key || (mode !== "soft" && mode !== "hard")) continue;
    const mark: SnapshotMark = { key, mode };
    const placeholder = str(p, "placeholder");
    if (placeholder !== undefined) mark.placeholder = placeholder;
    marks.push(mark);
  }
  const ambiguousBaseKeys = (arr(data, "ambiguousToolResultBaseKeys") ?? []).filter(
    (k): k is string => typeof k === "string",
  );
  const frozen: ProjectionSnapshot["frozen"] = [];
  for (const f of arr(data, "frozenToolResults") ?? []) {
    if (!isObject(f)) continue;
    const key = str(f, "key");
    if (!key) continue;
    frozen.push({ key, sourceHash: str(f, "sourceHash") ?? null, hasTexts: Array.isArray(f.texts) });
  }
  return { pruned: marks, ambiguousBaseKeys, frozen };
}

/** A numeric cache-touch timestamp of an `openclaw.cache-ttl` entry's data (snapshot-only markers have none). */
export function cacheTouchOf(
  data: JsonValue | undefined,
): { timestamp: number; provider: string | null; modelId: string | null } | null {
  if (!isObject(data)) return null;
  const timestamp = num(data, "timestamp");
  if (timestamp === undefined) return null;
  return { timestamp, provider: str(data, "provider") ?? null, modelId: str(data, "modelId") ?? null };
}

export interface RestoreCandidate {
  entryIndex: number;
  key: string;
  /** The result's current text hash (to check the frozen `sourceHash`). */
  hash: string;
  /** Chars of the soft-trimmed form (null when soft-trim would not change it). */
  softChars: number | null;
}

/**
 * Restore projections from a snapshot (§2.6): marks of results still on the branch (`lookup` finds them
 * by key) whose recorded sourceHash matches the current text; others are dropped. A soft mark is
 * re-derived from the original text; a hard one keeps its recorded placeholder.
 */
export function restoreProjections(
  snapshot: ProjectionSnapshot,
  lookup: (key: string) => RestoreCandidate | undefined,
  placeholderChars: (placeholder: string) => number,
): Map<number, Projection> {
  const hashByKey = new Map<string, string | null>();
  for (const f of snapshot.frozen) hashByKey.set(f.key, f.sourceHash);
  const restored = new Map<number, Projection>();
  for (const mark of snapshot.pruned) {
    const c = lookup(mark.key);
    if (!c) continue;
    const recorded = hashByKey.get(mark.key);
    if (recorded && recorded !== c.hash) continue;
    if (mark.mode === "hard") {
      const placeholder = mark.placeholder ?? "";
      restored.set(c.entryIndex, { mode: "hard", chars: placeholderChars(placeholder), placeholder });
    } else if (c.softChars !== null) {
      restored.set(c.entryIndex, { mode: "soft", chars: c.softChars });
    }
  }
  return restored;
}
