// The service every in-process bench row measures, and the "full report" of one session view.

import { createSessionService, type SessionService } from "../service/session-service.ts";
import { createTokenCounter, type TokenCounter } from "../tokens/tokenizer.ts";

/** Everything the dashboard computes for one session view: usage/run report, map, pruning replay, cost. */
export function fullReport(service: SessionService, agentId: string, sessionId: string): void {
  const checks: [string, object][] = [
    ["runReport", service.runReport(agentId, sessionId)],
    ["contextMap", service.contextMap(agentId, sessionId)],
    // The dashboard asks for the replay without per-call tool-result states (calls=summary, web/api/queries.ts).
    ["prune", service.prune(agentId, sessionId, { calls: ["summary"] })],
    ["cost", service.cost(agentId, sessionId)],
  ];
  for (const [name, r] of checks) {
    if ("error" in r) throw new Error(`${name} failed: ${JSON.stringify(r.error)}`);
  }
}

/**
 * One inline tokenizer for every measured service: its work is queued behind setImmediate, so it never
 * runs inside a measured (synchronous) operation and never competes for the second core; it is closed
 * (queue dropped) before the tokenizer row, which measures the real worker separately.
 */
let sharedCounter: TokenCounter | null = null;

export function newService(stateDir: string): SessionService {
  sharedCounter ??= createTokenCounter({ mode: "inline" });
  return createSessionService({ stateDir, demo: false, reason: "bench", tokenCounter: sharedCounter });
}

export async function closeSharedCounter(): Promise<void> {
  await sharedCounter?.close();
}
