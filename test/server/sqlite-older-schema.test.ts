// An agent store in an older supported layout (spec storage.md §4.2: schema 14 introduced session_nodes /
// session_windows; zstd rows only from 23): no event_zstd / event_utf8_bytes columns, no active-events or
// index-state tables, no archives. Columns and tables are detected, so it reads with the tree fallback. The
// rows are the real s5 transcript and SessionEntry, all stored as event_json.

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
  DB_REL,
  exportedSessionId,
  haveScenario,
  readJsonl,
  scenarioDir,
  tmpDir,
} from "../fixtures/sqlite/helpers.ts";

const S5 = "s5-local-cli";
const present = haveScenario(S5);
afterAll(cleanupTmp);

describe.skipIf(!present)("agent schema 18 layout (no zstd columns, no active-events table)", () => {
  it("lists and loads with the tree fallback and the 2026.8 app version", () => {
    const id = exportedSessionId(S5);
    const exportDir = path.join(scenarioDir(S5), "state-export", "main");
    const events = readJsonl(path.join(exportDir, "transcripts", `${id}.jsonl`));
    const nodes: unknown = JSON.parse(fs.readFileSync(path.join(exportDir, "session_nodes.json"), "utf8"));
    const node = Array.isArray(nodes) && isObject(nodes[0]) ? nodes[0] : {};
    const stateDir = tmpDir();
    const dbPath = path.join(stateDir, DB_REL);
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const w = new Database(dbPath);
    w.exec(`
      CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL, agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT, reason TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq));
      CREATE TABLE some_future_table (x INTEGER);
    `);
    w.prepare("INSERT INTO schema_meta VALUES ('primary', 'agent', 18, 'main', '2026.8.1', 1, 1)").run();
    w.prepare("INSERT INTO session_nodes VALUES (?, ?, ?, 5)").run(
      node.session_key,
      id,
      JSON.stringify(node.entry),
    );
    w.prepare("INSERT INTO session_windows VALUES (?, ?, NULL, NULL, 1, 2)").run(id, node.session_key);
    const ins = w.prepare("INSERT INTO transcript_events VALUES (?, ?, ?, ?)");
    for (const [i, e] of events.entries()) ins.run(id, i, JSON.stringify(e), 1000 + i);
    w.close();

    const list = listSqliteSessions(stateDir, "main", DB_REL);
    expect(list.issues).toEqual([]);
    expect(list.sessions).toEqual([
      expect.objectContaining({
        sessionId: id,
        sessionKey: node.session_key,
        archived: null,
        entryCount: 47,
      }),
    ]);
    const r = loadSqliteSession(stateDir, "main", DB_REL, id);
    if ("error" in r) throw new Error(r.error.message);
    expect(r.transcript.entries.map((e) => e.raw)).toEqual(events);
    expect(r.entry).toEqual(node.entry);
    const x = sqliteExtras(r);
    expect(x).toMatchObject({ schemaVersion: 18, appVersion: "2026.8.1", storage: { json: 47, zstd: 0 } });
    expect(x?.activeBranchSource).toBe("tree-fallback");
    expect(r.transcript.issues.map((i) => i.code)).toEqual(["active-index-untrusted"]);
    // Same branch and eligibility as OpenClaw's materialised table in the real store.
    const active: unknown = JSON.parse(fs.readFileSync(path.join(exportDir, "active_events.json"), "utf8"));
    const rows = Array.isArray(active) ? active.filter(isObject) : [];
    expect(r.transcript.activeBranch.map((i) => r.transcript.entries[i]?.seq)).toEqual(
      rows.map((a) => a.event_seq),
    );
    expect(r.transcript.activeBranch.map((i) => r.transcript.contextEligible?.get(i))).toEqual(
      rows.map((a) => a.context_eligible === 1),
    );
    // 2026.8.1 brought in the 2026.9 rules (docs/openclaw-facts.md §8), by its app version alone.
    expect(r.version).toMatchObject({ appVersion: "2026.8.1", family: "2026.9" });
    expect(r.version.reason).toMatch(/2026\.8\.1 brought them in/);
  });
});
