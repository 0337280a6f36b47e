// Cache-TTL pruning replay (spec pruning.md §5): walks a session's active branch, rebuilds the model-context
// list of every model call (transcript.md §7), runs the TTL gate with the call's start time and the
// generation's pruner (stateless to 2026.9.1 §1.6, sticky from 2026.9.2 §2.4: openclaw/pruning/generation.ts), and records per call what every tool
// result looked like on the wire. `next` answers "would pruning fire if the next message came at time T?"
// (§5.5). Pure: the SHA-256 used for snapshot source hashes is injected.
//
// A run can be continued when entries are appended (issue 9: append → report): every piece of its state —
// context builder, pruner list, projections and their history, TTL clock, calls — only grows with the active
// branch, so a transcript that continues the replayed one is replayed from where it stopped, with the result a
// fresh replay of it would give (test/unit/prune-replay-extend.test.ts). The state lives in named fields of
// small classes (V8 keeps their shapes and unboxed doubles; a closure of `let`s kept them in a context).

import { isObject, type JsonObject, str } from "../../../shared/json.ts";
import type { PruneCallDTO, PruneNextDTO, PruneReplayDTO } from "../../../shared/prune.ts";
import { ContextBuilder, toContextMessage } from "../../model/context-messages.ts";
import {
  continueModelCalls,
  type ModelCall,
  modelCallsOf,
  type TranscriptCalls,
} from "../../model/model-calls.ts";
import type { LoadedSession, Transcript, TranscriptEntry } from "../../model/session.ts";
import { continuesTranscript } from "../../model/transcript-growth.ts";
import type { Eligibility } from "../../openclaw/pruning/eligibility.ts";
import { ttlGate } from "../../openclaw/pruning/gate.ts";
import type { PrunerInput, PrunerResult } from "../../openclaw/pruning/pruner-input.ts";
import { pruneStateless } from "../../openclaw/pruning/stateless-2026-7.ts";
import {
  type ProjectionSnapshot,
  parseProjectionSnapshot,
  pruneSticky,
  restoreProjections,
  sourceHash,
} from "../../openclaw/pruning/sticky-2026-9.ts";
import { type CallRecord, callRecordDto } from "./call-record.ts";
import { FirstSends } from "./first-sends.ts";
import { lastEntryTime, nextCall, roundOf } from "./next-call.ts";
import { type Prepared, prepare, type ToolResultInfo } from "./prepared.ts";
import { PrunerList } from "./pruner-list.ts";
import { ReplayResult } from "./replay-result.ts";
import { RunMarks } from "./run-marks.ts";
import { type ReplayInput, ReplaySetup } from "./setup.ts";
import { checkSnapshot, type SnapshotCheck } from "./snapshot-check.ts";
import { TtlClock } from "./ttl-clock.ts";
import { NO_CHANGES, projectionState, WireStates } from "./wire-states.ts";

export type { ReplayInput } from "./setup.ts";

export class ReplayRun {
  private transcript: Transcript;
  private modelCalls: TranscriptCalls;
  private prepared: Prepared;
  private readonly setup: ReplaySetup;
  private readonly builder: ContextBuilder;
  private list: PrunerList;
  private readonly wire: WireStates;
  private readonly clock: TtlClock;
  /** The newest projection snapshot on the branch, and the one the current attempt started from. */
  private latestSnapshot: ProjectionSnapshot | null = null;
  private attemptSnapshot: ProjectionSnapshot | null = null;
  private readonly firstSends = new FirstSends();
  private readonly calls: PruneCallDTO[] = [];
  private readonly records: CallRecord[] = [];
  /** The rounds, compaction / reset marks and call ids the cost report and the timeline read. */
  private readonly marks = new RunMarks();
  private mismatchCalls = 0;
  private rounds = 0;
  /** Active-branch entries replayed so far. */
  private branchPos = 0;
  /** False once finish() restored a snapshot into the live projections (2026.9): no continuing after that. */
  private resumable = true;
  private readonly infoOf = (entryIndex: number): ToolResultInfo | undefined =>
    this.prepared.toolResults.get(entryIndex);

  /** Start a replay that can be continued (extend) and read at any point (finish). */
  static start(input: ReplayInput): ReplayRun {
    const run = new ReplayRun(input);
    run.advance();
    return run;
  }

  private constructor(private readonly input: ReplayInput) {
    this.transcript = input.session.transcript;
    this.modelCalls = modelCallsOf(this.transcript);
    this.setup = new ReplaySetup(input, this.infoOf);
    this.prepared = prepare(this.transcript, this.setup.flavor);
    this.builder = new ContextBuilder((entry) => {
      let m = this.prepared.contextMessages.get(entry.index);
      if (m === undefined) {
        m = toContextMessage(entry);
        this.prepared.contextMessages.set(entry.index, m);
      }
      return m;
    });
    this.list = new PrunerList(this.builder.generation);
    this.wire = new WireStates(this.setup.sticky, (i) => this.infoOf(i)?.chars ?? 0, this.list.generation);
    this.clock = new TtlClock(this.setup.algorithm);
  }

  /**
   * Continue over the entries `next` appended to the replayed transcript. False (the run is unchanged) when
   * `next` does not simply continue it, or when what the replay derives from the whole session — the last
   * call's provider/model/api, hence settings, eligibility and context window — changed.
   */
  extend(next: LoadedSession): boolean {
    const t = next.transcript;
    // only appended entries may continue the branch: an older side entry joining it was never estimated, and
    // the TTL clock has already read every marker of the old entries
    if (!this.resumable || !continuesTranscript(this.transcript, t)) return false;
    continueModelCalls(this.transcript, t);
    if (!this.setup.fits(next)) return false;
    this.transcript = t;
    this.modelCalls = modelCallsOf(t);
    this.prepared = prepare(t, this.setup.flavor, this.prepared);
    this.advance();
    return true;
  }

  /**
   * The replay of the transcript so far (each call returns a new result; earlier ones stay valid). `at`: when
   * the hypothetical next call comes (`next`); it changes nothing else, so one run answers every `at`.
   */
  finish(at?: number): ReplayResult {
    const s = this.setup;
    const next = this.nextAt(at);
    const dto: PruneReplayDTO = {
      algorithm: s.algorithm,
      settings: s.settings,
      contextWindowTokens: s.contextWindow.tokens,
      calls: this.calls.slice(),
      next,
      algorithmSource: s.algorithmChoice.source,
      algorithmReason: s.algorithmChoice.reason,
      contextWindowSource: s.contextWindow.source,
      charWindow: s.charWindow,
      eligibility: s.sessionEligibility,
      snapshotMismatchCalls: this.mismatchCalls,
      rounds: this.rounds,
      warnings: s.settings.warnings.slice(),
    };
    return new ReplayResult(
      dto,
      this.records.slice(),
      this.wire,
      (name) => s.isToolPrunable(name),
      this.marks.snapshot(dto.calls),
    );
  }

  /**
   * Would a round fire if the next call came at `at` (default: the input's `at`, else the last entry's time)?
   * A hypothetical round over the list as it stands (spec pruning.md §5.5): the replay itself is not changed.
   */
  nextAt(at?: number): PruneNextDTO {
    const s = this.setup;
    const entries = this.transcript.entries;
    this.clock.advance(entries, entries.length - 1);
    this.syncList();
    const touch = this.clock.newestFor(s.model.provider, s.model.modelId);
    if (s.sticky && s.useSnapshots && this.latestSnapshot) {
      this.restore(this.latestSnapshot, this.calls.length);
      this.resumable = false;
    }
    return nextCall({
      settings: s.settings,
      eligibility: s.sessionEligibility,
      at: at ?? this.input.at ?? lastEntryTime(this.transcript) ?? 0,
      touch,
      input: this.prunerInput(true),
      toolResults: this.list.toolResults,
      runRound: (input) => this.runRound(input),
      currentState: (entryIndex) => (s.sticky ? projectionState(this.wire.live.get(entryIndex)) : "full"),
    });
  }

  private advance(): void {
    const t = this.transcript;
    for (; this.branchPos < t.activeBranch.length; this.branchPos++) {
      const entry = t.entries[t.activeBranch[this.branchPos] ?? -1];
      if (entry) this.step(entry);
    }
  }

  private step(entry: TranscriptEntry): void {
    this.clock.advance(this.transcript.entries, entry.index);
    this.marks.entry(entry, this.calls.length);
    if (entry.type === "custom" && str(entry.raw, "customType") === "openclaw.cache-ttl") {
      const snap = parseProjectionSnapshot(entry.raw.data);
      if (snap) this.latestSnapshot = snap;
    }
    if (entry.type === "reset") {
      // Projections do not survive a reset (transcript.md §6).
      this.latestSnapshot = null;
      this.attemptSnapshot = null;
      this.wire.clear(this.calls.length);
    }
    const message = entry.type === "message" ? entry.raw.message : undefined;
    if (isObject(message)) {
      const role = str(message, "role");
      if (role === "user" && message.excludeFromContext !== true) this.userMessage(message);
      // A pruner request: an assistant that entered the context list (transcript.md §8).
      const call = role === "assistant" ? this.modelCalls.at(entry.index) : undefined;
      if (call && !call.transcriptOnly && !call.excludeFromContext) this.request(entry, call);
    }
    this.builder.push(entry);
  }

  /** A user message of a new run starts an attempt (pruning.md §1.8, §2.4 step 9). */
  private userMessage(message: JsonObject): void {
    const key = str(message, "idempotencyKey");
    const runId = key?.endsWith(":user") ? key.slice(0, -":user".length) : (key ?? null);
    if (this.clock.userMessage(runId)) this.attemptSnapshot = this.latestSnapshot;
  }

  /** One model request: the gate, the round, and its call record. */
  private request(entry: TranscriptEntry, call: ModelCall): void {
    const s = this.setup;
    const callIndex = this.calls.length;
    const t = call.atMs ?? 0;
    const provider = call.provider ?? s.model.provider;
    const model = call.model ?? s.model.modelId;
    const eligibility = s.eligibilityOf(provider, model, call.api ?? s.model.api);
    this.syncList();
    // Without any snapshot (older data, synthetic sessions) the simulated state is kept.
    if (this.clock.startAttempt(provider, model) && s.sticky && s.useSnapshots && this.attemptSnapshot) {
      this.restore(this.attemptSnapshot, callIndex);
    }
    const touchAtGate = this.clock.lastTouch;
    const gate = ttlGate(s.settings, t, touchAtGate, eligibility);
    const input = this.prunerInput(false);
    const result = gate.gate === "open" ? this.runRound(input) : null;
    if (roundOf(result) !== "none") this.rounds++;
    const changes = result?.changes ?? NO_CHANGES;
    this.wire.applyRound(changes, callIndex, s.settings.hardClear.placeholder);
    if (changes.size > 0) this.clock.lastTouch = t;
    const failed = call.stopReason === "error" || call.stopReason === "aborted";
    // 2026.9.3+: every successful request refreshes the clock (§2.4 step 8; recordCacheTouch).
    if (s.refreshOnSuccess && !failed) this.clock.lastTouch = t;
    const totalAfter = s.sticky
      ? this.list.rawTotal + this.wire.delta
      : (result?.totalAfter ?? input.totalChars);
    const flags: string[] = [];
    const liveForm = this.firstSends.since(this.list, this.setup.algorithm, flags);
    const snapshotCheck = this.snapshotCheck(flags);
    this.requestFlags(eligibility, call, failed, flags);
    const trs = this.list.toolResults;
    const start = result?.start ?? null;
    const cutoff = result?.cutoff ?? null;
    this.records.push({ list: trs, count: trs.length, changes, liveForm, start, cutoff });
    const dto = callRecordDto({
      entry,
      call,
      gate,
      touchAtGate,
      input,
      result,
      changes,
      totalAfter,
      flags,
      snapshotCheck,
    });
    this.calls.push(dto);
    this.marks.call(dto);
  }

  private requestFlags(eligibility: Eligibility, call: ModelCall, failed: boolean, flags: string[]): void {
    if (eligibility.path === "server-side") flags.push(eligibility.reason);
    if (this.setup.refreshOnSuccess && failed) {
      flags.push(`request ended with stopReason ${call.stopReason}: the TTL clock is not refreshed`);
    }
  }

  /** Bring the pruner list in line with the builder; a rebuilt list needs its projected delta again. */
  private syncList(): void {
    this.list = this.list.sync(this.builder, this.prepared, this.setup.flavor);
    if (this.list.generation !== this.wire.deltaGeneration) this.wire.recomputeDelta(this.list);
  }

  private prunerInput(extraUser: boolean): PrunerInput {
    const count = this.builder.messages.length;
    return {
      count: count + (extraUser ? 1 : 0),
      totalChars: this.list.rawTotal + (this.setup.sticky ? this.wire.delta : 0),
      charWindow: this.setup.charWindow,
      assistantPositions: this.list.assistantPositions,
      firstUserPosition: this.list.firstUserPosition ?? (extraUser ? count : null),
      toolResults: this.list.toolResults,
    };
  }

  private runRound(input: PrunerInput): PrunerResult {
    const s = this.setup;
    return s.sticky
      ? pruneSticky(input, this.wire.live, s.prunerSettings)
      : pruneStateless(input, s.prunerSettings, s.algorithm === "2026.3");
  }

  private snapshotCheck(flags: string[]): SnapshotCheck {
    if (!this.setup.sticky || this.setup.whatIf) return { status: "not-applicable", mismatches: [] };
    if (!this.latestSnapshot) return { status: "no-snapshot", mismatches: [] };
    const check = checkSnapshot(this.latestSnapshot, this.list, this.wire.live, this.infoOf, flags);
    if (check.status === "mismatch") this.mismatchCalls++;
    return check;
  }

  /** Replace the live projections by the ones restored from `snapshot` (pruning.md §2.6). */
  private restore(snapshot: ProjectionSnapshot, call: number): void {
    const restored = restoreProjections(
      snapshot,
      (key) => {
        const entryIndex = this.list.keyIndex.get(key);
        const info = entryIndex === undefined ? undefined : this.infoOf(entryIndex);
        if (!info) return undefined;
        return {
          entryIndex: info.entryIndex,
          key,
          hash: this.hashOf(info),
          softChars: this.setup.softTrimCharsOf(info),
        };
      },
      (placeholder) => this.setup.placeholderChars(placeholder),
    );
    this.wire.replace(restored, call, this.list);
  }

  private hashOf(info: ToolResultInfo): string {
    let h = this.prepared.hashes.get(info.entryIndex);
    if (h === undefined) {
      const m = this.transcript.entries[info.entryIndex]?.raw.message;
      h = sourceHash(isObject(m) ? m.content : undefined, this.input.sha256Base64Url);
      this.prepared.hashes.set(info.entryIndex, h);
    }
    return h;
  }
}

/** Replay cache-TTL pruning over a session once (see the file header). */
export function runReplay(input: ReplayInput): ReplayResult {
  return ReplayRun.start(input).finish();
}
