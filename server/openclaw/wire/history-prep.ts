// prepareEmbeddedAttemptHistory over a growing history (wire-format.md §2 steps 4–5, §10): each run's history is
// the previous run's plus what that run appended, and what the rules do to a message is final once a later
// assistant exists — normalizing is per message, the thinking drop spares only the newest assistant with
// content, merges and the dangling-tool-use strip never reach back past an assistant run. So the prepared list
// is kept as a final prefix (extended, never redone) plus the tail from the run of the newest assistant with
// content, re-prepared per run: linear over a session instead of quadratic. Same result as prepareHistory on
// the whole history (test/unit/history-prep.test.ts). Pure.

import type { AgentMessage } from "./agent-message.ts";
import { appendNormalized, dropThinkingBlocks, latestAssistantWithContent } from "./replay-history.ts";
import { validateAnthropicTurns } from "./turn-validation.ts";
import type { WirePolicy } from "./wire-pipeline.ts";

export interface PreparedHistoryList {
  /** The prepared history of the run. */
  list: readonly AgentMessage[];
  /** How many leading messages of `list` are final (the same objects in every later run's list). */
  finalCount: number;
  /** Incremented whenever the final prefix was rebuilt rather than extended. */
  epoch: number;
}

function prepareSegment(
  messages: readonly AgentMessage[],
  p: WirePolicy,
  spareLatest: boolean,
): readonly AgentMessage[] {
  const list = p.dropThinking ? dropThinkingBlocks(messages, spareLatest) : messages;
  return validateAnthropicTurns(list, { mergeUsers: p.mergeUsers });
}

export class HistoryPreparer {
  private generation = -1;
  private policy: WirePolicy | null = null;
  /** The raw history consumed so far (prefix identity check) and its normalized form. */
  private rawLength = 0;
  private rawLast: AgentMessage | undefined;
  private normalized: AgentMessage[] = [];
  private final: AgentMessage[] = [];
  /** normalized[0..finalEnd) is prepared into `final` for good. */
  private finalEnd = 0;
  private epoch = 0;

  prepare(history: readonly AgentMessage[], generation: number, policy: WirePolicy): PreparedHistoryList {
    const extends_ =
      generation === this.generation &&
      policy === this.policy &&
      history.length >= this.rawLength &&
      (this.rawLength === 0 || history[this.rawLength - 1] === this.rawLast);
    if (!extends_) this.reset(generation, policy);
    appendNormalized(this.normalized, history.slice(this.rawLength));
    this.rawLength = history.length;
    this.rawLast = history[history.length - 1];
    this.settle(policy);
    const tail = prepareSegment(this.normalized.slice(this.finalEnd), policy, true);
    return {
      list: this.final.length ? [...this.final, ...tail] : tail,
      finalCount: this.final.length,
      epoch: this.epoch,
    };
  }

  private reset(generation: number, policy: WirePolicy): void {
    this.generation = generation;
    this.policy = policy;
    this.rawLength = 0;
    this.rawLast = undefined;
    this.normalized = [];
    this.final = [];
    this.finalEnd = 0;
    this.epoch++;
  }

  /** Move the final boundary to the start of the run holding the newest assistant with content. */
  private settle(policy: WirePolicy): void {
    let start = latestAssistantWithContent(this.normalized);
    if (start < 0) return;
    while (start > 0 && this.normalized[start - 1]?.role === "assistant") start--;
    if (start <= this.finalEnd) return;
    for (const m of prepareSegment(this.normalized.slice(this.finalEnd, start), policy, false))
      this.final.push(m);
    this.finalEnd = start;
  }
}
