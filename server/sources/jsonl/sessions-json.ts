// `agents/<id>/sessions/sessions.json` (spec storage.md §3.1, §6): key → SessionEntry. Parsed once per file
// version (size + mtime); a broken store is a located issue, never an exception.

import { statSync } from "node:fs";
import { isObject, type JsonObject, str, tryParseJson } from "../../../shared/json.ts";
import { MAX_JSON_DEPTH, tooDeepMessage, valueNestsDeeperThan } from "../../../shared/json-depth.ts";
import type { ParseIssue } from "../../model/session.ts";
import { readRegularFileSync } from "../regular-file.ts";

/** JSON.parse error → 1-based line (V8 messages carry `line N` or `position N`). */
function jsonErrorLine(text: string, error: string): number | undefined {
  const lineMatch = /\(line (\d+) column \d+\)/.exec(error);
  if (lineMatch) return Number(lineMatch[1]);
  const posMatch = /position (\d+)/.exec(error);
  if (!posMatch) return undefined;
  const pos = Number(posMatch[1]);
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parse `sessions.json` text (key → SessionEntry). Pure; never throws. */
export function parseSessionsStoreText(
  text: string,
  source: string,
): { entries: [string, JsonObject][]; issues: ParseIssue[] } {
  // The store as a whole may nest deep; each entry is bounded on its own below (one hostile entry is skipped).
  const parsed = tryParseJson(text, Number.POSITIVE_INFINITY);
  if (!parsed.ok) {
    const issue: ParseIssue = {
      source,
      code: "invalid-json",
      message: `sessions.json is not valid JSON (${parsed.error}); sessions are listed from the transcript files only`,
      severity: "error",
    };
    const line = jsonErrorLine(text, parsed.error);
    if (line !== undefined) issue.line = line;
    return { entries: [], issues: [issue] };
  }
  if (!isObject(parsed.value)) {
    return {
      entries: [],
      issues: [
        { source, code: "invalid-store", message: "sessions.json is not a JSON object", severity: "error" },
      ],
    };
  }
  const entries: [string, JsonObject][] = [];
  const issues: ParseIssue[] = [];
  for (const [key, value] of Object.entries(parsed.value)) {
    if (!isObject(value)) {
      issues.push({
        source,
        code: "invalid-entry",
        message: `entry ${key} is not an object; skipped`,
        severity: "error",
      });
      continue;
    }
    if (valueNestsDeeperThan(value, MAX_JSON_DEPTH)) {
      issues.push({
        source,
        code: "too-deep",
        message: `entry ${key} is ${tooDeepMessage()}; skipped`,
        severity: "error",
      });
      continue;
    }
    if (str(value, "sessionId") === undefined) {
      issues.push({
        source,
        code: "invalid-entry",
        message: `entry ${key} has no sessionId; skipped`,
        severity: "error",
      });
      continue;
    }
    entries.push([key, value]);
  }
  return { entries, issues };
}

const storeCache = new Map<string, { entries: [string, JsonObject][]; issues: ParseIssue[] }>();
const STORE_CACHE_MAX = 16;

/**
 * Read + parse a `sessions.json`, cached by path + size + mtime + inode + ctime (real stores reach several MB because
 * every entry carries its systemPromptReport, and every session load needs the store). A missing file
 * is an empty store without issue (an agent dir with transcripts only). Never throws.
 */
export function readSessionsStore(
  file: string,
  source: string,
): { entries: [string, JsonObject][]; issues: ParseIssue[] } {
  let key: string;
  try {
    const st = statSync(file);
    // inode and ctime too: OpenClaw rewrites the store by rename, and a same-size rewrite inside one mtime tick
    // still gets a new inode (rename) or ctime (in place)
    key = `${file}\u0000${st.size}\u0000${st.mtimeMs}\u0000${st.ino}\u0000${st.ctimeMs}`;
  } catch {
    return { entries: [], issues: [] };
  }
  const hit = storeCache.get(key);
  if (hit) return hit;
  let text: string;
  try {
    text = readRegularFileSync(file, "utf8");
  } catch (e) {
    return {
      entries: [],
      issues: [
        {
          source,
          code: "read-failed",
          message: `cannot read sessions.json: ${e instanceof Error ? e.message : String(e)}`,
          severity: "error",
        },
      ],
    };
  }
  const parsed = parseSessionsStoreText(text, source);
  if (storeCache.size >= STORE_CACHE_MAX) {
    const oldest = storeCache.keys().next().value;
    if (oldest !== undefined) storeCache.delete(oldest);
  }
  storeCache.set(key, parsed);
  return parsed;
}
