// The map's footer: tracked chars and their token estimate, the billed prompt of the last call, the context
// window and the untracked rest — the session's headline numbers (shared/context-numbers.ts), as the /context tab,
// the exports and `clawscope map --json` print them; the same line OpenClaw's map prints under its picture.

import type { ContextMapDTO } from "../../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";

/** The footer line (also printed under an exported PNG). */
export function footerText(dto: ContextMapDTO): string {
  const n = dto.numbers;
  const actual = n.billedPromptTokens === null ? "unknown" : `${fmtInt(n.billedPromptTokens)} tok`;
  const w = n.contextWindow;
  const window = w.assumed
    ? `${fmtInt(w.tokens)} tok assumed (OpenClaw's default)`
    : `${fmtInt(w.tokens)} tok${n.windowUsed === null ? "" : ` (${fmtPct(n.windowUsed)} used)`}`;
  return `${fmtInt(n.trackedChars)} chars tracked (~${fmtInt(n.trackedTokens)} tok) / actual ctx ${actual} / window ${window}`;
}

export function MapFooter({ dto }: { dto: ContextMapDTO }) {
  const n = dto.numbers;
  const after = n.afterLastCall;
  return (
    <footer className="map-footer" data-testid="map-footer">
      <span>{footerText(dto)}</span>
      <span className="muted" title={n.untrackedReason} data-testid="map-footer-untracked">
        {" "}
        · untracked{" "}
        {n.untrackedTokens === null
          ? `unknown (${n.untrackedReason})`
          : n.untrackedTokens < 0
            ? `${fmtInt(n.untrackedTokens)} tok (the estimate exceeds the bill)`
            : `${fmtInt(n.untrackedTokens)} tok`}
      </span>
      {after.messages > 0 ? (
        <span className="muted" data-testid="map-after-last-call">
          {" "}
          · not drawn: {fmtInt(after.messages)} message{after.messages === 1 ? "" : "s"} (
          {fmtInt(after.chars)} chars) written after the last call
        </span>
      ) : null}
    </footer>
  );
}
