// The one transcript builder of the tests: rows are built to the real entry schema (spec transcript.md §1–§3),
// written as JSONL bytes (or into a SQLite state dir), and read back through the PRODUCTION parser
// (server/sources/jsonl/read-transcript.ts parseTranscriptBytes: line split, long-string cuts read back from
// the bytes, image payloads elided; or server/sources/state-reader.ts for a whole state dir). So a test sees
// exactly what a report sees for the same file, never a test-only adapter's idea of it.

import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { LoadedSession, SessionSummary, Transcript, VersionInfo } from "../../server/model/session.ts";
import { parseTranscriptBytes } from "../../server/sources/jsonl/read-transcript.ts";
import { extendTranscript } from "../../server/sources/jsonl/tail.ts";
import { isObject, type JsonObject } from "../../shared/json.ts";

export type Family = VersionInfo["family"];

/** JSONL text → Transcript through the production parser (as a transcript file of these bytes is read). */
export function transcriptFromJsonl(text: string, source = "test.jsonl"): Transcript {
  return parseTranscriptBytes(Buffer.from(text, "utf8"), source);
}

export interface SessionOptions {
  family?: Family;
  agentId?: string;
  sessionId?: string;
  sessionKey?: string | null;
  archived?: SessionSummary["archived"];
  /** The SessionEntry (sessions.json value / session_nodes.entry_json). */
  entry?: JsonObject | null;
  provider?: string | null;
  model?: string | null;
  storage?: SessionSummary["storage"];
  location?: string;
  appVersion?: string | null;
}

/** A LoadedSession around a transcript, with the store metadata a test chooses. */
export function loadedSession(transcript: Transcript, opts: SessionOptions = {}): LoadedSession {
  const family = opts.family ?? "2026.9";
  const sessionId = opts.sessionId ?? "test-session";
  return {
    summary: {
      agentId: opts.agentId ?? "main",
      sessionId,
      sessionKey: opts.sessionKey === undefined ? "agent:main:main" : opts.sessionKey,
      storage: opts.storage ?? (family === "2026.9" ? "sqlite" : "jsonl"),
      archived: opts.archived ?? null,
      updatedAt: null,
      model: opts.model ?? null,
      provider: opts.provider ?? null,
      entryCount: transcript.entries.length,
      parseErrorCount: 0,
      location: opts.location ?? `${sessionId}.jsonl`,
      sizeBytes: null,
    },
    entry: opts.entry ?? null,
    transcript,
    version: { appVersion: opts.appVersion ?? null, family, reason: "test transcript" },
    rebasedPaths: [],
    issues: [],
  };
}

/** JSONL text of a fixture or capture → LoadedSession (production parser). */
export function sessionFromJsonl(text: string, opts: SessionOptions = {}): LoadedSession {
  return loadedSession(transcriptFromJsonl(text, opts.location ?? "test.jsonl"), opts);
}

export interface UsageInput {
  input: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
  /** `usage.cost.total` (default 0, as OpenClaw records for models it cannot price). */
  cost?: number;
  totalOrigin?: string;
}

export interface BuilderOptions {
  /** Clock start (ms); `at` offsets and `tick()` move from here. */
  start?: number;
  /** Write a `session` header row first (index 0), as every real transcript has. Default true. */
  header?: boolean;
  /** Header `version`: 3 (JSONL era) or 4 (2026.9.x events). Default 3. */
  version?: number;
  /** Ids are `${idPrefix}0`, `${idPrefix}1`, … in append order (the header is `hdr`). Default "e". */
  idPrefix?: string;
}

/**
 * Rows of one transcript. Each row is chained to the previous one (parentId) unless a parent is given; the
 * envelope timestamp is the builder's clock. Row makers return the new row's id.
 */
export class TranscriptBuilder {
  readonly rows: JsonObject[] = [];
  /** The clock (ms): envelope timestamps and message timestamps use it. */
  t: number;
  private last: string | null = null;
  private n = 0;
  private readonly idPrefix: string;

  constructor(opts: BuilderOptions = {}) {
    this.t = opts.start ?? Date.UTC(2026, 10, 30, 0, 0, 0);
    this.idPrefix = opts.idPrefix ?? "e";
    if (opts.header !== false) {
      this.rows.push({
        type: "session",
        version: opts.version ?? 3,
        id: "hdr",
        timestamp: new Date(this.t).toISOString(),
        cwd: "/home/user/.openclaw/workspace",
      });
    }
  }

  /** Move the clock. */
  tick(ms: number): this {
    this.t += ms;
    return this;
  }

  /** Append a row; `parent` null = a root, undefined = the previous row. */
  add(row: JsonObject, parent?: string | null): string {
    const id = `${this.idPrefix}${this.n++}`;
    const parentId = parent === undefined ? this.last : parent;
    this.rows.push({ type: row.type ?? "", id, parentId, timestamp: new Date(this.t).toISOString(), ...row });
    this.last = id;
    return id;
  }

  /** Append a `message` row whose message carries the clock as its `timestamp`. */
  message(message: JsonObject, parent?: string | null, envelope: JsonObject = {}): string {
    return this.add({ type: "message", ...envelope, message: { timestamp: this.t, ...message } }, parent);
  }

  user(text: string | JsonObject[], extra: JsonObject = {}, parent?: string | null): string {
    const content = typeof text === "string" ? [{ type: "text", text }] : text;
    return this.message({ role: "user", content, ...extra }, parent);
  }

  /** An assistant reply (a model call); usage defaults to a small uncached call. */
  assistant(
    opts: {
      content?: JsonObject[];
      text?: string;
      usage?: UsageInput;
      provider?: string;
      model?: string;
      api?: string;
      stopReason?: string;
      extra?: JsonObject;
      /** Envelope fields (e.g. a `timestamp` later than the message's: the reply is appended after the request). */
      envelope?: JsonObject;
    } = {},
    parent?: string | null,
  ): string {
    const u = opts.usage ?? { input: 10, output: 10 };
    const output = u.output ?? 10;
    const cacheRead = u.cacheRead ?? 0;
    const cacheWrite = u.cacheWrite ?? 0;
    const usage: JsonObject = {
      input: u.input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: u.input + output + cacheRead + cacheWrite,
      cost: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        total: u.cost ?? 0,
        ...(u.totalOrigin ? { totalOrigin: u.totalOrigin } : {}),
      },
    };
    if (u.cacheWrite1h !== undefined) usage.cacheWrite1h = u.cacheWrite1h;
    return this.message(
      {
        role: "assistant",
        content: opts.content ?? [{ type: "text", text: opts.text ?? "ok" }],
        api: opts.api ?? "anthropic-messages",
        provider: opts.provider ?? "anthropic",
        model: opts.model ?? "claude-sonnet-4-5",
        usage,
        stopReason: opts.stopReason ?? "stop",
        responseId: `resp_${this.n}`,
        ...(opts.extra ?? {}),
      },
      parent,
      opts.envelope,
    );
  }

  /** A gateway-injected reply (transcript.md §8: transcript-only, all-zero usage). */
  injected(text = "reply", extra: JsonObject = {}): string {
    return this.message({
      role: "assistant",
      content: [{ type: "text", text }],
      api: "openai-responses",
      provider: "openclaw",
      model: "gateway-injected",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { total: 0 } },
      stopReason: "stop",
      ...extra,
    });
  }

  toolResult(
    toolCallId: string,
    toolName: string,
    content: string | JsonObject[],
    extra: JsonObject = {},
  ): string {
    return this.message({
      role: "toolResult",
      toolCallId,
      toolName,
      content: typeof content === "string" ? [{ type: "text", text: content }] : content,
      isError: false,
      ...extra,
    });
  }

  /** An `openclaw.cache-ttl` cache-touch marker (transcript.md §9.1) at the clock. */
  cacheTouch(provider = "anthropic", modelId = "claude-sonnet-4-5"): string {
    return this.add({
      type: "custom",
      customType: "openclaw.cache-ttl",
      data: { timestamp: this.t, provider, modelId },
    });
  }

  jsonl(): string {
    return `${this.rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
  }

  /** The rows as a transcript file, read back through the production parser. */
  transcript(source = "test.jsonl"): Transcript {
    return transcriptFromJsonl(this.jsonl(), source);
  }

  session(opts: SessionOptions = {}): LoadedSession {
    return loadedSession(this.transcript(opts.location ?? "test.jsonl"), opts);
  }

  /**
   * A JSONL-era state dir (`agents/<agent>/sessions/sessions.json` + `<sessionId>.jsonl`, storage.md §3)
   * holding these rows; returns the transcript path. Read it with openStateReader.
   */
  writeJsonlStateDir(
    stateDir: string,
    opts: { agentId?: string; sessionId?: string; sessionKey?: string; entry?: JsonObject } = {},
  ): string {
    const agentId = opts.agentId ?? "main";
    const sessionId = opts.sessionId ?? "0a1b2c3d-0000-4000-8000-000000000001";
    const dir = path.join(stateDir, "agents", agentId, "sessions");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${sessionId}.jsonl`);
    writeFileSync(file, this.jsonl());
    const entry: JsonObject = { sessionId, updatedAt: this.t, sessionFile: file, ...(opts.entry ?? {}) };
    writeFileSync(
      path.join(dir, "sessions.json"),
      `${JSON.stringify({ [opts.sessionKey ?? `agent:${agentId}:main`]: entry }, null, 2)}\n`,
    );
    return file;
  }

  /**
   * A SQLite-era state dir: a copy of the demo's real 2026.9.6 agent database (schema 23) whose one session's
   * events are replaced by these rows (`transcript_events.event_json`, the form OpenClaw stores events under
   * 1 KiB in; storage.md §4.2) with the active-branch index rebuilt over them (the rows must form one chain).
   * Returns the database path.
   */
  writeSqliteStateDir(stateDir: string, demoState: string): string {
    const dir = path.join(stateDir, "agents", "main", "agent");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "openclaw-agent.sqlite");
    copyFileSync(path.join(demoState, "agents/main/agent/openclaw-agent.sqlite"), file);
    chmodSync(file, 0o644);
    const db = new Database(file);
    try {
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
      const insert = db.prepare(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
      );
      const active = db.prepare(
        "INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, message_position, context_eligible) VALUES (?, ?, ?, ?, 1)",
      );
      const rows = this.rows.map((r, i) =>
        i === 0 && r.type === "session" ? { ...r, version: 4, id: sessionId } : r,
      );
      let messagePos = 0;
      let lastId: string | null = null;
      db.transaction(() => {
        rows.forEach((r, seq) => {
          insert.run(sessionId, seq, JSON.stringify(r), this.t);
          if (r.type === "session") return;
          active.run(sessionId, seq - 1, seq, r.type === "message" ? messagePos++ : null);
          if (typeof r.id === "string") lastId = r.id;
        });
        db.prepare(
          "INSERT INTO session_transcript_index_state (session_id, indexed_seq, leaf_event_id, needs_rebuild, active_event_count, active_message_count, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)",
        ).run(sessionId, rows.length - 1, lastId, rows.length - 1, messagePos, this.t);
      })();
    } finally {
      db.close();
    }
    return file;
  }
}

/**
 * JSONL lines read as a live tail does (sources/jsonl/tail.ts extendTranscript): the first `start` lines, then one
 * more line per step, each Transcript continuing the previous one (same entry objects in front). Yields each
 * step's transcript with the number of lines it holds.
 */
export function* growingTranscripts(
  lines: readonly string[],
  start: number,
): Generator<{ transcript: Transcript; lines: number }> {
  const bytes = (ls: readonly string[]) => Buffer.from(ls.map((l) => `${l}\n`).join(""));
  let prev = extendTranscript({
    prev: null,
    complete: bytes(lines.slice(0, start)),
    pending: Buffer.alloc(0),
    reportPending: true,
    source: "t.jsonl",
  });
  yield { transcript: prev.transcript, lines: start };
  for (let i = start; i < lines.length; i++) {
    prev = extendTranscript({
      prev,
      complete: bytes(lines.slice(i, i + 1)),
      pending: Buffer.alloc(0),
      reportPending: true,
      source: "t.jsonl",
    });
    yield { transcript: prev.transcript, lines: i + 1 };
  }
}
