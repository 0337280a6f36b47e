// The bootstrap-cap what-if of a comparison's b side (issue 16): each injected workspace file's chars as the
// truncation report's what-if injects them (the same report as GET …/truncation?maxPerFile=…), or null when the
// what-if changes no cap.

import type { CompareWhatIfDTO } from "../../shared/compare.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { LoadedSession } from "../model/session.ts";
import { buildTruncationReport } from "../reports/truncation/truncation-report.ts";
import { truncationInput } from "./truncation-input.ts";

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
  const t = buildTruncationReport(truncationInput(s, stateDir, query, false, config));
  return new Map(t.files.flatMap((f) => (f.injectedChars === null ? [] : [[f.name, f.injectedChars]])));
}
