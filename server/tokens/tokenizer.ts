// Tokenizer counts for the map's "tokenizer tokens" size mode, computed OFF the request path: texts are queued,
// counted in a worker thread (fallback: setImmediate-chunked batches on the main thread), cached by content hash,
// and reported through progress + batch events. Request handlers only ever read what is cached.
//
// Encoding: js-tiktoken `cl100k_base` (or `o200k_base`). These are OpenAI tokenizers: for Claude, Gemini and the
// other models OpenClaw drives they only APPROXIMATE the real count (the provider's billed `usage` is the truth).
// OpenClaw itself never tokenises: its own numbers are chars/4 estimates (spec context-report.md §3).
//
// Long unbroken runs are never tokenised (text-plan.ts: js-tiktoken's BPE is quadratic in a piece's length).

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { countPlanned, DEFAULT_MAX_RUN_CHARS, type Encoder, planText, type TextPlan } from "./text-plan.ts";
import { LruCache, type TokenCount, textKey } from "./token-cache.ts";
import { isReplyList, WORKER_SOURCE } from "./tokenizer-worker.ts";

export { countPlanned, DEFAULT_MAX_RUN_CHARS, type Encoder, planText, type TextPlan } from "./text-plan.ts";

export type TokenizerEncoding = "cl100k_base" | "o200k_base";
export const DEFAULT_ENCODING: TokenizerEncoding = "cl100k_base";
/** Main-thread time per batch spent reading lazy texts back before the batch is sent anyway. */
const LAZY_READ_BUDGET_MS = 20;

export interface CountRequestResult {
  /** Counts available now (cached), by item id. */
  counts: Map<string, number>;
  /** Ids among `counts` whose count includes chars/4 estimates of long runs, with the estimated chars. */
  estimatedChars: Map<string, number>;
  /** Items of this request not counted yet (queued). */
  pending: number;
  total: number;
}

export interface TokenizerProgress {
  state: "idle" | "working" | "unavailable";
  encoding: TokenizerEncoding;
  /** Distinct texts counted / queued since the queue was last idle. */
  done: number;
  total: number;
  /** Why counting is unavailable (state "unavailable"). */
  error?: string;
}

export interface BatchEvent {
  /** Texts counted in this batch. */
  counted: number;
  done: number;
  total: number;
}

export interface TokenCounterOptions {
  encoding?: TokenizerEncoding;
  /** Cache budget (distinct texts). Default 100,000. */
  maxEntries?: number;
  maxRunChars?: number;
  /** Max chars per batch sent to the worker (one long text still forms its own batch). Default 200,000. */
  batchChars?: number;
  /** `worker` (default) or `inline` (setImmediate-chunked on the main thread). */
  mode?: "worker" | "inline";
}

/**
 * A text to count: in memory, or (a tool result whose text is not kept in memory, model/lazy-text.ts) read back
 * by `load` — in the background, never on the request path — and cached under its stable `key`.
 */
export type TokenTextItem =
  | { id: string; text: string }
  | { id: string; key: string; load: () => string | null };

interface Job {
  key: string;
  /** Null until a lazy text is read back (just before it is counted). */
  plan: TextPlan | null;
  load?: () => string | null;
  /** A lazy text that could not be read back: counted as nothing and never cached (asked again later). */
  failed?: boolean;
  /** Chars of the text (batch sizing). */
  chars: number;
}

/** Background token counter with a content-hash cache. One per process is enough. */
export class TokenCounter {
  readonly encoding: TokenizerEncoding;
  private readonly cache: LruCache<string, TokenCount>;
  private readonly maxRunChars: number;
  private readonly batchChars: number;
  private mode: "worker" | "inline";
  private readonly queue = new Map<string, Job>();
  private inFlight: Job[] = [];
  private readonly inFlightKeys = new Set<string>();
  private busy = false;
  private done = 0;
  private total = 0;
  private error: string | undefined;
  private worker: Worker | null = null;
  private inlineEncoder: Encoder | null = null;
  private readonly listeners = new Set<(e: BatchEvent) => void>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(options: TokenCounterOptions = {}) {
    this.encoding = options.encoding ?? DEFAULT_ENCODING;
    this.cache = new LruCache(options.maxEntries ?? 100_000);
    this.maxRunChars = options.maxRunChars ?? DEFAULT_MAX_RUN_CHARS;
    this.batchChars = options.batchChars ?? 200_000;
    this.mode = options.mode ?? "worker";
  }

  /** Cached counts now; the rest is queued (never counted on the caller's stack). */
  requestCounts(items: readonly TokenTextItem[]): CountRequestResult {
    const counts = new Map<string, number>();
    const estimatedChars = new Map<string, number>();
    let pending = 0;
    const fresh: Job[] = [];
    let lazyFresh = false;
    for (const item of items) {
      const key = "text" in item ? textKey(item.text) : `lazy:${item.key}`;
      const hit = this.cache.get(key);
      if (hit) {
        counts.set(item.id, hit.tokens);
        if (hit.estimatedChars > 0) estimatedChars.set(item.id, hit.estimatedChars);
        continue;
      }
      pending++;
      if (this.error !== undefined || this.queue.has(key) || this.inFlightKeys.has(key)) continue;
      let job: Job;
      if ("text" in item) {
        job = { key, plan: planText(item.text, this.maxRunChars), chars: item.text.length };
      } else {
        job = { key, plan: null, load: item.load, chars: 0 };
        lazyFresh = true;
      }
      this.queue.set(key, job);
      fresh.push(job);
    }
    if (fresh.length > 0) {
      if (!this.busy && this.queue.size === fresh.length) {
        this.done = 0;
        this.total = 0;
      }
      this.total += fresh.length;
      // texts read back from disk are read when the batch is built: never on the caller's stack
      if (lazyFresh) setImmediate(() => this.kick());
      else this.kick();
    }
    return { counts, estimatedChars, pending, total: items.length };
  }

  /** Subscribes to batch completions; returns the unsubscribe function. */
  onBatch(listener: (e: BatchEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  progress(): TokenizerProgress {
    const p: TokenizerProgress = {
      state: this.error !== undefined ? "unavailable" : this.busy || this.queue.size > 0 ? "working" : "idle",
      encoding: this.encoding,
      done: this.done,
      total: this.total,
    };
    if (this.error !== undefined) p.error = this.error;
    return p;
  }

  /** Resolves once nothing is queued or in flight (CLI, tests). */
  idle(): Promise<void> {
    if (!this.busy && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
    this.settleIdle();
  }

  // -------------------------------------------------------------------------------------------------------------

  /** Runs from setImmediate and worker callbacks: nothing may escape it (an uncaught error ends `serve`). */
  private kick(): void {
    try {
      this.kickBatch();
    } catch (e) {
      this.abandonBatch(e);
    }
  }

  /** A batch that could not be sent: its texts fail (asked again later); the queue goes on. */
  private abandonBatch(e: unknown): void {
    process.emitWarning(`clawscope: tokenizer batch failed (${e instanceof Error ? e.message : String(e)})`);
    // Failed before the batch was taken from the queue: drop its first text, so the queue always moves on.
    const first = this.queue.values().next().value;
    const batch = this.inFlight.length > 0 || first === undefined ? this.inFlight : [first];
    for (const j of batch) {
      j.failed = true;
      this.queue.delete(j.key);
    }
    this.inFlight = batch;
    this.finish(batch.map((job) => ({ job, tokens: null })));
  }

  private kickBatch(): void {
    if (this.busy || this.closed || this.queue.size === 0) {
      if (!this.busy) this.settleIdle();
      return;
    }
    this.busy = true;
    const batch: Job[] = [];
    let chars = 0;
    // Reading texts back (lazy jobs) happens here, on this thread: bounded per batch so a request never
    // waits long behind it.
    const started = performance.now();
    for (const job of this.queue.values()) {
      if (batch.length > 0 && job.plan === null && performance.now() - started > LAZY_READ_BUDGET_MS) break;
      const size = this.planOf(job).pieces.reduce((s, p) => s + p.length, 0);
      if (batch.length > 0 && chars + size > this.batchChars) break;
      batch.push(job);
      chars += size;
    }
    for (const j of batch) {
      this.queue.delete(j.key);
      this.inFlightKeys.add(j.key);
    }
    this.inFlight = batch;
    if (this.mode === "worker") this.sendToWorker(batch);
    else setImmediate(() => this.countInline(batch));
  }

  private sendToWorker(batch: Job[]): void {
    try {
      const w = this.ensureWorker();
      w.ref();
      w.postMessage(batch.map((j) => ({ key: j.key, pieces: this.planOf(j).pieces })));
    } catch (e) {
      this.workerFailed(e);
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const require = createRequire(import.meta.url);
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        lite: require.resolve("js-tiktoken/lite"),
        ranks: require.resolve(`js-tiktoken/ranks/${this.encoding}`),
      },
    });
    w.on("message", (msg: unknown) => {
      if (!isReplyList(msg)) return;
      const tokensByKey = new Map(msg.map((r) => [r.key, r.tokens]));
      this.finish(this.inFlight.map((j) => ({ job: j, tokens: tokensByKey.get(j.key) ?? null })));
    });
    w.on("error", (e) => this.workerFailed(e));
    w.on("exit", (code) => {
      if (this.worker === w && !this.closed)
        this.workerFailed(new Error(`tokenizer worker exited with code ${code}`));
    });
    this.worker = w;
    return w;
  }

  /** Worker unusable: count on the main thread instead (chunked with setImmediate), re-queueing the batch. */
  private workerFailed(e: unknown): void {
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    if (this.mode === "inline" || this.closed) return;
    this.mode = "inline";
    const batch = this.inFlight;
    this.inFlight = [];
    this.inFlightKeys.clear();
    for (const j of batch) this.queue.set(j.key, j);
    this.busy = false;
    process.emitWarning(
      `clawscope: tokenizer worker failed (${e instanceof Error ? e.message : String(e)}); counting inline`,
    );
    this.kick();
  }

  private async loadInlineEncoder(): Promise<Encoder> {
    if (this.inlineEncoder) return this.inlineEncoder;
    const { Tiktoken } = await import("js-tiktoken/lite");
    const ranks =
      this.encoding === "o200k_base"
        ? (await import("js-tiktoken/ranks/o200k_base")).default
        : (await import("js-tiktoken/ranks/cl100k_base")).default;
    this.inlineEncoder = new Tiktoken(ranks);
    return this.inlineEncoder;
  }

  private async countInline(batch: Job[]): Promise<void> {
    let encoder: Encoder;
    try {
      encoder = await this.loadInlineEncoder();
    } catch (e) {
      this.error = `js-tiktoken unavailable: ${e instanceof Error ? e.message : String(e)}`;
      this.queue.clear();
      this.inFlight = [];
      this.inFlightKeys.clear();
      this.busy = false;
      this.settleIdle();
      return;
    }
    if (this.closed) return;
    this.finish(batch.map((job) => ({ job, tokens: this.countOne(encoder, job) })));
  }

  /** One job's BPE tokens (without the estimated runs); an encoder failure estimates the whole text instead. */
  private countOne(encoder: Encoder, job: Job): number {
    const plan = this.planOf(job);
    try {
      return countPlanned(encoder, { ...plan, estimatedTokens: 0 }).tokens;
    } catch {
      job.plan = estimatedPlan(plan.pieces.reduce((n, p) => n + p.length, 0) + plan.estimatedChars);
      return 0;
    }
  }

  private finish(results: { job: Job; tokens: number | null }[]): void {
    let counted = 0;
    for (const { job, tokens } of results) {
      if (tokens === null || job.failed) continue;
      const plan = this.planOf(job);
      this.cache.set(job.key, {
        tokens: tokens + plan.estimatedTokens,
        estimatedChars: plan.estimatedChars,
      });
      counted++;
    }
    this.done += results.length;
    this.inFlight = [];
    this.inFlightKeys.clear();
    this.busy = false;
    if (this.queue.size === 0) this.worker?.unref();
    const event: BatchEvent = { counted, done: this.done, total: this.total };
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // a listener's failure is its own; counting goes on
      }
    }
    this.kick();
  }

  /**
   * The job's plan; a lazy text is read back (once) here. Background work never throws (issue 20: one text must
   * not end the process): a text that cannot be read back fails (asked again later), one that cannot be planned
   * counts as chars/4, labelled estimated.
   */
  private planOf(job: Job): TextPlan {
    if (!job.plan) {
      let text: string | null = null;
      try {
        text = job.load?.() ?? null;
      } catch {
        text = null;
      }
      if (text === null) job.failed = true;
      job.plan = safePlan(text ?? "", this.maxRunChars);
      job.chars = text?.length ?? 0;
      job.load = undefined;
    }
    return job.plan;
  }

  private settleIdle(): void {
    if (this.busy || this.queue.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/** The plan of a text whose planning failed: all of it estimated (labelled, never silently zero). */
function estimatedPlan(chars: number): TextPlan {
  return { pieces: [], estimatedChars: chars, estimatedTokens: Math.ceil(chars / 4) };
}

function safePlan(text: string, maxRunChars: number): TextPlan {
  try {
    return planText(text, maxRunChars);
  } catch {
    return estimatedPlan(text.length);
  }
}

/** Convenience constructor. */
export function createTokenCounter(options?: TokenCounterOptions): TokenCounter {
  return new TokenCounter(options);
}
