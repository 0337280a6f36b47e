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
// zstd: events of ≥ 1 KiB are compressed the way OpenClaw 2026.9 does it — node:zlib's zstdCompressSync,
// default level, content checksum on — where this Node has it (≥ 22.15 / 23.8; OpenClaw itself needs
// ≥ 24.16). Node 20 cannot compress zstd (fzstd and zstddec only decompress), so there they are written as
// valid frames of RAW blocks (RFC 8878 §3.1.1.2: block type 0) with a declared content size and an XXH64
// content checksum: every decoding step the reader runs on real rows runs on these (frame walk, decoder,
// checksum, strict UTF-8, JSON), only entropy decoding is cheaper. `stats.zstd` says which; the baseline
// decodes the same rows.

import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import Database from "better-sqlite3";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { DEMO_STATE_DIR as DEMO_STATE } from "../package-root.ts";
import { zstdContentChecksum } from "../sources/sqlite/xxh64.ts";
import { type GeneratedStats, SessionGenerator } from "./session-generator.ts";

export {
  type GeneratedStats,
  type GenerateOptions,
  SessionGenerator,
  seededRandom,
} from "./session-generator.ts";

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

/**
 * A JSONL state dir with `sessions` sessions of agent `main`: one generated session of `mbEach` MB copied under
 * `sessions` ids, all in one sessions.json (the session list's cost is reading and listing them, not content).
 */
export function writeBigStateDir(
  dir: string,
  o: { sessions: number; mbEach: number; seed: number },
): { stateDir: string } {
  const seed = writeJsonlStateDir(path.join(dir, "seed"), {
    targetBytes: o.mbEach * 1024 * 1024,
    seed: o.seed,
  });
  const stateDir = path.join(dir, "state");
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  copyFileSync(path.join(seed.stateDir, "openclaw.json"), path.join(stateDir, "openclaw.json"));
  const stored: unknown = JSON.parse(
    readFileSync(path.join(path.dirname(seed.file), "sessions.json"), "utf8"),
  );
  const first = isObject(stored) ? Object.values(stored)[0] : undefined;
  const store: JsonObject = {};
  for (let i = 0; i < o.sessions; i++) {
    const sessionId = `b16d0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const file = path.join(sessionsDir, `${sessionId}.jsonl`);
    copyFileSync(seed.file, file);
    store[`agent:main:s${i}`] = {
      ...(isObject(first) ? first : {}),
      sessionId,
      sessionFile: file,
      updatedAt: Date.now() - i * 60_000,
    };
  }
  writeFileSync(path.join(sessionsDir, "sessions.json"), `${JSON.stringify(store, null, 2)}\n`);
  return { stateDir };
}

type Compress = (data: Uint8Array) => Uint8Array;

/** node:zlib's zstd compressor as OpenClaw calls it, or null on a Node without it. */
function zlibZstd(): Compress | null {
  const fn: unknown = Reflect.get(zlib, "zstdCompressSync");
  const flag: unknown = Reflect.get(zlib.constants, "ZSTD_c_checksumFlag");
  if (typeof fn !== "function" || typeof flag !== "number") return null;
  return (data) => {
    const out: unknown = Reflect.apply(fn, zlib, [data, { params: { [flag]: 1 } }]);
    if (!(out instanceof Uint8Array)) throw new Error("zstdCompressSync returned no bytes");
    return out;
  };
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
  opts: { targetBytes: number; seed: number; rawFrames?: boolean },
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
    const gen = new SessionGenerator({
      targetBytes: opts.targetBytes,
      seed: opts.seed,
      sessionId,
      headerVersion: 4,
    });
    // `rawFrames`: raw blocks on every Node (a test of what the reader does with frames that do not compress)
    const compress = (opts.rawFrames ? null : zlibZstd()) ?? rawZstdFrame;
    gen.stats.zstd =
      compress === rawZstdFrame ? "raw blocks (this Node cannot compress zstd)" : "node:zlib, default level";
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
            compress(bytes),
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
