// The cost totals of every session (GET /api/cost, `cost --all`), computed off the request path (issue 20).
//
// A store of thousands of sessions took minutes and blocked every other request: each load re-listed the whole
// agent, and the whole aggregate ran in one synchronous call. Here the sessions are listed once (the reader's
// listLoadable), each session's row is kept by its identity (file identity + SessionEntry, see LoadableSession)
// so a recomputation after a change only loads what changed, and the work runs in time-boxed slices with
// `setImmediate` between them, so the server answers other requests (and the SSE stream) while it runs.
//
// The result is byte-identical to buildCostTotals over the same sessions: the rows come from costTotalsRow and
// the totals from sumTotals over every call's buckets, in listing order.

import type { CostAllDTO, LeftOutCopyDTO } from "../../shared/cost.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { LoadedSession } from "../model/session.ts";
import { storedRunReport } from "../model/system-prompt-report.ts";
import type { PriceTable } from "../pricing/price-table.ts";
import { type SessionAdviceFacts, sessionAdviceFacts } from "../reports/advice/session-facts.ts";
import {
  buildCostReport,
  costTotalsRow,
  inLocationOrder,
  leftOutCopy,
  missingTranscriptRow,
} from "../reports/cost/cost-report.ts";
import { sumTotals } from "../reports/cost/totals.ts";
import { type OverviewCall, overviewCallOf } from "../reports/overview/overview-call.ts";
import { compareListedSummaries } from "../sources/jsonl/sessions-store.ts";
import type { LoadableSession } from "../sources/state-reader.ts";

/** One session's contribution to the all-session totals. */
export interface SessionCostRow {
  row: CostAllDTO["sessions"][number];
  /** Each billed call's buckets, in call order (the totals sum buckets before rates), and the overview's cuts. */
  calls: OverviewCall[];
  transcriptOnlyExcluded: number;
  /** What the retention / heartbeat advisor reads of the session (its gaps, priced); null: no transcript. */
  advice: SessionAdviceFacts | null;
  /** The loaded session's `updatedAt` (the listing's order, see LoadableSession.orderGroup). */
  updatedAt: number | null;
}

/** A session's row under `config` (what buildCostTotals computes for it), keeping only the buckets of its calls. */
export function sessionCostRow(
  session: LoadedSession,
  config: JsonObject | null,
  prices?: PriceTable,
): SessionCostRow {
  const report = buildCostReport({ session, config, ...(prices ? { prices } : {}) });
  return {
    row: costTotalsRow(session, report),
    calls: report.calls.map(overviewCallOf),
    transcriptOnlyExcluded: report.totals.transcriptOnlyExcluded,
    advice: sessionAdviceFacts(report, prices ?? null, storedRunReport(session.entry).report?.files ?? []),
    updatedAt: session.summary.updatedAt,
  };
}

/**
 * Where per-session rows are kept between computations, by session and identity. `identity` already includes
 * what the row depends on besides the files (the config generation); a persistent store (issue 18: outside the
 * state dir, keyed by path + size + mtime + inode) plugs in here.
 */
export interface CostRowStore {
  get(session: string, identity: string): SessionCostRow | undefined;
  set(session: string, identity: string, row: SessionCostRow): void;
  /** Forget every session not in `live` (sessions that disappeared). */
  retain(live: ReadonlySet<string>): void;
}

/** The in-memory store: one row per session (the newest identity replaces the previous one). */
export class MemoryCostRowStore implements CostRowStore {
  private readonly rows = new Map<string, { identity: string; row: SessionCostRow }>();
  get(session: string, identity: string): SessionCostRow | undefined {
    const hit = this.rows.get(session);
    return hit?.identity === identity ? hit.row : undefined;
  }
  set(session: string, identity: string, row: SessionCostRow): void {
    this.rows.set(session, { identity, row });
  }
  retain(live: ReadonlySet<string>): void {
    for (const k of this.rows.keys()) if (!live.has(k)) this.rows.delete(k);
  }
}

export interface CostAllProgress {
  /** `running`: a computation is under way; `ready`: the last one finished and is current; `idle`: none yet. */
  state: "idle" | "running" | "ready";
  /** Sessions processed / to process by the current (or last) computation. */
  done: number;
  total: number;
}

/** Work per slice before yielding to the event loop (other requests wait at most about this long). */
export const SLICE_MS = 15;

/** One computation over a fixed list of sessions, advanced slice by slice. */
export class CostAllRun {
  private next = 0;
  private readonly rows: { group: string | null; row: SessionCostRow }[] = [];
  private readonly leftOut: LeftOutCopyDTO[] = [];

  constructor(
    private readonly sessions: readonly LoadableSession[],
    private readonly store: CostRowStore,
    /** Part of every row's cache identity: what the rows depend on besides the session (config generation). */
    private readonly salt: string,
    private readonly compute: (s: LoadedSession) => SessionCostRow,
  ) {}

  get done(): number {
    return this.next;
  }

  get total(): number {
    return this.sessions.length;
  }

  /** Process sessions until `budgetMs` is spent (at least one). True once every session is done. */
  step(budgetMs: number): boolean {
    const start = performance.now();
    while (this.next < this.sessions.length) {
      const s = this.sessions[this.next++];
      if (s) this.add(s);
      if (performance.now() - start >= budgetMs) break;
    }
    return this.next >= this.sessions.length;
  }

  /** The rows of the sessions done so far, in listing order (the overview while a scan runs). */
  rowsSoFar(): SessionCostRow[] {
    return listedOrder(this.rows);
  }

  result(): CostAllDTO {
    const rows = listedOrder(this.rows);
    const calls: OverviewCall[] = [];
    let transcriptOnly = 0;
    for (const r of rows) {
      for (const c of r.calls) calls.push(c);
      transcriptOnly += r.transcriptOnlyExcluded;
    }
    this.store.retain(new Set(this.sessions.map(sessionKeyOf)));
    return {
      sessions: rows.map((r) => r.row),
      totals: sumTotals(calls, transcriptOnly),
      leftOut: inLocationOrder(this.leftOut),
    };
  }

  private add(s: LoadableSession): void {
    // backups / checkpoints duplicate another transcript's calls: never counted twice, said so (summary.copyOf)
    const copy = leftOutCopy(s.summary);
    if (copy) {
      this.leftOut.push(copy);
      return;
    }
    // no transcript: a row without numbers (never $0 and 0 calls), nothing to load
    if (s.summary.missing) {
      const row = missingTranscriptRow(s.summary);
      this.rows.push({
        group: s.orderGroup,
        row: { row, calls: [], transcriptOnlyExcluded: 0, advice: null, updatedAt: s.summary.updatedAt },
      });
      return;
    }
    const key = sessionKeyOf(s);
    const id = s.identity();
    const identity = id === null ? null : `${this.salt}\u0000${id}`;
    const hit = identity === null ? undefined : this.store.get(key, identity);
    if (hit) {
      this.rows.push({ group: s.orderGroup, row: hit });
      return;
    }
    const loaded = s.load();
    // A session that cannot be loaded contributes nothing (as before); the session list shows its issue.
    if ("error" in loaded) return;
    const row = this.compute(loaded);
    if (identity !== null) this.store.set(key, identity, row);
    this.rows.push({ group: s.orderGroup, row });
  }
}

/** Rows in the scanned listing's order: each run of one order group sorted by the loaded summaries. */
function listedOrder(rows: readonly { group: string | null; row: SessionCostRow }[]): SessionCostRow[] {
  const out: SessionCostRow[] = [];
  for (let i = 0; i < rows.length; ) {
    const group = rows[i]?.group ?? null;
    let j = i + 1;
    while (j < rows.length && group !== null && rows[j]?.group === group) j++;
    const run = rows.slice(i, j).map((r) => r.row);
    if (group !== null) {
      run.sort((a, b) =>
        compareListedSummaries(
          { updatedAt: a.updatedAt, sessionId: a.row.sessionId },
          { updatedAt: b.updatedAt, sessionId: b.row.sessionId },
        ),
      );
    }
    out.push(...run);
    i = j;
  }
  return out;
}

function sessionKeyOf(s: LoadableSession): string {
  return `${s.summary.agentId}\u0000${s.summary.sessionId}`;
}

/** Yield to the event loop: I/O callbacks (other requests, the SSE stream, the watcher) run before the next slice. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface CostAllDeps {
  /** Every session listed once (the reader's listLoadable). */
  list(): readonly LoadableSession[];
  /** The cost row of one loaded session (sessionCostRow under the current config). */
  compute(s: LoadedSession): SessionCostRow;
  /** Changes when the rows' other inputs change (the config). */
  salt(): string;
  store?: CostRowStore;
  sliceMs?: number;
}

/**
 * The all-session totals for the service: a synchronous computation (the CLI), and an asynchronous one shared by
 * every request that arrives while it runs (the server: `<img src=/api/cost>` spam cannot multiply the work), whose
 * result is kept until `invalidate()` (the watcher, on any change). A request that arrives while a computation
 * runs gets that computation's result — never a second one racing it, so a busy writer cannot starve it.
 */
interface Job {
  includeArchived: boolean;
  /** The computation, once it started (a job may wait for the one before it). */
  current: { run: CostAllRun | null };
  promise: Promise<CostAllDTO>;
}

export class CostAll {
  private generation = 0;
  private readonly store: CostRowStore;
  private running: Job | null = null;
  private readonly finished = new Map<
    boolean,
    { generation: number; dto: CostAllDTO; rows: SessionCostRow[] }
  >();
  private last: CostAllRun | null = null;

  constructor(private readonly deps: CostAllDeps) {
    this.store = deps.store ?? new MemoryCostRowStore();
  }

  invalidate(): void {
    this.generation++;
  }

  /** Computed now, in one go (the CLI has no other request to serve). */
  sync(includeArchived: boolean): CostAllDTO {
    const generation = this.generation;
    const run = this.start(includeArchived);
    run.step(Number.POSITIVE_INFINITY);
    return this.finish(includeArchived, run, generation);
  }

  /** Every session's row, computed now (the CLI's overview). */
  rowsSync(includeArchived: boolean): SessionCostRow[] {
    this.sync(includeArchived);
    return this.finished.get(includeArchived)?.rows ?? [];
  }

  /**
   * The rows as they are now, without waiting (the overview page, usable while a large state dir is scanned):
   * the current computation's when it finished, else the running one's so far — started here when none runs.
   */
  rowsNow(includeArchived: boolean): { rows: SessionCostRow[]; progress: CostAllProgress } {
    const hit = this.finished.get(includeArchived);
    if (hit && hit.generation === this.generation) return { rows: hit.rows, progress: this.progress() };
    this.get(includeArchived).catch(() => undefined);
    const run = this.running?.includeArchived === includeArchived ? this.running.current.run : null;
    return { rows: run?.rowsSoFar() ?? [], progress: this.progress() };
  }

  /** Computed in slices off the request path; concurrent callers share one computation. */
  get(includeArchived: boolean): Promise<CostAllDTO> {
    const hit = this.finished.get(includeArchived);
    if (hit && hit.generation === this.generation) return Promise.resolve(hit.dto);
    if (this.running?.includeArchived === includeArchived) return this.running.promise;
    // One computation at a time: slices of two would only make both slower.
    const before = this.running?.promise.then(
      () => undefined,
      () => undefined,
    );
    const current: Job["current"] = { run: null };
    const promise = (before ?? Promise.resolve()).then(() => this.runJob(includeArchived, current));
    const job: Job = { includeArchived, current, promise };
    this.running = job;
    const clear = () => {
      if (this.running === job) this.running = null;
    };
    job.promise.then(clear, clear);
    return job.promise;
  }

  progress(): CostAllProgress {
    const run = this.running?.current.run ?? this.last;
    const current = [...this.finished.values()].some((f) => f.generation === this.generation);
    const state = this.running ? "running" : current ? "ready" : "idle";
    return { state, done: run?.done ?? 0, total: run?.total ?? 0 };
  }

  private async runJob(includeArchived: boolean, current: Job["current"]): Promise<CostAllDTO> {
    const generation = this.generation;
    const run = this.start(includeArchived);
    current.run = run;
    while (!run.step(this.deps.sliceMs ?? SLICE_MS)) await yieldToEventLoop();
    return this.finish(includeArchived, run, generation);
  }

  private start(includeArchived: boolean): CostAllRun {
    const sessions = this.deps.list().filter((s) => includeArchived || s.summary.archived === null);
    const run = new CostAllRun(sessions, this.store, this.deps.salt(), this.deps.compute);
    this.last = run;
    return run;
  }

  private finish(includeArchived: boolean, run: CostAllRun, generation: number): CostAllDTO {
    const dto = run.result();
    this.finished.set(includeArchived, { generation, dto, rows: run.rowsSoFar() });
    return dto;
  }
}
