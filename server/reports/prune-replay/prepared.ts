// Per-transcript preparation of a pruning replay: the estimate of every active-branch message and the facts
// of every tool result, computed once per transcript and estimate generation (WeakMap cache), so what-if
// re-runs with other knobs only redo the cheap part. Spec pruning.md §1.4 / §2.3 (estimates).

import { isObject, str } from "../../../shared/json.ts";
import type { ContextMessage, Transcript } from "../../model/session.ts";
import { contentTextIsAscii, type EstimateFlavor, estimateMessageChars } from "../../openclaw/estimate.ts";
import { type JoinedToolText, joinToolResultText } from "../../openclaw/pruning/soft-trim.ts";
import { projectionBaseKey } from "../../openclaw/pruning/sticky-2026-9.ts";

export interface ToolResultInfo {
  entryIndex: number;
  toolCallId: string;
  toolName: string;
  joined: JoinedToolText;
  ascii: boolean;
  baseKey: string | null;
  /** 2026.7: `read` capped live (details.truncation.truncated) — first wire form can differ. */
  liveCapped: boolean;
  chars: number;
}

export interface Prepared {
  /** Shape of the transcript when prepared: a live tail that appends in place invalidates it. */
  shape: string;
  /** entryIndex → estimate of a message entry (NaN for other entries). */
  chars: Float64Array;
  toolResults: Map<number, ToolResultInfo>;
  hashes: Map<number, string>;
  /** Memoised context message per entry index (null = not in context). */
  contextMessages: Map<number, ContextMessage | null>;
}

const preparedCache = new WeakMap<Transcript, Map<EstimateFlavor, Prepared>>();

/**
 * `from`: the Prepared of a transcript this one extends (same entries, active branch continued — see
 * ReplayRun.extend): its estimates are kept (its maps are shared: entry indexes do not change) and only the
 * new branch entries are estimated.
 */
export function prepare(transcript: Transcript, flavor: EstimateFlavor, from?: Prepared): Prepared {
  let perFlavor = preparedCache.get(transcript);
  if (!perFlavor) {
    perFlavor = new Map();
    preparedCache.set(transcript, perFlavor);
  }
  const shape = `${transcript.entries.length}:${transcript.activeBranch.length}:${transcript.leafIndex}`;
  const cached = perFlavor.get(flavor);
  if (cached && cached.shape === shape) return cached;
  const chars = new Float64Array(transcript.entries.length).fill(Number.NaN);
  if (from) chars.set(from.chars.subarray(0, Math.min(from.chars.length, chars.length)));
  const known = from ? from.chars.length : 0;
  const toolResults = from?.toolResults ?? new Map<number, ToolResultInfo>();
  // a continued transcript appended its new branch entries at the branch's end: start where they start
  const branch = transcript.activeBranch;
  let k = branch.length;
  while (k > 0 && (branch[k - 1] ?? -1) >= known) k--;
  for (; k < branch.length; k++) {
    const idx = branch[k] ?? -1;
    if (idx < known) continue;
    const entry = transcript.entries[idx];
    if (entry?.type !== "message") continue;
    const message = entry.raw.message;
    if (!isObject(message)) continue;
    const role = str(message, "role") ?? "";
    const c = estimateMessageChars(role, message, flavor);
    chars[idx] = c;
    if (role === "toolResult") {
      const joined = joinToolResultText(message.content, flavor !== "2026.3");
      const truncation = isObject(message.details) ? message.details.truncation : undefined;
      toolResults.set(idx, {
        entryIndex: idx,
        toolCallId: str(message, "toolCallId") ?? "",
        toolName: str(message, "toolName") ?? "",
        joined,
        ascii: contentTextIsAscii(message.content),
        baseKey: projectionBaseKey(message),
        liveCapped:
          str(message, "toolName") === "read" && isObject(truncation) && truncation.truncated === true,
        chars: c,
      });
    }
  }
  const prepared: Prepared = {
    shape,
    chars,
    toolResults,
    hashes: from?.hashes ?? new Map(),
    contextMessages: from?.contextMessages ?? new Map(),
  };
  perFlavor.set(flavor, prepared);
  return prepared;
}
