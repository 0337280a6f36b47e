// One call, two URL numberings (issue 15): the map tab's turn scrubber takes `?call=N`, the call's 1-based
// number (SentCallDTO.call); the Pruning tab's `?call=i` is its 0-based row (its table, timeline and details print
// #i+1). Both count the replay's calls, so the map's call N is the Pruning tab's row N−1. The parameter is in the
// map's numbering exactly when the map tab is shown; a tab switch converts it, so the same call stays selected.
// Pure.

function nonNegativeInt(v: string | null): number | null {
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** The `call` parameter after switching from tab `from` to tab `to` (null: drop it). */
export function carryCallParam(from: string, to: string, call: string | null): string | null {
  if (call === null) return null;
  const fromMap = from === "map";
  const toMap = to === "map";
  if (fromMap === toMap) return call;
  const n = nonNegativeInt(call);
  if (n === null) return null;
  if (fromMap) return n >= 1 ? String(n - 1) : null;
  return String(n + 1);
}
