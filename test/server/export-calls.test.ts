// `export-calls` (issue 14 §5): one row per model call of one or more state dirs; its sums equal `overview --json`
// per state dir, in every format — the Parquet file read back by DuckDB. Never written inside a state dir.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CallRow, toCsv } from "../../server/export/export-calls.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { OverviewDTO } from "../../shared/overview.ts";
import { runCli } from "../helpers/cli.ts";

const REPO = path.resolve(__dirname, "../..");
const DEMO = path.join(REPO, "server", "demo", "state");
const S1 = path.resolve(REPO, "..", "shared", "fixtures", "s1-cache-ttl-default", "state");
const DIRS = existsSync(S1) ? [DEMO, S1] : [DEMO];
const tmp = mkdtempSync(path.join(tmpdir(), "clawscope-export-calls-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => runCli(args);

function overviewOf(stateDir: string): OverviewDTO {
  const r = createSessionService({ stateDir, demo: false, reason: "test" }).overview({});
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function exportTo(format: string, file: string) {
  const r = cli([
    "export-calls",
    ...DIRS.flatMap((d) => ["--state-dir", d]),
    "--format",
    format,
    "--out",
    file,
  ]);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toBe("");
}

/** Per state dir: calls, unpriced calls, Σ cost, Σ miss cost. */
type Sums = Map<string, { calls: number; unpriced: number; cost: number; miss: number }>;

function expectOverviewSums(sums: Sums): void {
  expect([...sums.keys()].sort()).toEqual([...DIRS].sort());
  for (const d of DIRS) {
    const t = overviewOf(d).totals;
    const s = sums.get(d);
    expect(s?.calls).toBe(t.calls);
    expect(s?.unpriced).toBe(t.unpricedCalls);
    expect(s?.cost).toBeCloseTo(t.costUsd, 6);
    expect(s?.miss).toBeCloseTo(t.missCostUsd, 6);
  }
}

function add(sums: Sums, dir: string, cost: number | null, miss: number | null): void {
  const s = sums.get(dir) ?? { calls: 0, unpriced: 0, cost: 0, miss: 0 };
  s.calls++;
  if (cost === null) s.unpriced++;
  else s.cost += cost;
  s.miss += miss ?? 0;
  sums.set(dir, s);
}

describe("export-calls", () => {
  it("ndjson: one row per call, sums per state dir = overview --json", () => {
    const file = path.join(tmp, "calls.ndjson");
    exportTo("ndjson", file);
    const sums: Sums = new Map();
    for (const line of readFileSync(file, "utf8").trimEnd().split("\n")) {
      const r = JSON.parse(line) as Omit<CallRow, "started_at"> & { started_at: string | null };
      add(sums, r.state_dir, r.cost_usd, r.miss_cost_usd);
      expect(r.started_at === null || r.started_at.endsWith("Z")).toBe(true);
    }
    expectOverviewSums(sums);
  });

  it("ndjson: each row's cause is the cost report's (Σ cost by cause = every session's breakdown)", () => {
    const file = path.join(tmp, "calls-causes.ndjson");
    exportTo("ndjson", file);
    const exported = new Map<string, number>();
    for (const line of readFileSync(file, "utf8").trimEnd().split("\n")) {
      const r = JSON.parse(line) as CallRow;
      if (r.state_dir !== DEMO) continue;
      exported.set(r.cause, (exported.get(r.cause) ?? 0) + (r.cost_usd ?? 0));
    }
    const service = createSessionService({ stateDir: DEMO, demo: false, reason: "test" });
    const expected = new Map<string, number>();
    for (const s of service.listSessions().sessions) {
      const c = service.cost(s.agentId, s.sessionId);
      if (!c.ok) continue;
      for (const b of c.value.breakdown) expected.set(b.cause, (expected.get(b.cause) ?? 0) + b.costUsd);
    }
    expect([...exported.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [cause, usd] of expected) expect(exported.get(cause)).toBeCloseTo(usd, 9);
  });

  it("csv: the same rows; nulls empty, RFC 4180 quoting, formula-looking text guarded", () => {
    const file = path.join(tmp, "calls.csv");
    exportTo("csv", file);
    const [header, ...lines] = readFileSync(file, "utf8").trimEnd().split("\r\n");
    const cols = (header ?? "").split(",");
    const at = (k: string) => cols.indexOf(k);
    const sums: Sums = new Map();
    for (const l of lines) {
      // The demo's fields hold no commas or quotes; the quoting itself is checked below.
      const f = l.split(",");
      const num = (k: string) => (f[at(k)] === "" ? null : Number(f[at(k)]));
      add(sums, f[at("state_dir")] ?? "", num("cost_usd"), num("miss_cost_usd"));
    }
    expectOverviewSums(sums);
    const row = { session_key: '=HYPERLINK("x"),"' } as unknown as CallRow;
    expect(toCsv([row]).split("\r\n")[1]).toContain(`"'=HYPERLINK(""x""),"""`);
  });

  it("parquet: DuckDB reads it back (TIMESTAMP WITH TIME ZONE, BIGINT tokens, null = unpriced); sums = overview", async () => {
    const file = path.join(tmp, "calls.parquet");
    exportTo("parquet", file);
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const con = await (await DuckDBInstance.create(":memory:")).connect();
    const src = `read_parquet('${file.replace(/'/g, "''")}')`;
    const types = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowObjectsJson();
    const typeOf = (c: string) => types.find((t) => t.column_name === c)?.column_type;
    expect(typeOf("started_at")).toBe("TIMESTAMP WITH TIME ZONE");
    expect(typeOf("input_tokens")).toBe("BIGINT");
    expect(typeOf("cost_usd")).toBe("DOUBLE");
    expect(typeOf("pruning_round")).toBe("BOOLEAN");
    const rows = (
      await con.runAndReadAll(
        `SELECT state_dir, count(*) AS calls, count(*) FILTER (cost_usd IS NULL) AS unpriced,
                coalesce(sum(cost_usd), 0) AS cost, coalesce(sum(miss_cost_usd), 0) AS miss
         FROM ${src} GROUP BY state_dir`,
      )
    ).getRowObjectsJson();
    const sums: Sums = new Map(
      rows.map((r) => [
        String(r.state_dir),
        { calls: Number(r.calls), unpriced: Number(r.unpriced), cost: Number(r.cost), miss: Number(r.miss) },
      ]),
    );
    expectOverviewSums(sums);
  });

  it("refuses --out inside any of the state dirs, writes nothing; bad flags are usage errors", () => {
    const inside = path.join(DIRS[DIRS.length - 1] ?? DEMO, "calls.csv");
    const r = cli([
      "export-calls",
      ...DIRS.flatMap((d) => ["--state-dir", d]),
      "--format",
      "csv",
      "--out",
      inside,
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("inside the OpenClaw state dir");
    expect(existsSync(inside)).toBe(false);
    expect(cli(["export-calls", "--demo", "--format", "xlsx", "--out", path.join(tmp, "x")]).status).toBe(2);
    expect(cli(["overview", "--state-dir", DEMO, "--state-dir", DEMO]).status).toBe(2);
  });
});
