// The map's footer: tracked chars and their token estimate (the DTO's figure), the billed prompt of the last
// call, the context window and the untracked rest — the same line OpenClaw's map prints under its picture.

import type { ContextMapDTO } from "../../../shared/context-map.ts";
import { fmtInt } from "../../ui/format.ts";

/** The footer line (also printed under an exported PNG). */
export function footerText(dto: ContextMapDTO): string {
  const actual = dto.actualTokens === null ? "unknown" : `${fmtInt(dto.actualTokens)} tok`;
  const window =
    dto.windowTokens === null || dto.windowTokens <= 0 ? "unknown" : `${fmtInt(dto.windowTokens)} tok`;
  return `${fmtInt(dto.trackedChars)} chars tracked (~${fmtInt(dto.trackedTokens)} tok) / actual ctx ${actual} / window ${window}`;
}

export function MapFooter({ dto }: { dto: ContextMapDTO }) {
  const u = dto.untracked;
  return (
    <footer className="map-footer" data-testid="map-footer">
      <span>{footerText(dto)}</span>
      <span className="muted" title={u.reason}>
        {" "}
        · untracked {u.tokens === null ? `unknown (${u.reason})` : `${fmtInt(u.tokens)} tok`}
      </span>
    </footer>
  );
}
