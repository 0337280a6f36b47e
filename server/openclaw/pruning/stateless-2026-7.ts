// The stateless cache-TTL pruner of ≤2026.7.1 (spec pruning.md §1.6; OpenClaw
// src/agents/{pi-extensions,agent-hooks}/context-pruning/pruner.ts). Every request whose gate opened
// recomputes soft-trim / hard-clear from the full, unpruned list; nothing is persisted.
// 2026.3.2 (`legacy32`) differs only in: results with image blocks are never pruned, and plain
// (unweighted) estimates — the latter comes in through `settings.flavor` / `softTrimChars`.
// The TTL gate is the caller's job (server/reports/prune-replay.ts). Pure.

import { hardClearOldestFirst } from "./hard-clear.ts";
import {
  assistantCutoff,
  type PrunerChange,
  type PrunerInput,
  type PrunerResult,
  type PrunerSettings,
} from "./pruner-input.ts";

export function pruneStateless(view: PrunerInput, settings: PrunerSettings, legacy32: boolean): PrunerResult {
  const changes = new Map<number, PrunerChange>();
  const base = { totalBefore: view.totalChars, totalAfter: view.totalChars, changes };
  // 1. No positive window → unchanged.
  if (!(view.charWindow > 0)) return { reason: "no-window", cutoff: null, start: null, ...base };
  // 2. Keep-last-assistants cutoff; fewer assistants → unchanged.
  const cutoff = assistantCutoff(view, settings.keepLastAssistants);
  if (cutoff === null) return { reason: "too-few-assistants", cutoff, start: null, ...base };
  // 3. Messages before the first user message are protected (bootstrap reads); none → nothing prunable.
  const start = view.firstUserPosition ?? view.count;
  // 4. Below softTrimRatio → unchanged.
  let total = view.totalChars;
  if (total / view.charWindow < settings.softTrimRatio)
    return { reason: "below-soft-trim-ratio", cutoff, start, ...base };

  // 5. Soft-trim every prunable result in [start, cutoff). (Parallel number arrays: runs per call.)
  const prunableEntry: number[] = [];
  const prunableChars: number[] = [];
  for (const tr of view.toolResults) {
    if (tr.position < start) continue;
    if (tr.position >= cutoff) break;
    if (!settings.isToolPrunable(tr.toolName)) continue;
    // 2026.3.2: image results are skipped entirely (neither trimmed nor cleared).
    if (legacy32 && tr.hasImage) continue;
    prunableEntry.push(tr.entryIndex);
    const trimmed = settings.softTrimChars(tr);
    if (trimmed === null) {
      prunableChars.push(tr.chars);
      continue;
    }
    total += trimmed - tr.chars;
    changes.set(tr.entryIndex, { state: "soft-trim", chars: trimmed });
    prunableChars.push(trimmed);
  }
  // 6.–8. Hard clear (./hard-clear.ts).
  total = hardClearOldestFirst(view, settings, total, prunableEntry, prunableChars, changes);
  return {
    reason: changes.size > 0 ? "pruned" : "no-change",
    totalBefore: view.totalChars,
    totalAfter: total,
    cutoff,
    start,
    changes,
  };
}
