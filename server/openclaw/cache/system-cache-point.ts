// Where OpenClaw's requests put their cache points, as far as a read proves what was re-sent unchanged.
// Bedrock Converse (pi-ai 0.55.3 … 0.70.6, the releases OpenClaw 2026.3.2 … 2026.4.29 ship:
// providers/amazon-bedrock.js buildSystemPrompt / convertMessages; OpenClaw 2026.4.29's
// injectBedrockCachePoints adds the same two where pi-ai skipped them) marks exactly two: after the one system
// block, and on the last user message. Tools carry none, and the 2026.3 family sends one system block (2026.5+
// split it at a cache boundary). So a read there that is not zero ends at the system block's end or at an earlier
// message's cache point: either way the tools and the whole system prompt — its Inbound Context and any gateway
// system event included — were byte-identical to a cached request. (The Anthropic API is not listed: with an OAuth
// token pi-ai sends a one-line identity block with its own cache point first, so a read can stop at the tools.)

import type { RuleFamily } from "../bootstrap/files-and-limits.ts";

/** A read > 0 on this call proves its system prompt and tools were re-sent unchanged. */
export function readProvesSystemUnchanged(
  family: RuleFamily,
  api: string | null,
  provider: string | null,
): boolean {
  return (
    family === "2026.3" &&
    (api === "bedrock-converse-stream" || (api === null && provider === "amazon-bedrock"))
  );
}
