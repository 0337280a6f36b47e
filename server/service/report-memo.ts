// What the session service remembers, and what drops it — the one list (review §4.4 step 6).
//
// Every entry is keyed by the Transcript object. The reader hands out the same object while a session's files
// are unchanged and a new one when they change (sources/transcript-cache.ts), so a changed session misses by
// itself and its old results go with the old object. A config edit changes reports without changing a
// transcript: configChanged() drops everything that reads the config. Why each is kept is measured in
// docs/performance.md (warm load, append, what-if).

import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { ContextNumbersDTO } from "../../shared/context-numbers.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { type MemoByObject, memoByObject } from "../../shared/memo.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SentCallsDTO } from "../../shared/sent.ts";
import type { ContextMessage, LoadedSession, Transcript } from "../model/session.ts";
import type { CostRun } from "../reports/cost/cost-run.ts";
import type { ReplayResult } from "../reports/prune-replay/replay-result.ts";
import type { ReplayRun } from "../reports/prune-replay/replay-run.ts";
import { ContextLists } from "./context-lists.ts";
import { KeptRuns } from "./kept-runs.ts";

/** The as-configured replay of each session (ReplayRun.extend over the appended entries). */
export class ReplayRuns {
  private readonly kept = new KeptRuns<ReplayRun>();

  runFor(s: LoadedSession, start: () => ReplayRun): ReplayRun {
    const key = `${s.summary.agentId}\u0000${s.summary.sessionId}`;
    return this.kept.runFor(key, s.transcript, (run) => run.extend(s), start);
  }
}

/** Everything that reads the OpenClaw config (pruning settings, prices, heartbeat, context window). */
function configDependent() {
  return {
    /** The run report (`/context` texts, last-call usage); keyed by session id. */
    report: memoByObject<Transcript, RunReportDTO>(),
    /** Pruning replays, keyed by (what-if overrides, at, session id); at most 32 per transcript. */
    prune: memoByObject<Transcript, ReplayResult>(),
    cost: memoByObject<Transcript, CostReportDTO>(),
    /** Finished context maps only (while tokenizer counts are pending the map is rebuilt per request). */
    map: memoByObject<Transcript, ContextMapDTO>(),
    /** The map's headline numbers, for the reports that print them before (or without) the map. */
    numbers: memoByObject<Transcript, ContextNumbersDTO>(),
    /** The context list with tool results as sent at the last call (the replay's states). */
    wire: memoByObject<Transcript, ContextMessage[]>(),
    /** Every call's reconstructed request counts (issue 16), keyed by session id. */
    sent: memoByObject<Transcript, SentCallsDTO>(),
    /** The scrubber's slot map (every tile at its largest), keyed by session id. */
    sentSlots: memoByObject<Transcript, ContextMapDTO>(),
    runs: new ReplayRuns(),
    /** The cost report of each session and editor price list, kept to be continued (CostRun.extend). */
    costRuns: new KeptRuns<CostRun>(),
  };
}

export class ReportMemo {
  /** The context list OpenClaw builds from the transcript alone: survives a config edit. */
  readonly messages: MemoByObject<Transcript, ContextMessage[]> = memoByObject();
  /** Those lists, kept per session to continue over an append (context-lists.ts). */
  readonly contextLists = new ContextLists();
  private byConfig = configDependent();

  get report() {
    return this.byConfig.report;
  }
  get prune() {
    return this.byConfig.prune;
  }
  get cost() {
    return this.byConfig.cost;
  }
  get map() {
    return this.byConfig.map;
  }
  get numbers() {
    return this.byConfig.numbers;
  }
  get wire() {
    return this.byConfig.wire;
  }
  get sent() {
    return this.byConfig.sent;
  }
  get sentSlots() {
    return this.byConfig.sentSlots;
  }
  get runs() {
    return this.byConfig.runs;
  }
  get costRuns() {
    return this.byConfig.costRuns;
  }

  /** The config changed: every report that reads it is stale, the message lists are not. */
  configChanged(): void {
    this.byConfig = configDependent();
  }
}
