// Seeded, bounded fuzz over broken and hostile variants of the demo's real captures (issue 20): a few hundred
// state dirs — a JSONL session (the 2026.7.1 legacy capture, its first lines, its sessions.json entry with the
// stored run report) and a SQLite agent (the 2026.9.6 research database) — each with a few random mutations:
// truncated/flipped/deleted/duplicated/swapped lines, values replaced by deep nesting, lone surrogates, control
// sequences, huge unbroken runs, wrong types, path tricks. Every report and export of every listed session is
// built. Asserted per variant: nothing throws, nothing hangs (a per-variant time bound), every issue and every
// failed result is located (a source / a message); the whole fuzz stays under 60 s of CPU. The seed is fixed: a
// failure names its variant, reproducible.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { buildExportHtml } from "../../server/export/write-export.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { ParseIssue } from "../../shared/session.ts";

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../server/demo/state");
const LEGACY = "agents/legacy/sessions";
const LEGACY_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const SEED = 20_2026;
const JSONL_VARIANTS = 220;
const SQLITE_VARIANTS = 80;
/** One variant taking this long (wall clock) is a hang; a variant takes ~20 ms idle, ~200 ms under load 35. */
const VARIANT_MS = 10_000;
/**
 * The budget of the whole fuzz, in CPU time of this test process (load-independent: on the shared 2-core machine
 * the wall clock of `npm test` stretches 5–15×); the wall-clock timeout only catches a stuck run.
 */
const TOTAL_CPU_MS = 60_000;
const WALL_TIMEOUT_MS = 240_000;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** mulberry32: a small seeded PRNG (the fuzz must be reproducible). */
class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[this.int(xs.length)];
    if (x === undefined) throw new Error("pick from an empty list");
    return x;
  }
}

/** Hostile values a stored field may hold. */
function hostileValue(rng: Rng): unknown {
  const depth = 300 + rng.int(3000);
  return rng.pick<() => unknown>([
    () => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`),
    () => `id_\ud800${rng.int(10)}`,
    () => "\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m",
    () => "A".repeat(100_000 + rng.int(100_000)),
    () => "../../../../etc/passwd",
    () => "/etc/passwd",
    () => null,
    () => -1,
    () => 1e308,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => "",
    () => ({}),
    () => [],
    () => ({
      type: "toolCall",
      id: "\udc00",
      name: "<img src=x onerror=alert(1)>",
      arguments: "not an object",
    }),
    () => "2026-13-45T99:99:99Z",
    () => true,
  ])();
}

type Slot = { array: unknown[]; index: number } | { object: Record<string, unknown>; key: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every place in a parsed value a mutation can write (iterative: stays safe on any input). */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [];
  const stack: unknown[] = [root];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (Array.isArray(v)) {
      for (let index = 0; index < v.length; index++) {
        out.push({ array: v, index });
        stack.push(v[index]);
      }
    } else if (isRecord(v)) {
      for (const [key, child] of Object.entries(v)) {
        out.push({ object: v, key });
        stack.push(child);
      }
    }
  }
  return out;
}

/** One random mutation of a JSON text (a transcript line, an event_json, a store). */
function mutateJsonText(text: string, rng: Rng): string {
  const kind = rng.int(5);
  if (kind === 0) return text.slice(0, rng.int(text.length)); // truncated
  if (kind === 1) {
    const at = rng.int(text.length);
    const c = rng.pick(['"', "{", "}", "[", "]", ",", ":", "\\", "\u0000", "\n", "\ud800", "9", " "]);
    return text.slice(0, at) + c + text.slice(at + 1);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const all = slots(value);
  if (all.length === 0) return JSON.stringify(hostileValue(rng));
  const slot = rng.pick(all);
  if ("array" in slot) slot.array[slot.index] = hostileValue(rng);
  else if (kind === 2) delete slot.object[slot.key];
  else slot.object[slot.key] = hostileValue(rng);
  return JSON.stringify(value);
}

/** One random mutation of a JSONL file's lines. */
function mutateLines(lines: string[], rng: Rng): void {
  const i = rng.int(lines.length);
  const kind = rng.int(6);
  if (kind === 0) lines.splice(i, 1);
  else if (kind === 1) lines.splice(i, 0, lines[i] ?? "");
  else if (kind === 2) {
    const j = rng.int(lines.length);
    [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
  } else lines[i] = mutateJsonText(lines[i] ?? "", rng);
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const root = mkdtempSync(path.join(os.tmpdir(), "clawscope-fuzz-"));
roots.push(root);

const legacyLines = readFileSync(path.join(DEMO, LEGACY, `${LEGACY_ID}.jsonl`), "utf8")
  .split("\n")
  .slice(0, 24);
const legacyStore = readFileSync(path.join(DEMO, LEGACY, "sessions.json"), "utf8");

/** A JSONL state dir: the legacy capture's first lines and its store, the demo workspace and config, mutated. */
function jsonlVariant(dir: string, rng: Rng): void {
  const sessions = path.join(dir, LEGACY);
  mkdirSync(sessions, { recursive: true });
  mkdirSync(path.join(dir, "workspace"), { recursive: true });
  for (const f of ["AGENTS.md", "USER.md", "SOUL.md"])
    copyFileSync(path.join(DEMO, "workspace", f), path.join(dir, "workspace", f));
  copyFileSync(path.join(DEMO, "openclaw.json"), path.join(dir, "openclaw.json"));
  const lines = [...legacyLines];
  let store = legacyStore;
  for (let n = 1 + rng.int(3); n > 0; n--) {
    if (rng.int(4) === 0) store = mutateJsonText(store, rng);
    else mutateLines(lines, rng);
  }
  writeFileSync(path.join(sessions, `${LEGACY_ID}.jsonl`), `${lines.join("\n")}\n`);
  writeFileSync(path.join(sessions, "sessions.json"), store);
}

/** A SQLite state dir: the research agent's database with a few event_json / entry_json rows mutated. */
function sqliteVariant(dir: string, rng: Rng): void {
  const agent = path.join(dir, "agents/research/agent");
  mkdirSync(agent, { recursive: true });
  const db = path.join(agent, "openclaw-agent.sqlite");
  copyFileSync(path.join(DEMO, "agents/research/agent/openclaw-agent.sqlite"), db);
  const w = new Database(db);
  try {
    const rowsOf = (sql: string): { r: number; j: string }[] =>
      w
        .prepare(sql)
        .all()
        .flatMap((row) =>
          isRecord(row) && typeof row.r === "number" && typeof row.j === "string"
            ? [{ r: row.r, j: row.j }]
            : [],
        );
    const events = rowsOf(
      "SELECT rowid AS r, event_json AS j FROM transcript_events WHERE event_json IS NOT NULL",
    );
    const nodes = rowsOf("SELECT rowid AS r, entry_json AS j FROM session_nodes");
    const setEvent = w.prepare("UPDATE transcript_events SET event_json = ? WHERE rowid = ?");
    const setNode = w.prepare("UPDATE session_nodes SET entry_json = ? WHERE rowid = ?");
    for (let n = 1 + rng.int(3); n > 0; n--) {
      const fromNodes = rng.int(4) === 0 && nodes.length > 0;
      const row = rng.pick(fromNodes ? nodes : events);
      row.j = mutateJsonText(row.j, rng);
      (fromNodes ? setNode : setEvent).run(row.j, row.r);
    }
  } finally {
    w.close();
  }
}

function expectLocated(issue: ParseIssue, where: string): void {
  expect(
    typeof issue.source === "string" && issue.source.length > 0,
    `${where}: issue without a source`,
  ).toBe(true);
  expect(issue.message.length > 0, `${where}: issue without a message`).toBe(true);
  if (issue.source.endsWith(".jsonl") && (issue.code === "invalid-json" || issue.code === "truncated-line"))
    expect(issue.line, `${where}: ${issue.code} without a line`).toBeGreaterThan(0);
}

/** Every report of every listed session; throws only if clawscope does. */
function exercise(stateDir: string, where: string): void {
  const service = createSessionService({ stateDir, demo: false, reason: "fuzz" });
  try {
    const { sessions, issues } = service.listSessions();
    for (const issue of issues) expectLocated(issue, where);
    for (const s of sessions) {
      const loaded = service.load(s.agentId, s.sessionId);
      if (loaded.ok) for (const issue of loaded.value.transcript.issues) expectLocated(issue, where);
      // The export gathers the run report, map, truncation, pruning replay and cost; when it fails, each is
      // asked on its own too (a failure must be a located error, never a throw).
      const exported = buildExportHtml(service, s.agentId, s.sessionId, {
        redact: true,
        generatedAt: "2026-12-01T00:00:00Z",
      });
      const results = [
        loaded,
        exported,
        service.contextText(s.agentId, s.sessionId, "detail"),
        service.contextText(s.agentId, s.sessionId, "json"),
        ...(exported.ok
          ? []
          : [
              service.runReport(s.agentId, s.sessionId),
              service.contextMap(s.agentId, s.sessionId),
              service.truncation(s.agentId, s.sessionId, {}),
              service.prune(s.agentId, s.sessionId, {}),
              service.cost(s.agentId, s.sessionId),
            ]),
      ];
      for (const r of results)
        if (!r.ok) expect(r.error.message.length > 0, `${where}: unlocated error`).toBe(true);
    }
  } finally {
    service.close();
  }
}

describe("fuzz: broken and hostile state dirs (issue 20)", () => {
  const startedCpu = cpuMs();
  const run = (kind: "jsonl" | "sqlite", count: number, build: (dir: string, rng: Rng) => void) => {
    const rng = new Rng(SEED + (kind === "jsonl" ? 0 : 1));
    for (let v = 0; v < count; v++) {
      const where = `${kind} variant ${v} (seed ${SEED})`;
      const dir = path.join(root, `${kind}-${v}`);
      build(dir, rng);
      const t0 = performance.now();
      try {
        exercise(dir, where);
      } catch (e) {
        throw new Error(`${where}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
      expect(performance.now() - t0, `${where}: took too long (a hang)`).toBeLessThan(VARIANT_MS);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it(
    `${JSONL_VARIANTS} JSONL variants: no throw, no hang, every issue located`,
    () => {
      run("jsonl", JSONL_VARIANTS, jsonlVariant);
    },
    WALL_TIMEOUT_MS,
  );

  it(
    `${SQLITE_VARIANTS} SQLite variants: no throw, no hang, every issue located`,
    () => {
      run("sqlite", SQLITE_VARIANTS, sqliteVariant);
      process.stderr.write(
        `fuzz: ${JSONL_VARIANTS + SQLITE_VARIANTS} variants, ${Math.round(cpuMs() - startedCpu)} ms CPU\n`,
      );
      expect(cpuMs() - startedCpu, "CPU time of the whole fuzz (ms)").toBeLessThan(TOTAL_CPU_MS);
    },
    WALL_TIMEOUT_MS,
  );
});
