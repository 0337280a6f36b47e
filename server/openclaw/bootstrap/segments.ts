// The injected text of a bootstrap file as an ordered list of segments, so a diff view can show what was kept,
// what OpenClaw added (markers, digest) and which source ranges were dropped; with OpenClaw's UTF-16 cuts and the
// total-budget clamp — spec bootstrap.md §3. OpenClaw 2026.9.x cuts with sliceUtf16Safe/truncateUtf16Safe (never
// leaves half of a surrogate pair); 2026.7.1 slices non-AGENTS files plainly. Pure.

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Start index of `s.slice(start)` after moving past a split pair (start inside a pair → +1). */
export function safeStart(s: string, start: number): number {
  if (start > 0 && start < s.length && isLow(s.charCodeAt(start)) && isHigh(s.charCodeAt(start - 1))) {
    return start + 1;
  }
  return start;
}

/** End index of `s.slice(0, end)` after backing off a split pair (end inside a pair → −1). */
export function safeEnd(s: string, end: number): number {
  if (end > 0 && end < s.length && isHigh(s.charCodeAt(end - 1)) && isLow(s.charCodeAt(end))) {
    return end - 1;
  }
  return end;
}

export type SegmentKind =
  | "kept-head" // verbatim prefix of the trimmed file (the whole file when not truncated)
  | "kept-tail" // verbatim suffix of the trimmed file
  | "marker" // text OpenClaw adds: truncation notices, digest header, omitted-lines line
  | "digest" // AGENTS.md policy digest lines (normalised copies of source lines)
  | "separator" // the "\n" joining parts
  | "clamp-ellipsis" // the "…" the total-budget clamp appends
  | "missing-marker"; // "[MISSING] Expected at: <path>"

export interface InjectedSegment {
  kind: SegmentKind;
  text: string;
  /** For kept-head / kept-tail: the [from, to) range of the trimmed source text it copies. */
  sourceFrom?: number;
  sourceTo?: number;
}

export interface DroppedRange {
  /** [from, to) in the trimmed source text (UTF-16 code units). */
  from: number;
  to: number;
  text: string;
}

export function sliceSeg(
  trimmed: string,
  from: number,
  to: number,
  kind: "kept-head" | "kept-tail",
  safe: boolean,
): InjectedSegment {
  const f = safe ? safeStart(trimmed, from) : from;
  const t = safe ? safeEnd(trimmed, to) : to;
  return { kind, text: trimmed.slice(f, Math.max(f, t)), sourceFrom: f, sourceTo: Math.max(f, t) };
}

export function joinText(segments: readonly InjectedSegment[]): string {
  return segments.map((s) => s.text).join("");
}

/** Interleave non-empty parts with "\n" separator segments. */
export function joinWithNewlines(parts: InjectedSegment[]): InjectedSegment[] {
  const out: InjectedSegment[] = [];
  for (const p of parts) {
    if (p.text.length === 0) continue;
    if (out.length > 0) out.push({ kind: "separator", text: "\n" });
    out.push(p);
  }
  return out;
}

/**
 * Cut a segment list to its first `n` chars (like `text.slice(0, n)`; UTF-16-safe when `safe`),
 * keeping segment kinds and adjusting source ranges of kept parts.
 */
export function cutSegments(
  segments: readonly InjectedSegment[],
  n: number,
  safe: boolean,
): InjectedSegment[] {
  const full = joinText(segments);
  if (full.length <= n) return segments.map((s) => ({ ...s }));
  const end = Math.max(0, safe ? safeEnd(full, n) : n);
  const out: InjectedSegment[] = [];
  let pos = 0;
  for (const s of segments) {
    if (pos >= end) break;
    const take = Math.min(s.text.length, end - pos);
    if (take === s.text.length) out.push({ ...s });
    else {
      const cut: InjectedSegment = { kind: s.kind, text: s.text.slice(0, take) };
      if (s.sourceFrom !== undefined) {
        cut.sourceFrom = s.sourceFrom;
        cut.sourceTo = s.sourceFrom + take;
      }
      out.push(cut);
    }
    pos += take;
  }
  return out;
}

/** Source ranges of the trimmed text that appear nowhere verbatim in the injected segments. */
export function droppedRanges(trimmed: string, segments: readonly InjectedSegment[]): DroppedRange[] {
  const kept = segments
    .filter((s) => s.sourceFrom !== undefined && s.sourceTo !== undefined && s.sourceTo > s.sourceFrom)
    .map((s) => [s.sourceFrom ?? 0, s.sourceTo ?? 0] as const)
    .sort((a, b) => a[0] - b[0]);
  const out: DroppedRange[] = [];
  let pos = 0;
  for (const [from, to] of kept) {
    if (from > pos) out.push({ from: pos, to: from, text: trimmed.slice(pos, from) });
    pos = Math.max(pos, to);
  }
  if (pos < trimmed.length) out.push({ from: pos, to: trimmed.length, text: trimmed.slice(pos) });
  return out;
}

/**
 * The total-budget clamp — spec bootstrap.md §3: budget ≤ 0 → ""; fits → unchanged;
 * budget ≤ 3 → first `budget` chars; else first budget−1 chars + "…".
 */
export function clampToBudget(
  segments: readonly InjectedSegment[],
  budget: number,
  safe: boolean,
): { segments: InjectedSegment[]; clamped: boolean } {
  const len = joinText(segments).length;
  if (budget <= 0) return { segments: [], clamped: len > 0 };
  if (len <= budget) return { segments: segments.map((s) => ({ ...s })), clamped: false };
  if (budget <= 3) return { segments: cutSegments(segments, budget, safe), clamped: true };
  return {
    segments: [...cutSegments(segments, budget - 1, safe), { kind: "clamp-ellipsis", text: "…" }],
    clamped: true,
  };
}
