// The views' formatters are clawscope's one set in shared/format.ts (also used by the CLI text, the exports and
// DTO prose). This re-export is for the views that still import from here; new code imports shared/format.ts.

export { fmtBytes, fmtDate, fmtDuration, fmtInt, fmtPct, fmtRelTime, fmtUsd } from "../../shared/format.ts";
