// Compare (issue 16) as the service runs it: two refs as the CLI and GET /api/compare take them (b absent: a,
// under the what-if), each side loaded and reported (session-reports.ts compareSide), and the bootstrap-cap
// what-if of b as the truncation report injects it (the same report as GET …/truncation?maxPerFile=…).

import type { CompareDTO, CompareSideDTO, CompareWhatIfDTO } from "../../shared/compare.ts";
import type { JsonObject } from "../../shared/json.ts";
import { fail, ok, type Result } from "../../shared/result.ts";
import type { SessionRef } from "../../shared/session.ts";
import type { LoadedSession } from "../model/session.ts";
import { compareReport } from "../reports/compare/compare.ts";
import { buildTruncationReport } from "../reports/truncation/truncation-report.ts";
import { truncationInput, truncationSessionOf } from "./truncation-input.ts";

export interface CompareDeps {
  resolveRef(ref: string): SessionRef | null;
  load(agentId: string, sessionId: string): Result<LoadedSession>;
  config(): JsonObject | null;
  stateDir: string;
  side(
    s: LoadedSession,
    whatIf: CompareWhatIfDTO | null,
    chars: ReadonlyMap<string, number> | null,
  ): CompareSideDTO;
}

export function whatIfWorkspaceChars(
  s: LoadedSession,
  stateDir: string,
  whatIf: CompareWhatIfDTO | null,
  config: JsonObject | null,
): Map<string, number> | null {
  if (!whatIf || (whatIf.maxPerFile === null && whatIf.maxTotal === null)) return null;
  const query = {
    ...(whatIf.maxPerFile !== null ? { maxPerFile: String(whatIf.maxPerFile) } : {}),
    ...(whatIf.maxTotal !== null ? { maxTotal: String(whatIf.maxTotal) } : {}),
  };
  const t = buildTruncationReport(truncationInput(truncationSessionOf(s), stateDir, query, false, config));
  return new Map(t.files.flatMap((f) => (f.injectedChars === null ? [] : [[f.name, f.injectedChars]])));
}

/** Session a as run beside session b, as run or under `whatIf`; an unknown ref is a located 404. */
export function compareSessions(
  deps: CompareDeps,
  a: string | undefined,
  b: string | undefined,
  whatIf: CompareWhatIfDTO | null,
): Result<CompareDTO> {
  const ra = a ? deps.resolveRef(a) : null;
  if (!ra) return fail("not-found", `no session matches --a ${JSON.stringify(a ?? "")}`, 404);
  const rb = b === undefined ? ra : deps.resolveRef(b);
  if (!rb) return fail("not-found", `no session matches --b ${JSON.stringify(b)}`, 404);
  const sa = deps.load(ra.agentId, ra.sessionId);
  if (!sa.ok) return sa;
  const sb = deps.load(rb.agentId, rb.sessionId);
  if (!sb.ok) return sb;
  const chars = whatIfWorkspaceChars(sb.value, deps.stateDir, whatIf, deps.config());
  return ok(compareReport(deps.side(sa.value, null, null), deps.side(sb.value, whatIf, chars), whatIf));
}
