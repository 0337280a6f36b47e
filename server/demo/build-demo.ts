// Builds the bundled demo state dir (server/demo/state) from real OpenClaw captures in ../shared/fixtures.
// Run: `npx tsx server/demo/build-demo.ts` (only needed when the fixtures change; the output is committed).
//
// Every byte of session data is what real OpenClaw releases wrote. Only identities are adjusted so three
// captures can live in one state dir as three agents: session keys `agent:main:…` become
// `agent:<agent>:…` (and schema_meta.agent_id / sessionFile paths follow). The fixtures are opened
// read-only; the copies are edited.

import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, "..", "..", "..", "shared", "fixtures");
const out = path.join(here, "state");

function isTableColumn(v: unknown): v is { t: string; c: string } {
  return (
    typeof v === "object" &&
    v !== null &&
    "t" in v &&
    "c" in v &&
    typeof v.t === "string" &&
    typeof v.c === "string"
  );
}

function renameSqliteAgent(dbPath: string, agentId: string): void {
  const db = new Database(dbPath);
  try {
    // Keys are referenced from several tables; rename them all, checking constraints only at the end.
    db.pragma("foreign_keys = OFF");
    const tables = db
      .prepare(
        "SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name LIKE '%session_key%'",
      )
      .all();
    const from = "agent:main:";
    const to = `agent:${agentId}:`;
    const tx = db.transaction(() => {
      db.prepare("UPDATE schema_meta SET agent_id = ?").run(agentId);
      db.prepare("UPDATE session_nodes SET entry_json = replace(entry_json, ?, ?)").run(`"${from}`, `"${to}`);
      for (const row of tables) {
        if (!isTableColumn(row)) continue;
        db.prepare(
          `UPDATE "${row.t}" SET "${row.c}" = replace("${row.c}", ?, ?) WHERE "${row.c}" LIKE 'agent:main:%'`,
        ).run(from, to);
      }
    });
    tx();
  } finally {
    db.close();
  }
}

/**
 * The demo shows dollars (issue 14 §3): the mock model is priced as a named real model in the demo's config, the
 * one edit to s4's openclaw.json. Claude Sonnet 4.5's list price ($ per 1M: input 3, output 15, cache read 0.30,
 * 5-minute write 3.75; genai-prices 0.1.8 `anthropic/claude-sonnet-4-5`, anthropic.com/pricing#api). OpenClaw
 * recorded cost 0 for it (no catalog price on a loopback baseUrl), so this config price applies.
 */
const DEMO_PRICED_AS = "Claude Sonnet 4.5";
const DEMO_COST = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

function priceDemoModel(configPath: string): void {
  const config: unknown = JSON.parse(readFileSync(configPath, "utf8"));
  const models = isRecord(config) ? dig(config, ["models", "providers", "anthropic", "models"]) : undefined;
  const mock = Array.isArray(models)
    ? models.find((m) => isRecord(m) && m.id === "claude-mock-1")
    : undefined;
  if (!isRecord(mock))
    throw new Error("demo config: models.providers.anthropic.models[claude-mock-1] not found");
  mock.name = `Claude Mock 1 (priced as ${DEMO_PRICED_AS} for the demo)`;
  mock.cost = DEMO_COST;
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function dig(v: Record<string, unknown>, keys: string[]): unknown {
  let cur: unknown = v;
  for (const k of keys) cur = isRecord(cur) ? cur[k] : undefined;
  return cur;
}

function main(): void {
  if (!existsSync(fixtures)) throw new Error(`fixtures not found at ${fixtures}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  // Config and workspace of s4 (bootstrapMaxChars 12000 → AGENTS.md policy digest, USER.md fixed cap).
  const s4 = path.join(fixtures, "s4-long-36turns", "state");
  copyFileSync(path.join(s4, "openclaw.json"), path.join(out, "openclaw.json"));
  priceDemoModel(path.join(out, "openclaw.json"));
  cpSync(path.join(s4, "workspace"), path.join(out, "workspace"), { recursive: true });

  // agent main: 2026.9.6 SQLite, 36 turns, three soft-trim rounds (s4).
  const mainDir = path.join(out, "agents", "main", "agent");
  mkdirSync(mainDir, { recursive: true });
  copyFileSync(
    path.join(s4, "agents/main/agent/openclaw-agent.sqlite"),
    path.join(mainDir, "openclaw-agent.sqlite"),
  );

  // agent research: 2026.9.6 SQLite, one soft-trim round after a TTL gap, every /context variant (s1).
  const s1 = path.join(fixtures, "s1-cache-ttl-default", "state");
  const researchDir = path.join(out, "agents", "research", "agent");
  mkdirSync(researchDir, { recursive: true });
  const researchDb = path.join(researchDir, "openclaw-agent.sqlite");
  copyFileSync(path.join(s1, "agents/main/agent/openclaw-agent.sqlite"), researchDb);
  renameSqliteAgent(researchDb, "research");

  // agent legacy: 2026.7.1 JSONL era (sessions.json + transcript), two compactions (j1).
  const j1 = path.join(fixtures, "j1-jsonl-cache-ttl-default", "state", "agents", "main", "sessions");
  const legacyDir = path.join(out, "agents", "legacy", "sessions");
  cpSync(j1, legacyDir, { recursive: true });
  const storePath = path.join(legacyDir, "sessions.json");
  const store = readFileSync(storePath, "utf8")
    .replaceAll('"agent:main:', '"agent:legacy:')
    .replaceAll("/.openclaw/agents/main/sessions/", "/.openclaw/agents/legacy/sessions/");
  writeFileSync(storePath, store);

  process.stderr.write(`demo state dir written to ${out}\n`);
}

main();
