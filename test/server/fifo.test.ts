// FIFOs and other non-files in the state dir (issue 20): opening a FIFO blocks until a writer comes, so a FIFO
// named sessions.json or openclaw.json blocked every command and `serve` never listened, with no message; a FIFO
// transcript was reported as "does not exist"; a FIFO `-wal` blocked the snapshot copy. Each is now refused as
// "not a regular file", located, and the rest of the state dir reads. The FIFOs are made by the test (mkfifo).
// Commands that could block run in a child process with a timeout, so the old code fails instead of hanging.

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { startServer } from "../e2e/harness.ts";
import { runCli } from "../helpers/cli.ts";
import { TranscriptBuilder } from "../helpers/transcript.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEMO_DB = path.join(REPO, "server/demo/state/agents/main/agent/openclaw-agent.sqlite");
const SESSION = "0a1b2c3d-0000-4000-8000-0000000000f1";
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;

/** A JSONL state dir with one session (its transcript), in a fresh temp root. */
function jsonlState(): { state: string; sessions: string } {
  const state = mkdtempSync(path.join(os.tmpdir(), "clawscope-fifo-"));
  roots.push(state);
  const b = new TranscriptBuilder();
  b.user("hi");
  b.assistant({ text: "hello" });
  b.writeJsonlStateDir(state, { sessionId: SESSION });
  return { state, sessions: path.join(state, "agents/main/sessions") };
}

function cli(args: string[]) {
  return runCli(args, { timeout: 45_000 });
}

describe.skipIf(!hasMkfifo)("FIFOs in the state dir (issue 20)", () => {
  it("sessions.json as a FIFO: `sessions` finishes and says it is not a regular file", () => {
    const { state, sessions } = jsonlState();
    unlinkSync(path.join(sessions, "sessions.json"));
    execFileSync("mkfifo", [path.join(sessions, "sessions.json")]);
    const r = cli(["sessions", "--state-dir", state, "--json"]);
    expect(r.signal, "blocked on the FIFO").toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/sessions\.json.*not a regular file \(a FIFO\)/);
    // The transcript itself is still listed (as an orphan: the store could not be read).
    expect(JSON.parse(r.stdout).map((s: { sessionId: string }) => s.sessionId)).toContain(SESSION);
  }, 60_000);

  it("openclaw.json as a FIFO: `serve` listens and answers; `cost --all` finishes", async () => {
    const { state } = jsonlState();
    execFileSync("mkfifo", [path.join(state, "openclaw.json")]);
    const r = cli(["cost", "--all", "--state-dir", state, "--json"]);
    expect(r.signal, "blocked on the FIFO").toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const server = await startServer(["--state-dir", state]);
    try {
      const res = await fetch(`${server.url}api/sessions`);
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("a FIFO transcript is reported as not a regular file, not as missing", () => {
    const { state, sessions } = jsonlState();
    unlinkSync(path.join(sessions, `${SESSION}.jsonl`));
    execFileSync("mkfifo", [path.join(sessions, `${SESSION}.jsonl`)]);
    const listing = openStateReader(state).listSessions();
    const issues = listing.issues.filter((i) => i.code === "not-a-file");
    expect(issues).toEqual([
      expect.objectContaining({ source: `agents/main/sessions/${SESSION}.jsonl`, severity: "error" }),
    ]);
    expect(listing.issues.map((i) => i.code)).not.toContain("transcript-missing");
    const loaded = openStateReader(state).loadSession({ agentId: "main", sessionId: SESSION });
    expect("error" in loaded && loaded.error.message).toMatch(/not a regular file \(a FIFO\)/);
  });

  it("a FIFO `-wal` beside a WAL database without `-shm`: the copy is refused, located, nothing blocks", () => {
    const state = mkdtempSync(path.join(os.tmpdir(), "clawscope-fifo-wal-"));
    roots.push(state);
    const dir = path.join(state, "agents/main/agent");
    mkdirSync(dir, { recursive: true });
    const db = path.join(dir, "openclaw-agent.sqlite");
    copyFileSync(DEMO_DB, db);
    const w = new Database(db);
    w.pragma("journal_mode = WAL");
    w.close();
    for (const side of ["-wal", "-shm"]) if (existsSync(`${db}${side}`)) unlinkSync(`${db}${side}`);
    execFileSync("mkfifo", [`${db}-wal`]);
    const r = cli(["sessions", "--state-dir", state, "--json"]);
    expect(r.signal, "blocked on the FIFO").toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/openclaw-agent\.sqlite-wal is not a regular file \(a FIFO\)/);
  }, 60_000);
});
