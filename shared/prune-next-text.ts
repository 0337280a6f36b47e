// The Next call prediction's sentence when the cache-ttl clock decides it — one wording for the server's
// `prediction` (server/reports/prune-replay/next-call.ts, the CLI's `prune` text) and for the dashboard's
// Next call card, which re-says it every second from its local countdown (web/views/pruning/next-call.tsx).

import { fmtDuration } from "./format.ts";

/** `msLeft`: until the TTL expires (≤ 0: expired that long ago); `effect`: what a message after it would do. */
export function ttlSentence(msLeft: number, effect: string): string {
  return msLeft > 0
    ? `TTL expires in ${fmtDuration(msLeft)}; a message after that: ${effect}.`
    : `TTL expired ${fmtDuration(-msLeft)} ago; the next message: ${effect}.`;
}
