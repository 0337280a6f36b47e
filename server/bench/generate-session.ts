// Seeded generator of large, realistic OpenClaw sessions for `npm run bench` (issue 9). Not a fixture:
// the numbers are synthetic, the SHAPES are the real ones (spec transcript.md §1–§7, storage.md §4.2):
// user prompts, assistant text + toolCalls with usage, tool results from a few hundred bytes to 200 KB,
// base64 images, `openclaw.cache-ttl` markers, idle gaps that outlive the cache TTL, and compactions.
//
// Writers produce a complete state dir next to a copy of the bundled demo's config, so the bench reads
// it through exactly what the server uses (openStateReader, createSessionService):
// - JSONL era: `agents/main/sessions/<id>.jsonl` + `sessions.json` (the demo's legacy entry, re-pointed);
// - SQLite era: a copy of the demo's 2026.9.6 `openclaw-agent.sqlite` (its real agent-schema-23
//   CREATE TABLE statements, taken over verbatim by copying the file) with the demo session's events
//   replaced by generated ones.
//
// zstd: Node 20 cannot COMPRESS zstd (zlib.zstdCompressSync is Node ≥ 22.15/23.8) and fzstd only
// decompresses, so events of ≥ 1 KiB are written as valid zstd frames made of RAW blocks (RFC 8878
// §3.1.1.2: block type 0) with a declared content size and an XXH64 content checksum. Every decoding
// step the reader runs on real rows runs on these (frame walk, fzstd, checksum, strict UTF-8, JSON) —
// only entropy decoding is cheaper than on a real level-1 frame, and the baseline decodes the same rows.

import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { zstdContentChecksum } from "../sources/sqlite/xxh64.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEMO_STATE = path.resolve(HERE, "../demo/state");

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

export interface WrittenSession {
  stateDir: string;
  agentId: string;
  sessionId: string;
  /** The transcript file (JSONL) or the database (SQLite). */
  file: string;
  stats: GeneratedStats;
}

/** The demo config, TTL set to 5 minutes (the pruning replay then has real rounds on idle gaps). */
function writeConfig(stateDir: string): void {
  const config: unknown = JSON.parse(readFileSync(path.join(DEMO_STATE, "openclaw.json"), "utf8"));
  if (isObject(config)) {
    const agents = config.agents;
    const defaults = isObject(agents) ? agents.defaults : undefined;
    if (isObject(defaults)) defaults.contextPruning = { mode: "cache-ttl", ttl: "5m" };
  }
  writeFileSync(path.join(stateDir, "openclaw.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/** A JSONL-era state dir with one big session of agent `main`. Streams to disk in 4 MB chunks. */
export function writeJsonlStateDir(
  stateDir: string,
  opts: { targetBytes: number; seed: number },
): WrittenSession {
  const sessionId = "b3c1e0de-0000-4000-8000-00000000be7c";
  const dir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  writeConfig(stateDir);
  const file = path.join(dir, `${sessionId}.jsonl`);
  const gen = new SessionGenerator({ ...opts, sessionId, headerVersion: 3 });
  const chunks: string[] = [];
  let pending = 0;
  writeFileSync(file, "");
  for (const line of gen.lines_()) {
    chunks.push(line);
    pending += line.length;
    if (pending > 4_000_000) {
      writeFileSync(file, `${chunks.join("\n")}\n`, { flag: "a" });
      chunks.length = 0;
      pending = 0;
    }
  }
  if (chunks.length > 0) writeFileSync(file, `${chunks.join("\n")}\n`, { flag: "a" });
  // The demo's legacy entry (a real 2026.7.1 SessionEntry with its systemPromptReport), re-pointed.
  const store: unknown = JSON.parse(
    readFileSync(path.join(DEMO_STATE, "agents/legacy/sessions/sessions.json"), "utf8"),
  );
  const first = isObject(store) ? Object.values(store)[0] : undefined;
  const entry: JsonObject = isObject(first) ? { ...first } : {};
  entry.sessionId = sessionId;
  entry.sessionFile = file;
  entry.updatedAt = Date.now();
  writeFileSync(
    path.join(dir, "sessions.json"),
    `${JSON.stringify({ "agent:main:main": entry }, null, 2)}\n`,
  );
  return { stateDir, agentId: "main", sessionId, file, stats: gen.stats };
}

/** RFC 8878 frame of raw blocks: magic, FHD (4-byte FCS, single segment, checksum), blocks ≤ 128 KiB, XXH64. */
export function rawZstdFrame(data: Uint8Array): Uint8Array {
  const BLOCK = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = new Uint8Array(4 + 1 + 4 + blocks * 3 + data.length + 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xfd2fb528, true);
  out[4] = (2 << 6) | 0x20 | 0x04;
  view.setUint32(5, data.length, true);
  let pos = 9;
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK;
    const size = Math.min(BLOCK, data.length - start);
    const last = b === blocks - 1 ? 1 : 0;
    const h = last | (0 << 1) | (size << 3);
    out[pos] = h & 0xff;
    out[pos + 1] = (h >>> 8) & 0xff;
    out[pos + 2] = (h >>> 16) & 0xff;
    pos += 3;
    out.set(data.subarray(start, start + size), pos);
    pos += size;
  }
  view.setUint32(pos, zstdContentChecksum(data), true);
  return out;
}

/** Bounded navigation summary the schema's CHECK requires on compressed rows (storage.md §4.2). */
function navigationJson(e: JsonObject, bytes: number): string {
  const head = {
    id: e.id ?? null,
    parentId: e.parentId ?? null,
    timestamp: e.timestamp ?? null,
    type: e.type,
  };
  const msg = isObject(e.message) ? { role: e.message.role ?? null } : null;
  return JSON.stringify({
    version: 1,
    report: { kind: "canonical", hasParentId: e.parentId !== null, entry: head },
    navigation: { ...head, message: msg },
    reset: { ...head },
    model: { ...head },
    modelBytes: Math.min(bytes, 4_194_304),
    modelWithoutCheckpointBytes: Math.min(bytes, 4_194_304),
    withoutCustomDataBytes: Math.min(bytes, 4_194_304),
  });
}

/**
 * A SQLite-era state dir: the demo's real 2026.9.6 agent database (schema 23) copied, the demo session's
 * events replaced by a generated session under the same session id/key (so session_nodes/windows stay
 * consistent), active-branch index rebuilt like OpenClaw keeps it.
 */
export function writeSqliteStateDir(
  stateDir: string,
  opts: { targetBytes: number; seed: number },
): WrittenSession {
  const dir = path.join(stateDir, "agents", "main", "agent");
  mkdirSync(dir, { recursive: true });
  writeConfig(stateDir);
  const file = path.join(dir, "openclaw-agent.sqlite");
  copyFileSync(path.join(DEMO_STATE, "agents/main/agent/openclaw-agent.sqlite"), file);
  chmodSync(file, 0o644); // the demo file may be read-only; this copy is ours to write
  const db = new Database(file);
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    const row: unknown = db.prepare("SELECT current_session_id AS id FROM session_nodes LIMIT 1").get();
    const sessionId = isObject(row) && typeof row.id === "string" ? row.id : "";
    for (const t of [
      "session_transcript_fts_rows",
      "session_transcript_active_events",
      "transcript_event_identities",
      "transcript_events",
      "session_transcript_index_state",
      "trajectory_runtime_events",
    ]) {
      db.prepare(`DELETE FROM ${t} WHERE session_id = ?`).run(sessionId);
    }
    db.prepare("DELETE FROM session_transcript_fts WHERE session_id = ?").run(sessionId);
    const gen = new SessionGenerator({ ...opts, sessionId, headerVersion: 4 });
    const insJson = db.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
    );
    const insZstd = db.prepare(
      "INSERT INTO transcript_events (session_id, seq, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insActive = db.prepare(
      "INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, message_position, context_eligible) VALUES (?, ?, ?, ?, 1)",
    );
    let seq = 0;
    let messagePos = 0;
    let lastId: string | null = null;
    let created = Date.UTC(2026, 5, 1);
    const insertAll = db.transaction(() => {
      for (const e of gen.events()) {
        const line = JSON.stringify(e);
        const bytes = Buffer.from(line, "utf8");
        gen.stats.bytes += bytes.length;
        gen.stats.entries++;
        created += 1000;
        // OpenClaw compresses valid JSON of 1 KiB–4 MiB (storage.md §4.2); we keep the same split.
        if (bytes.length >= 1024 && bytes.length <= 4_194_304) {
          insZstd.run(
            sessionId,
            seq,
            created,
            rawZstdFrame(bytes),
            bytes.length,
            navigationJson(e, bytes.length),
          );
        } else {
          insJson.run(sessionId, seq, line, created);
        }
        if (e.type !== "session") {
          const isMessage = e.type === "message";
          insActive.run(sessionId, seq - 1, seq, isMessage ? messagePos : null);
          if (isMessage) messagePos++;
          lastId = typeof e.id === "string" ? e.id : lastId;
        }
        seq++;
      }
      db.prepare(
        "INSERT INTO session_transcript_index_state (session_id, indexed_seq, leaf_event_id, needs_rebuild, active_event_count, active_message_count, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)",
      ).run(sessionId, seq - 1, lastId, seq - 1, messagePos, created);
    });
    insertAll();
    return { stateDir, agentId: "main", sessionId, file, stats: gen.stats };
  } finally {
    db.close();
  }
}
