// `clawscope sessions` with the persistent listing cache (issue 18: warm ≤ 100 ms on 500 sessions / 1 GB), for
// `--json` and the text table alike. A hit prints the stored bytes (or the table of the rows they hold) and the
// warnings without loading the service (service/listing-cache.ts decides from stats of the state dir); a miss
// lists through the service as `--no-cache` does, prints the same output and keeps the JSON. The listing is the
// first thing this process reads, so nothing it parsed before (a transcript's real parse-error count,
// state-reader.ts `listed`) can be in it: the stored bytes are a fresh process's.

import { isSessionSummary, type SessionSummary } from "../../shared/session.ts";
import type { Runtime } from "../shell/runtime.ts";
import { jsonText } from "./json-out.ts";
import { writeStdout } from "./stdout.ts";
import { escapeControls, issueLines } from "./terminal-text.ts";

/** The table of stored listing bytes, or null when they are not a listing (then the dir is listed again). */
function storedTable(json: Buffer, render: (rows: SessionSummary[]) => string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString("utf8"));
  } catch {
    return null;
  }
  return Array.isArray(parsed) && parsed.every(isSessionSummary) ? table(render(parsed)) : null;
}

/** The text table for a terminal: stored control sequences shown escaped (terminal-text.ts), as every view does. */
function table(text: string): string {
  return `${escapeControls(text)}\n`;
}

export async function sessionsListing(
  stateDir: string,
  cacheDir: string,
  runtime: () => Promise<Runtime>,
  format: "json" | "text",
): Promise<void> {
  const { ListingCache } = await import("../service/listing-cache.ts");
  const render = format === "text" ? (await import("./text-output.ts")).formatSessionsTable : null;
  const cache = ListingCache.open(cacheDir, stateDir);
  const hit = cache?.read();
  const stored = hit ? (render ? storedTable(hit.json, render) : hit.json) : null;
  if (hit && stored !== null) {
    for (const line of issueLines(hit.issues)) process.stderr.write(`${line}\n`);
    writeStdout(stored);
    return;
  }
  const before = cache?.before() ?? null;
  const rt = await runtime();
  const { sessions, issues } = rt.service.listSessions();
  for (const line of issueLines(issues)) process.stderr.write(`${line}\n`);
  const text = jsonText(sessions);
  writeStdout(render ? table(render(sessions)) : text);
  if (cache && before) cache.write(before, issues, text);
}
