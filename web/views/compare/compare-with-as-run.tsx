// "Compare with as-run" (issue 16): the entry point every what-if panel carries. It puts the panel's what-if
// (its URL state, under the same keys as GET /api/compare's query: shared/compare-params.ts) into `?whatif=`,
// which opens the comparison of the session as run beside the session under that what-if.

import { isCompareWhatIfKey } from "../../../shared/compare-params.ts";
import { setParams } from "../../router.ts";

export type WhatIfValues = Partial<Record<string, string | undefined>>;

/** A panel's what-if as `?whatif=`'s value: its non-empty compare keys ("" when none is set). */
export function whatIfParam(values: WhatIfValues): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values))
    if (isCompareWhatIfKey(k) && v !== undefined && v !== "") q.append(k, v);
  return q.toString();
}

export function CompareWithAsRun({ values }: { values: WhatIfValues }) {
  const whatIf = whatIfParam(values);
  return (
    <button
      type="button"
      data-testid="compare-with-as-run"
      disabled={whatIf === ""}
      title={whatIf ? "This what-if beside the session as run" : "Set a what-if first"}
      onClick={() => setParams({ whatif: whatIf, compare: null })}
    >
      Compare with as-run
    </button>
  );
}
