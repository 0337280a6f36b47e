// The cause `provider-dropped` (issue 14 §2): a miss where the evidence shows OpenClaw re-sent a prefix the
// provider had cached, so the provider did not serve it (an eviction, or another server / Region). breakdown.ts
// asks these rules only after every prefix-change signal on disk was ruled out. Three kinds of evidence:
// - mid-run: OpenClaw builds the system prompt and tool list once per run (openclaw/cache/prompt-inputs.ts) and,
//   within the run's tool loop, re-sends the history it sent before plus the new tool results; what could still
//   rewrite that prefix mid-run (a pruning round replayed with the release's rule, a compaction, a thinking or
//   model change, merged user messages) is on disk and was ruled out by the verdict;
// - a new run whose read proves the system block unchanged (Bedrock on 2026.3: `historyResent`);
// - a new run in a session whose earlier new runs mostly read their whole prefix (`servedBefore`, the base rate).

import type { CallCauseDTO } from "../../../shared/cost.ts";
import { fmtInt } from "../../../shared/format.ts";
import type { JsonObject } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import { readProvesSystemUnchanged, type SessionRelease } from "../../openclaw/cache/system-cache-point.ts";
import { noHistoryLimit } from "../../openclaw/history-limit.ts";

/**
 * A Bedrock cross-region inference profile (`us.` / `eu.` / `apac.` … model ids) routes each request to one of
 * several Regions; which one served a call is not on disk.
 */
export const CROSS_REGION_PROFILE = /^(us|eu|apac|jp|au|ca|global)\./u;

/** The cause with its gap and, for a cross-region profile, the Region note. */
export function providerDropped(n: ModelCall, m: ModelCall, lead: string, why: string): CallCauseDTO {
  const gap =
    n.atMs !== null && m.atMs !== null
      ? ` ${Math.round((n.atMs - m.atMs) / 1000)} s after the previous call`
      : "";
  const where = CROSS_REGION_PROFILE.test(n.model ?? "")
    ? `; ${n.model} is a cross-region inference profile: each request may be served in another Region, with its own cache`
    : "";
  return {
    cause: "provider-dropped",
    detail: `${lead}${gap}: ${why}, so the provider did not serve the prefix it had cached${where}`,
    entryIds: [],
  };
}

/**
 * A new run's miss where the read proves the system prompt went out unchanged (openclaw/cache/system-cache-point.ts)
 * and no history limit can have dropped a turn at the start (openclaw/history-limit.ts): every other way the
 * history changes between runs is on disk and was ruled out, so the provider did not serve the prefix.
 */
export function historyResent(
  n: ModelCall,
  m: ModelCall,
  session: { release: SessionRelease; sessionKey: string | null; config: JsonObject | null },
): CallCauseDTO | null {
  if (n.usage.cacheRead <= 0 || !readProvesSystemUnchanged(session.release, n.api, n.provider)) return null;
  if (!noHistoryLimit(session.sessionKey, session.config)) return null;
  return providerDropped(
    n,
    m,
    `first call of a new run that read ${fmtInt(n.usage.cacheRead)} tokens`,
    "on Bedrock the only cache point before the history ends the one system block, so the tools and the system prompt (its Inbound Context and any system event included) went out unchanged, and the history was re-sent as stored (no compaction, pruning round, image cut, merged messages or history limit since the previous run)",
  );
}

/** Earlier unsignalled new runs needed before the record vouches for the prompt (a handful of runs proves little). */
export const MIN_SERVED_RUNS = 5;
/** The share of them that must have read their whole prefix. */
export const SERVED_SHARE = 0.8;

/**
 * How often a session's earlier new runs were served from the cache when nothing on disk had changed their prompt.
 * OpenClaw rebuilds the system prompt at the start of every run; if an input clawscope cannot see changed it from
 * run to run, the session's new runs would miss as a rule. Where most of them read their whole prefix instead,
 * OpenClaw demonstrably re-sends the same prompt run after run in this session, and a lone miss with none of the
 * visible inputs changed is the provider's (automatic caches such as OpenAI's and DeepSeek's are best-effort and
 * routed by prefix; a Bedrock cross-region profile serves each request in another Region). Only earlier runs
 * count, so a call's cause never changes as the session grows (the live report extends the causes it decided).
 */
export class ServedRuns {
  /** New runs with no prefix-change signal that read their whole prefix (verdict `hit`). */
  private served = 0;
  /** New runs with no prefix-change signal that missed (`unknown` or `provider-dropped`). */
  private missed = 0;

  noteServed(): void {
    this.served++;
  }

  noteMissed(): void {
    this.missed++;
  }

  /** Whether the runs so far show OpenClaw re-sending this session's prompt unchanged from run to run. */
  vouches(): boolean {
    return this.served >= MIN_SERVED_RUNS && this.served >= SERVED_SHARE * (this.served + this.missed);
  }

  /** The record in words, for the cause's detail. */
  describe(): string {
    const runs = this.served + this.missed;
    if (runs === 0)
      return "no earlier new run of this session that nothing on disk had changed to compare with";
    return `${this.served} of the ${runs} earlier new runs of this session that nothing on disk had changed read their whole prefix`;
  }
}

/**
 * A new run's miss in a session whose record vouches for the prompt (ServedRuns): OpenClaw re-sends this
 * session's prompt unchanged from run to run, so the provider did not serve it.
 */
export function servedBefore(n: ModelCall, m: ModelCall, record: ServedRuns): CallCauseDTO | null {
  if (!record.vouches()) return null;
  return providerDropped(
    n,
    m,
    `first call of a new run that read ${fmtInt(n.usage.cacheRead)} tokens`,
    `${record.describe()}, so OpenClaw re-sends this session's prompt unchanged from run to run, and none of the inputs on disk changed before this one (edits of injected files, run reports, the date, the chat and sender, images cut, compaction, pruning)`,
  );
}
