// One loaded session → its report DTOs, each remembered per Transcript (report-memo.ts). The reports reuse each
// other: the cost, the clock, the map and the run report all see the as-configured pruning replay, and the map
// and the run report see the conversation as it was on the wire at the last call.

import { createHash } from "node:crypto";
import type { CompareSideDTO, CompareWhatIfDTO } from "../../shared/compare.ts";
import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { ContextNumbersDTO } from "../../shared/context-numbers.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import { isObject, type JsonObject, num, obj, str } from "../../shared/json.ts";
import type { CacheClockDTO } from "../../shared/live.ts";
import type { PruneNextDTO, PruneOverrides } from "../../shared/prune.ts";
import { parsePruneQuery } from "../../shared/prune-params.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SentAtCallDTO, SentCallsDTO, SentViewDTO } from "../../shared/sent.ts";
import { redactContextEntry } from "../export/redact.ts";
import { cacheClock, clockReplayAt } from "../live/cache-clock.ts";
import type { ContextMessage, LoadedSession } from "../model/session.ts";
import {
  readSystemPromptReport,
  type SystemPromptReport,
  storedRunReport,
} from "../model/system-prompt-report.ts";
import type { PriceTable } from "../pricing/price-table.ts";
import { compareSide } from "../reports/compare/compare.ts";
import { type BuildContextMapInput, buildContextMap } from "../reports/context-map/context-map.ts";
import { buildOpenClawMap } from "../reports/context-map/openclaw-picture.ts";
import { contextMapTokenTexts, workspaceTokenTexts } from "../reports/context-map/token-texts.ts";
import type { CostReportInput } from "../reports/cost/cost-report.ts";
import { CostRun } from "../reports/cost/cost-run.ts";
import { toolResultWireText } from "../reports/prune-replay/preview.ts";
import type { ReplayResult } from "../reports/prune-replay/replay-result.ts";
import { ReplayRun, runReplay } from "../reports/prune-replay/replay-run.ts";
import { reportOwner } from "../reports/report-owner.ts";
import { buildRunReport, lastCallUsage } from "../reports/run-report.ts";
import { sentAtCall, sentViewAtCall } from "../reports/sent/sent-at-call.ts";
import { type SentEnv, type SentInput, sentCalls } from "../reports/sent/sent-calls.ts";
import { sentSlots } from "../reports/sent/sent-slots.ts";
import type { TokenCounter } from "../tokens/tokenizer.ts";
import { ReportMemo } from "./report-memo.ts";

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");

/**
 * The conversation as it was on the wire at the replay's last call: tool results in their replayed state
 * (soft-trimmed text / placeholder) instead of the stored full text (pruning.md §2.6).
 */
function atLastCall(messages: ContextMessage[], replay: ReplayResult): ContextMessage[] {
  const last = replay.statesAt(replay.calls.length - 1);
  if (!last) return messages;
  const { settings, algorithm } = replay.summary();
  return messages.map((m) => {
    if (m.role !== "toolResult") return m;
    const id = str(m.message, "toolCallId");
    const state = id ? last.toolResults[id] : undefined;
    if (!state || state === "full") return m;
    const text = toolResultWireText(m.message, state, settings, algorithm);
    return { ...m, message: { ...m.message, content: [{ type: "text", text }] } };
  });
}

/** The stored report with each injected workspace file's chars replaced (the truncation what-if's). */
function withInjectedChars(report: JsonObject, chars: ReadonlyMap<string, number>): JsonObject {
  const files = Array.isArray(report.injectedWorkspaceFiles) ? report.injectedWorkspaceFiles : [];
  return {
    ...report,
    injectedWorkspaceFiles: files.map((f) => {
      const name = isObject(f) ? str(f, "name") : undefined;
      const n = name === undefined ? undefined : chars.get(name);
      return isObject(f) && n !== undefined ? { ...f, injectedChars: n } : f;
    }),
  };
}

export interface ReportInputs {
  /** The OpenClaw config (read once, dropped by the service on a config edit). */
  config(): JsonObject | null;
  /** What the wire reconstruction needs beyond the session: host zone, the agent's other sessions. */
  sentEnv(s: LoadedSession): SentEnv;
  /** The tokenizer for the map's exact counts (started on first use). */
  tokenCounter(): TokenCounter;
  /** The price precedence (issue 14 §3), with the in-app editor's prices (`""` = none). */
  prices(editor: string): PriceTable;
  /** The stored run reports of an agent's sessions (issue 14 §2 `system-prompt-changed`). */
  agentReports(agentId: string): SystemPromptReport[];
  /** Each workspace file's injected text, rebuilt from the disk (the Tokenizer size mode counts it; issue 15). */
  workspaceTexts?(s: LoadedSession): ReadonlyMap<string, string>;
}

export class SessionReports {
  private readonly memo = new ReportMemo();

  constructor(private readonly inputs: ReportInputs) {}

  /** The config changed: every remembered report that reads it is stale. */
  configChanged(): void {
    this.memo.configChanged();
  }

  prune(s: LoadedSession, overrides: PruneOverrides, at: number | undefined): ReplayResult {
    const name = JSON.stringify([overrides, at ?? null, s.summary.sessionId]);
    return this.memo.prune.get(s.transcript, name, () => {
      if (Object.keys(overrides).length > 0) {
        return runReplay({ session: s, config: this.inputs.config(), overrides, at, sha256Base64Url });
      }
      // `at` moves only the next-call prediction (ReplayRun.finish): the kept as-configured run answers it
      return this.configuredRun(s).finish(at);
    });
  }

  /**
   * The next-call prediction alone at `at` (the Pruning tab's "now": the wall clock, a new `at` per request).
   * As configured it is the kept run's, not remembered; a what-if's comes with its (remembered) replay.
   */
  nextCall(s: LoadedSession, overrides: PruneOverrides, at: number): PruneNextDTO {
    if (Object.keys(overrides).length > 0) return this.prune(s, overrides, at).next;
    return this.configuredRun(s).nextAt(at);
  }

  private configuredRun(s: LoadedSession): ReplayRun {
    const config = this.inputs.config();
    return this.memo.runs.runFor(s, () => ReplayRun.start({ session: s, config, sha256Base64Url }));
  }

  private wireMessages(s: LoadedSession): ContextMessage[] {
    return this.memo.wire.get(s.transcript, "wire", () => {
      const messages = this.memo.messages.get(s.transcript, "all", () => this.memo.contextLists.listFor(s));
      return atLastCall(messages, this.prune(s, {}, undefined));
    });
  }

  private sentInput(s: LoadedSession): SentInput {
    const replay = this.prune(s, {}, undefined);
    return { session: s, config: this.inputs.config(), replay, env: this.inputs.sentEnv(s) };
  }

  /** Every call's sent counts beside its billed usage (issue 16). */
  sentCalls(s: LoadedSession): SentCallsDTO {
    return this.memo.sent.get(s.transcript, s.summary.sessionId, () => sentCalls(this.sentInput(s)));
  }

  /** The context as sent at call `call` (1-based), or null. */
  sentAtCall(s: LoadedSession, call: number): SentAtCallDTO | null {
    return sentAtCall(this.sentInput(s), this.sentCalls(s), call);
  }

  /** The scrubber's view of call `call` (1-based): its row and the context map at it, or null. */
  sentView(s: LoadedSession, call: number): SentViewDTO | null {
    const row = this.sentCalls(s).calls[call - 1];
    return row ? sentViewAtCall(this.sentInput(s), row) : null;
  }

  /** Every tile any call had, at its largest: the scrubber's fixed layout (issue 16). */
  sentSlots(s: LoadedSession): ContextMapDTO {
    return this.memo.sentSlots.get(s.transcript, s.summary.sessionId, () => sentSlots(this.sentInput(s)));
  }

  /**
   * One side of a comparison (issue 16): the session as run, or under a what-if — its replay's last-call
   * states on the map, and `workspaceChars` (the truncation what-if's injected chars per file) in the report.
   */
  compareSide(
    s: LoadedSession,
    whatIf: CompareWhatIfDTO | null,
    workspaceChars: ReadonlyMap<string, number> | null,
  ): CompareSideDTO {
    const overrides = whatIf ? parsePruneQuery(whatIf.prune).overrides : {};
    const replay = this.prune(s, overrides, undefined);
    const messages = atLastCall(
      this.memo.messages.get(s.transcript, "all", () => this.memo.contextLists.listFor(s)),
      replay,
    );
    const report = s.entry ? (obj(s.entry, "systemPromptReport") ?? null) : null;
    const usage = lastCallUsage(s.transcript);
    const map = buildContextMap({
      session: s,
      report: report && workspaceChars ? withInjectedChars(report, workspaceChars) : report,
      contextMessages: messages,
      lastCallUsage: usage
        ? { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite }
        : null,
      windowTokens: num(s.entry, "contextTokens") ?? null,
    });
    return compareSide({ session: s, cost: this.cost(s), replay, map, whatIf });
  }

  runReport(s: LoadedSession): RunReportDTO {
    return this.memo.report.get(s.transcript, s.summary.sessionId, () =>
      buildRunReport(s, this.wireMessages(s), this.numbers(s), redactContextEntry),
    );
  }

  /** `editor`: the in-app editor's prices in their URL form (shared/price-editor.ts), `""` for none. */
  cost(s: LoadedSession, editor = ""): CostReportDTO {
    const name = editor === "" ? s.summary.sessionId : JSON.stringify([s.summary.sessionId, editor]);
    return this.memo.cost.get(s.transcript, name, () => {
      const input: CostReportInput = {
        session: s,
        config: this.inputs.config(),
        prices: this.inputs.prices(editor),
        pruningRounds: this.prune(s, {}, undefined).pruningRounds,
        agentReports: this.inputs.agentReports(s.summary.agentId),
      };
      const key = `${s.summary.agentId}\u0000${s.summary.sessionId}\u0000${editor}`;
      return this.memo.costRuns
        .runFor(
          key,
          s.transcript,
          (run) => run.extend(input),
          () => CostRun.start(input),
        )
        .report();
    });
  }

  /** `prices`: the editor's list, as for cost — the re-write line prices the call the way the cost tab does. */
  clock(s: LoadedSession, now: number, prices = ""): CacheClockDTO {
    // The replay whose `next` is the first call after the pruning TTL expires (constant between calls).
    const at = clockReplayAt(this.prune(s, {}, undefined).summary());
    const replay = this.prune(s, {}, at ?? undefined);
    const lastCallToolResults = replay.statesAt(replay.calls.length - 1)?.toolResults ?? {};
    const table = this.inputs.prices(prices);
    const agentId = s.summary.agentId;
    const priceOf = (provider: string | null, model: string | null, atMs: number | null) =>
      table.priceFor(agentId, provider, model, atMs).price;
    const cost = this.cost(s, prices);
    return cacheClock({ replay: replay.summary(), lastCallToolResults, cost, now, priceOf });
  }

  /**
   * A finished map (every tokenizer count in) is remembered; while counts are pending the map is rebuilt on
   * each request, so the exact counts show up as they arrive.
   */
  contextMap(s: LoadedSession): ContextMapDTO {
    const done = this.memo.map.peek(s.transcript, s.summary.sessionId);
    if (done) return done;
    const map = this.buildMap(s);
    if (map.tokenizer.state !== "pending") this.memo.map.get(s.transcript, s.summary.sessionId, () => map);
    return map;
  }

  /**
   * The headline numbers (context-numbers.ts) — the map's, without waiting for the tokenizer: the /context tab, the
   * exports and the CLI print these.
   */
  numbers(s: LoadedSession): ContextNumbersDTO {
    const done = this.memo.map.peek(s.transcript, s.summary.sessionId);
    if (done) return done.numbers;
    return this.memo.numbers.get(
      s.transcript,
      s.summary.sessionId,
      () => buildContextMap(this.mapInput(s)).numbers,
    );
  }

  /** What the map is built from: the conversation as sent at the last call, the billed call, the pruner's window. */
  private mapInput(s: LoadedSession): BuildContextMapInput {
    const usage = lastCallUsage(s.transcript);
    const replay = this.prune(s, {}, undefined).summary();
    return {
      session: s,
      report: storedRunReport(s.entry).report?.stored ?? null,
      contextMessages: this.wireMessages(s),
      lastCallUsage: usage
        ? {
            input: usage.input,
            cacheRead: usage.cacheRead,
            cacheWrite: usage.cacheWrite,
            entryIndex: usage.entryIndex,
          }
        : null,
      windowTokens: num(s.entry, "contextTokens") ?? null,
      contextWindow: { tokens: replay.contextWindowTokens, source: replay.contextWindowSource },
    };
  }

  private buildMap(s: LoadedSession): ContextMapDTO {
    const input = this.mapInput(s);
    const counter = this.inputs.tokenCounter();
    const files = input.report ? readSystemPromptReport(input.report) : null;
    const counted = counter.requestCounts([
      ...contextMapTokenTexts(s, input.contextMessages),
      ...workspaceTokenTexts(files, this.inputs.workspaceTexts?.(s)),
    ]);
    const map = buildContextMap({ ...input, tiktoken: counted.counts, tiktokenEncoding: counter.encoding });
    map.openclaw = buildOpenClawMap(s);
    // the system-prompt tiles come from the stored report: say when it is another session's, as /context does
    const owner = reportOwner(input.report ? readSystemPromptReport(input.report) : null, {
      sessionId: s.summary.sessionId,
      entrySessionId: str(s.entry, "sessionId") ?? null,
    });
    if (owner) map.reportOwner = owner;
    const unavailable = counter.progress().state === "unavailable";
    map.tokenizer = {
      state: unavailable ? "unavailable" : counted.pending > 0 ? "pending" : "ready",
      encoding: counter.encoding,
      progress: counted.total === 0 ? 1 : (counted.total - counted.pending) / counted.total,
      estimatedGroups: map.tokenizer.estimatedGroups,
    };
    return map;
  }
}
