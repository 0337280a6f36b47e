// An agent's `agents/<id>/agent/models.json` (docs/openclaw-facts.md §6.3: `{ providers: { <p>: { models: [{ id, cost,
// … }] } } }`, written by OpenClaw from `models.providers`; a price source below the config, issue 14 §3). Reading
// never throws: a missing file is no prices, a bad one is a located issue.

import path from "node:path";
import JSON5 from "json5";
import { isObject, type JsonObject } from "../../shared/json.ts";
import type { ParseIssue } from "../model/session.ts";
import { isInside } from "./fs-safety.ts";
import { readRegularFileSync } from "./regular-file.ts";

export interface ModelsJsonRead {
  json: JsonObject | null;
  issues: ParseIssue[];
}

export function readAgentModelsJson(stateDir: string, agentId: string): ModelsJsonRead {
  const rel = path.join("agents", agentId, "agent", "models.json");
  const file = path.join(stateDir, rel);
  if (!isInside(file, path.join(stateDir, "agents"))) return { json: null, issues: [] };
  let text: string;
  try {
    text = readRegularFileSync(file, "utf8");
  } catch (e) {
    const code = isObject(e) && typeof e.code === "string" ? e.code : "";
    if (code === "ENOENT" || code === "ENOTDIR") return { json: null, issues: [] };
    const message = `cannot read models.json: ${e instanceof Error ? e.message : String(e)}`;
    return { json: null, issues: [{ source: rel, code: "read-failed", message, severity: "warning" }] };
  }
  try {
    const value: unknown = JSON5.parse(text);
    if (isObject(value)) return { json: value, issues: [] };
    return {
      json: null,
      issues: [
        { source: rel, code: "invalid-models-json", message: "not a JSON object", severity: "warning" },
      ],
    };
  } catch (e) {
    const message = `models.json is not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    return {
      json: null,
      issues: [{ source: rel, code: "invalid-models-json", message, severity: "warning" }],
    };
  }
}
