// The young generation's growth on V8 ≥ 13 (Node 24, what OpenClaw's users run: `engines` ≥ 24.16). V8 13 lets
// the semi-spaces grow to far more than V8 11/12 did (Node 20/22), so the same `cost --json` of the 100 MB bench
// session peaked at ~320 MB on Node 24.22 against ~205 MB on Node 20 and ~215 MB on Node 22.23 (issue 18:
// ≤ 300 MB). `--max-semi-space-size` cannot be set once the heap exists (measured: no effect), but the growth
// factor is read each time new space grows: at 1 the semi-spaces keep their start size. Node 24.22.3, 2–3
// alternating runs: JSONL cost --json 310–321 → 214–227 MB, SQLite (real frames) 422–426 → 284–291 MB, prune,
// map and context --mode detail 60–100 MB less, wall time within noise. On Node 20 and 22 the same setting made
// nothing smaller and was up to 8 % slower, so it is left to V8 there.

import v8 from "node:v8";

/** The first V8 major whose young generation grows too far for a CLI run (see above). */
const FROM_V8_MAJOR = 13;

/** Whether V8 `v8Version` is one whose young generation is kept at its start size. */
export function capsYoungGeneration(v8Version: string): boolean {
  const major = Number.parseInt(v8Version, 10);
  return Number.isInteger(major) && major >= FROM_V8_MAJOR;
}

/** Keep this process's young generation at its start size on V8 ≥ 13; true when it did. */
export function capYoungGeneration(): boolean {
  if (!capsYoungGeneration(process.versions.v8)) return false;
  v8.setFlagsFromString("--semi-space-growth-factor=1");
  return true;
}
