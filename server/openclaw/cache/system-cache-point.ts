// Where OpenClaw's requests put their cache points, as far as a read proves what was re-sent unchanged.
// Bedrock Converse (pi-ai 0.55.3 … 0.70.6, the releases OpenClaw 2026.3.2 … 2026.4.29 ship:
// providers/amazon-bedrock.js buildSystemPrompt / convertMessages; OpenClaw 2026.4.29's
// injectBedrockCachePoints adds the same two where pi-ai skipped them) marks exactly two: after the one system
// block, and on the last user message. Tools carry none, and the 2026.3 family sends one system block (2026.5+
// split it at a cache boundary). So a read there that is not zero ends at the system block's end or at an earlier
// message's cache point: either way the tools and the whole system prompt — its Inbound Context and any gateway
// system event included — were byte-identical to a cached request. (The Anthropic API is not listed: with an OAuth
// token pi-ai sends a one-line identity block with its own cache point first, so a read can stop at the tools.)

//
// Releases after 2026.4.29 are left out even where their family is 2026.3: from 2026.5 OpenClaw's system prompt
// has a cache boundary (openclaw/cache/inbound-context.ts), and 2026.5.28 / 2026.6.35 no longer ship the Bedrock
// provider in the npm package (their dist names `@openclaw/amazon-bedrock-provider`, which is not on the npm
// registry), so where their cache points go is not verified. A state dir that records no release (no config
// `meta.lastTouchedVersion`) is judged by its family.

import { compareRelease, type Release } from "../../../shared/release-order.ts";
import type { VersionInfo } from "../../../shared/session.ts";

/** The newest release whose Bedrock cache points were read from its code. */
const LAST_VERIFIED: Release = [2026, 4, 29];

/** Whether `appVersion` is at most LAST_VERIFIED; unknown → true (the family decides). */
function verifiedRelease(appVersion: string | null): boolean {
  if (appVersion === null) return true;
  const order = compareRelease(appVersion, LAST_VERIFIED);
  return order !== null && order <= 0;
}

/** The release that wrote a session: its rule family, and its version when the state dir records it. */
export type SessionRelease = Pick<VersionInfo, "family" | "appVersion">;

/** A read > 0 on this call proves its system prompt and tools were re-sent unchanged. */
export function readProvesSystemUnchanged(
  release: SessionRelease,
  api: string | null,
  provider: string | null,
): boolean {
  return (
    release.family === "2026.3" &&
    verifiedRelease(release.appVersion) &&
    (api === "bedrock-converse-stream" || (api === null && provider === "amazon-bedrock"))
  );
}
