// The hard-clear step shared by both pruners (spec pruning.md §1.6 steps 6–8 for ≤2026.7.1, §2.4 step 6 for
// 2026.9.x — the same rule in both releases): only when enabled and the ratio after soft-trim is still
// ≥ hardClearRatio, only when the eligible results hold ≥ minPrunableToolChars, then oldest first, each
// result replaced by the placeholder, while the ratio stays ≥ hardClearRatio. Pure.

import { weightedChars } from "../estimate.ts";
import type { PrunerChange, PrunerInput, PrunerSettings } from "./pruner-input.ts";

/**
 * Clears `eligibleEntry` (entry indexes, oldest first, with their chars after soft-trim in `eligibleChars`)
 * into `changes`; returns the total after the round.
 */
export function hardClearOldestFirst(
  view: PrunerInput,
  settings: PrunerSettings,
  totalAfterSoftTrim: number,
  eligibleEntry: readonly number[],
  eligibleChars: readonly number[],
  changes: Map<number, PrunerChange>,
): number {
  let total = totalAfterSoftTrim;
  if (!(total / view.charWindow >= settings.hardClearRatio && settings.hardClearEnabled)) return total;
  let sum = 0;
  for (const c of eligibleChars) sum += c;
  if (sum < settings.minPrunableToolChars) return total;
  const placeholderChars = weightedChars(settings.placeholder, settings.flavor);
  for (let k = 0; k < eligibleEntry.length; k++) {
    if (total / view.charWindow < settings.hardClearRatio) break;
    total += placeholderChars - (eligibleChars[k] ?? 0);
    changes.set(eligibleEntry[k] ?? -1, { state: "hard-clear", chars: placeholderChars });
  }
  return total;
}
