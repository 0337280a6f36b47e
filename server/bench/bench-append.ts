// Warm and append rows of `npm run bench` (issue 9, 18 "Live"): the same service asked again with nothing
// changed, then one assistant line appended (what OpenClaw writes after a model call), the service invalidated
// as the watcher does, and asked again — once for every view of the session (run report, map, pruning, cost),
// once for the Cache & cost view alone (the tail read, the pruning replay continued for its rounds, the cost
// report continued: reports/cost/cost-run.ts).

import { appendFileSync, readFileSync } from "node:fs";
import { isObject } from "../../shared/json.ts";
import type { SessionService } from "../service/session-service.ts";
import { fullReport, newService } from "./bench-service.ts";
import type { WrittenSession } from "./generate-session.ts";
import { add, lastCpu, log, median, ms, timeRuns, verdict } from "./measure.ts";

/** Appends assistant lines that continue the transcript's last entry, one per call. */
class Appender {
  private parent = "";
  private n = 0;

  constructor(private readonly file: string) {
    const tail = readFileSync(file, "utf8").slice(-200_000).trimEnd().split("\n").pop() ?? "";
    const last: unknown = JSON.parse(tail);
    if (isObject(last) && typeof last.id === "string") this.parent = last.id;
  }

  append(): void {
    const i = this.n++;
    const id = `bench-append-${i}`;
    const line = JSON.stringify({
      type: "message",
      id,
      parentId: this.parent,
      timestamp: new Date(Date.UTC(2027, 0, 1) + i * 1000).toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "text", text: `appended ${i}` }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-mock-1",
        usage: { input: 1, output: 5, cacheRead: 1000, cacheWrite: 10, totalTokens: 1016 },
        stopReason: "stop",
        timestamp: Date.UTC(2027, 0, 1) + i * 1000,
      },
    });
    this.parent = id;
    appendFileSync(this.file, `${line}\n`);
  }
}

function costView(service: SessionService, s: WrittenSession): void {
  const r = service.cost(s.agentId, s.sessionId);
  if ("error" in r) throw new Error(`cost failed: ${JSON.stringify(r.error)}`);
}

export function benchWarmAndAppend(s: WrittenSession, runs: number, label: string): void {
  log(`${label} warm report + append…`);
  const service = newService(s.stateDir);
  const first = timeRuns(1, () => fullReport(service, s.agentId, s.sessionId))[0] ?? 0;
  const warm = median(timeRuns(runs, () => fullReport(service, s.agentId, s.sessionId)));
  const warmCpu = median(lastCpu);
  add({
    operation: `warm report (cached session, nothing changed) — ${label}`,
    size: "same session",
    median: `${ms(warm)} (CPU ${ms(warmCpu)})`,
    baseline: `first (cold) report ${ms(first)}`,
    ratio: `${(warm / first).toFixed(3)}×`,
    target: "≤ 20 ms",
    verdict: verdict(warm, warmCpu, 20),
  });
  if (label !== "JSONL") return;
  const appender = new Appender(s.file);
  // one append before measuring: the first continued run also builds the runs' own id index copy
  appender.append();
  service.invalidate();
  fullReport(service, s.agentId, s.sessionId);
  const full = timeRuns(runs, () => {
    appender.append();
    service.invalidate();
    fullReport(service, s.agentId, s.sessionId);
  });
  const fullCpu = median(lastCpu);
  add({
    operation: "append one line → every view updated (run report, map, pruning, cost; JSONL)",
    size: "same session",
    median: `${ms(median(full))} (CPU ${ms(fullCpu)})`,
    baseline: `warm report ${ms(warm)}`,
    ratio: `${(median(full) / Math.max(warm, 0.001)).toFixed(1)}×`,
    target: "≤ 50 ms",
    verdict: verdict(median(full), fullCpu, 50),
  });
  const cost = timeRuns(runs, () => {
    appender.append();
    service.invalidate();
    costView(service, s);
  });
  const costCpu = median(lastCpu);
  add({
    operation:
      "append one line → Cache & cost view updated (tail read, replay and cost report continued; JSONL)",
    size: "same session",
    median: `${ms(median(cost))} (CPU ${ms(costCpu)})`,
    baseline: `warm report ${ms(warm)}`,
    ratio: `${(median(cost) / Math.max(warm, 0.001)).toFixed(1)}×`,
    target: "≤ 50 ms",
    verdict: verdict(median(cost), costCpu, 50),
  });
}
