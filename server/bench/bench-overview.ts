// `npm run bench` overview row (issue 14 §1): `overview --json` over a generated JSONL state dir of many sessions
// (default 200 sessions / 1 GB: `overview-sessions=N overview-size=MB`), cold (a new service: every session loaded,
// priced and classified) and warm (the same service again: rows kept by file identity), against a naive Node
// read + JSON.parse of every transcript summing its usage (the least any overview must do).

import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isObject } from "../../shared/json.ts";
import { DEMO_STATE_DIR } from "../package-root.ts";
import { createSessionService } from "../service/session-service.ts";
import { add, log, MB, median, ms, timeRuns } from "./measure.ts";
import { SessionGenerator } from "./session-generator.ts";

/** Many seeded sessions of agent `main`, each `totalBytes / sessions` big, one sessions.json entry each. */
export function writeManySessions(
  stateDir: string,
  opts: { sessions: number; totalBytes: number; seed: number },
): number {
  const dir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(DEMO_STATE_DIR, "openclaw.json"), path.join(stateDir, "openclaw.json"));
  const store: Record<string, unknown> = {};
  let bytes = 0;
  const day = 86_400_000;
  for (let i = 0; i < opts.sessions; i++) {
    const sessionId = `0000${i.toString(16).padStart(4, "0")}-0000-4000-8000-00000000be7c`;
    const file = path.join(dir, `${sessionId}.jsonl`);
    const gen = new SessionGenerator({
      targetBytes: opts.totalBytes / opts.sessions,
      seed: opts.seed + i,
      sessionId,
      headerVersion: 3,
      // spread over ~a month, so the by-day cut has work to do
      startMs: Date.UTC(2026, 10, 1) + (i % 30) * day,
    });
    const lines: string[] = [];
    for (const line of gen.lines_()) lines.push(line);
    writeFileSync(file, `${lines.join("\n")}\n`);
    bytes += gen.stats.bytes;
    store[`agent:main:s${i}`] = { sessionId, sessionFile: file, updatedAt: Date.UTC(2026, 10, 1) + i };
  }
  writeFileSync(path.join(dir, "sessions.json"), `${JSON.stringify(store)}\n`);
  return bytes;
}

function naiveUsage(stateDir: string): number {
  const dir = path.join(stateDir, "agents", "main", "sessions");
  let tokens = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".jsonl")) continue;
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line) continue;
      const e: unknown = JSON.parse(line);
      const m = isObject(e) ? e.message : undefined;
      const u = isObject(m) ? m.usage : undefined;
      if (isObject(u) && typeof u.input === "number") tokens += u.input;
    }
  }
  return tokens;
}

export function benchOverview(
  tmp: string,
  runs: number,
  o: { sessions: number; sizeMb: number; seed: number },
): void {
  const stateDir = path.join(tmp, "overview");
  log(`overview: generating ${o.sessions} sessions / ${o.sizeMb} MB…`);
  const bytes = writeManySessions(stateDir, {
    sessions: o.sessions,
    totalBytes: o.sizeMb * MB,
    seed: o.seed,
  });
  const size = `${o.sessions} sessions / ${(bytes / MB).toFixed(0)} MB JSONL`;
  const naive = median(timeRuns(Math.min(runs, 3), () => naiveUsage(stateDir)));
  log("overview cold…");
  const cold = median(
    timeRuns(Math.min(runs, 3), () => {
      const r = createSessionService({ stateDir, demo: false, reason: "bench" }).overview({});
      if (!r.ok) throw new Error(r.error.message);
    }),
  );
  log("overview warm…");
  const service = createSessionService({ stateDir, demo: false, reason: "bench" });
  service.overview({});
  const warm = median(timeRuns(runs, () => service.overview({})));
  add({
    operation: "overview --json, cold (every session loaded, priced, classified)",
    size,
    median: ms(cold),
    baseline: `naive Node read+parse summing usage ${ms(naive)}`,
    ratio: `${(cold / naive).toFixed(2)}×`,
    target: "report only",
    verdict: "n/a",
  });
  add({
    operation: "overview --json, warm (same service, nothing changed)",
    size,
    median: ms(warm),
    baseline: `cold ${ms(cold)}`,
    ratio: `${(warm / cold).toFixed(3)}×`,
    target: "< 0.1 × cold",
    verdict: warm < 0.1 * cold ? "met" : "MISSED",
  });
}
