// `next`: would a pruning round fire if the next message came at time `at`? (spec pruning.md §5.5). A
// hypothetical round over the current list; nothing of the replay is changed for real.

import { isObject, num } from "../../../shared/json.ts";
import type {
  PruneGate,
  PruneNextDTO,
  PruneRound,
  PruneSettingsDTO,
  ToolResultWireState,
} from "../../../shared/prune.ts";
import { ttlSentence } from "../../../shared/prune-next-text.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";
import type { Eligibility } from "../../openclaw/pruning/eligibility.ts";
import { type GateResult, ttlGate } from "../../openclaw/pruning/gate.ts";
import type { PrunerInput, PrunerResult } from "../../openclaw/pruning/pruner-input.ts";
import type { ListedToolResult } from "./pruner-list.ts";

/** When an entry happened: its message's timestamp, a custom entry's data timestamp, else the envelope's. */
function entryTime(entry: TranscriptEntry): number | null {
  const m = entry.raw.message;
  if (isObject(m)) {
    const t = num(m, "timestamp");
    if (t !== undefined) return t;
  }
  if (entry.type === "custom" && isObject(entry.raw.data)) {
    const t = num(entry.raw.data, "timestamp");
    if (t !== undefined) return t;
  }
  const parsed = entry.timestamp === null ? Number.NaN : Date.parse(entry.timestamp);
  return Number.isNaN(parsed) ? null : parsed;
}

/** The time of the newest active-branch entry that has one: the default `at` of the prediction. */
export function lastEntryTime(t: Transcript): number | null {
  for (let i = t.activeBranch.length - 1; i >= 0; i--) {
    const e = t.entries[t.activeBranch[i] ?? -1];
    const time = e ? entryTime(e) : null;
    if (time !== null) return time;
  }
  return null;
}

/** Strongest change of a round: a round that hard-cleared anything is "hard-clear". */
export function roundOf(result: PrunerResult | null): PruneRound {
  if (!result || result.changes.size === 0) return "none";
  for (const c of result.changes.values()) if (c.state === "hard-clear") return "hard-clear";
  return "soft-trim";
}

function roundEffect(
  result: PrunerResult | null,
  ratio: number,
  ratioText: string,
  charWindow: number,
): string {
  if (!result || result.changes.size === 0) return `nothing would change (context at ${ratioText})`;
  let soft = 0;
  let hard = 0;
  for (const c of result.changes.values()) {
    if (c.state === "soft-trim") soft++;
    else hard++;
  }
  const parts = [soft ? `soft-trim ${soft}` : "", hard ? `hard-clear ${hard}` : ""]
    .filter(Boolean)
    .join(" and ");
  const after = charWindow > 0 ? (result.totalAfter / charWindow) * 100 : 0;
  return `a round would ${parts} tool result(s): ${(ratio * 100).toFixed(1)}% → ${after.toFixed(1)}% of the char window`;
}

/** The prediction's sentence, and the clause the cache-ttl clock's sentence ends with (null: the clock does not decide). */
function predictionText(
  settings: PruneSettingsDTO,
  g: GateResult,
  touch: number | null,
  at: number,
  result: PrunerResult | null,
  input: PrunerInput,
): { prediction: string; ttlEffect: string | null } {
  const fixed = (prediction: string) => ({ prediction, ttlEffect: null });
  if (settings.mode !== "cache-ttl")
    return fixed("Pruning is off (contextPruning.mode is not cache-ttl): no round will open.");
  if (g.gate === "not-eligible")
    return fixed("The provider/model is not cache-TTL eligible: no round will open.");
  if (g.gate === "server-side")
    return fixed("Direct Anthropic API: 2026.9.x clears tool uses server-side; no local round.");
  if (settings.ttlMs <= 0) return fixed("ttl is 0: pruning rounds are disabled.");
  const charWindow = input.charWindow;
  const ratio = charWindow > 0 ? input.totalChars / charWindow : 0;
  const ratioText = `${(ratio * 100).toFixed(1)}% of the char window (soft-trim at ${Math.round(settings.softTrimRatio * 100)}%, hard-clear at ${Math.round(settings.hardClearRatio * 100)}%)`;
  const effect = roundEffect(result, ratio, ratioText, charWindow);
  if (touch === null)
    return fixed(`No cache-touch marker yet: the next call cannot prune; once the TTL runs, ${effect}.`);
  return { prediction: ttlSentence(touch + settings.ttlMs - at, effect), ttlEffect: effect };
}

export interface NextCallInput {
  settings: PruneSettingsDTO;
  eligibility: Eligibility;
  at: number;
  /** The clock the next request would see. */
  touch: number | null;
  /** The list with a hypothetical user message appended. */
  input: PrunerInput;
  toolResults: readonly ListedToolResult[];
  /** A round over `input` (run only where one could open). */
  runRound: (input: PrunerInput) => PrunerResult;
  /** A tool result's state without a new round (sticky: its live projection; stateless: full). */
  currentState: (entryIndex: number) => ToolResultWireState;
}

export function nextCall(n: NextCallInput): PruneNextDTO {
  const { settings, input, at, touch } = n;
  const charWindow = input.charWindow;
  const g = ttlGate(settings, at, touch, n.eligibility);
  const hypothetical = settings.mode === "cache-ttl" && n.eligibility.path === "client" && settings.ttlMs > 0;
  const result = hypothetical ? n.runRound(input) : null;
  let gate: PruneGate = g.gate;
  if (gate === "open" && result && result.reason !== "pruned" && result.reason !== "no-change")
    gate = result.reason;
  const wouldPrune = g.gate === "open" && result !== null && result.changes.size > 0;
  const states: Record<string, ToolResultWireState> = {};
  for (const tr of n.toolResults) {
    const ch = wouldPrune ? result?.changes.get(tr.entryIndex) : undefined;
    states[tr.toolCallId] = ch ? ch.state : n.currentState(tr.entryIndex);
  }
  const afterIfRound = result && result.changes.size > 0 ? result.totalAfter : input.totalChars;
  return {
    at,
    ttlExpired: g.ttlExpired,
    wouldPrune,
    toolResults: states,
    lastCacheTouchAt: touch,
    msUntilTtlExpiry: touch === null ? null : touch + settings.ttlMs - at,
    gate,
    round: wouldPrune ? roundOf(result) : "none",
    totalChars: input.totalChars,
    ratio: charWindow > 0 ? input.totalChars / charWindow : 0,
    totalCharsAfter: wouldPrune ? afterIfRound : input.totalChars,
    ratioAfter: charWindow > 0 ? (wouldPrune ? afterIfRound : input.totalChars) / charWindow : 0,
    ...predictionText(settings, g, touch, at, result, input),
  };
}
