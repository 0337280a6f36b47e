// SQLite-era reader against the real OpenClaw 2026.9.6 captures s1–s5 (spec fixtures.md §2–§3):
// listing, decoded transcript (json + zstd rows) vs state-export, storage counts, active branch and
// context eligibility vs active_events.json, the tree fallback, the version family, prompt-cache extras.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  listSqliteSessions,
  loadSqliteSession,
  sqliteExtras,
} from "../../server/sources/sqlite/sqlite-source.ts";
import { isObject } from "../../shared/json.ts";
import {
  cleanupTmp,
  copyState,
  DB_REL,
  exportedSessionId,
  fixtureDb,
  haveScenario,
  rawState,
  readJsonl,
  SCENARIOS,
  scenarioDir,
} from "../fixtures/sqlite/helpers.ts";
import { resolveLazyTexts } from "../helpers/resolve-lazy.ts";

afterAll(cleanupTmp);

interface ActiveExport {
  active_position: number;
  event_seq: number;
  context_eligible: number;
}

function activeExport(name: string): ActiveExport[] {
  const raw: unknown = JSON.parse(
    fs.readFileSync(path.join(scenarioDir(name), "state-export", "main", "active_events.json"), "utf8"),
  );
  if (!Array.isArray(raw)) throw new Error("active_events.json is not an array");
  return raw.map((r: unknown) => {
    if (!isObject(r)) throw new Error("bad row");
    return {
      active_position: Number(r.active_position),
      event_seq: Number(r.event_seq),
      context_eligible: Number(r.context_eligible),
    };
  });
}

function rowsStorage(name: string, id: string): { json: number; zstd: number } {
  const raw: unknown = JSON.parse(
    fs.readFileSync(
      path.join(scenarioDir(name), "state-export", "main", "transcripts", `${id}.rows.json`),
      "utf8",
    ),
  );
  const rows = Array.isArray(raw) ? raw.filter(isObject) : [];
  return {
    json: rows.filter((r) => r.storage === "event_json").length,
    zstd: rows.filter((r) => r.storage === "event_zstd").length,
  };
}

function load(stateDir: string, id: string) {
  const r = loadSqliteSession(stateDir, "main", DB_REL, id);
  if ("error" in r) throw new Error(`load failed: ${r.error.code} ${r.error.message}`);
  return r;
}

for (const sc of SCENARIOS) {
  const present = haveScenario(sc.name);
  describe.skipIf(!present)(`SQLite reader on ${sc.name}`, () => {
    const stateDir = path.join(scenarioDir(sc.name), "state");

    it("lists the scenario's session with storage sqlite", () => {
      const id = exportedSessionId(sc.name);
      const { sessions, issues } = listSqliteSessions(stateDir, "main", DB_REL);
      expect(issues).toEqual([]);
      expect(sessions).toHaveLength(1);
      const s = sessions[0];
      const nodes: unknown = JSON.parse(
        fs.readFileSync(
          path.join(scenarioDir(sc.name), "state-export", "main", "session_nodes.json"),
          "utf8",
        ),
      );
      const node = Array.isArray(nodes) && isObject(nodes[0]) ? nodes[0] : {};
      const entry = isObject(node.entry) ? node.entry : {};
      expect(s).toMatchObject({
        agentId: "main",
        sessionId: id,
        sessionKey: node.session_key,
        storage: "sqlite",
        archived: null,
        entryCount: sc.events,
        parseErrorCount: 0,
        location: DB_REL,
        model: entry.model,
        provider: entry.modelProvider,
        updatedAt: entry.updatedAt,
      });
      expect(s?.sizeBytes).toBeGreaterThan(0);
    });

    it("decodes every row (event_json and event_zstd) equal to state-export, in seq order", () => {
      const id = exportedSessionId(sc.name);
      const loaded = load(stateDir, id);
      const expected = readJsonl(
        path.join(scenarioDir(sc.name), "state-export", "main", "transcripts", `${id}.jsonl`),
      );
      // long tool-result texts are read back from the store for the comparison (model/lazy-text.ts)
      expect(loaded.transcript.entries.map((e) => resolveLazyTexts(e.raw))).toEqual(expected);
      expect(loaded.transcript.entries.map((e) => e.seq)).toEqual(expected.map((_, i) => i));
      expect(loaded.transcript.entries.map((e) => e.index)).toEqual(expected.map((_, i) => i));
      expect(loaded.transcript.issues).toEqual([]);
      expect(loaded.issues).toEqual([]);
      expect(loaded.transcript.entries).toHaveLength(sc.events);
      const x = sqliteExtras(loaded);
      expect(x?.storage).toEqual({ json: sc.json, zstd: sc.zstd });
      expect(x?.storage).toEqual(rowsStorage(sc.name, id));
      // seq 0 is the session header with version 4 (fixtures.md §3).
      expect(loaded.transcript.header).toMatchObject({ type: "session", version: 4, id });
      expect(loaded.transcript.version).toBe(4);
      expect(loaded.summary.entryCount).toBe(sc.events);
    });

    it("takes the active branch and context_eligible from session_transcript_active_events", () => {
      const id = exportedSessionId(sc.name);
      const loaded = load(stateDir, id);
      const active = activeExport(sc.name);
      const t = loaded.transcript;
      expect(sqliteExtras(loaded)?.activeBranchSource).toBe("active-events-table");
      expect(t.activeBranch.map((i) => t.entries[i]?.seq)).toEqual(active.map((a) => a.event_seq));
      expect(t.activeBranch.map((i) => t.contextEligible?.get(i))).toEqual(
        active.map((a) => a.context_eligible === 1),
      );
      expect(t.leafIndex).toBe(t.activeBranch[t.activeBranch.length - 1]);
    });

    it("recomputes the same branch from the tree when the index needs a rebuild", () => {
      const id = exportedSessionId(sc.name);
      const copy = copyState(sc.name);
      const w = new Database(copy.dbPath);
      w.prepare("UPDATE session_transcript_index_state SET needs_rebuild = 1 WHERE session_id = ?").run(id);
      w.close();
      const loaded = load(copy.stateDir, id);
      const active = activeExport(sc.name);
      const t = loaded.transcript;
      expect(sqliteExtras(loaded)?.activeBranchSource).toBe("tree-fallback");
      expect(t.issues.map((i) => i.code)).toEqual(["active-index-untrusted"]);
      expect(t.activeBranch.map((i) => t.entries[i]?.seq)).toEqual(active.map((a) => a.event_seq));
      // Derived eligibility (excludeFromContext) reproduces OpenClaw's flags on every fixture.
      expect(t.activeBranch.map((i) => t.contextEligible?.get(i))).toEqual(
        active.map((a) => a.context_eligible === 1),
      );
    });

    it("reports the SessionEntry, version family and schema", () => {
      const id = exportedSessionId(sc.name);
      const loaded = load(stateDir, id);
      const nodes: unknown = JSON.parse(
        fs.readFileSync(
          path.join(scenarioDir(sc.name), "state-export", "main", "session_nodes.json"),
          "utf8",
        ),
      );
      const node = Array.isArray(nodes) && isObject(nodes[0]) ? nodes[0] : {};
      expect(loaded.entry).toEqual(node.entry);
      expect(loaded.version.appVersion).toBe("2026.9.6");
      expect(loaded.version.family).toBe("2026.9");
      expect(loaded.version.reason).toContain("2026.9.6");
      const x = sqliteExtras(loaded);
      expect(x?.schemaVersion).toBe(23);
      expect(x?.snapshotCopy).toBeNull();
      expect(x?.window).toEqual({ sessionKey: node.session_key, previousSessionId: null, reason: null });
      expect(x?.windowChain).toEqual([id]);
      // The fixture copy has trajectory_runtime_events emptied (fixtures.md §1).
      expect(x?.promptCache).toEqual([]);
    });

    it("exposes model.completed promptCache from the raw store's trajectory", () => {
      const raw = rawState(sc.name);
      if (!raw) return;
      const id = exportedSessionId(sc.name);
      const loaded = load(raw.stateDir, id);
      const dir = path.join(scenarioDir(sc.name), "state-export", "main", "trajectory");
      const slim = fs.readdirSync(dir).filter((f) => f.startsWith(id) && f.endsWith(".slim.jsonl"));
      const expected = slim
        .flatMap((f) => readJsonl(path.join(dir, f)))
        .filter(isObject)
        .filter((r) => isObject(r.event) && r.event.type === "model.completed")
        .map((r) => {
          const ev = isObject(r.event) ? r.event : {};
          const data = isObject(ev.data) ? ev.data : {};
          const pc = isObject(data.promptCache) ? data.promptCache : {};
          return {
            trajectorySeq: r.seq,
            runId: r.run_id,
            at: ev.ts,
            createdAt: r.created_at,
            retention: pc.retention,
            lastCallUsage: pc.lastCallUsage,
            lastCacheTouchAt: pc.lastCacheTouchAt,
            runUsage: data.usage,
          };
        });
      expect(expected.length).toBeGreaterThan(0);
      expect(sqliteExtras(loaded)?.promptCache).toEqual(expected);
      // The raw store decodes to the same transcript as the checkpointed copy.
      expect(loaded.transcript.entries).toHaveLength(sc.events);
    });

    it("answers 404 for an unknown session id", () => {
      const r = loadSqliteSession(stateDir, "main", DB_REL, "no-such-session");
      expect(r).toEqual({ error: expect.objectContaining({ code: "session-not-found", status: 404 }) });
    });

    it("accepts an absolute dbPath", () => {
      const { sessions } = listSqliteSessions(stateDir, "main", fixtureDb(sc.name));
      expect(sessions.map((s) => s.location)).toEqual([DB_REL]);
    });
  });
}
