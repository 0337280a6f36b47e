// The seeded session generator of `npm run bench` (issue 9): realistic SHAPES (spec transcript.md §1–§7), synthetic
// numbers — user prompts, assistant text + toolCalls with usage, tool results from a few hundred bytes to
// 200 KB, base64 images, `openclaw.cache-ttl` markers, idle gaps that outlive the cache TTL, compactions.
// generate-session.ts writes what it yields into JSONL and SQLite state dirs.

import { isObject, type JsonObject } from "../../shared/json.ts";

/** mulberry32: small, fast, seeded; the same seed always yields the same session. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "context prune clear threshold replay session marker cache window token budget result transcript " +
  "projection workspace bootstrap skill agent model history branch schema gateway prompt placeholder " +
  "ratio request response tool read exec write edit search file line error warning info debug config " +
  "value number string object array index offset length buffer stream parse decode encode hash queue " +
  "worker thread process memory limit timeout retry status output input summary compaction provider"
).split(" ");

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const TOOLS = ["read", "exec", "exec", "read", "web_fetch", "edit", "write", "browser", "search"];

export interface GenerateOptions {
  /** Stop after the turn that crosses this many serialized bytes (one JSON line each, `\n` included). */
  targetBytes: number;
  seed: number;
  sessionId: string;
  /** Header version: 3 = JSONL era (2026.7), 4 = SQLite era (2026.9). */
  headerVersion: 3 | 4;
  /** First timestamp (ms). */
  startMs?: number;
}

export interface GeneratedStats {
  entries: number;
  bytes: number;
  messages: number;
  toolResults: number;
  images: number;
  compactions: number;
  bigToolResults: number;
  /** SQLite writer only: how its event_zstd frames were made. */
  zstd?: string;
}

/** The generator: yields one event object at a time (the writers stream them to disk). */
export class SessionGenerator {
  readonly stats: GeneratedStats = {
    entries: 0,
    bytes: 0,
    messages: 0,
    toolResults: 0,
    images: 0,
    compactions: 0,
    bigToolResults: 0,
  };
  private readonly rnd: () => number;
  private readonly lines: string[];
  private readonly base64: string;
  private now: number;
  private parentId: string | null = null;
  private idCounter = 0;
  private callCounter = 0;
  private turn = 0;
  /** Tokens in context since the last compaction (drives usage.cacheRead and compaction). */
  private contextTokens = 22_000;
  private readonly recentIds: string[] = [];

  constructor(private readonly opts: GenerateOptions) {
    this.rnd = seededRandom(opts.seed);
    this.now = opts.startMs ?? Date.UTC(2026, 5, 1, 8, 0, 0);
    this.lines = [];
    for (let i = 0; i < 4096; i++) this.lines.push(this.logLine(i));
    // One pseudo-random base64 alphabet run; images are slices of it (distinct offsets, realistic bytes).
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const chars: string[] = [];
    for (let i = 0; i < 600_000; i++) chars.push(alphabet[Math.floor(this.rnd() * 64)] ?? "A");
    this.base64 = chars.join("");
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    const v = xs[Math.floor(this.rnd() * xs.length)];
    if (v === undefined) throw new Error("empty pick");
    return v;
  }

  private words(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.pick(WORDS));
    return out.join(" ");
  }

  private logLine(i: number): string {
    const sec = String(i % 60).padStart(2, "0");
    return `2026-05-31T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${sec}Z ${this.pick(LEVELS)} [svc-${i % 7}] ${this.words(this.int(6, 16))}.`;
  }

  /** About `bytes` chars of log/file-like text (whole lines). */
  private text(bytes: number): string {
    const out: string[] = [];
    let n = 0;
    while (n < bytes) {
      const line = this.pick(this.lines);
      out.push(line);
      n += line.length + 1;
    }
    return out.join("\n");
  }

  private newId(): string {
    this.idCounter++;
    const r = Math.floor(this.rnd() * 0xffffffff)
      .toString(16)
      .padStart(8, "0");
    return `${r}${this.idCounter.toString(16).padStart(8, "0")}`;
  }

  private iso(): string {
    return new Date(this.now).toISOString();
  }

  private entry(type: string, fields: JsonObject): JsonObject {
    const id = this.newId();
    const e: JsonObject = { type, id, parentId: this.parentId, timestamp: this.iso(), ...fields };
    this.parentId = id;
    this.recentIds.push(id);
    if (this.recentIds.length > 40) this.recentIds.shift();
    return e;
  }

  private usage(output: number, newTokens: number): JsonObject {
    // Cache reads grow with the conversation; what was added since the last call is written.
    const cacheRead = this.contextTokens;
    const cacheWrite = newTokens;
    this.contextTokens += newTokens + output;
    return {
      input: this.int(1, 4),
      output,
      cacheRead,
      cacheWrite,
      totalTokens: cacheRead + cacheWrite + output,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
  }

  private assistant(content: JsonObject[], stopReason: string, newTokens: number): JsonObject {
    this.now += this.int(400, 9000);
    const message: JsonObject = {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-mock-1",
      usage: this.usage(this.int(10, 900), newTokens),
      stopReason,
      timestamp: this.now,
    };
    this.stats.messages++;
    return this.entry("message", { message });
  }

  private toolResultSize(): { bytes: number; image: boolean } {
    const r = this.rnd();
    if (r < 0.006) return { bytes: this.int(60_000, 300_000), image: true };
    if (r < 0.031) return { bytes: this.int(50_000, 200_000), image: false };
    if (r < 0.23) return { bytes: this.int(5_000, 20_000), image: false };
    return { bytes: this.int(200, 5_000), image: false };
  }

  private toolResult(callId: string, toolName: string): JsonObject {
    this.now += this.int(50, 4000);
    const size = this.toolResultSize();
    let content: JsonObject[];
    if (size.image) {
      const at = this.int(0, this.base64.length - size.bytes);
      content = [
        { type: "text", text: "Read image file [image/png]" },
        { type: "image", data: this.base64.slice(at, at + size.bytes), mimeType: "image/png" },
      ];
      this.stats.images++;
    } else {
      content = [{ type: "text", text: this.text(size.bytes) }];
      if (size.bytes >= 50_000) this.stats.bigToolResults++;
    }
    this.stats.toolResults++;
    this.stats.messages++;
    const message: JsonObject = {
      role: "toolResult",
      toolCallId: callId,
      toolName,
      content,
      isError: this.rnd() < 0.03,
      timestamp: this.now,
    };
    if (toolName === "exec") {
      message.details = {
        status: "completed",
        exitCode: 0,
        durationMs: this.int(5, 4000),
        cwd: "/workspace",
      };
    }
    return this.entry("message", { message });
  }

  private *turnEvents(): Generator<JsonObject> {
    this.turn++;
    // Idle gaps: most follow-ups are quick, some outlive the cache TTL (pruning rounds, cache misses).
    const gap = this.rnd() < 0.15 ? this.int(6 * 60_000, 3 * 3600_000) : this.int(5_000, 120_000);
    this.now += gap;
    const userContent: JsonObject[] | string =
      this.rnd() < 0.01
        ? [
            { type: "text", text: `Look at this screenshot. ${this.words(this.int(5, 30))}` },
            {
              type: "image",
              data: this.base64.slice(0, this.int(40_000, 200_000)),
              mimeType: "image/png",
            },
          ]
        : `Turn ${this.turn}: ${this.words(this.int(8, 120))}`;
    if (Array.isArray(userContent)) this.stats.images++;
    this.stats.messages++;
    yield this.entry("message", {
      message: { role: "user", content: userContent, timestamp: this.now },
    });
    const rounds = this.pick([0, 1, 1, 1, 2, 2, 3]);
    let added = 400;
    for (let r = 0; r < rounds; r++) {
      const n = this.rnd() < 0.7 ? 1 : 2;
      const calls: { id: string; name: string }[] = [];
      const content: JsonObject[] = [{ type: "text", text: `Calling tools. ${this.words(this.int(3, 40))}` }];
      for (let k = 0; k < n; k++) {
        this.callCounter++;
        const name = this.pick(TOOLS);
        const id = `toolu_bench_${String(this.callCounter).padStart(6, "0")}`;
        calls.push({ id, name });
        content.push({
          type: "toolCall",
          id,
          name,
          arguments:
            name === "exec"
              ? { command: `grep -rn ${this.pick(WORDS)} src | head -${this.int(10, 500)}` }
              : { path: `docs/${this.pick(WORDS)}-${this.int(1, 99)}.txt` },
        });
      }
      yield this.assistant(content, "toolUse", added);
      added = 0;
      for (const c of calls) {
        const tr = this.toolResult(c.id, c.name);
        const trMessage = tr.message;
        if (isObject(trMessage)) added += Math.ceil(JSON.stringify(trMessage.content).length / 4);
        yield tr;
      }
    }
    yield this.assistant(
      [{ type: "text", text: this.text(this.int(100, 2500)) }],
      "stop",
      added + this.int(50, 300),
    );
    yield this.entry("custom", {
      customType: "openclaw.cache-ttl",
      data: { timestamp: this.now + 20, provider: "anthropic", modelId: "claude-mock-1" },
    });
    if (this.contextTokens > 160_000) {
      this.now += this.int(1000, 5000);
      const kept = this.recentIds[Math.max(0, this.recentIds.length - 8)] ?? this.parentId;
      this.stats.compactions++;
      yield this.entry("compaction", {
        summary: `## Goal\n${this.words(60)}\n\n## Progress\n${this.text(3000)}`,
        firstKeptEntryId: kept,
        tokensBefore: this.contextTokens,
        details: { readFiles: [`docs/${this.pick(WORDS)}.txt`], modifiedFiles: [] },
        fromHook: false,
      });
      this.contextTokens = 24_000;
    }
  }

  /** Every event of the session, header first. Serialize with JSON.stringify. */
  *events(): Generator<JsonObject> {
    const header: JsonObject = {
      type: "session",
      version: this.opts.headerVersion,
      id: this.opts.sessionId,
      timestamp: this.iso(),
      cwd: "/home/user/.openclaw/workspace",
    };
    yield header;
    yield this.entry("model_change", { provider: "anthropic", modelId: "claude-mock-1" });
    yield this.entry("thinking_level_change", { thinkingLevel: "off" });
    while (this.stats.bytes < this.opts.targetBytes) yield* this.turnEvents();
  }

  /** Serialized lines; updates stats.bytes/entries as it goes (the generator stops on the byte target). */
  *lines_(): Generator<string> {
    for (const e of this.events()) {
      const line = JSON.stringify(e);
      this.stats.bytes += Buffer.byteLength(line) + 1;
      this.stats.entries++;
      yield line;
    }
  }
}
