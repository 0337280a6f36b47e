// The Next call card's countdown between fetches. A wall-clock prediction (GET …/prune/next) is true at the
// instant it was made; the card ticks its "TTL expires in" locally from that answer, as the session header's
// cache clock does, and asks again once when the countdown crosses zero — the instant OpenClaw's cache-ttl gate
// opens and the prediction can turn from "would not prune" to "would prune". A picked time never ticks.

import type { PruneNextDTO } from "../../../shared/prune.ts";
import { crossedZero } from "../../ui/use-now.ts";

/** msUntilTtlExpiry of a prediction, `elapsedMs` after it was fetched (null: no cache clock). */
export function ttlLeft(n: PruneNextDTO, elapsedMs: number): number | null {
  return n.msUntilTtlExpiry === null ? null : n.msUntilTtlExpiry - elapsedMs;
}

/** The prediction had time left when fetched and the local countdown has run out: the server would now say otherwise. */
export function expiredSinceFetch(n: PruneNextDTO, elapsedMs: number): boolean {
  return crossedZero(n.msUntilTtlExpiry, ttlLeft(n, elapsedMs));
}
