// The bootstrap advisor (issue 14 §4): the $ of each injected workspace file per full cache re-write — its injected
// chars → tokens (OpenClaw's own estimate, ceil(chars / 4), openclaw/token-estimate.ts: an ESTIMATE, the provider's
// tokenizer counts differently) → the cache-write price of each call that re-wrote the whole prompt — and over the
// analysed period. One card per agent, from the files of its most recent session with a stored run report. Pure.

import { fmtInt, fmtUsd } from "../../../shared/format.ts";
import type { AdviceDTO } from "../../../shared/overview.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import type { SessionAdviceFacts } from "./session-facts.ts";

/** Files listed on the card (the rest are summed in one line). */
const LISTED = 5;

export function bootstrapAdvice(agentId: string, sessions: readonly SessionAdviceFacts[]): AdviceDTO | null {
  const latest = [...sessions]
    .filter((s) => s.bootstrap.files.length > 0)
    .sort((a, b) => (b.lastMs ?? 0) - (a.lastMs ?? 0))[0];
  if (!latest) return null;
  const rewrites = sessions.reduce((n, s) => n + s.bootstrap.rewrites, 0);
  const unpriced = sessions.reduce((n, s) => n + s.bootstrap.unpricedRewrites, 0);
  const perToken = sessions.reduce((n, s) => n + (s.bootstrap.writeUsdPerToken ?? 0), 0);
  const priced = rewrites - unpriced;
  if (priced === 0) return null;
  const perRewrite = perToken / priced;
  const files = latest.bootstrap.files
    .map((f) => {
      const tokens = tokensFromChars(f.injectedChars);
      return { ...f, tokens, perRewriteUsd: tokens * perRewrite, periodUsd: tokens * perToken };
    })
    .sort((a, b) => b.periodUsd - a.periodUsd || a.name.localeCompare(b.name));
  const [top] = files;
  if (!top) return null;
  const rest = files.slice(LISTED);
  const totalTokens = files.reduce((n, f) => n + f.tokens, 0);
  return {
    kind: "bootstrap-file",
    agentId,
    current: `${files.length} bootstrap file(s), ~${fmtInt(totalTokens)} tokens, re-written on ${fmtInt(rewrites)} full cache write(s)`,
    recommended: `Trim or split ${top.name}: ~${fmtInt(top.tokens)} tokens, ${fmtUsd(top.perRewriteUsd)} per full re-write, ${fmtUsd(top.periodUsd)} over the period — or lower agents.defaults.bootstrapMaxChars to cap it`,
    // A cost, not a saving: what trimming the file saves depends on how much of it is cut.
    savingsUsd: null,
    evidence: [
      ...files
        .slice(0, LISTED)
        .map(
          (f) =>
            `${f.name}: ${fmtInt(f.injectedChars)} chars ≈ ${fmtInt(f.tokens)} tokens → ${fmtUsd(f.perRewriteUsd)} per re-write, ${fmtUsd(f.periodUsd)} over ${fmtInt(priced)} priced re-write(s)`,
        ),
      ...(rest.length > 0
        ? [
            `${rest.length} more file(s): ${fmtUsd(rest.reduce((n, f) => n + f.periodUsd, 0))} over the period`,
          ]
        : []),
      `full re-write = a call with cache read 0 and cache write > 0 (the whole prompt written again; the bootstrap files lead the system prompt), priced at that call's cache-write rate${unpriced > 0 ? `; ${fmtInt(unpriced)} re-write(s) without a price are left out` : ""}`,
      "ESTIMATE: tokens = ceil(chars / 4), OpenClaw's own estimate; a file's cost is what not injecting it would have saved — trimming saves its share of the cut",
      `files of the latest session with a stored run report (${sessions.length} session(s) analysed)`,
    ],
  };
}
