// Every agent call of a session, reconstructed in order (wire-format.md §10): one walk over the active branch with
// model/context-messages.ts's incremental ContextBuilder. A call's list is built in pieces that the pipeline
// converts independently (wire-pipeline.ts): history′ (prepared once per run), the closed segments of the run's
// tool loop (an assistant and its results, closed once the next assistant arrives) and the open tail. The
// converted history and closed segments are reused while the call's pruning states and image cut leave them
// unchanged, so a call costs its new messages plus its tail — linear in the session, not quadratic.
// Pure: the calls' tool-result states, policies and carrier facts come in through WireRunInput.

import { str } from "../../../shared/json.ts";
import { ContextBuilder } from "../../model/context-messages.ts";
import { type ModelCall, modelCallsOf } from "../../model/model-calls.ts";
import type { ContextMessage, Transcript, TranscriptEntry } from "../../model/session.ts";
import { type AgentMessage, agentMessageOf } from "./agent-message.ts";
import { applyCacheControl } from "./anthropic-messages.ts";
import { imagePruneBeforeIndex, mayPruneImages, sourceModality } from "./history-images.ts";
import { HistoryPreparer } from "./history-prep.ts";
import { continuationPrompt, failedAttemptTimes } from "./retry-continuation.ts";
import { carrierMessage, carrierText, inboundModalityFragment } from "./runtime-context.ts";
import { queuedSystemEvents, type SessionCreatedNotice } from "./system-events.ts";
import type { ToolResultWire } from "./tool-result-projection.ts";
import type { WireCount } from "./wire-count.ts";
import type { WireMessage } from "./wire-message.ts";
import { convertPart, GrowingPart, type PartContext } from "./wire-parts.ts";
import { type WireFamily, type WirePart, type WirePolicy, wirePart } from "./wire-pipeline.ts";

/** A call's tool-result states: by entry index; `version` changes whenever the contents change. */
export interface CallProjections {
  byEntry: ReadonlyMap<number, ToolResultWire>;
  version: number;
}

export interface WireRunInput {
  transcript: Transcript;
  family: WireFamily;
  /** The policy of a call (memoise per model: caches are kept while the same object comes back). */
  policyFor(call: ModelCall, thinkingLevel: string | null): WirePolicy;
  /** Tool-result states of the call with this 0-based index (asked in order). */
  projectionsAt(callIndex: number): CallProjections;
  /** 2026.9.x carrier: the runtime-facts fragments (after events and inbound context). */
  runtimeFacts: readonly string[];
  /** 2026.9.x carrier: notices of the agent's other sessions (system-events.ts). */
  sessionNotices: readonly SessionCreatedNotice[];
}

export interface WireCall {
  /** 0-based index among the session's agent calls (prune replay order). */
  callIndex: number;
  entryIndex: number;
  count: WireCount;
  /** The whole `messages` array with cache breakpoints, when materialised. */
  messages?: WireMessage[];
  /** The run's prompt entry (the user message the attempt answers), if any. */
  promptEntryIndex: number | null;
  /**
   * A failed call stored once but sent several times: the counts of its 2nd, 3rd, … attempts (their prompt is
   * OpenClaw's continuation prompt, retry-continuation.ts).
   */
  retries?: WireCount[];
  retryMessages?: WireMessage[][];
  /** The model-context list the call was built from (model/context-messages.ts), when materialised. */
  context?: readonly ContextMessage[];
  /** The call's tool-result states by entry index, when materialised. */
  projections?: ReadonlyMap<number, ToolResultWire>;
}

/** A call is a non-transcript-only assistant that entered the context (prune-replay's rule). */
export function isAgentCall(call: ModelCall | undefined): call is ModelCall {
  return call !== undefined && !call.transcriptOnly && !call.excludeFromContext;
}

interface Attempt {
  generation: number;
  promptPos: number;
  policy: WirePolicy;
  history: readonly AgentMessage[];
  /** history[0..finalCount) is the same in every later run of this generation (history-prep.ts). */
  finalCount: number;
  epoch: number;
  eventsFragment: string | null;
  /** history[finalCount..] converted, with the key it was converted under. */
  historyTail: { key: string; part: WirePart } | null;
}

/** Start of the open tail: the last message that is not a tool result. */
function tailStart(current: readonly AgentMessage[]): number {
  for (let i = current.length - 1; i > 0; i--) if (current[i]?.role !== "toolResult") return i;
  return 0;
}

export class WireRun {
  private readonly builder = new ContextBuilder();
  private readonly path: TranscriptEntry[] = [];
  private readonly branchPosOf = new Map<number, number>();
  private decoded: AgentMessage[] = [];
  private decodedGeneration = -1;
  private attempt: Attempt | null = null;
  private thinkingLevel: string | null = null;
  private readonly preparer = new HistoryPreparer();
  /** The converted final prefix of history′ and the closed tool-loop segments of the current run. */
  private readonly finalWire = new GrowingPart();
  private readonly closedWire = new GrowingPart();
  /** Positions in the final prefix of messages the image prune can change (per preparer epoch). */
  private finalMedia: { epoch: number; scanned: number; positions: number[] } = {
    epoch: -1,
    scanned: 0,
    positions: [],
  };

  constructor(private readonly input: WireRunInput) {}

  /** Walk the session; `materialize(i)` says which calls get their whole `messages` array. */
  *calls(materialize: (callIndex: number) => boolean = () => false): Generator<WireCall> {
    const { transcript } = this.input;
    const modelCalls = modelCallsOf(transcript);
    let callIndex = 0;
    for (const idx of transcript.activeBranch) {
      const entry = transcript.entries[idx];
      if (!entry) continue;
      const call = modelCalls.at(idx);
      if (entry.type === "message" && isAgentCall(call)) {
        yield this.callAt(call, callIndex, materialize(callIndex));
        callIndex++;
      }
      if (entry.type === "thinking_level_change")
        this.thinkingLevel = str(entry.raw, "thinkingLevel") ?? null;
      this.branchPosOf.set(idx, this.path.length);
      this.path.push(entry);
      this.builder.push(entry);
    }
  }

  /** The builder's list as AgentMessages, extended as it grows (rebuilt after a compaction/reset). */
  private contextMessages(): readonly AgentMessage[] {
    const msgs = this.builder.messages;
    if (this.decodedGeneration !== this.builder.generation || this.decoded.length > msgs.length) {
      this.decoded = [];
      this.decodedGeneration = this.builder.generation;
    }
    for (let i = this.decoded.length; i < msgs.length; i++) {
      const m = msgs[i];
      if (m) this.decoded.push(agentMessageOf(m));
    }
    return this.decoded;
  }

  private callAt(call: ModelCall, callIndex: number, full: boolean): WireCall {
    const policy = this.input.policyFor(call, this.thinkingLevel);
    const all = this.contextMessages();
    let promptPos = -1;
    for (let i = all.length - 1; i >= 0; i--) {
      if (all[i]?.role === "user") {
        promptPos = i;
        break;
      }
    }
    const attempt = this.attemptFor(all, promptPos, policy);
    const current = promptPos >= 0 ? all.slice(promptPos) : [];
    const { byEntry, version } = this.input.projectionsAt(callIndex);
    const imageCut = imagePruneBeforeIndex([attempt.history, current], policy.imageCut);
    const ctx: PartContext = {
      policy,
      projectionOf: (m) => (m.role === "toolResult" ? byEntry.get(m.entryIndex) : undefined),
      imageCut,
      imagesPruned: this.imagesPrunedBy(imageCut, attempt, current),
    };
    const carrier = policy.runtimeCarrier ? this.carrierFor(attempt, current[0]) : null;
    const key = `${attempt.epoch}|${version}|${ctx.imagesPruned}`;
    const hl = attempt.history.length;
    const closedEnd = tailStart(current);
    const stable = [
      this.finalWire.upTo(attempt.history, attempt.finalCount, key, 0, ctx, false),
      this.historyTail(attempt, key, ctx, current.length === 0),
      this.closedWire.upTo(current, closedEnd, `${key}|${attempt.promptPos}`, hl, ctx, true),
    ];
    const request = (tail: readonly AgentMessage[], offset: number, promptIndex: number): WirePart[] => {
      const parts = [
        ...stable,
        convertPart(tail, offset, promptIndex, ctx, { tail: true, carrierLast: carrier !== null }),
      ];
      if (carrier)
        parts.push(wirePart([carrierMessage(carrier)], policy, { tail: false, carrierLast: true }));
      return parts;
    };
    const tail = current.slice(closedEnd);
    const parts = request(tail, hl + closedEnd, closedEnd === 0 && tail.length ? 0 : -1);
    const out: WireCall = {
      callIndex,
      entryIndex: call.entryIndex,
      count: countParts(parts),
      promptEntryIndex: current[0]?.entryIndex ?? null,
    };
    if (full) {
      out.messages = joinParts(parts);
      out.context = this.builder.messages.slice();
      out.projections = byEntry;
    }
    const retries = this.retriesOf(call, current);
    if (retries.length) {
      const retryParts = retries.map((r) => {
        const p = [stable[0], stable[1]].filter((x): x is WirePart => x !== undefined);
        p.push(convertPart(r, hl, 0, ctx, { tail: true, carrierLast: carrier !== null }));
        if (carrier) p.push(wirePart([carrierMessage(carrier)], policy, { tail: false, carrierLast: true }));
        return p;
      });
      out.retries = retryParts.map(countParts);
      if (full) out.retryMessages = retryParts.map(joinParts);
    }
    return out;
  }

  /** history′ after its final prefix, converted once per run (and again when the key changes). */
  private historyTail(attempt: Attempt, key: string, ctx: PartContext, isRequestTail: boolean): WirePart {
    if (attempt.historyTail?.key === key) return attempt.historyTail.part;
    const part = convertPart(attempt.history.slice(attempt.finalCount), attempt.finalCount, -1, ctx, {
      tail: isRequestTail,
      carrierLast: false,
    });
    attempt.historyTail = { key, part };
    return part;
  }

  /** How many messages before `cut` (over history′ ++ current) the image prune can change. */
  private imagesPrunedBy(cut: number, attempt: Attempt, current: readonly AgentMessage[]): number {
    if (cut < 0) return 0;
    const f =
      this.finalMedia.epoch === attempt.epoch
        ? this.finalMedia
        : { epoch: attempt.epoch, scanned: 0, positions: [] };
    for (; f.scanned < attempt.finalCount; f.scanned++) {
      const m = attempt.history[f.scanned];
      if (m && mayPruneImages(m)) f.positions.push(f.scanned);
    }
    this.finalMedia = f;
    let n = 0;
    for (const pos of f.positions) if (pos < cut) n++;
    const rest = [...attempt.history.slice(attempt.finalCount), ...current];
    for (let i = 0; i < rest.length && attempt.finalCount + i < cut; i++) {
      const m = rest[i];
      if (m && mayPruneImages(m)) n++;
    }
    return n;
  }

  /** The current parts of a failed call's retried attempts (retry-continuation.ts); none for other calls. */
  private retriesOf(call: ModelCall, current: readonly AgentMessage[]): (readonly AgentMessage[])[] {
    if (call.stopReason !== "error" || call.responseId !== null) return [];
    const prompt = current[0];
    if (!prompt || current.length !== 1) return [];
    return failedAttemptTimes(this.path)
      .slice(1)
      .map((at) => [continuationPrompt(prompt, at)]);
  }

  private attemptFor(all: readonly AgentMessage[], promptPos: number, policy: WirePolicy): Attempt {
    const generation = this.builder.generation;
    const a = this.attempt;
    if (a && a.generation === generation && a.promptPos === promptPos && a.policy === policy) return a;
    const prepared = this.preparer.prepare(
      promptPos >= 0 ? all.slice(0, promptPos) : all,
      generation,
      policy,
    );
    const eventsFragment = policy.runtimeCarrier ? this.eventsFor(all[promptPos], policy.timeZone) : null;
    const next: Attempt = {
      generation,
      promptPos,
      policy,
      history: prepared.list,
      finalCount: prepared.finalCount,
      epoch: prepared.epoch,
      eventsFragment,
      historyTail: null,
    };
    this.attempt = next;
    return next;
  }

  private eventsFor(prompt: AgentMessage | undefined, timeZone: string): string | null {
    if (!prompt) return null;
    const at = this.branchPosOf.get(prompt.entryIndex);
    if (at === undefined) return null;
    return queuedSystemEvents(this.path, at, this.input.sessionNotices, timeZone);
  }

  private carrierFor(attempt: Attempt, prompt: AgentMessage | undefined): string | null {
    const fragments: string[] = [];
    if (attempt.eventsFragment) fragments.push(attempt.eventsFragment);
    const modality = sourceModality(prompt?.media);
    if (modality) fragments.push(inboundModalityFragment(modality));
    fragments.push(...this.input.runtimeFacts);
    return carrierText(fragments);
  }
}

function countParts(parts: readonly WirePart[]): WireCount {
  let messages = 0;
  let messageChars = 0;
  for (const p of parts) {
    messages += p.messages.length;
    messageChars += p.chars;
  }
  return { messages, messageChars };
}

/** The parts as one `messages` array (fresh objects) with OpenClaw's cache breakpoints. */
function joinParts(parts: readonly WirePart[]): WireMessage[] {
  const messages: WireMessage[] = [];
  const carriers = new Set<number>();
  for (const p of parts) {
    for (let i = 0; i < p.messages.length; i++) {
      const m = p.messages[i];
      if (!m) continue;
      if (p.carrierIndexes.has(i)) carriers.add(messages.length);
      messages.push(structuredClone(m));
    }
  }
  applyCacheControl(messages, carriers);
  return messages;
}
