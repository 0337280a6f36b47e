// The one place that turns a state dir into report DTOs. The HTTP routes and the CLI both call this
// service, so `clawscope prune --json` and `GET /api/…/prune` can never disagree. Reports themselves are
// pure functions (server/reports/*); this module only loads, caches and wires them.

import { createHash } from "node:crypto";
import type { ContextMapDTO } from "../shared/context-map.ts";
import type { CostAllDTO, CostReportDTO } from "../shared/cost.ts";
import type { JsonObject } from "../shared/json.ts";
import { isObject, num, obj, str } from "../shared/json.ts";
import type { CacheClockDTO } from "../shared/live.ts";
import type {
  PruneCallDetailDTO,
  PruneOverrides,
  PruneReplayDTO,
  ToolResultPreviewDTO,
} from "../shared/prune.ts";
import { lastValue, type PruneQuery, parsePruneQuery } from "../shared/prune-params.ts";
import { fail, ok, type Result } from "../shared/result.ts";
import type { RunReportDTO } from "../shared/run-report.ts";
import type { ParseIssue, SessionRef, SessionSummary } from "../shared/session.ts";
import type { TruncationFamily, TruncationReportDTO } from "../shared/truncation.ts";
import { attachLive, type LiveAttachment } from "./live/attach-live.ts";
import { cacheClock, clockReplayAt } from "./live/cache-clock.ts";
import { createEventBus, type EventBus } from "./live/event-bus.ts";
import { buildContextMessages } from "./model/context-messages.ts";
import type { ContextMessage, LoadedSession, Transcript } from "./model/session.ts";
import { bootstrapFileNames } from "./openclaw/bootstrap-truncation.ts";
import { buildContextMap } from "./reports/context-map/context-map.ts";
import { buildOpenClawMap } from "./reports/context-map/openclaw-picture.ts";
import { contextMapTokenTexts } from "./reports/context-map/token-texts.ts";
import { buildCostReport, buildCostTotals, configPricing } from "./reports/cost.ts";
import { previewToolResultAtCall, toolResultWireText } from "./reports/prune-replay/preview.ts";
import type { ReplayResult } from "./reports/prune-replay/replay-result.ts";
import { ReplayRun, runReplay } from "./reports/prune-replay/replay-run.ts";
import { buildRunReport, lastCallUsage } from "./reports/run-report.ts";
import { buildTruncationReport } from "./reports/truncation.ts";
import { readOpenClawConfig } from "./sources/openclaw-config.ts";
import { openStateReader, type StateReader } from "./sources/state-reader.ts";
import type { UserEnvironment } from "./sources/user-path.ts";
import { readWorkspaceFiles } from "./sources/workspace-files.ts";
import { createTokenCounter, type TokenCounter } from "./tokens/tokenizer.ts";

export interface StateInfo {
  stateDir: string;
  demo: boolean;
  reason: string;
  configPath: string | null;
  configIssues: ParseIssue[];
}

export interface SessionService {
  stateInfo(): StateInfo;
  listSessions(): { sessions: SessionSummary[]; issues: ParseIssue[] };
  resolveRef(ref: string): SessionRef | null;
  load(agentId: string, sessionId: string): Result<LoadedSession>;
  runReport(agentId: string, sessionId: string): Result<RunReportDTO>;
  contextText(agentId: string, sessionId: string, mode: "list" | "detail" | "json"): Result<string>;
  contextMap(agentId: string, sessionId: string): Result<ContextMapDTO>;
  truncation(
    agentId: string,
    sessionId: string,
    query: TruncationQuery,
    opts?: { allowWorkspaceOverride?: boolean },
  ): Result<TruncationReportDTO>;
  /** `calls=summary` leaves every call's `toolResults` / `details` empty (see PruneReplayDTO.callsDetail). */
  prune(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { calls?: QueryValue },
  ): Result<PruneReplayDTO>;
  /** One call's tool-result states (`call` = index into the replay's calls; what-if query as for prune). */
  pruneCall(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { call?: QueryValue },
  ): Result<PruneCallDetailDTO>;
  /** Before/after text of one tool result at one call (`call` = index into the replay's calls). */
  prunePreview(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { call?: QueryValue; toolCallId?: QueryValue },
  ): Result<ToolResultPreviewDTO>;
  cost(agentId: string, sessionId: string): Result<CostReportDTO>;
  costAll(includeArchived: boolean): CostAllDTO;
  /** Live TTL countdown data for the open session ("cache warm for 3m12s" / "expired: …"). */
  clock(agentId: string, sessionId: string, now: number): Result<CacheClockDTO>;
  /** Change events for SSE (`GET /api/events`); fed by the watcher once `startWatching()` ran. */
  readonly bus: EventBus;
  /** Drop cached results (called by the watcher when files change). */
  invalidate(opts?: { config: boolean }): void;
  startWatching(): void;
  close(): void;
  readonly reader: StateReader;
}

const sha256Base64Url = (s: string): string => createHash("sha256").update(s).digest("base64url");

function toInt(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function isFamily(v: string | undefined): v is TruncationFamily {
  return v === "2026.3" || v === "2026.7" || v === "2026.9";
}

/** The what-if of /truncation (absent = the report's own caps and family); `workspace` only from the CLI. */
export type TruncationQuery = Partial<Record<"maxPerFile" | "maxTotal" | "family" | "workspace", string>>;

type QueryValue = string | string[];
const firstValue = (v: QueryValue | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** Per-transcript memo: a Transcript object is immutable once loaded (the reader replaces it on change). */
class Memo<T> {
  private readonly map = new WeakMap<Transcript, Map<string, T>>();
  peek(t: Transcript, key: string): T | undefined {
    return this.map.get(t)?.get(key);
  }
  get(t: Transcript, key: string, make: () => T): T {
    let m = this.map.get(t);
    if (!m) {
      m = new Map();
      this.map.set(t, m);
    }
    const hit = m.get(key);
    if (hit !== undefined) return hit;
    const v = make();
    if (m.size > 32) m.clear(); // what-if queries: keep memory bounded
    m.set(key, v);
    return v;
  }
}

export interface SessionServiceOptions {
  stateDir: string;
  demo: boolean;
  reason: string;
  /** Token counter for the tokenizer size mode; created lazily when omitted. */
  tokenCounter?: TokenCounter;
  /** The process environment, for `$OPENCLAW_CONFIG_PATH` (none: the config is looked up in the state dir). */
  environment?: UserEnvironment;
}

export function createSessionService(opts: SessionServiceOptions): SessionService {
  const reader = openStateReader(opts.stateDir);
  let configRead: ReturnType<typeof readOpenClawConfig> | null = null;
  const config = (): JsonObject | null => {
    configRead ??= readOpenClawConfig(opts.stateDir, opts.environment?.env, opts.environment?.homedir);
    return configRead.config;
  };
  let counter: TokenCounter | null = opts.tokenCounter ?? null;
  const tokenCounter = (): TokenCounter => {
    counter ??= createTokenCounter();
    return counter;
  };
  let listCache: { sessions: SessionSummary[]; issues: ParseIssue[] } | null = null;
  const bus = createEventBus();
  let live: LiveAttachment | null = null;
  let memo = {
    report: new Memo<RunReportDTO>(),
    prune: new Memo<ReplayResult>(),
    cost: new Memo<CostReportDTO>(),
    messages: new Memo<ContextMessage[]>(),
    map: new Memo<ContextMapDTO>(),
    /** Context list with tool results as sent at the last call — depends on the config (pruning replay). */
    wire: new Memo<ContextMessage[]>(),
  };

  const load = (agentId: string, sessionId: string): Result<LoadedSession> => {
    const r = reader.loadSession({ agentId, sessionId });
    // The reader's LoadError keeps its own shape (server/sources); this is where it becomes an AppError.
    if ("error" in r) return fail(r.error.code, r.error.message, r.error.status);
    return ok(r);
  };

  const withSession = <T>(agentId: string, sessionId: string, f: (s: LoadedSession) => T): Result<T> => {
    const s = load(agentId, sessionId);
    return s.ok ? ok(f(s.value)) : s;
  };

  /**
   * The as-configured replay of each session, kept to be continued when the session grows (ReplayRun: an
   * append replays only the appended entries). Bounded; dropped with the other memos on a config change.
   */
  let runs = new Map<string, { transcript: Transcript; run: ReplayRun }>();
  const MAX_RUNS = 8;

  const pruneFor = (s: LoadedSession, overrides: PruneOverrides, at: number | undefined): ReplayResult =>
    memo.prune.get(s.transcript, JSON.stringify([overrides, at ?? null, s.summary.sessionId]), () => {
      if (at !== undefined || Object.keys(overrides).length > 0) {
        return runReplay({ session: s, config: config(), overrides, at, sha256Base64Url });
      }
      const key = `${s.summary.agentId}\u0000${s.summary.sessionId}`;
      const kept = runs.get(key);
      runs.delete(key);
      let run = kept && kept.transcript !== s.transcript && kept.run.extend(s) ? kept.run : null;
      run ??= ReplayRun.start({ session: s, config: config(), sha256Base64Url });
      runs.set(key, { transcript: s.transcript, run });
      for (const k of runs.keys()) {
        if (runs.size <= MAX_RUNS) break;
        runs.delete(k);
      }
      return run.finish();
    });

  const contextMessagesOf = (s: LoadedSession): ContextMessage[] =>
    memo.messages.get(s.transcript, "all", () => buildContextMessages(s.transcript));

  /**
   * The conversation as it was on the wire at the last call: tool results in their replayed state
   * (soft-trimmed text / placeholder) instead of the stored full text (pruning.md §2.6).
   */
  const wireMessages = (s: LoadedSession): ContextMessage[] =>
    memo.wire.get(s.transcript, "wire", () => projectToLastCall(s));

  const projectToLastCall = (s: LoadedSession): ContextMessage[] => {
    const messages = contextMessagesOf(s);
    const replay = pruneFor(s, {}, undefined);
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
  };

  const costFor = (s: LoadedSession): CostReportDTO =>
    memo.cost.get(s.transcript, s.summary.sessionId, () => {
      const replay = pruneFor(s, {}, undefined);
      const pruningRounds = replay.calls.flatMap((c) =>
        c.round !== "none" && c.entryId !== null
          ? [{ entryId: c.entryId, charsRemoved: c.charsRemoved }]
          : [],
      );
      return buildCostReport({ session: s, config: config(), pruningRounds });
    });

  const buildMap = (s: LoadedSession): ContextMapDTO => {
    const report = s.entry ? (obj(s.entry, "systemPromptReport") ?? null) : null;
    const messages = wireMessages(s);
    const texts = contextMapTokenTexts(s, messages);
    const counted = tokenCounter().requestCounts(texts);
    const usage = lastCallUsage(s.transcript);
    const map = buildContextMap({
      session: s,
      report,
      contextMessages: messages,
      lastCallUsage: usage
        ? { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite }
        : null,
      windowTokens: num(s.entry, "contextTokens") ?? null,
      tiktoken: counted.counts,
      tiktokenEncoding: tokenCounter().encoding,
    });
    map.openclaw = buildOpenClawMap(s);
    const progress = tokenCounter().progress();
    map.tokenizer = {
      state: progress.state === "unavailable" ? "unavailable" : counted.pending > 0 ? "pending" : "ready",
      encoding: tokenCounter().encoding,
      progress: counted.total === 0 ? 1 : (counted.total - counted.pending) / counted.total,
    };
    return map;
  };

  const service: SessionService = {
    reader,
    bus,
    stateInfo() {
      config();
      return {
        stateDir: opts.stateDir,
        demo: opts.demo,
        reason: opts.reason,
        configPath: configRead?.path ?? null,
        configIssues: configRead?.issues ?? [],
      };
    },
    listSessions() {
      listCache ??= reader.listSessions();
      return listCache;
    },
    resolveRef: (ref) => reader.resolveRef(ref),
    load,
    runReport: (agentId, sessionId) =>
      withSession(agentId, sessionId, (s) =>
        memo.report.get(s.transcript, s.summary.sessionId, () => buildRunReport(s, wireMessages(s))),
      ),
    contextText(agentId, sessionId, mode) {
      const r = service.runReport(agentId, sessionId);
      if (!r.ok) return r;
      const texts = r.value.texts;
      return ok(texts.available ? texts[mode] : texts.notice);
    },
    contextMap: (agentId, sessionId) =>
      withSession(agentId, sessionId, (s) => {
        // A finished map (every tokenizer count in) is memoised per Transcript; while counts are pending the
        // map is rebuilt on each request so the exact counts show up as they arrive.
        const done = memo.map.peek(s.transcript, s.summary.sessionId);
        if (done) return done;
        const map = buildMap(s);
        if (map.tokenizer.state !== "pending") memo.map.get(s.transcript, s.summary.sessionId, () => map);
        return map;
      }),
    truncation(agentId, sessionId, query, o) {
      return withSession(agentId, sessionId, (s) => {
        const report = s.entry ? obj(s.entry, "systemPromptReport") : undefined;
        const rows = Array.isArray(report?.injectedWorkspaceFiles) ? report.injectedWorkspaceFiles : [];
        const recordedFiles = rows.flatMap((r) =>
          isObject(r) && typeof r.name === "string"
            ? [{ name: r.name, path: typeof r.path === "string" ? r.path : r.name }]
            : [],
        );
        const files = readWorkspaceFiles({
          recordedWorkspaceDir: str(report, "workspaceDir") ?? null,
          stateDir: opts.stateDir,
          recordedFiles,
          workspaceOverride: o?.allowWorkspaceOverride ? (query.workspace ?? null) : null,
          // every family's names: the what-if may switch family
          names: (["2026.3", "2026.7", "2026.9"] as const).flatMap((f) => bootstrapFileNames(f)),
        });
        const family = query.family;
        return buildTruncationReport({
          report: report ?? {},
          family: s.version.family,
          workspace: {
            dir: files.dir,
            files: files.files,
            readPaths: files.readPaths,
            rebasedPaths: files.rebasedPaths,
          },
          overrides: {
            maxPerFile: toInt(query.maxPerFile),
            maxTotal: toInt(query.maxTotal),
            family: isFamily(family) ? family : undefined,
          },
        });
      });
    },
    prune(agentId, sessionId, query) {
      const { overrides, at } = parsePruneQuery(query);
      const summary = lastValue(query.calls) === "summary";
      return withSession(agentId, sessionId, (s) => {
        const replay = pruneFor(s, overrides, at);
        return summary ? replay.summary() : replay.full();
      });
    },
    pruneCall(agentId, sessionId, query) {
      const s = load(agentId, sessionId);
      if (!s.ok) return s;
      const callIndex = Number(firstValue(query.call));
      if (!Number.isInteger(callIndex)) return fail("bad-request", "call (index) is required", 400);
      const { overrides, at } = parsePruneQuery(query);
      const detail = pruneFor(s.value, overrides, at).callDetail(callIndex);
      if (!detail) return fail("not-found", `no call ${callIndex} in the replay`, 404);
      return ok(detail);
    },
    prunePreview(agentId, sessionId, query) {
      const s = load(agentId, sessionId);
      if (!s.ok) return s;
      const { overrides, at } = parsePruneQuery(query);
      const replay = pruneFor(s.value, overrides, at);
      const callIndex = Number(firstValue(query.call));
      const toolCallId = firstValue(query.toolCallId);
      if (!Number.isInteger(callIndex) || !toolCallId) {
        return fail("bad-request", "call (index) and toolCallId are required", 400);
      }
      const preview = previewToolResultAtCall({ session: s.value, replay, callIndex, toolCallId });
      if (!preview) return fail("not-found", `no tool result ${toolCallId} at call ${callIndex}`, 404);
      return ok(preview);
    },
    cost: (agentId, sessionId) => withSession(agentId, sessionId, costFor),
    clock: (agentId, sessionId, now) =>
      withSession(agentId, sessionId, (s) => {
        // The replay whose `next` is the first call after the pruning TTL expires (constant between calls).
        const at = clockReplayAt(pruneFor(s, {}, undefined).summary());
        const replay = pruneFor(s, {}, at ?? undefined);
        const lastCallToolResults = replay.statesAt(replay.calls.length - 1)?.toolResults ?? {};
        const pricing = configPricing(config());
        return cacheClock({ replay: replay.summary(), lastCallToolResults, cost: costFor(s), now, pricing });
      }),
    costAll(includeArchived) {
      const { sessions } = service.listSessions();
      const loaded: LoadedSession[] = [];
      for (const summary of sessions) {
        if (!includeArchived && summary.archived !== null) continue;
        // backups / checkpoints duplicate another transcript's calls: never counted twice (summary.copyOf)
        if (summary.copyOf !== undefined) continue;
        const r = load(summary.agentId, summary.sessionId);
        if (r.ok) loaded.push(r.value);
      }
      return buildCostTotals(loaded, { config: config() });
    },
    invalidate(o) {
      listCache = null;
      configRead = null;
      // Reports are memoised per Transcript object; a config edit changes them without a transcript change.
      if (o?.config) {
        runs = new Map();
        memo = {
          report: new Memo(),
          prune: new Memo(),
          cost: new Memo(),
          messages: memo.messages,
          map: new Memo(),
          wire: new Memo(),
        };
      }
    },
    startWatching() {
      live ??= attachLive({
        service,
        bus,
        stateDir: opts.stateDir,
        configPath: service.stateInfo().configPath,
      });
    },
    close() {
      live?.close();
      live = null;
      counter?.close();
    },
  };
  return service;
}
