// Prompt-cache samples from `trajectory_runtime_events` (spec storage.md §4.2): every `model.completed`
// event carries `data.promptCache = {retention, lastCallUsage, lastCacheTouchAt}` and the run's summed
// `data.usage` — a cross-check for the TTL clock replayed from `openclaw.cache-ttl` markers.
// Pure: rows (already filtered to model.completed by SQL) in, samples + issues out.

import { isObject, type JsonObject, num, obj, str, tryParseJson } from "../../../shared/json.ts";
import type { ParseIssue } from "../../model/session.ts";

export interface TrajectoryRow {
  seq: number;
  runId: string | null;
  createdAt: number | null;
  /** `json_extract(event_json, '$.ts')` */
  ts: string | null;
  /** `json_extract(event_json, '$.data.promptCache')` as JSON text, or null. */
  promptCacheJson: string | null;
  /** `json_extract(event_json, '$.data.usage')` as JSON text, or null. */
  usageJson: string | null;
}

export interface PromptCacheSample {
  /** `trajectory_runtime_events.seq` */
  trajectorySeq: number;
  runId: string | null;
  /** Event `ts` (ISO). */
  at: string | null;
  createdAt: number | null;
  /** `cacheRetention` used by the run: "none" | "short" | "long". */
  retention: string | null;
  /** Usage of the run's last model call (provider field names as OpenClaw stores them). */
  lastCallUsage: JsonObject | null;
  /** The TTL clock after the run (ms), as OpenClaw recorded it. */
  lastCacheTouchAt: number | null;
  /** The run's summed usage (`data.usage`). */
  runUsage: JsonObject | null;
}

function parseObject(text: string | null): JsonObject | null | "invalid" {
  if (text === null) return null;
  const p = tryParseJson(text);
  if (!p.ok || !isObject(p.value)) return "invalid";
  return p.value;
}

export function promptCacheSamples(
  rows: TrajectoryRow[],
  source: string,
): { samples: PromptCacheSample[]; issues: ParseIssue[] } {
  const samples: PromptCacheSample[] = [];
  const issues: ParseIssue[] = [];
  for (const row of rows) {
    const pc = parseObject(row.promptCacheJson);
    const usage = parseObject(row.usageJson);
    if (pc === "invalid" || usage === "invalid") {
      issues.push({
        source,
        seq: row.seq,
        code: "invalid-json",
        message: "model.completed promptCache/usage is not a JSON object",
        severity: "warning",
      });
      continue;
    }
    if (pc === null) continue;
    samples.push({
      trajectorySeq: row.seq,
      runId: row.runId,
      at: row.ts,
      createdAt: row.createdAt,
      retention: str(pc, "retention") ?? null,
      lastCallUsage: obj(pc, "lastCallUsage") ?? null,
      lastCacheTouchAt: num(pc, "lastCacheTouchAt") ?? null,
      runUsage: usage,
    });
  }
  return { samples, issues };
}
