// `clawscope sessions --json` with the persistent listing cache (issue 18: warm ≤ 100 ms on 500 sessions / 1 GB).
// A hit prints the stored bytes and warnings without loading the service (service/listing-cache.ts decides from
// stats of the state dir); a miss lists through the service as `--no-cache` does, prints the same bytes and
// keeps them. The listing is the first thing this process reads, so nothing it parsed before (a transcript's
// real parse-error count, state-reader.ts `listed`) can be in it: the stored bytes are a fresh process's.

import type { Runtime } from "../shell/runtime.ts";
import { jsonText } from "./json-out.ts";
import { issueLines } from "./terminal-text.ts";

export async function sessionsJson(
  stateDir: string,
  cacheDir: string,
  runtime: () => Promise<Runtime>,
): Promise<void> {
  const { ListingCache } = await import("../service/listing-cache.ts");
  const cache = ListingCache.open(cacheDir, stateDir);
  const hit = cache?.read();
  if (hit) {
    for (const line of issueLines(hit.issues)) process.stderr.write(`${line}\n`);
    process.stdout.write(hit.json);
    return;
  }
  const before = cache?.before() ?? null;
  const rt = await runtime();
  const { sessions, issues } = rt.service.listSessions();
  for (const line of issueLines(issues)) process.stderr.write(`${line}\n`);
  const text = jsonText(sessions);
  process.stdout.write(text);
  if (cache && before) cache.write(before, issues, text);
}
