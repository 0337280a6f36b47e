// Agent stores in the layouts the releases between the first SQLite one and 2026.9.6 create, from OpenClaw's own
// DDL (test/fixtures/sqlite/openclaw-ddl/: `OPENCLAW_AGENT_SCHEMA_SQL` of 2026.8.2 = 2026.9.1, agent schema 19,
// and of 2026.9.5, schema 21; both store events as `event_json` only — zstd rows arrive with schema 23). The rows
// are the real s1 store's, every event stored as `event_json` (what these releases write), so each store must
// read to exactly the same session as the 2026.9.6 original: entries, SessionEntry, active branch from
// OpenClaw's materialised table, no issue — and the CLI must give the same usage totals.

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { loadSqliteSession, sqliteExtras } from "../../server/sources/sqlite/sqlite-source.ts";
import { isObject } from "../../shared/json.ts";
import {
  cleanupTmp,
  DB_REL,
  exportedSessionId,
  fixtureDb,
  haveScenario,
  scenarioDir,
  tmpDir,
} from "../fixtures/sqlite/helpers.ts";
import { runCli } from "../helpers/cli.ts";

const S1 = "s1-cache-ttl-default";
const present = haveScenario(S1);
const S1_STATE = path.join(scenarioDir(S1), "state");
const DDL = path.join(__dirname, "../fixtures/sqlite/openclaw-ddl");
afterAll(cleanupTmp);

/** Tables whose rows clawscope reads, copied column by column where both layouts have the column. */
const COPIED = [
  "session_nodes",
  "session_windows",
  "transcript_events",
  "session_transcript_active_events",
  "session_transcript_index_state",
] as const;

function columns(db: Database.Database, table: string): string[] {
  return db
    .prepare(`PRAGMA table_info(${table})`)
    .all()
    .filter(isObject)
    .map((c) => String(c.name));
}

/** A state dir whose store has `ddl`'s layout, stamped `schema`/`app`, holding s1's rows as event_json. */
function storeFromDdl(ddlFile: string, schema: number, app: string): { stateDir: string; dbPath: string } {
  const stateDir = tmpDir();
  const dbPath = path.join(stateDir, DB_REL);
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  const w = new Database(dbPath);
  w.exec(fs.readFileSync(ddlFile, "utf8"));
  w.prepare("INSERT INTO schema_meta VALUES ('primary', 'agent', ?, 'main', ?, 1, 1)").run(schema, app);
  w.pragma("foreign_keys = OFF");
  const original = loadSqliteSession(S1_STATE, "main", DB_REL, exportedSessionId(S1));
  if ("error" in original) throw new Error(original.error.message);
  const r = new Database(fixtureDb(S1), { readonly: true });
  const bySeq = new Map(original.transcript.entries.map((e) => [e.seq, JSON.stringify(e.raw)]));
  for (const table of COPIED) {
    const target = new Set(columns(w, table));
    const cols = columns(r, table).filter((c) => target.has(c));
    const insert = w.prepare(
      `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    );
    for (const row of r
      .prepare(`SELECT ${cols.join(", ")} FROM ${table}`)
      .all()
      .filter(isObject)) {
      // the 2026.9.6 store keeps big events as zstd frames; these layouts have event_json only
      if (table === "transcript_events" && row.event_json === null)
        row.event_json = bySeq.get(Number(row.seq)) ?? null;
      insert.run(...cols.map((c) => row[c]));
    }
  }
  r.close();
  w.close();
  return { stateDir, dbPath };
}

const LAYOUTS = [
  { file: "agent-schema-19-2026.8.2.sql", schema: 19, app: "2026.8.2" },
  { file: "agent-schema-21-2026.9.5.sql", schema: 21, app: "2026.9.5" },
] as const;

describe.skipIf(!present)("agent stores in the layouts of OpenClaw 2026.8.2 – 2026.9.5", () => {
  for (const layout of LAYOUTS) {
    it(`schema ${layout.schema} (${layout.app}): the same session as the 2026.9.6 store`, () => {
      const id = exportedSessionId(S1);
      const { stateDir } = storeFromDdl(path.join(DDL, layout.file), layout.schema, layout.app);
      const original = loadSqliteSession(S1_STATE, "main", DB_REL, id);
      const copy = loadSqliteSession(stateDir, "main", DB_REL, id);
      if ("error" in original) throw new Error(original.error.message);
      if ("error" in copy) throw new Error(copy.error.message);
      expect(copy.transcript.entries.map((e) => e.raw)).toEqual(
        original.transcript.entries.map((e) => e.raw),
      );
      expect(copy.entry).toEqual(original.entry);
      expect(copy.transcript.activeBranch).toEqual(original.transcript.activeBranch);
      expect(copy.transcript.issues).toEqual([]);
      expect(sqliteExtras(copy)).toMatchObject({
        schemaVersion: layout.schema,
        appVersion: layout.app,
        storage: { json: 76, zstd: 0 },
        activeBranchSource: sqliteExtras(original)?.activeBranchSource,
      });

      const totals = (dir: string) => {
        const out = runCli(["cost", "--json", "--state-dir", dir, "--session", `main/${id}`]);
        expect(out.status, out.stderr).toBe(0);
        const dto: unknown = JSON.parse(out.stdout);
        return isObject(dto) ? dto.totals : null;
      };
      expect(totals(stateDir)).toEqual(totals(S1_STATE));
    });
  }
});
