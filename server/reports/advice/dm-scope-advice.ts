// The DM-scope advisor: OpenClaw's default session.dmScope "main" puts the direct messages of every channel and
// sender into the agent's one main session, and each run's prompt carries its chat (the Inbound Context,
// openclaw/cache/inbound-context.ts), so a message from another chat re-writes the cache the previous chat's run
// left (cost cause `channel-switch`, kind `chat`). "per-channel-peer" gives each channel + sender its own session and
// cache (OpenClaw's own remediation text: `openclaw config set session.dmScope "per-channel-peer"` "to isolate DM
// sessions per sender"; "per-account-channel-peer" for multi-account channels). The trade-off: the chats no longer
// share one conversation. Pure.

import { fmtInt, fmtUsd } from "../../../shared/format.ts";
import type { AdviceDTO } from "../../../shared/overview.ts";
import type { SessionAdviceFacts } from "./session-facts.ts";

export function dmScopeAdvice(agentId: string, sessions: readonly SessionAdviceFacts[]): AdviceDTO | null {
  const calls = sessions.reduce((n, s) => n + s.switches.calls, 0);
  if (calls === 0) return null;
  const missUsd = sessions.reduce((n, s) => n + s.switches.missUsd, 0);
  const unpriced = sessions.reduce((n, s) => n + s.switches.unpriced, 0);
  const shared = sessions.filter((s) => s.switches.calls > 0).length;
  return {
    kind: "dm-scope",
    agentId,
    current: `${fmtInt(calls)} run(s) in ${fmtInt(shared)} session(s) of agent ${agentId} came from another direct chat than the run before and re-wrote the cache (session.dmScope "main", the default, shares the agent's main session across DMs)`,
    recommended: `Give each channel and sender its own session and cache: openclaw config set session.dmScope "per-channel-peer" ("per-account-channel-peer" for multi-account channels); the chats then no longer share one conversation — { session: { dmScope: "per-channel-peer" } }`,
    // An upper bound: in its own session a switched chat's run still misses when that chat was idle past the TTL.
    savingsUsd: missUsd > 0 ? missUsd : null,
    evidence: [
      `${fmtInt(calls)} switch call(s), miss cost over a read ${fmtUsd(missUsd)}${unpriced > 0 ? ` (${fmtInt(unpriced)} unpriced left out)` : ""}`,
      "AT MOST: a chat whose own previous run was longer ago than the cache lifetime would still miss in its own session",
      "switch = the first call of a run whose message names another direct chat (sender_id, Sender.id) than the previous run's; group chats (members take turns) and runs without chat metadata (sub-agent results, webchat) are not counted",
    ],
  };
}
