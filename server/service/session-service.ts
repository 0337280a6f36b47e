// The one place that turns a state dir into report DTOs. The HTTP routes and the CLI both call this service, so
// `clawscope prune --json` and `GET /api/…/prune` can never disagree. Reports are pure functions
// (server/reports/*); the service loads, remembers (report-memo.ts) and wires them.

import type { CompareDTO, CompareWhatIfDTO } from "../../shared/compare.ts";
import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { ContextNumbersDTO } from "../../shared/context-numbers.ts";
import type { CostAllDTO, CostReportDTO } from "../../shared/cost.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { CacheClockDTO } from "../../shared/live.ts";
import type { OverviewDTO, OverviewResponseDTO } from "../../shared/overview.ts";
import type {
  PruneCallDetailDTO,
  PruneCallDTO,
  PruneLinearReplayDTO,
  PruneNextDTO,
  PruneReplayDTO,
  ToolResultPreviewDTO,
} from "../../shared/prune.ts";
import { type PruneQuery, parsePruneQuery } from "../../shared/prune-params.ts";
import { fail, ok, type Result } from "../../shared/result.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SentAtCallDTO, SentCallsDTO, SentViewDTO } from "../../shared/sent.ts";
import type { ParseIssue, SessionRef, SessionSummary } from "../../shared/session.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import { attachLive, type LiveAttachment } from "../live/attach-live.ts";
import { createEventBus, type EventBus } from "../live/event-bus.ts";
import type { LoadedSession } from "../model/session.ts";
import type { PriceTable } from "../pricing/price-table.ts";
import { injectedTextsOf } from "../reports/context-map/token-texts.ts";
import type { OverviewQuery } from "../reports/overview/overview-filter.ts";
import {
  type StoredContextMode,
  type StoredContextText,
  storedContextText,
} from "../reports/stored-context.ts";
import { agentRunReports } from "../sources/agent-run-reports.ts";
import { ScanStore } from "../sources/jsonl/scan-store.ts";
import { type OpenClawConfigRead, readOpenClawConfig } from "../sources/openclaw-config.ts";
import { openStateReader, type StateReader } from "../sources/state-reader.ts";
import { resolveHome } from "../sources/user-path.ts";
import { createTokenCounter, type TokenCounter } from "../tokens/tokenizer.ts";
import { compareSessions } from "./compare-sessions.ts";
import { CostAll, type CostAllProgress, sessionCostRow } from "./cost-all.ts";
import { overviewOf } from "./overview-input.ts";
import { PriceTables } from "./price-tables.ts";
import {
  pruneCallDetail,
  pruneCallRecord,
  pruneDTO,
  prunePreview,
  type QueryValue,
  type Replayed,
} from "./prune-queries.ts";
import { otherSessionNodes } from "./sent-env.ts";
import type { SessionServiceOptions } from "./session-options.ts";
import { SessionReports } from "./session-reports.ts";
import { configHash, type StateInfo, stateInfo } from "./state-info.ts";
import {
  type TruncationQuery,
  type TruncationSession,
  truncationReportOf,
  truncationSession,
} from "./truncation-input.ts";

export type { SessionServiceOptions, StateInfo, TruncationQuery };

export class SessionService {
  readonly reader: StateReader;
  private readonly scanStore: ScanStore | null;
  /** Change events for SSE (`GET /api/events`); fed by the watcher once `startWatching()` ran. */
  readonly bus: EventBus = createEventBus();
  private readonly reports = new SessionReports({
    config: () => this.config(),
    tokenCounter: () => this.tokenCounter(),
    prices: (editor) => this.prices(editor),
    sentEnv: (s) => ({
      hostTimeZone: this.opts.hostTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      otherSessions: otherSessionNodes(s, this.config(), this.listSessions().sessions, (a, i) =>
        this.load(a, i),
      ),
    }),
    workspaceTexts: (s) => injectedTextsOf(this.truncationOf(s, {})),
    agentReports: (agentId) =>
      agentRunReports(this.reader.discover().agents.find((a) => a.agentId === agentId)?.sessionsDir ?? null),
  });
  private readonly priceTables: PriceTables;
  private configRead: OpenClawConfigRead | null = null;
  private listed: { sessions: SessionSummary[]; issues: ParseIssue[] } | null = null;
  private counter: TokenCounter | null;
  private live: LiveAttachment | null = null;
  /** Bumped on a config change: part of every cached all-session cost row's identity. */
  private configGeneration = 0;
  private readonly costs = new CostAll({
    list: () => this.reader.listLoadable().sessions,
    salt: () => String(this.configGeneration),
    compute: (s) => sessionCostRow(s, this.config(), this.prices("")),
  });

  constructor(private readonly opts: SessionServiceOptions) {
    this.scanStore = opts.cacheDir ? ScanStore.open(opts.cacheDir, opts.stateDir) : null;
    this.reader = openStateReader(opts.stateDir, { scanStore: this.scanStore });
    this.counter = opts.tokenCounter ?? null;
    const { stateDir, pricingFile } = opts;
    this.priceTables = new PriceTables({ stateDir, pricingFile, config: () => this.config() });
  }

  private config(): JsonObject | null {
    const env = this.opts.environment;
    this.configRead ??= readOpenClawConfig(this.opts.stateDir, env?.env, env?.homedir);
    return this.configRead.config;
  }

  /** OpenClaw's home dir, to expand a `~` workspace of the config (null without an injected environment). */
  private home(): string | null {
    const env = this.opts.environment;
    return env ? resolveHome(env.env, env.homedir) : null;
  }

  private prices(editor: string): PriceTable {
    return this.priceTables.get(editor);
  }

  private tokenCounter(): TokenCounter {
    this.counter ??= createTokenCounter();
    return this.counter;
  }

  stateInfo(): StateInfo {
    const config = this.config();
    const { stateDir, demo, reason } = this.opts;
    return stateInfo({ stateDir, demo, reason }, this.configRead, config);
  }

  listSessions(): { sessions: SessionSummary[]; issues: ParseIssue[] } {
    if (!this.listed) {
      this.listed = this.reader.listSessions();
      this.scanStore?.flush();
    }
    return this.listed;
  }

  /** REF = a session id, a session key (`agent:main:main`) or `AGENT/SESSIONID`. */
  resolveRef(ref: string): SessionRef | null {
    return this.reader.resolveRef(ref);
  }

  load(agentId: string, sessionId: string): Result<LoadedSession> {
    const r = this.reader.loadSession({ agentId, sessionId });
    // The reader's LoadError keeps its own shape (server/sources); this is where it becomes an AppError.
    if ("error" in r) return fail(r.error.code, r.error.message, r.error.status);
    return ok(r);
  }

  /** `f` of the loaded session; `transcript`: of one with a transcript to read (loadTranscript). */
  private with<T>(agent: string, id: string, f: (s: LoadedSession) => T, transcript = false): Result<T> {
    const s = transcript ? this.loadTranscript(agent, id) : this.load(agent, id);
    return s.ok ? ok(f(s.value)) : s;
  }

  /**
   * A session that has calls to read: one listed without transcript (a sessions.json entry pointing nowhere,
   * summary.missing) is an error saying where the file was looked for — never an empty report of $0 and 0 calls.
   */
  private loadTranscript(agentId: string, sessionId: string): Result<LoadedSession> {
    const s = this.load(agentId, sessionId);
    if (s.ok && s.value.summary.missing)
      return fail("transcript-not-found", `transcript not found: ${s.value.summary.location}`, 404);
    return s;
  }

  runReport(agentId: string, sessionId: string): Result<RunReportDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.runReport(s));
  }

  /** OpenClaw's `/context list|detail|json` text (or the notice it prints when it has no report). */
  contextText(agentId: string, sessionId: string, mode: "list" | "detail" | "json"): Result<string> {
    const r = this.runReport(agentId, sessionId);
    if (!r.ok) return r;
    const texts = r.value.texts;
    // Without a stored run report `json` still prints JSON ({"available": false, …}; the CLI exits 3).
    return ok(texts.available ? texts[mode] : mode === "json" ? texts.json : texts.notice);
  }

  /**
   * `/context list|json` printed from the stored report without loading the transcript when the reader can
   * (StateReader.storedEntry); else from the loaded run report — the same text either way (stored-context.ts).
   */
  storedContextText(agentId: string, sessionId: string, mode: StoredContextMode): Result<StoredContextText> {
    const stored = this.reader.storedEntry({ agentId, sessionId });
    if (stored !== null && "error" in stored)
      return fail(stored.error.code, stored.error.message, stored.error.status);
    const text = stored && storedContextText(mode, stored.entry, stored.family, stored);
    if (text) return ok(text);
    const r = this.runReport(agentId, sessionId);
    if (!r.ok) return r;
    const { texts, reportOwner: owner } = r.value;
    return ok({
      available: texts.available,
      text: mode === "json" ? texts.json : texts.available ? texts.list : texts.notice,
      ...(owner ? { owner } : {}),
    });
  }

  contextMap(agentId: string, sessionId: string): Result<ContextMapDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.contextMap(s));
  }

  /** The headline numbers of the context at the last call (`clawscope map --json`; the map's own). */
  contextNumbers(agentId: string, sessionId: string): Result<ContextNumbersDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.numbers(s));
  }

  truncation(
    agentId: string,
    sessionId: string,
    query: TruncationQuery,
    o?: { allowWorkspaceOverride?: boolean },
  ): Result<TruncationReportDTO> {
    const s = truncationSession(this.reader, { agentId, sessionId }, () => this.load(agentId, sessionId));
    return s.ok ? ok(this.truncationOf(s.value, query, o?.allowWorkspaceOverride === true)) : s;
  }

  private truncationOf(s: TruncationSession | LoadedSession, query: TruncationQuery, allow = false) {
    return truncationReportOf(s, this.opts.stateDir, query, allow, this.config(), this.home());
  }

  /** The session (with its transcript) and its pruning replay under the query's what-if, answered by `f`. */
  private onReplay<T>(agentId: string, sessionId: string, query: PruneQuery, f: (r: Replayed) => Result<T>) {
    const s = this.loadTranscript(agentId, sessionId);
    if (!s.ok) return s;
    const { overrides, at } = parsePruneQuery(query);
    return f({ session: s.value, replay: this.reports.prune(s.value, overrides, at) });
  }

  /** The replay's DTO (`calls=summary`: without per-call tool-result maps). */
  prune(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { calls?: QueryValue },
  ): Result<PruneReplayDTO> {
    return this.onReplay(agentId, sessionId, query, (r) =>
      pruneDTO(r, query, this.reports.cost(r.session).gapCosts),
    );
  }

  /** The next-call prediction at the query's `at`, else at `now` (the Pruning tab's "now": the wall clock). */
  pruneNext(agentId: string, sessionId: string, query: PruneQuery, now: number): Result<PruneNextDTO> {
    const { overrides, at } = parsePruneQuery(query);
    return this.with(agentId, sessionId, (s) => this.reports.nextCall(s, overrides, at ?? now), true);
  }

  /** `clawscope prune --json`: per-call changes and per-result transitions, O(calls + tool results). */
  pruneLinear(agentId: string, sessionId: string, query: PruneQuery): Result<PruneLinearReplayDTO> {
    return this.onReplay(agentId, sessionId, query, (r) => ok(r.replay.linear()));
  }

  /** `clawscope prune --call N` (1-based). */
  pruneCallRecord(agentId: string, sessionId: string, query: PruneQuery, call: number): Result<PruneCallDTO> {
    return this.onReplay(agentId, sessionId, query, (r) => pruneCallRecord(r, call));
  }

  /** One call's tool-result states (`call` = index into the replay's calls; what-if query as for prune). */
  pruneCall(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { call?: QueryValue },
  ): Result<PruneCallDetailDTO> {
    return this.onReplay(agentId, sessionId, query, (r) => pruneCallDetail(r, query));
  }

  /** Before/after text of one tool result at one call. */
  prunePreview(
    agentId: string,
    sessionId: string,
    query: PruneQuery & { call?: QueryValue; toolCallId?: QueryValue },
  ): Result<ToolResultPreviewDTO> {
    return this.onReplay(agentId, sessionId, query, (r) => prunePreview(r, query));
  }

  /** `prices`: the in-app editor's prices in their URL form (shared/price-editor.ts). */
  cost(agentId: string, sessionId: string, prices = ""): Result<CostReportDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.cost(s, prices), true);
  }

  /** The context as sent at every agent call (issue 16: `map --call all`). */
  sentCalls(agentId: string, sessionId: string): Result<SentCallsDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.sentCalls(s));
  }

  /** The context as sent at agent call `call` (1-based; `map --call N`). */
  sentAtCall(agentId: string, sessionId: string, call: number): Result<SentAtCallDTO> {
    const s = this.load(agentId, sessionId);
    if (!s.ok) return s;
    const at = this.reports.sentAtCall(s.value, call);
    return at ? ok(at) : fail("not-found", `no agent call ${call} in the session`, 404);
  }

  /** The scrubber's view of agent call `call` (1-based): its sent row and the context map at it. */
  sentView(agentId: string, sessionId: string, callText: string | undefined): Result<SentViewDTO> {
    const call = Number(callText);
    if (!Number.isInteger(call) || call < 1)
      return fail("bad-request", "call (a 1-based call number) is required", 400);
    const s = this.load(agentId, sessionId);
    if (!s.ok) return s;
    const v = this.reports.sentView(s.value, call);
    return v ? ok(v) : fail("not-found", `no agent call ${call} in the session`, 404);
  }

  /** Every tile any call of the session had, at its largest (the scrubber's fixed layout). */
  sentSlots(agentId: string, sessionId: string): Result<ContextMapDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.sentSlots(s));
  }

  /** Session a as run beside b (absent: a) as run or under `whatIf` (issue 16: `compare`, GET /api/compare). */
  compareRefs(a: string | undefined, b: string | undefined, w: CompareWhatIfDTO | null): Result<CompareDTO> {
    const deps = {
      resolveRef: (ref: string) => this.resolveRef(ref),
      load: (agentId: string, sessionId: string) => this.load(agentId, sessionId),
      config: () => this.config(),
      stateDir: this.opts.stateDir,
      side: this.reports.compareSide.bind(this.reports),
    };
    return compareSessions(deps, a, b, w);
  }

  /** Live TTL countdown data for the open session ("cache warm for 3m12s" / "expired: …"). */
  clock(agentId: string, sessionId: string, now: number, prices = ""): Result<CacheClockDTO> {
    return this.with(agentId, sessionId, (s) => this.reports.clock(s, now, prices));
  }

  /** Every session's cost totals: now (the CLI), or in slices off the request path, shared (the server). */
  costAll(includeArchived: boolean): CostAllDTO {
    return this.costs.sync(includeArchived);
  }
  costAllAsync(includeArchived: boolean): Promise<CostAllDTO> {
    return this.costs.get(includeArchived);
  }
  costAllProgress(): CostAllProgress {
    return this.costs.progress();
  }

  /** sha256 (16 hex) of the OpenClaw config as read (export-calls' config_hash); null without a config. */
  configHash(): string | null {
    return configHash(this.config());
  }

  /** `overview --json`: every session scanned now (archived ones computed always; the filter may drop them). */
  overview(query: OverviewQuery): Result<OverviewDTO> {
    return overviewOf(this.costs.rowsSync(true), query, this.listSessions().sessions);
  }

  /** GET /api/overview: the sessions scanned so far (the scan runs off the request path) and the progress. */
  overviewNow(query: OverviewQuery): Result<OverviewResponseDTO> {
    const { rows, progress } = this.costs.rowsNow(true);
    const overview = overviewOf(rows, query, this.listSessions().sessions);
    return overview.ok ? ok({ overview: overview.value, progress }) : overview;
  }

  /** Drop cached results (the watcher calls this when files change; `config: true` when the config did). */
  invalidate(o?: { config: boolean }): void {
    this.listed = null;
    this.configRead = null;
    this.costs.invalidate();
    if (o?.config) {
      this.configGeneration++;
      this.reports.configChanged();
      this.priceTables.clear();
    }
  }

  startWatching(): void {
    const { stateDir } = this.opts;
    this.live ??= attachLive({
      service: this,
      bus: this.bus,
      stateDir,
      configPath: this.stateInfo().configPath,
    });
  }

  close(): void {
    this.live?.close();
    this.live = null;
    this.counter?.close();
  }
}

export function createSessionService(opts: SessionServiceOptions): SessionService {
  return new SessionService(opts);
}
